// Memory allocation per device. An Allocator hands out DataPtrs: owning
// pointers that know how to give their memory back. Each device type has one
// allocator in use, replaceable at run time (tests plug in counting
// allocators).
#pragma once

#include <cstddef>
#include <utility>

#include "core/device.h"

namespace lz {

// 64-byte alignment: one cache line, and the width of an AVX-512 vector.
inline constexpr size_t kAllocAlignment = 64;

class DataPtr {
 public:
  // Called with (context, data, capacity) when the DataPtr dies.
  using Deleter = void (*)(void* context, void* data, size_t capacity);

  DataPtr() = default;
  DataPtr(void* data, size_t capacity, void* context, Deleter deleter, Device device)
      : data_(data), capacity_(capacity), context_(context), deleter_(deleter), device_(device) {}
  DataPtr(const DataPtr&) = delete;
  DataPtr& operator=(const DataPtr&) = delete;
  DataPtr(DataPtr&& o) noexcept { swap(o); }
  DataPtr& operator=(DataPtr&& o) noexcept {
    DataPtr(std::move(o)).swap(*this);
    return *this;
  }
  ~DataPtr() {
    if (deleter_) deleter_(context_, data_, capacity_);
  }

  void* get() const { return data_; }
  size_t capacity() const { return capacity_; }
  Device device() const { return device_; }

 private:
  void swap(DataPtr& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(capacity_, o.capacity_);
    std::swap(context_, o.context_);
    std::swap(deleter_, o.deleter_);
    std::swap(device_, o.device_);
  }
  void* data_ = nullptr;
  size_t capacity_ = 0;
  void* context_ = nullptr;
  Deleter deleter_ = nullptr;
  Device device_ = Device(DeviceType::CPU);
};

class Allocator {
 public:
  virtual ~Allocator() = default;
  // At least nbytes, aligned to kAllocAlignment; nbytes == 0 may return null.
  // Throws OutOfMemoryError when the system has no memory left.
  virtual DataPtr allocate(size_t nbytes, Device device) = 0;
};

// The allocator currently used for a device type. Never null: CPU starts with
// the caching CPU allocator, CUDA with the caching device allocator (which
// reports "CUDA unavailable: <reason>" where there is no CUDA).
Allocator* get_allocator(DeviceType type);
// Installs `allocator` (not owned; must outlive its use) and returns the previous one.
Allocator* set_allocator(DeviceType type, Allocator* allocator);

// Scoped replacement, for tests and tools.
class AllocatorGuard {
 public:
  AllocatorGuard(DeviceType type, Allocator* allocator)
      : type_(type), previous_(set_allocator(type, allocator)) {}
  ~AllocatorGuard() { set_allocator(type_, previous_); }
  AllocatorGuard(const AllocatorGuard&) = delete;
  AllocatorGuard& operator=(const AllocatorGuard&) = delete;

 private:
  DeviceType type_;
  Allocator* previous_;
};

}  // namespace lz
