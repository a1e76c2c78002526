// Element-wise comparisons, logical and bitwise operators: schemas, metas,
// kernels. Scalar overloads are composites over the Tensor overloads with
// the number wrapped as a 0-dim tensor (a runtime value for the Lazy key).
#include "core/empty_tensor.h"
#include "core/op_registration.h"
#include "core/ops_binary.h"
#include "eager_kernels/cpu/logical_kernels.h"
#include "eager_kernels/meta/binary_meta.h"
#include "eager_kernels/structured_variants.h"

namespace lz {

namespace {

// name.Scalar, name_.Scalar, name.Scalar_out as composites over the Tensor overloads.
#define LZ_SCALAR_COMPOSITES(name)                                                          \
  Tensor name##_scalar(const Tensor& self, const Scalar& other) {                           \
    return name(self, wrapped_scalar_tensor(other));                                        \
  }                                                                                         \
  Tensor name##_scalar_(const Tensor& self, const Scalar& other) {                          \
    Tensor s = self;                                                                        \
    return name##_(s, wrapped_scalar_tensor(other));                                        \
  }                                                                                         \
  Tensor name##_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {     \
    Tensor o = out;                                                                         \
    return name##_out(o, self, wrapped_scalar_tensor(other));                               \
  }
LZ_SCALAR_COMPOSITES(eq)
LZ_SCALAR_COMPOSITES(ne)
LZ_SCALAR_COMPOSITES(lt)
LZ_SCALAR_COMPOSITES(le)
LZ_SCALAR_COMPOSITES(gt)
LZ_SCALAR_COMPOSITES(ge)
#undef LZ_SCALAR_COMPOSITES

// The bitwise in-place Tensor forms are methods.
#define LZ_BITWISE_COMPOSITES(name)                                                         \
  Tensor name##_scalar(const Tensor& self, const Scalar& other) {                           \
    return name(self, wrapped_scalar_tensor(other));                                        \
  }                                                                                         \
  Tensor name##_scalar_(const Tensor& self, const Scalar& other) {                          \
    Tensor s = self;                                                                        \
    return s.name##_(wrapped_scalar_tensor(other));                                         \
  }                                                                                         \
  Tensor name##_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {     \
    Tensor o = out;                                                                         \
    return name##_out(o, self, wrapped_scalar_tensor(other));                               \
  }                                                                                         \
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
  lib.def(#name ".Scalar(Tensor self, Scalar other) -> Tensor").tags(pointwise).composite(&name##_scalar); \
  lib.def(#name "_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)")                           \
      .tags(pointwise_inplace)                                                                     \
      .composite(&name##_scalar_);                                                                 \
  lib.def(#name ".Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)")         \
      .tags(pointwise_out)                                                                         \
      .composite(&name##_scalar_out);
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
