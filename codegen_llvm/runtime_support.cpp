#include "codegen_llvm/runtime_support.h"

namespace lz::codegen_llvm {

extern "C" void lz_jit_axis_offsets(const KernelArgs* args, int64_t linear, int64_t first, int64_t last,
                                    int64_t num_access, const int64_t* base, int64_t* out) {
  const int64_t rank = args->num_outer + args->num_inner;
  for (int64_t a = 0; a < num_access; ++a) out[a] = base == nullptr ? 0 : base[a];
  for (int64_t d = last - 1; d >= first; --d) {
    const int64_t extent = args->sizes[d];
    const int64_t q = linear / extent;
    const int64_t coord = linear - q * extent;
    linear = q;
    if (coord == 0) continue;
    for (int64_t a = 0; a < num_access; ++a) out[a] += coord * args->strides[a * rank + d];
  }
}

}  // namespace lz::codegen_llvm
