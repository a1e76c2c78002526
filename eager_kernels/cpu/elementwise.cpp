#include "eager_kernels/cpu/elementwise.h"

#include "core/empty_tensor.h"
#include "eager_kernels/cpu/copy_kernels.h"

namespace lz::cpu {

Tensor cast_to(const Tensor& t, ScalarType dtype) {
  if (t.dtype() == dtype) return t;
  // Already on the CPU backend: convert with the CPU copy kernel directly
  // (x + 2.5 converts its wrapped scalar on every call).
  Tensor converted = empty_tensor(t.sizes(), dtype, t.device());
  return copy_(converted, t, /*non_blocking=*/false);
}

}  // namespace lz::cpu
