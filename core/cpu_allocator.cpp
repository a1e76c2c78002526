#include "core/cpu_allocator.h"

#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <bit>
#include <cstdlib>
#include <mutex>
#include <string_view>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "core/error.h"

namespace lz {

namespace {

size_t round_up(size_t n, size_t multiple) { return (n + multiple - 1) / multiple * multiple; }

size_t default_cache_limit() {
  if (const char* env = std::getenv("LZ_CPU_CACHE_LIMIT_MB")) {
    return static_cast<size_t>(std::strtoull(env, nullptr, 10)) << 20;
  }
  // A quarter of physical memory: enough to keep every buffer of a training
  // step warm, without hoarding memory other processes need.
  const long pages = sysconf(_SC_PHYS_PAGES);
  const long page_size = sysconf(_SC_PAGE_SIZE);
  if (pages <= 0 || page_size <= 0) return size_t{1} << 30;
  return static_cast<size_t>(pages) * static_cast<size_t>(page_size) / 4;
}

// On unless LZ_CPU_HUGE_PAGES=0. Measured on the project's VM (transparent
// huge pages given to advised memory only, found by compacting when a page
// is first touched): the steady state, blocks reused from the cache, runs
// streaming kernels 10-30% faster on huge pages (lz-bench W2 3.3-3.5 vs
// 4.1-4.6 ms, W9 2.3-2.5 vs 3.0-3.2 ms), but a first write of an advised
// 32 MiB block costs 21-68 ms against 15 ms in 4 KiB pages, so a program's
// first call is slower (W4 62-66 vs 21-24 ms, W7 63-66 vs 27-28 ms).
bool default_huge_pages() {
  const char* env = std::getenv("LZ_CPU_HUGE_PAGES");
  return env == nullptr || std::string_view(env) != "0";
}

// A block of `capacity` bytes; large ones are mapped on a 2 MiB boundary and,
// with `advise_huge`, advised for transparent huge pages (`*advised` says so).
void* system_allocate(size_t capacity, bool advise_huge, bool* advised) {
  *advised = false;
  if (capacity < CpuCachingAllocator::kHugeBlockThreshold) return std::aligned_alloc(kAllocAlignment, capacity);
  constexpr size_t kHuge = CpuCachingAllocator::kHugeBlockThreshold;
  // Over-map by one huge page and trim, so the block starts on a 2 MiB boundary.
  void* raw = mmap(nullptr, capacity + kHuge, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
                   -1, 0);
  if (raw == MAP_FAILED) return nullptr;
  const uintptr_t begin = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = round_up(begin, kHuge);
  if (aligned > begin) munmap(raw, aligned - begin);
  const uintptr_t tail = aligned + capacity;
  const uintptr_t end = begin + capacity + kHuge;
  if (end > tail) munmap(reinterpret_cast<void*>(tail), end - tail);
  void* block = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
  // Advice only: a kernel without huge pages ignores it or refuses it.
  if (advise_huge) (void)madvise(block, capacity, MADV_HUGEPAGE);
  *advised = advise_huge;
#endif
  return block;
}

void system_free(void* data, size_t capacity) {
  if (capacity >= CpuCachingAllocator::kHugeBlockThreshold) {
    munmap(data, capacity);
  } else {
    std::free(data);
  }
}

}  // namespace

struct CpuCachingAllocator::State {
  mutable std::mutex mutex;
  std::atomic<bool> huge_pages{default_huge_pages()};
  absl::flat_hash_map<size_t, std::vector<void*>> free_blocks;  // by size class
  CpuAllocatorStats stats;

