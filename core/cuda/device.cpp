#include "core/cuda/device.h"

#include <array>
#include <memory>
#include <mutex>

#include "core/cuda/runtime.h"
#include "core/cuda/driver.h"
#include "core/error.h"

namespace lz::cuda {

namespace {

using namespace detail;

constexpr int kMaxDevices = 64;

struct DeviceState {
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  DeviceProperties properties;
};

std::mutex devices_mutex;
std::array<std::unique_ptr<DeviceState>, kMaxDevices> devices;

DeviceState& state(int index, const char* what) {
  const DriverApi& api = driver_api(what);
  LZ_CHECK(index >= 0 && index < device_count() && index < kMaxDevices, DeviceError, "[", what,
           "] device cuda:", index, " does not exist (", device_count(), " CUDA device",
           device_count() == 1 ? "" : "s", ")");
  std::lock_guard<std::mutex> lock(devices_mutex);
  std::unique_ptr<DeviceState>& slot = devices[static_cast<size_t>(index)];
  if (slot) return *slot;
  auto s = std::make_unique<DeviceState>();
  CUdevice dev = 0;
  check(api.cuDeviceGet(&dev, index), "cuDeviceGet", what);
  check(api.cuDevicePrimaryCtxRetain(&s->context, dev), "cuDevicePrimaryCtxRetain", what);
  check(api.cuCtxSetCurrent(s->context), "cuCtxSetCurrent", what);
  check(api.cuStreamCreate(&s->stream, kStreamNonBlocking), "cuStreamCreate", what);
  DeviceProperties& p = s->properties;
  char name[256] = {};
  check(api.cuDeviceGetName(name, sizeof(name) - 1, dev), "cuDeviceGetName", what);
  p.name = name;
  const auto attribute = [&](int attr, int* out) {
    check(api.cuDeviceGetAttribute(out, attr, dev), "cuDeviceGetAttribute", what);
  };
  attribute(kAttrComputeCapabilityMajor, &p.major);
  attribute(kAttrComputeCapabilityMinor, &p.minor);
  attribute(kAttrMultiprocessorCount, &p.multiprocessors);
  attribute(kAttrMaxThreadsPerBlock, &p.max_threads_per_block);
  check(api.cuDeviceTotalMem_v2(&p.total_memory, dev), "cuDeviceTotalMem", what);
  p.emulated = api.lzDeviceMemoryIsHost != nullptr && api.lzDeviceMemoryIsHost() != 0;
  slot = std::move(s);
  return *slot;
}

}  // namespace

const DeviceProperties& device_properties(int index) { return state(index, "device_properties").properties; }

void synchronize(int index) {
  CUstream stream = detail::activate(index, "synchronize");
  check(driver_api("synchronize").cuStreamSynchronize(stream), "cuStreamSynchronize", "synchronize");
}

void synchronize() {
  if (!is_available()) return;
  for (int i = 0; i < device_count() && i < kMaxDevices; ++i) {
    bool used = false;
    {
      std::lock_guard<std::mutex> lock(devices_mutex);
      used = devices[static_cast<size_t>(i)] != nullptr;
    }
    if (used) synchronize(i);
  }
}

namespace detail {

void* activate(int index, const char* what) {
  DeviceState& s = state(index, what);
  // The context current on a thread is per thread; setting it is cheap.
  thread_local CUcontext current = nullptr;
  if (current != s.context) {
    check(driver_api(what).cuCtxSetCurrent(s.context), "cuCtxSetCurrent", what);
    current = s.context;
  }
  return s.stream;
}

}  // namespace detail

}  // namespace lz::cuda
