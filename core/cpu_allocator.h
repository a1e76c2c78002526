// The CPU allocator: 64-byte aligned blocks, cached by size class after they
// are freed, large blocks mapped on 2 MiB boundaries and advised for
// transparent huge pages (set_huge_pages). Freshly
// mapped memory costs a page fault per page on first write (measured: 18 ms
// for 64 MiB against 3 ms into a reused buffer), so reuse decides kernel speed.
#pragma once

#include <cstddef>
#include <cstdint>

#include "core/allocator.h"

namespace lz {

struct CpuAllocatorStats {
  size_t allocated_bytes = 0;       // capacity of blocks currently handed out
  size_t peak_allocated_bytes = 0;  // high-water mark of allocated_bytes
  size_t cached_bytes = 0;          // freed blocks kept for reuse
  size_t cache_limit_bytes = 0;     // cached_bytes never exceeds this
  uint64_t allocations = 0;         // allocate() calls with nbytes > 0
  uint64_t cache_hits = 0;          // served from the cache
  uint64_t cache_misses = 0;        // had to ask the system
  uint64_t system_frees = 0;        // blocks given back to the system
  uint64_t huge_page_blocks = 0;    // system allocations advised for huge pages (set_huge_pages)
};

class CpuCachingAllocator final : public Allocator {
 public:
  CpuCachingAllocator();
  ~CpuCachingAllocator() override;

  DataPtr allocate(size_t nbytes, Device device) override;

  CpuAllocatorStats stats() const;
  // Gives every cached block back to the system.
  void empty_cache();
  // Bounds the bytes kept in the cache; blocks freed beyond it go back to the
  // system. Shrinks the cache immediately if it is above the new limit.
  void set_cache_limit(size_t bytes);
  // Whether new blocks of kHugeBlockThreshold bytes and more are advised for
  // transparent huge pages (default on; LZ_CPU_HUGE_PAGES=0 turns it off:
  // faster first touches, slower streaming; measurements in the .cpp).
  void set_huge_pages(bool on);
  bool huge_pages() const;

  // The capacity actually reserved for a request (its size class).
  static size_t size_class(size_t nbytes);
  // Blocks at least this big come from mmap, aligned to 2 MiB pages.
  static constexpr size_t kHugeBlockThreshold = size_t{2} << 20;

 private:
  struct State;
  static void free_block(void* context, void* data, size_t capacity);
  State* state_;
};

// The process-wide instance (installed as the CPU allocator at start-up).
CpuCachingAllocator& cpu_caching_allocator();

// Shorthands over cpu_caching_allocator().
CpuAllocatorStats cpu_allocator_stats();
void empty_cpu_cache();

}  // namespace lz
