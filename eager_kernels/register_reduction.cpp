// Reduction operators.
#include "core/op_registration.h"
#include "core/ops_reduction.h"
#include "eager_kernels/cpu/reduction_kernels.h"
#include "eager_kernels/meta/reduction_meta.h"

namespace lz {

namespace {

Tensor sum_all(const Tensor& self, std::optional<ScalarType> dtype) {
  return sum(self, IntArrayRef{}, false, dtype);
}

}  // namespace

LZ_LIBRARY(reduction_ops) {
  lib.def_structured<&meta::sum_dim>(
         "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         Variants::Out)
      .tags(Tag::Reduction)
      .impl<&cpu::sum_impl>(DispatchKey::CPU);
  lib.def("sum(Tensor self, *, ScalarType? dtype=None) -> Tensor")
      .tags(Tag::Reduction)
      .composite(&sum_all);
}

}  // namespace lz
