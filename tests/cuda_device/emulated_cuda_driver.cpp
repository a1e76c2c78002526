// A CUDA driver for testing Lazuli's device runtime without a GPU: the
// driver API entry points Lazuli uses, over host memory. It exports
// lzDeviceMemoryIsHost, so Lazuli runs kernels on its "device" pointers
// through the CUDA emulator instead of loading cubins (which this driver
// refuses). Streams run synchronously.
//
// Settings: LZ_EMULATED_CUDA_DEVICES (default 2), LZ_EMULATED_CUDA_MEMORY_MB
// per device (default 4096; allocations beyond it fail with
// CUDA_ERROR_OUT_OF_MEMORY). lzEmulatedCallCount(name) counts calls, for
// tests of what the runtime asked of the driver.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>

namespace {

constexpr int kSuccess = 0;
constexpr int kInvalidValue = 1;
constexpr int kOutOfMemory = 2;
constexpr int kNotInitialized = 3;
constexpr int kInvalidDevice = 101;
constexpr int kInvalidContext = 201;
constexpr int kNotSupported = 801;

struct Driver {
  std::mutex mutex;
  bool initialised = false;
  int devices = 2;
  size_t memory_per_device = size_t{4096} << 20;
  std::map<uintptr_t, std::pair<size_t, int>> allocations;  // address -> (bytes, device)
  std::map<int, size_t> in_use;                             // per device
  std::map<uintptr_t, size_t> pinned;
  std::map<std::string, long> calls;
  int current_device = -1;  // the device of the current context (one thread's view suffices here)
};

Driver& driver() {
  static Driver d;
  return d;
}

int env_int(const char* name, int fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? std::atoi(v) : fallback;
}

// Counts the call; fails calls made before cuInit.
int enter(const char* name, bool needs_init = true) {
  Driver& d = driver();
  ++d.calls[name];
  return needs_init && !d.initialised ? kNotInitialized : kSuccess;
}

// A context handle is the device index + 1 (never null).
void* context_of(int device) { return reinterpret_cast<void*>(static_cast<uintptr_t>(device) + 1); }

}  // namespace

extern "C" {

int lzDeviceMemoryIsHost() { return 1; }

long lzEmulatedCallCount(const char* name) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  auto it = driver().calls.find(name);
  return it == driver().calls.end() ? 0 : it->second;
}

int cuInit(unsigned flags) {
  Driver& d = driver();
  std::lock_guard<std::mutex> lock(d.mutex);
  enter("cuInit", false);
  if (flags != 0) return kInvalidValue;
  d.devices = env_int("LZ_EMULATED_CUDA_DEVICES", 2);
  d.memory_per_device = static_cast<size_t>(env_int("LZ_EMULATED_CUDA_MEMORY_MB", 4096)) << 20;
  d.initialised = true;
  return kSuccess;
}

int cuDriverGetVersion(int* version) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  enter("cuDriverGetVersion", false);
  *version = 13000;
  return kSuccess;
}

int cuDeviceGetCount(int* count) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (int rc = enter("cuDeviceGetCount")) return rc;
  *count = driver().devices;
  return kSuccess;
}

int cuGetErrorName(int code, const char** name) {
  switch (code) {
    case kSuccess: *name = "CUDA_SUCCESS"; return kSuccess;
    case kInvalidValue: *name = "CUDA_ERROR_INVALID_VALUE"; return kSuccess;
    case kOutOfMemory: *name = "CUDA_ERROR_OUT_OF_MEMORY"; return kSuccess;
    case kNotInitialized: *name = "CUDA_ERROR_NOT_INITIALIZED"; return kSuccess;
    case kInvalidDevice: *name = "CUDA_ERROR_INVALID_DEVICE"; return kSuccess;
    case kInvalidContext: *name = "CUDA_ERROR_INVALID_CONTEXT"; return kSuccess;
    case kNotSupported: *name = "CUDA_ERROR_NOT_SUPPORTED"; return kSuccess;
    default: *name = nullptr; return kInvalidValue;
  }
}

