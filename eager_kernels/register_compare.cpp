// Whole-tensor comparisons returning a C++ bool.
#include "core/op_registration.h"
#include "eager_kernels/cpu/compare_kernels.h"

namespace lz {

LZ_LIBRARY(compare_ops) {
  lib.def("equal(Tensor self, Tensor other) -> bool")
      .tags(Tag::NonTensorResult)
      .kernel(DispatchKey::CPU, &cpu::equal);
  lib.def("allclose(Tensor self, Tensor other, float rtol=1e-05, float atol=1e-08, bool equal_nan=False) -> bool")
      .tags(Tag::NonTensorResult)
      .kernel(DispatchKey::CPU, &cpu::allclose);
}

}  // namespace lz
