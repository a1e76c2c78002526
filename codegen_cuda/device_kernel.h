// A generated kernel on a CUDA device: its source compiled by NVRTC for the
// device's architecture (PTX when NVRTC predates the device), cached in memory and on disk (keyed by
// the source, the NVRTC version and the architecture), loaded as a module
// into the device's context and launched on the device's stream with the
// argument block of kernel_args.h. On an emulated device (device memory is
// host memory: the test suite's driver) the same source runs through the
// CUDA emulator instead, on the same pointers.
#pragma once

#include <memory>
#include <string>

#include "codegen_cuda/cuda_source.h"
#include "core/object_file_cache.h"
#include "ir/kernel_ir.h"
#include "ir/kernel_launch.h"

namespace lz::codegen_cuda {

class EmulatedKernel;

struct DeviceKernelOptions {
  // On-disk cache of cubins (and of emulated kernels' objects, in
  // "<dir>-emu"); "" = memory only. Default: beside the LLVM kernel cache.
  std::string cache_dir = ObjectFileCache::default_dir() + "-cuda";
  uint32_t block_threads = 256;
  uint32_t max_grid = 65535;
  // The architecture to compile for ("" = the device's, e.g. "sm_90", or
  // PTX for the newest NVRTC knows when the device is newer: nvrtc_target).
  std::string arch;
};

struct DeviceKernelStats {
  int64_t compiles = 0;        // NVRTC (or emulator) compilations
  int64_t memory_hits = 0;     // found compiled in this process
  int64_t disk_hits = 0;       // cubins read from the disk cache
  int64_t launches = 0;
};

class DeviceKernel {
 public:
  // The kernel compiled for CUDA device `device`, compiled on first use.
  // Throws NotImplementedError when the generator cannot express `k`,
  // InternalError (with the source and NVRTC's log) when NVRTC rejects it,
  // DeviceError when the driver cannot load it.
  static std::shared_ptr<const DeviceKernel> get(const ir::Kernel& k, int device, const DeviceKernelOptions& options);
  ~DeviceKernel();
  DeviceKernel(const DeviceKernel&) = delete;
  DeviceKernel& operator=(const DeviceKernel&) = delete;

  // Queues one launch on the device's stream (the accesses' data are device
  // addresses); returns without waiting for it.
  void launch(const ir::KernelLaunch& launch) const;

  const CudaSource& source() const { return source_; }
  int device() const { return device_; }

 private:
  DeviceKernel(const ir::Kernel& k, CudaSource source, int device, const DeviceKernelOptions& options);

  ir::Kernel kernel_;
  CudaSource source_;
  int device_ = 0;
  DeviceKernelOptions options_;
  void* module_ = nullptr;    // CUmodule
  void* function_ = nullptr;  // CUfunction
  std::unique_ptr<EmulatedKernel> emulated_;
};

DeviceKernelStats device_kernel_stats();

// The device code of `source` for `arch`: a cubin (an ELF image) for a
// real architecture ("sm_90"), NUL-terminated PTX for a virtual one
// ("compute_90"); either is what cuModuleLoadData takes. Read from the disk
// cache in `cache_dir` (keyed by the source, the NVRTC version and the
// architecture; "" = no disk cache), else compiled by NVRTC and stored. A
// corrupt entry reads as a miss and is rebuilt. Throws DeviceError when
// NVRTC is unavailable, InternalError (source and log) when it rejects the
// source; `kernel` names the kernel in those messages.
std::string cached_device_code(const CudaSource& source, const std::string& arch, const std::string& cache_dir,
                               const std::string& kernel);

}  // namespace lz::codegen_cuda
