// Whether CUDA can be used here. The CUDA driver (libcuda) is opened with
// dlopen on first use, never linked: the library builds and loads on
// machines without a GPU or driver, and says why CUDA is unavailable.
#pragma once

#include <string>

namespace lz::cuda {

// A driver was loaded, cuInit succeeded and it reports at least one device.
bool is_available();
// Why not, when !is_available() ("" otherwise): "libcuda.so.1: cannot open
// shared object file...", "cuInit: CUDA_ERROR_NO_DEVICE (no CUDA-capable
// device is detected)", ...
std::string unavailable_reason();
// The number of devices (0 when unavailable).
int device_count();
// The driver's CUDA version as major * 1000 + minor * 10 (0 when unavailable).
int driver_version();

namespace detail {
// Throws lz::DeviceError "CUDA unavailable: <reason>" naming `what` (the
// operation that needed CUDA) unless CUDA is available.
void require_available(const char* what);

struct DriverProbe {
  bool available = false;
  std::string reason;
  int devices = 0;
  int version = 0;
};
// Loads the driver from `library` and initialises it (what is_available()
// does once, with $LZ_CUDA_DRIVER or libcuda.so.1); for tests.
DriverProbe probe_driver(const std::string& library);
}  // namespace detail

}  // namespace lz::cuda
