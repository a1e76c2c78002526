// A generated CUDA kernel run on the CPU: its source, with the emulator
// header (emulator/cuda_emu.h: blocks, threads as fibers, __syncthreads,
// warp shuffles, shared memory) in front, compiled by the host compiler into
// a shared object and loaded. This is how the CUDA generator is tested
// without a GPU: the same source NVRTC compiles, run over CPU memory.
//
// Compiled objects are kept in a directory (keyed by a hash of the whole
// translation unit and the compiler command; written to a temporary file
// and renamed), so each kernel compiles once per machine.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "codegen_cuda/cuda_source.h"
#include "ir/kernel_ir.h"
#include "ir/kernel_launch.h"

namespace lz::codegen_cuda {

struct EmulatorOptions {
  std::string cache_dir;        // where compiled kernels are kept ("" = a per-process temporary directory)
  uint32_t block_threads = 64;  // a multiple of 32: two warps exercise the cross-warp reduction
  uint32_t max_grid = 8;        // few blocks, so the kernels' grid-stride loops run several rounds
  // Each kernel is also compiled by NVRTC for these architectures (when
  // NVRTC is available): a kernel the GPU compiler rejects fails here, with
  // its source and NVRTC's log, although the host compiler accepted it.
  std::vector<std::string> nvrtc_archs;
};

class EmulatedKernel {
 public:
  // Generates and compiles; throws lz::NotImplementedError if the generator
  // cannot express the kernel and lz::InternalError (with the compiler's
  // output) if the host compiler (or NVRTC) rejects the source.
  static std::unique_ptr<EmulatedKernel> compile(const ir::Kernel& k, const EmulatorOptions& options);
  // Several kernels compiled together (one host compiler run), in order.
  static std::vector<std::unique_ptr<EmulatedKernel>> compile_all(const std::vector<ir::Kernel>& kernels,
                                                                  const EmulatorOptions& options);
  ~EmulatedKernel();
  EmulatedKernel(const EmulatedKernel&) = delete;
  EmulatedKernel& operator=(const EmulatedKernel&) = delete;

  // Runs one launch; an error inside the emulated kernel (a deadlock at a
  // barrier) is an lz::InternalError naming the kernel.
  void run(const ir::KernelLaunch& launch) const;

  const CudaSource& source() const { return source_; }

 private:
  EmulatedKernel(const ir::Kernel& k, CudaSource source, const EmulatorOptions& options);
  void load(const std::string& library);

  ir::Kernel kernel_;
  EmulatorOptions options_;
  CudaSource source_;
  void* library_ = nullptr;
  using Entry = const char* (*)(unsigned grid, unsigned block, const void* args);
  Entry entry_ = nullptr;
};

// The emulator header's text (embedded at build time).
std::string_view cuda_emulator_header();

}  // namespace lz::codegen_cuda
