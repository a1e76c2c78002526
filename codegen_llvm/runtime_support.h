// Functions compiled kernels call instead of carrying their code inline:
// work done once per segment (not per element), where a call costs nothing
// measurable and inlining would multiply every kernel's size (and compile
// time) by the loop copies LLVM makes of it. The JIT engine binds these
// names to their addresses.
#pragma once

#include <cstdint>

#include "codegen_llvm/kernel_abi.h"

namespace lz::codegen_llvm {

// out[a] = base[a] + sum over axes d in [first, last) of coordinate_d(linear)
// * stride(a, d), for the accesses a < num_access; `linear` enumerates those
// axes row-major; `base` may be null (zeros).
extern "C" void lz_jit_axis_offsets(const KernelArgs* args, int64_t linear, int64_t first, int64_t last,
                                    int64_t num_access, const int64_t* base, int64_t* out);

inline constexpr const char* kAxisOffsetsSymbol = "lz_jit_axis_offsets";

}  // namespace lz::codegen_llvm
