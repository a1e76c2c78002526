// The CUDA code generator behind the code-generator interface
// (ir/code_generator.h), registered twice: as "nvrtc" for CUDA devices
// (NVRTC-compiled, launched on the device's stream) and as the CPU
// generator "cuda-emu" (LZ_CODEGEN=cuda-emu: the same CUDA source run by
// the CUDA emulator over host memory, each kernel also checked by NVRTC).
#pragma once

namespace lz::codegen_cuda {

void register_code_generators();

}  // namespace lz::codegen_cuda
