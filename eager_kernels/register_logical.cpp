// Element-wise comparisons, logical and bitwise operators
// (core/operators.def): metas and kernels. Tensor-Scalar overloads are made from the Tensor ones
// (scalar_overload.h); Scalar-Tensor ones are composites.
#include "core/empty_tensor.h"
#include "core/op_registration.h"
#include "core/ops_binary.h"
#include "eager_kernels/cpu/logical_kernels.h"
#include "eager_kernels/meta/binary_meta.h"
#include "eager_kernels/scalar_overload.h"

namespace lz {

namespace {

// Scalar-Tensor overloads: the number wrapped as a 0-dim tensor.
#define LZ_BITWISE_COMPOSITES(name)                                                         \
  Tensor name##_scalar_tensor(const Scalar& self, const Tensor& other) {                    \
    return name(wrapped_scalar_tensor(self), other);                                        \
  }
LZ_BITWISE_COMPOSITES(bitwise_and)
LZ_BITWISE_COMPOSITES(bitwise_or)
LZ_BITWISE_COMPOSITES(bitwise_xor)
#undef LZ_BITWISE_COMPOSITES

}  // namespace

LZ_LIBRARY(logical_ops) {
  // name.Tensor (structured, with its declared variants) and name.Scalar.
#define LZ_DEF_TENSOR_SCALAR(name)                                                                      \
  lib.def_structured<&meta::name>(OpId::name##_Tensor).impl<&cpu::name##_impl>(DispatchKey::CPU);      \
  def_scalar_overload<&meta::name, &cpu::name##_impl>(lib, OpId::name##_Scalar)
  LZ_DEF_TENSOR_SCALAR(eq);
  LZ_DEF_TENSOR_SCALAR(ne);
  LZ_DEF_TENSOR_SCALAR(lt);
  LZ_DEF_TENSOR_SCALAR(le);
  LZ_DEF_TENSOR_SCALAR(gt);
  LZ_DEF_TENSOR_SCALAR(ge);
  LZ_DEF_TENSOR_SCALAR(bitwise_and);
  LZ_DEF_TENSOR_SCALAR(bitwise_or);
  LZ_DEF_TENSOR_SCALAR(bitwise_xor);
#undef LZ_DEF_TENSOR_SCALAR

  lib.def(OpId::bitwise_and_Scalar_Tensor).composite(&bitwise_and_scalar_tensor);
  lib.def(OpId::bitwise_or_Scalar_Tensor).composite(&bitwise_or_scalar_tensor);
  lib.def(OpId::bitwise_xor_Scalar_Tensor).composite(&bitwise_xor_scalar_tensor);

  lib.def_structured<&meta::logical_and>(OpId::logical_and).impl<&cpu::logical_and_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::logical_or>(OpId::logical_or).impl<&cpu::logical_or_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::logical_xor>(OpId::logical_xor).impl<&cpu::logical_xor_impl>(DispatchKey::CPU);
}

}  // namespace lz
