#include "core/cuda/allocator.h"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "core/cuda/runtime.h"
#include "core/cuda/device.h"
#include "core/cuda/driver.h"
#include "core/error.h"

namespace lz::cuda {

namespace {

using namespace detail;

constexpr size_t kSmallLimit = size_t{1} << 20;
constexpr size_t kSmallClass = 512;
constexpr size_t kLargeClass = size_t{2} << 20;

struct DevicePool {
  std::mutex mutex;
  int index = 0;
  std::multimap<size_t, CUdeviceptr> free_blocks;  // capacity -> block
  MemoryStats stats;
};

DevicePool& pool(int index) {
  static std::mutex mutex;
  // Never destroyed: a tensor destroyed at exit (a static) still returns
  // its block here, after function-local statics are gone.
  static auto* pools = new std::map<int, std::unique_ptr<DevicePool>>();
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<DevicePool>& p = (*pools)[index];
  if (!p) {
    p = std::make_unique<DevicePool>();
    p->index = index;
  }
  return *p;
}

// A cached block serves a request when it wastes at most a quarter of it.
bool fits(size_t capacity, size_t wanted) { return capacity <= wanted + wanted / 4; }

void release_cached(DevicePool& p, const DriverApi& api) {
  if (p.free_blocks.empty()) return;
  CUstream stream = static_cast<CUstream>(activate(p.index, "empty_cache"));
  check(api.cuStreamSynchronize(stream), "cuStreamSynchronize", "empty_cache");
  for (const auto& [capacity, block] : p.free_blocks) {
    check(api.cuMemFree_v2(block), "cuMemFree", "empty_cache");
    p.stats.cached_bytes -= capacity;
    ++p.stats.driver_frees;
  }
  p.free_blocks.clear();
}

void free_block(void* context, void* data, size_t capacity) {
  auto& p = *static_cast<DevicePool*>(context);
  std::lock_guard<std::mutex> lock(p.mutex);
  p.free_blocks.emplace(capacity, reinterpret_cast<CUdeviceptr>(data));
  p.stats.allocated_bytes -= capacity;
  p.stats.cached_bytes += capacity;
}

}  // namespace

size_t CachingAllocator::size_class(size_t nbytes) {
  const size_t unit = nbytes < kSmallLimit ? kSmallClass : kLargeClass;
  return (nbytes + unit - 1) / unit * unit;
}

DataPtr CachingAllocator::allocate(size_t nbytes, Device device) {
  LZ_CHECK(is_available(), DeviceError, "[allocate] ", device, ": CUDA unavailable: ", unavailable_reason());
  const DriverApi& api = driver_api("allocate");
  const int index = device.index();
  activate(index, "allocate");
  if (nbytes == 0) return DataPtr(nullptr, 0, nullptr, nullptr, device);
  DevicePool& p = pool(index);
  const size_t capacity = size_class(nbytes);
  std::lock_guard<std::mutex> lock(p.mutex);
  ++p.stats.allocations;
  const auto take = [&](size_t cap, CUdeviceptr block) {
    p.stats.allocated_bytes += cap;
    p.stats.peak_allocated_bytes = std::max(p.stats.peak_allocated_bytes, p.stats.allocated_bytes);
    return DataPtr(reinterpret_cast<void*>(block), cap, &p, &free_block, device);
  };
  if (auto it = p.free_blocks.lower_bound(capacity); it != p.free_blocks.end() && fits(it->first, capacity)) {
    const auto [cap, block] = *it;
    p.free_blocks.erase(it);
    p.stats.cached_bytes -= cap;
    ++p.stats.cache_hits;
    return take(cap, block);
  }
  CUdeviceptr block = 0;
  CUresult rc = api.cuMemAlloc_v2(&block, capacity);
  if (rc == kErrorOutOfMemory) {
    release_cached(p, api);
    rc = api.cuMemAlloc_v2(&block, capacity);
  }
  LZ_CHECK(rc != kErrorOutOfMemory, OutOfMemoryError, "[allocate] ", device, ": out of memory allocating ",
           nbytes, " bytes (", p.stats.allocated_bytes, " bytes in use by tensors, ",
           device_properties(index).total_memory, " on the device)");
  check(rc, "cuMemAlloc", "allocate");
  ++p.stats.driver_allocations;
  return take(capacity, block);
}

CachingAllocator& caching_allocator() {
  static CachingAllocator allocator;
  return allocator;
}

MemoryStats memory_stats(int index) {
  DevicePool& p = pool(index);
  std::lock_guard<std::mutex> lock(p.mutex);
  return p.stats;
}

void empty_cache() {
  if (!is_available()) return;
  const DriverApi& api = driver_api("empty_cache");
  for (int i = 0; i < device_count(); ++i) {
    DevicePool& p = pool(i);
    std::lock_guard<std::mutex> lock(p.mutex);
    release_cached(p, api);
  }
}

}  // namespace lz::cuda
