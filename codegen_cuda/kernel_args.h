// The argument block of a generated CUDA kernel, shared by the generator
// (cuda_source.cpp declares it as a struct) and the launchers (the device and
// the emulator pass it by value). Every field is 8 bytes, in this order:
//   size[rank_slots]                        domain extents
//   stride[num_accesses * rank_slots]       per access, per axis, in elements
//   data[num_accesses]                      address of domain index (0, ..., 0)
//   fparam[param_slots], iparam[param_slots], pfloat[param_slots]
//                                           runtime scalars: the value as a
//                                           double or an int64, and which
// Arrays are never empty (a size of 0 would not compile), hence the slots.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/kernel_ir.h"
#include "ir/kernel_launch.h"

namespace lz::codegen_cuda {

struct ArgsLayout {
  uint32_t rank_slots = 1;
  uint32_t num_accesses = 1;
  uint32_t param_slots = 1;
  size_t words() const { return rank_slots + static_cast<size_t>(num_accesses) * (rank_slots + 1) + 3 * param_slots; }
};

ArgsLayout args_layout(const ir::Kernel& k);

// The argument block for one launch of `k`, as 64-bit words.
std::vector<uint64_t> pack_kernel_args(const ir::Kernel& k, const ir::KernelLaunch& launch);

// Grid and block of a launch: pointwise kernels one thread per point (grid
// capped, the kernel strides), row kernels one block per outer point.
struct LaunchShape {
  uint32_t grid = 0;   // 0: nothing to run
  uint32_t block = 0;
};
LaunchShape launch_shape(const ir::Kernel& k, const ir::KernelLaunch& launch, bool row_kernel,
                         uint32_t block_threads, uint32_t max_grid);

}  // namespace lz::codegen_cuda