  // Releases cached blocks until cached_bytes <= limit. Caller holds mutex.
  void trim_to(size_t limit) {
    for (auto& [capacity, blocks] : free_blocks) {
      while (stats.cached_bytes > limit && !blocks.empty()) {
        system_free(blocks.back(), capacity);
        blocks.pop_back();
        stats.cached_bytes -= capacity;
        ++stats.system_frees;
      }
    }
  }
};

CpuCachingAllocator::CpuCachingAllocator() : state_(new State) {
  state_->stats.cache_limit_bytes = default_cache_limit();
}

CpuCachingAllocator::~CpuCachingAllocator() {
  empty_cache();
  delete state_;
}

size_t CpuCachingAllocator::size_class(size_t nbytes) {
  if (nbytes <= kAllocAlignment) return kAllocAlignment;
  // Four classes per power of two: at most 25% waste between 256 B and 2 MiB
  // (below, the 64-byte granule dominates; above, blocks round to 2 MiB pages).
  const size_t step = std::max(kAllocAlignment, std::bit_floor(nbytes - 1) / 4);
  const size_t rounded = round_up(nbytes, step);
  return rounded >= kHugeBlockThreshold ? round_up(rounded, kHugeBlockThreshold) : rounded;
}

DataPtr CpuCachingAllocator::allocate(size_t nbytes, Device device) {
  LZ_INTERNAL_ASSERT(device.is_cpu(), "CPU allocator asked for ", device);
  if (nbytes == 0) return DataPtr(nullptr, 0, nullptr, nullptr, device);
  const size_t capacity = size_class(nbytes);
  // Rounding a request near SIZE_MAX up to its class wraps around to a tiny
  // capacity; no system could serve such a request anyway.
  LZ_CHECK(capacity >= nbytes, OutOfMemoryError, "[allocate] CPU: cannot allocate ", nbytes,
           " bytes (larger than the address space)");
  void* block = nullptr;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    CpuAllocatorStats& s = state_->stats;
    ++s.allocations;
    if (auto it = state_->free_blocks.find(capacity);
        it != state_->free_blocks.end() && !it->second.empty()) {
      block = it->second.back();
      it->second.pop_back();
      s.cached_bytes -= capacity;
      ++s.cache_hits;
    } else {
      ++s.cache_misses;
    }
    s.allocated_bytes += capacity;
    s.peak_allocated_bytes = std::max(s.peak_allocated_bytes, s.allocated_bytes);
  }
  if (block == nullptr) {
    const bool advise_huge = huge_pages();
    bool huge = false;
    block = system_allocate(capacity, advise_huge, &huge);
    if (block == nullptr) {
      // Give the cache back and try once more before failing.
      empty_cache();
      block = system_allocate(capacity, advise_huge, &huge);
    }
    std::lock_guard<std::mutex> lock(state_->mutex);
    if (block == nullptr) {
      state_->stats.allocated_bytes -= capacity;
      LZ_FAIL(OutOfMemoryError, "[allocate] CPU: could not allocate ", nbytes, " bytes (",
              state_->stats.allocated_bytes, " bytes in use)");
    }
    if (huge) ++state_->stats.huge_page_blocks;
  }
  return DataPtr(block, capacity, this, &CpuCachingAllocator::free_block, device);
}

void CpuCachingAllocator::free_block(void* context, void* data, size_t capacity) {
  if (data == nullptr) return;
  State* state = static_cast<CpuCachingAllocator*>(context)->state_;
  std::lock_guard<std::mutex> lock(state->mutex);
  CpuAllocatorStats& s = state->stats;
  s.allocated_bytes -= capacity;
  if (s.cached_bytes + capacity > s.cache_limit_bytes) {
    system_free(data, capacity);
    ++s.system_frees;
    return;
  }
  state->free_blocks[capacity].push_back(data);
  s.cached_bytes += capacity;
}

CpuAllocatorStats CpuCachingAllocator::stats() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->stats;
}

void CpuCachingAllocator::empty_cache() {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->trim_to(0);
}

void CpuCachingAllocator::set_huge_pages(bool on) { state_->huge_pages.store(on, std::memory_order_relaxed); }
bool CpuCachingAllocator::huge_pages() const { return state_->huge_pages.load(std::memory_order_relaxed); }

void CpuCachingAllocator::set_cache_limit(size_t bytes) {
  std::lock_guard<std::mutex> lock(state_->mutex);
  state_->stats.cache_limit_bytes = bytes;
  state_->trim_to(bytes);
}

CpuCachingAllocator& cpu_caching_allocator() {
  // Leaked on purpose: tensors held by static objects may be freed after main.
  static CpuCachingAllocator* instance = new CpuCachingAllocator();
  return *instance;
}

CpuAllocatorStats cpu_allocator_stats() { return cpu_caching_allocator().stats(); }
void empty_cpu_cache() { cpu_caching_allocator().empty_cache(); }

}  // namespace lz
