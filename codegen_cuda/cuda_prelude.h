// The device helpers at the top of every generated CUDA kernel: the kernel
// IR's scalar semantics (integer wrap, division by zero, NaN-propagating
// max, float -> int as on the CPU, 16-bit float conversions) and the
// block reduction of row kernels.
#pragma once

#include <string_view>

namespace lz::codegen_cuda {

std::string_view cuda_prelude();

}  // namespace lz::codegen_cuda
