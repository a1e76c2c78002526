// CUDA devices: each CUDA:n is used through its primary context and one
// stream, on which every copy and kernel for that device is queued in
// order (so memory freed by one operation can be reused by the next with
// no event). The host waits for a stream only where it must: when it reads
// device memory (a copy to the host, item(), printing) or at lz::cuda::synchronize.
#pragma once

#include <cstddef>
#include <string>

namespace lz::cuda {

struct DeviceProperties {
  std::string name;
  int major = 0, minor = 0;  // compute capability
  int multiprocessors = 0;
  int max_threads_per_block = 0;
  size_t total_memory = 0;
  // Device memory is host memory and kernels run through the CUDA emulator
  // (the test suite's emulated driver, LZ_CUDA_DRIVER).
  bool emulated = false;
  std::string arch() const { return "sm_" + std::to_string(major * 10 + minor); }
};

// Throws DeviceError "CUDA unavailable: <reason>", or naming the index and
// the device count when `index` is not a device.
const DeviceProperties& device_properties(int index);

// Waits until everything queued on device `index` has finished.
void synchronize(int index);
// Every device used so far.
void synchronize();

namespace detail {
// Checks `index` (the error names `what`), makes the device's context
// current on this thread and returns its stream (a CUstream).
void* activate(int index, const char* what);
}  // namespace detail

}  // namespace lz::cuda
