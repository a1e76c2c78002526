// Element-wise comparisons, logical and bitwise operators: schemas, metas,
// kernels. Tensor-Scalar overloads are made from the Tensor ones
// (scalar_overload.h); Scalar-Tensor ones are composites.
#include "core/empty_tensor.h"
#include "core/op_registration.h"
#include "core/ops_binary.h"
#include "eager_kernels/cpu/logical_kernels.h"
#include "eager_kernels/meta/binary_meta.h"
#include "eager_kernels/scalar_overload.h"
#include "eager_kernels/structured_variants.h"

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
  const TagSet pointwise(Tag::Pointwise);
  const TagSet pointwise_inplace{Tag::Pointwise, Tag::Inplace};
  const TagSet pointwise_out{Tag::Pointwise, Tag::Out};

  // name.Tensor (structured, with name_.Tensor and name.Tensor_out) and the Scalar overloads.
#define LZ_DEF_TENSOR_SCALAR(name)                                                                 \
  def_structured_named<&meta::name, &cpu::name##_impl>(                                           \
      lib, pointwise, #name ".Tensor(Tensor self, Tensor other) -> Tensor",                        \
      #name "_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",                               \
      #name ".Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");            \
  def_scalar_overload<&meta::name, &cpu::name##_impl>(                                            \
      lib, pointwise, #name ".Scalar(Tensor self, Scalar other) -> Tensor",                        \
      #name "_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",                               \
      #name ".Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)");
  LZ_DEF_TENSOR_SCALAR(eq)
  LZ_DEF_TENSOR_SCALAR(ne)
  LZ_DEF_TENSOR_SCALAR(lt)
  LZ_DEF_TENSOR_SCALAR(le)
  LZ_DEF_TENSOR_SCALAR(gt)
  LZ_DEF_TENSOR_SCALAR(ge)
  LZ_DEF_TENSOR_SCALAR(bitwise_and)
  LZ_DEF_TENSOR_SCALAR(bitwise_or)
  LZ_DEF_TENSOR_SCALAR(bitwise_xor)
#undef LZ_DEF_TENSOR_SCALAR

  lib.def("bitwise_and.Scalar_Tensor(Scalar self, Tensor other) -> Tensor")
      .tags(pointwise)
      .composite(&bitwise_and_scalar_tensor);
  lib.def("bitwise_or.Scalar_Tensor(Scalar self, Tensor other) -> Tensor")
      .tags(pointwise)
      .composite(&bitwise_or_scalar_tensor);
  lib.def("bitwise_xor.Scalar_Tensor(Scalar self, Tensor other) -> Tensor")
      .tags(pointwise)
      .composite(&bitwise_xor_scalar_tensor);

  lib.def_structured<&meta::logical_and>("logical_and(Tensor self, Tensor other) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::logical_and_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::logical_or>("logical_or(Tensor self, Tensor other) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::logical_or_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::logical_xor>("logical_xor(Tensor self, Tensor other) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::logical_xor_impl>(DispatchKey::CPU);
}

}  // namespace lz
