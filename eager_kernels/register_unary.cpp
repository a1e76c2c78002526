// Unary element-wise operators: schemas, metas, kernels.
#include "core/op_registration.h"
#include "eager_kernels/cpu/unary_kernels.h"
#include "eager_kernels/meta/unary_meta.h"

namespace lz {

LZ_LIBRARY(unary_ops) {
  const TagSet pointwise(Tag::Pointwise);

  lib.def_structured<&meta::neg>("neg(Tensor self) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::neg_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::exp>("exp(Tensor self) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::exp_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::relu>("relu(Tensor self) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::relu_impl>(DispatchKey::CPU);
}

}  // namespace lz
