#include "core/allocator.h"

#include <array>
#include <atomic>

#include "core/cpu_allocator.h"
#include "core/cuda/allocator.h"
#include "core/error.h"

namespace lz {

namespace {

std::array<std::atomic<Allocator*>, kNumDeviceTypes>& allocator_table() {
  static std::array<std::atomic<Allocator*>, kNumDeviceTypes> table{&cpu_caching_allocator(),
                                                                    &cuda::caching_allocator()};
  return table;
}

}  // namespace

Allocator* get_allocator(DeviceType type) {
  return allocator_table()[static_cast<size_t>(type)].load(std::memory_order_acquire);
}

Allocator* set_allocator(DeviceType type, Allocator* allocator) {
  LZ_CHECK(allocator != nullptr, ValueError, "[set_allocator] allocator: must not be null");
  return allocator_table()[static_cast<size_t>(type)].exchange(allocator,
                                                                std::memory_order_acq_rel);
}

}  // namespace lz