int cuDeviceGet(int* device, int ordinal) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (int rc = enter("cuDeviceGet")) return rc;
  if (ordinal < 0 || ordinal >= driver().devices) return kInvalidDevice;
  *device = ordinal;
  return kSuccess;
}

int cuDeviceGetName(char* name, int len, int device) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (int rc = enter("cuDeviceGetName")) return rc;
  if (device < 0 || device >= driver().devices) return kInvalidDevice;
  std::snprintf(name, static_cast<size_t>(len), "Lazuli emulated CUDA device %d", device);
  return kSuccess;
}

int cuDeviceGetAttribute(int* value, int attribute, int device) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (int rc = enter("cuDeviceGetAttribute")) return rc;
  if (device < 0 || device >= driver().devices) return kInvalidDevice;
  switch (attribute) {
    case 1: *value = 1024; return kSuccess;  // max threads per block
    case 16: *value = 4; return kSuccess;    // multiprocessors
    case 75: *value = 8; return kSuccess;    // compute capability 8.0
    case 76: *value = 0; return kSuccess;
    default: return kInvalidValue;
  }
}

int cuDeviceTotalMem_v2(size_t* bytes, int device) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (int rc = enter("cuDeviceTotalMem_v2")) return rc;
  if (device < 0 || device >= driver().devices) return kInvalidDevice;
  *bytes = driver().memory_per_device;
  return kSuccess;
}

int cuDevicePrimaryCtxRetain(void** context, int device) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (int rc = enter("cuDevicePrimaryCtxRetain")) return rc;
  if (device < 0 || device >= driver().devices) return kInvalidDevice;
  *context = context_of(device);
  return kSuccess;
}

int cuCtxSetCurrent(void* context) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (int rc = enter("cuCtxSetCurrent")) return rc;
  const auto device = static_cast<int>(reinterpret_cast<uintptr_t>(context)) - 1;
  if (device < 0 || device >= driver().devices) return kInvalidContext;
  driver().current_device = device;
  return kSuccess;
}

int cuStreamCreate(void** stream, unsigned) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (int rc = enter("cuStreamCreate")) return rc;
  if (driver().current_device < 0) return kInvalidContext;
  *stream = context_of(driver().current_device);
  return kSuccess;
}

int cuStreamSynchronize(void*) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  return enter("cuStreamSynchronize");
}

int cuMemAlloc_v2(uint64_t* ptr, size_t bytes) {
  Driver& d = driver();
  std::lock_guard<std::mutex> lock(d.mutex);
  if (int rc = enter("cuMemAlloc_v2")) return rc;
  if (d.current_device < 0) return kInvalidContext;
  if (bytes == 0) return kInvalidValue;
  if (d.in_use[d.current_device] + bytes > d.memory_per_device) return kOutOfMemory;
  void* p = std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  if (p == nullptr) return kOutOfMemory;
  d.allocations[reinterpret_cast<uintptr_t>(p)] = {bytes, d.current_device};
  d.in_use[d.current_device] += bytes;
  *ptr = reinterpret_cast<uintptr_t>(p);
  return kSuccess;
}

int cuMemFree_v2(uint64_t ptr) {
  Driver& d = driver();
  std::lock_guard<std::mutex> lock(d.mutex);
  if (int rc = enter("cuMemFree_v2")) return rc;
  auto it = d.allocations.find(ptr);
  if (it == d.allocations.end()) return kInvalidValue;
  d.in_use[it->second.second] -= it->second.first;
  d.allocations.erase(it);
  std::free(reinterpret_cast<void*>(ptr));
  return kSuccess;
}

int cuMemAllocHost_v2(void** ptr, size_t bytes) {
  Driver& d = driver();
  std::lock_guard<std::mutex> lock(d.mutex);
  if (int rc = enter("cuMemAllocHost_v2")) return rc;
  *ptr = std::malloc(bytes);
  if (*ptr == nullptr) return kOutOfMemory;
  d.pinned[reinterpret_cast<uintptr_t>(*ptr)] = bytes;
  return kSuccess;
}

