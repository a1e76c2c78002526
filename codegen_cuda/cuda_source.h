// Kernel IR -> CUDA C++: one self-contained translation unit per kernel (the
// prelude, the argument struct, one extern "C" __global__ function), the
// same text for NVRTC and for the host compiler under the emulator.
//
// Pointwise kernels are grid-stride loops over the flattened domain; when
// every access is dense (row-major) or a single element, which the kernel
// checks once, a point's offsets are its flat index, with no division per
// axis (the general path decomposes the index). Kernels
// with reductions give each outer point (row) to one block: its threads
// stride over the inner points of every stage, reductions combine through a
// shuffle-and-shared-memory block reduction (deterministic for a given block
// size), and the row's reduced values stay in registers for the next stage.
// Sizes and strides are arguments (kernels are shape-generic), packed by
// pack_kernel_args (kernel_args.h).
#pragma once

#include <span>
#include <string>

#include "ir/kernel_ir.h"

namespace lz::codegen_cuda {

struct CudaSource {
  std::string entry;   // the __global__ function's (unmangled) name
  std::string code;    // the whole translation unit
  bool row_kernel = false;  // one block per outer point (blockDim.x a multiple of 32)
};

// Throws lz::NotImplementedError naming the kernel and the construct when
// the kernel uses something the generator cannot express.
CudaSource generate_cuda_source(const ir::Kernel& k);

// Several kernels in one translation unit (one prelude; a kernel that
// appears twice, once): compiling a batch costs little more than one kernel.
std::string combined_source(std::span<const CudaSource> sources);

}  // namespace lz::codegen_cuda
