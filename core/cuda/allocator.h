// The CUDA device allocator: blocks freed by tensors are kept per device and
// handed out again (cuMemAlloc and cuMemFree synchronise the device, so a
// runtime that called them per tensor would stall on every operation).
// Reuse needs no event: every operation on a device runs on its one stream,
// in order, so a later user of a block starts after the earlier one ended.
// When the driver runs out of memory the cache is given back and the
// allocation retried once; then OutOfMemoryError says how much is in use.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/allocator.h"

namespace lz::cuda {

struct MemoryStats {
  size_t allocated_bytes = 0;       // capacity of blocks handed out now
  size_t peak_allocated_bytes = 0;  // high-water mark of allocated_bytes
  size_t cached_bytes = 0;          // freed blocks kept for reuse
  uint64_t allocations = 0;         // allocate() calls with nbytes > 0
  uint64_t cache_hits = 0;          // served from the cache
  uint64_t driver_allocations = 0;  // cuMemAlloc calls
  uint64_t driver_frees = 0;        // cuMemFree calls (empty_cache, out-of-memory retries)
};

class CachingAllocator final : public Allocator {
 public:
  // Throws DeviceError "CUDA unavailable: <reason>" when there is no CUDA.
  DataPtr allocate(size_t nbytes, Device device) override;

  // The capacity reserved for a request: a multiple of 512 bytes below
  // 1 MiB, else of 2 MiB (coarse classes make freed blocks fit new requests).
  static size_t size_class(size_t nbytes);
};

// The process-wide instance (the CUDA allocator at start-up).
CachingAllocator& caching_allocator();

// Statistics of device `index` (zero for a device not used yet).
MemoryStats memory_stats(int index);
// Gives the cached blocks of every device back to the driver (after
// waiting for each device's stream).
void empty_cache();

}  // namespace lz::cuda
