#include "core/cuda.h"

#include <dlfcn.h>

#include <cstdlib>

#include "core/error.h"

namespace lz::cuda {

namespace detail {

namespace {

// CUresult is an int enum (0: CUDA_SUCCESS); declared here so building
// needs no CUDA header.
using InitFn = int (*)(unsigned);
using CountFn = int (*)(int*);
using VersionFn = int (*)(int*);
using ErrorFn = int (*)(int, const char**);

// Names of the errors initialisation can return, for drivers that cannot
// name them themselves (the toolkit's stub library fails every call).
const char* known_error_name(int code) {
  switch (code) {
    case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
    case 3: return "CUDA_ERROR_NOT_INITIALIZED";
    case 34: return "CUDA_ERROR_STUB_LIBRARY (the CUDA toolkit's stub libcuda, not a driver)";
    case 35: return "CUDA_ERROR_INSUFFICIENT_DRIVER";
    case 46: return "CUDA_ERROR_DEVICES_UNAVAILABLE";
    case 100: return "CUDA_ERROR_NO_DEVICE";
    case 101: return "CUDA_ERROR_INVALID_DEVICE";
    case 804: return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
    default: return nullptr;
  }
}

std::string error_text(void* lib, int code) {
  const char* known = known_error_name(code);
  std::string text = known != nullptr ? known : "error " + std::to_string(code);
  const char* name = nullptr;
  const char* description = nullptr;
  if (auto name_fn = reinterpret_cast<ErrorFn>(dlsym(lib, "cuGetErrorName")); name_fn && name_fn(code, &name) == 0 && name) {
    text = name;
  }
  if (auto str_fn = reinterpret_cast<ErrorFn>(dlsym(lib, "cuGetErrorString")); str_fn && str_fn(code, &description) == 0 &&
      description) {
    text += std::string(" (") + description + ")";
  }
  return text;
}

}  // namespace

DriverProbe probe_driver(const std::string& library) {
  DriverProbe p;
  void* lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    p.reason = dlerror();
    return p;
  }
  const auto init = reinterpret_cast<InitFn>(dlsym(lib, "cuInit"));
  const auto count = reinterpret_cast<CountFn>(dlsym(lib, "cuDeviceGetCount"));
  const auto version = reinterpret_cast<VersionFn>(dlsym(lib, "cuDriverGetVersion"));
  if (init == nullptr || count == nullptr || version == nullptr) {
    p.reason = library + ": not a CUDA driver (cuInit, cuDeviceGetCount or cuDriverGetVersion missing)";
    dlclose(lib);
    return p;
  }
  // A driver that fails to initialise (no device, the toolkit's stub
  // library, a driver older than the kernel module) stays loaded: its
  // error strings are needed, and dlclose of a driver is not worth the risk.
  if (const int rc = init(0); rc != 0) {
    p.reason = "cuInit: " + error_text(lib, rc);
    return p;
  }
  version(&p.version);
  if (const int rc = count(&p.devices); rc != 0) {
    p.reason = "cuDeviceGetCount: " + error_text(lib, rc);
    p.devices = 0;
    return p;
  }
  if (p.devices == 0) {
    p.reason = "the CUDA driver reports no device";
    return p;
  }
  p.available = true;
  return p;
}

namespace {

const DriverProbe& driver() {
  static const DriverProbe probe = [] {
    const char* env = std::getenv("LZ_CUDA_DRIVER");
    return probe_driver(env != nullptr && *env != '\0' ? env : "libcuda.so.1");
  }();
  return probe;
}

}  // namespace

void require_available(const char* what) {
  LZ_CHECK(driver().available, DeviceError, "[", what, "] CUDA unavailable: ", driver().reason);
}

}  // namespace detail

bool is_available() { return detail::driver().available; }
std::string unavailable_reason() { return detail::driver().available ? std::string() : detail::driver().reason; }
int device_count() { return detail::driver().available ? detail::driver().devices : 0; }
std::string why_no_cuda_tensors() {
  return is_available() ? "Lazuli has no CUDA device runtime yet" : unavailable_reason();
}
int driver_version() { return detail::driver().version; }

}  // namespace lz::cuda