int cuMemFreeHost(void* ptr) {
  Driver& d = driver();
  std::lock_guard<std::mutex> lock(d.mutex);
  if (int rc = enter("cuMemFreeHost")) return rc;
  if (d.pinned.erase(reinterpret_cast<uintptr_t>(ptr)) == 0) return kInvalidValue;
  std::free(ptr);
  return kSuccess;
}

namespace {
// Whether [ptr, ptr + bytes) lies inside one device allocation.
bool is_device_range(uint64_t ptr, size_t bytes) {
  Driver& d = driver();
  auto it = d.allocations.upper_bound(ptr);
  if (it == d.allocations.begin()) return false;
  --it;
  return ptr + bytes <= it->first + it->second.first;
}

// Writes one element per row (`pitch` bytes apart), as the cuMemsetD* calls do.
int memset_elements(const char* name, uint64_t dst, const void* value, size_t size, size_t pitch, size_t height) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (int rc = enter(name)) return rc;
  if (height > 0 && !is_device_range(dst, pitch * (height - 1) + size)) return kInvalidValue;
  for (size_t i = 0; i < height; ++i) std::memcpy(reinterpret_cast<char*>(dst) + i * pitch, value, size);
  return kSuccess;
}
}  // namespace

int cuMemcpyHtoDAsync_v2(uint64_t dst, const void* src, size_t bytes, void*) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (int rc = enter("cuMemcpyHtoDAsync_v2")) return rc;
  if (!is_device_range(dst, bytes)) return kInvalidValue;
  std::memcpy(reinterpret_cast<void*>(dst), src, bytes);
  return kSuccess;
}

int cuMemcpyDtoHAsync_v2(void* dst, uint64_t src, size_t bytes, void*) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (int rc = enter("cuMemcpyDtoHAsync_v2")) return rc;
  if (!is_device_range(src, bytes)) return kInvalidValue;
  std::memcpy(dst, reinterpret_cast<const void*>(src), bytes);
  return kSuccess;
}

int cuMemcpyDtoDAsync_v2(uint64_t dst, uint64_t src, size_t bytes, void*) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (int rc = enter("cuMemcpyDtoDAsync_v2")) return rc;
  if (!is_device_range(dst, bytes) || !is_device_range(src, bytes)) return kInvalidValue;
  std::memmove(reinterpret_cast<void*>(dst), reinterpret_cast<const void*>(src), bytes);
  return kSuccess;
}

int cuMemsetD8Async(uint64_t dst, unsigned char value, size_t bytes, void*) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  if (int rc = enter("cuMemsetD8Async")) return rc;
  if (!is_device_range(dst, bytes)) return kInvalidValue;
  std::memset(reinterpret_cast<void*>(dst), value, bytes);
  return kSuccess;
}

int cuMemsetD16Async(uint64_t dst, unsigned short value, size_t count, void*) {
  return memset_elements("cuMemsetD16Async", dst, &value, sizeof(value), sizeof(value), count);
}

int cuMemsetD32Async(uint64_t dst, unsigned value, size_t count, void*) {
  return memset_elements("cuMemsetD32Async", dst, &value, sizeof(value), sizeof(value), count);
}

// Only the width-1 form (one 32-bit word per row), which is what Lazuli uses.
int cuMemsetD2D32Async(uint64_t dst, size_t pitch, unsigned value, size_t width, size_t height, void*) {
  if (width != 1) return kNotSupported;
  return memset_elements("cuMemsetD2D32Async", dst, &value, sizeof(value), pitch, height);
}

// Device code cannot run here: Lazuli sees lzDeviceMemoryIsHost and emulates kernels.
int cuModuleLoadData(void**, const void*) {
  std::lock_guard<std::mutex> lock(driver().mutex);
  enter("cuModuleLoadData");
  return kNotSupported;
}
int cuModuleUnload(void*) { return kNotSupported; }
int cuModuleGetFunction(void**, void*, const char*) { return kNotSupported; }
int cuLaunchKernel(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**,
                   void**) {
  return kNotSupported;
}

}  // extern "C"
