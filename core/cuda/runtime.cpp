#include "core/cuda/runtime.h"

#include <dlfcn.h>

#include <cstdlib>
#include <type_traits>

#include "core/cuda/driver.h"
#include "core/error.h"

namespace lz::cuda {

namespace detail {

namespace {

// Names of the errors initialisation can return, for drivers that cannot
// name them themselves (the toolkit's stub library fails every call).
const char* known_error_name(int code) {
  switch (code) {
    case 1: return "CUDA_ERROR_INVALID_VALUE";
    case 2: return "CUDA_ERROR_OUT_OF_MEMORY";
    case 3: return "CUDA_ERROR_NOT_INITIALIZED";
    case 34: return "CUDA_ERROR_STUB_LIBRARY (the CUDA toolkit's stub libcuda, not a driver)";
    case 35: return "CUDA_ERROR_INSUFFICIENT_DRIVER";
    case 46: return "CUDA_ERROR_DEVICES_UNAVAILABLE";
    case 100: return "CUDA_ERROR_NO_DEVICE";
    case 101: return "CUDA_ERROR_INVALID_DEVICE";
    case 200: return "CUDA_ERROR_INVALID_IMAGE";
    case 209: return "CUDA_ERROR_NO_BINARY_FOR_GPU";
    case 700: return "CUDA_ERROR_ILLEGAL_ADDRESS";
    case 701: return "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES";
    case 804: return "CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE";
    default: return nullptr;
  }
}

std::string describe_error(const DriverApi& api, CUresult code) {
  const char* known = known_error_name(code);
  std::string text = known != nullptr ? known : "error " + std::to_string(code);
  const char* name = nullptr;
  const char* description = nullptr;
  if (api.cuGetErrorName && api.cuGetErrorName(code, &name) == 0 && name) text = name;
  if (api.cuGetErrorString && api.cuGetErrorString(code, &description) == 0 && description) {
    text += std::string(" (") + description + ")";
  }
  return text;
}

struct LoadedDriver {
  DriverProbe probe;
  DriverApi api;
};

// Resolves every entry point; the name of the first one missing, or null.
const char* resolve(void* lib, DriverApi& api) {
  const char* missing = nullptr;
  const auto bind = [&](auto& fn, const char* name, bool required = true) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(lib, name));
    if (fn == nullptr && required && missing == nullptr) missing = name;
  };
  bind(api.cuInit, "cuInit");
  bind(api.cuDriverGetVersion, "cuDriverGetVersion");
  bind(api.cuDeviceGetCount, "cuDeviceGetCount");
  bind(api.cuGetErrorName, "cuGetErrorName", false);
  bind(api.cuGetErrorString, "cuGetErrorString", false);
  bind(api.cuDeviceGet, "cuDeviceGet");
  bind(api.cuDeviceGetName, "cuDeviceGetName");
  bind(api.cuDeviceGetAttribute, "cuDeviceGetAttribute");
  bind(api.cuDeviceTotalMem_v2, "cuDeviceTotalMem_v2");
  bind(api.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  bind(api.cuCtxSetCurrent, "cuCtxSetCurrent");
  bind(api.cuStreamCreate, "cuStreamCreate");
  bind(api.cuStreamSynchronize, "cuStreamSynchronize");
  bind(api.cuMemAlloc_v2, "cuMemAlloc_v2");
  bind(api.cuMemFree_v2, "cuMemFree_v2");
  bind(api.cuMemAllocHost_v2, "cuMemAllocHost_v2");
  bind(api.cuMemFreeHost, "cuMemFreeHost");
  bind(api.cuMemcpyHtoDAsync_v2, "cuMemcpyHtoDAsync_v2");
  bind(api.cuMemcpyDtoHAsync_v2, "cuMemcpyDtoHAsync_v2");
  bind(api.cuMemcpyDtoDAsync_v2, "cuMemcpyDtoDAsync_v2");
  bind(api.cuMemsetD8Async, "cuMemsetD8Async");
  bind(api.cuMemsetD16Async, "cuMemsetD16Async");
  bind(api.cuMemsetD32Async, "cuMemsetD32Async");
  bind(api.cuMemsetD2D32Async, "cuMemsetD2D32Async");
  bind(api.cuModuleLoadData, "cuModuleLoadData");
  bind(api.cuModuleUnload, "cuModuleUnload");
  bind(api.cuModuleGetFunction, "cuModuleGetFunction");
  bind(api.cuLaunchKernel, "cuLaunchKernel");
  bind(api.lzDeviceMemoryIsHost, "lzDeviceMemoryIsHost", false);
  return missing;
}

LoadedDriver load_driver(const std::string& library) {
  LoadedDriver d;
  DriverProbe& p = d.probe;
  void* lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (lib == nullptr) {
    p.reason = dlerror();
    return d;
  }
  if (const char* missing = resolve(lib, d.api)) {
    p.reason = library + ": not a CUDA driver (" + missing + " missing)";
    dlclose(lib);
    return d;
  }
  // A driver that fails to initialise (no device, the toolkit's stub
  // library, a driver older than the kernel module) stays loaded: its
  // error strings are needed, and dlclose of a driver is not worth the risk.
  if (const int rc = d.api.cuInit(0); rc != 0) {
    p.reason = "cuInit: " + describe_error(d.api, rc);
    return d;
  }
  d.api.cuDriverGetVersion(&p.version);
  if (const int rc = d.api.cuDeviceGetCount(&p.devices); rc != 0) {
    p.reason = "cuDeviceGetCount: " + describe_error(d.api, rc);
    p.devices = 0;
    return d;
  }
  if (p.devices == 0) {
    p.reason = "the CUDA driver reports no device";
    return d;
  }
  p.available = true;
  return d;
}

const LoadedDriver& driver() {
  static const LoadedDriver loaded = [] {
    const char* env = std::getenv("LZ_CUDA_DRIVER");
    return load_driver(env != nullptr && *env != '\0' ? env : "libcuda.so.1");
  }();
  return loaded;
}

}  // namespace

DriverProbe probe_driver(const std::string& library) { return load_driver(library).probe; }

void require_available(const char* what) {
  LZ_CHECK(driver().probe.available, DeviceError, "[", what, "] CUDA unavailable: ", driver().probe.reason);
}

const DriverApi& driver_api(const char* what) {
  require_available(what);
  return driver().api;
}

std::string error_text(CUresult rc) { return describe_error(driver().api, rc); }

void check(CUresult rc, const char* call, const char* what) {
  if (rc == 0) return;
  if (rc == kErrorOutOfMemory) LZ_FAIL(OutOfMemoryError, "[", what, "] ", call, " failed: ", error_text(rc));
  LZ_FAIL(DeviceError, "[", what, "] ", call, " failed: ", error_text(rc));
}

}  // namespace detail

bool is_available() { return detail::driver().probe.available; }
std::string unavailable_reason() { return is_available() ? std::string() : detail::driver().probe.reason; }
int device_count() { return is_available() ? detail::driver().probe.devices : 0; }
int driver_version() { return detail::driver().probe.version; }

}  // namespace lz::cuda
