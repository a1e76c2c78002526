// Unary element-wise operators: schemas (PyTorch's), metas, kernels. Each
// is structured: functional, in-place (name_) and out= (name.out) variants
// are generated from meta + impl, except isnan/isinf, which have no in-place
// form in PyTorch.
#include "core/op_registration.h"
#include "eager_kernels/cpu/unary_kernels.h"
#include "eager_kernels/meta/unary_meta.h"

namespace lz {

LZ_LIBRARY(unary_ops) {
  const TagSet pointwise(Tag::Pointwise);

  const TagSet step{Tag::Pointwise, Tag::StepFunction};

#define LZ_DEF_UNARY_TAGGED(name, tags_)                                       \
  lib.def_structured<&meta::name>(#name "(Tensor self) -> Tensor")             \
      .tags(tags_)                                                             \
      .impl<&cpu::name##_impl>(DispatchKey::CPU)
#define LZ_DEF_UNARY(name) LZ_DEF_UNARY_TAGGED(name, pointwise)

  LZ_DEF_UNARY(neg);
  LZ_DEF_UNARY(abs);
  LZ_DEF_UNARY_TAGGED(sign, step);
  LZ_DEF_UNARY(square);
  LZ_DEF_UNARY(reciprocal);
  LZ_DEF_UNARY(exp);
  LZ_DEF_UNARY(exp2);
  LZ_DEF_UNARY(expm1);
  LZ_DEF_UNARY(log);
  LZ_DEF_UNARY(log2);
  LZ_DEF_UNARY(log1p);
  LZ_DEF_UNARY(sqrt);
  LZ_DEF_UNARY(rsqrt);
  LZ_DEF_UNARY(sin);
  LZ_DEF_UNARY(cos);
  LZ_DEF_UNARY(tan);
  LZ_DEF_UNARY(tanh);
  LZ_DEF_UNARY(sigmoid);
  LZ_DEF_UNARY(relu);
  LZ_DEF_UNARY(silu);
  LZ_DEF_UNARY(erf);
  LZ_DEF_UNARY_TAGGED(floor, step);
  LZ_DEF_UNARY_TAGGED(ceil, step);
  LZ_DEF_UNARY_TAGGED(round, step);
  LZ_DEF_UNARY_TAGGED(trunc, step);
  LZ_DEF_UNARY(logical_not);
  LZ_DEF_UNARY(bitwise_not);
#undef LZ_DEF_UNARY
#undef LZ_DEF_UNARY_TAGGED

  lib.def_structured<&meta::gelu>("gelu(Tensor self, *, str approximate='none') -> Tensor")
      .tags(pointwise)
      .impl<&cpu::gelu_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::isnan>("isnan(Tensor self) -> Tensor", Variants::Out)
      .tags(pointwise)
      .impl<&cpu::isnan_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::isinf>("isinf(Tensor self) -> Tensor", Variants::Out)
      .tags(pointwise)
      .impl<&cpu::isinf_impl>(DispatchKey::CPU);
}

}  // namespace lz
