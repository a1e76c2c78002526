// Whole-tensor comparisons returning a C++ bool.
#include "core/op_registration.h"
#include "eager_kernels/cpu/compare_kernels.h"

namespace lz {

LZ_LIBRARY(compare_ops) {
  lib.def(OpId::equal).kernel(DispatchKey::CPU, &cpu::equal);
  lib.def(OpId::allclose).kernel(DispatchKey::CPU, &cpu::allclose);
}

}  // namespace lz
