#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <atomic>
#include <thread>
#include <vector>
#include <string_view>

#include "core/allocator.h"
#include "core/cpu_allocator.h"
#include "core/storage.h"

using namespace lz;
using Catch::Matchers::Contains;

namespace {

const Device kCpuDevice{DeviceType::CPU};

bool aligned(const void* p, size_t alignment) {
  return reinterpret_cast<uintptr_t>(p) % alignment == 0;
}

// Restores the process-wide cache limit when a test changes it.
class CacheLimitGuard {
 public:
  CacheLimitGuard() : saved_(cpu_caching_allocator().stats().cache_limit_bytes) {}
  ~CacheLimitGuard() { cpu_caching_allocator().set_cache_limit(saved_); }

 private:
  size_t saved_;
};

// Counts allocations and forwards to aligned_alloc/free itself.
class CountingAllocator final : public Allocator {
 public:
  DataPtr allocate(size_t nbytes, Device device) override {
    ++calls;
    bytes += nbytes;
    if (nbytes == 0) return DataPtr(nullptr, 0, nullptr, nullptr, device);
    const size_t cap = (nbytes + kAllocAlignment - 1) / kAllocAlignment * kAllocAlignment;
    void* p = std::aligned_alloc(kAllocAlignment, cap);
    return DataPtr(p, cap, this, &CountingAllocator::release, device);
  }
  static void release(void* ctx, void* data, size_t) {
    ++static_cast<CountingAllocator*>(ctx)->frees;
    std::free(data);
  }
  int calls = 0;
  int frees = 0;
  size_t bytes = 0;
};

}  // namespace

TEST_CASE("CPU allocator: every block is 64-byte aligned and at least as big as asked", "[core]") {
  CpuCachingAllocator& a = cpu_caching_allocator();
  std::vector<DataPtr> blocks;
  for (size_t n : {size_t{1}, size_t{3}, size_t{63}, size_t{64}, size_t{65}, size_t{100}, size_t{1000},
                   size_t{4097}, size_t{65537}, size_t{1} << 20, (size_t{2} << 20) + 1}) {
    DataPtr p = a.allocate(n, kCpuDevice);
    INFO("nbytes " << n);
    REQUIRE(p.get() != nullptr);
    CHECK(aligned(p.get(), kAllocAlignment));
    CHECK(p.capacity() >= n);
    CHECK(p.capacity() == CpuCachingAllocator::size_class(n));
    CHECK(p.device() == kCpuDevice);
    std::memset(p.get(), 0xab, p.capacity());  // the whole capacity is usable
    blocks.push_back(std::move(p));
  }
  // Distinct live blocks never overlap.
  for (size_t i = 0; i < blocks.size(); ++i) {
    for (size_t j = i + 1; j < blocks.size(); ++j) {
      const auto* a0 = static_cast<const char*>(blocks[i].get());
      const auto* b0 = static_cast<const char*>(blocks[j].get());
      CHECK((a0 + blocks[i].capacity() <= b0 || b0 + blocks[j].capacity() <= a0));
    }
  }
}

TEST_CASE("CPU allocator: size classes", "[core]") {
  constexpr size_t kHuge = CpuCachingAllocator::kHugeBlockThreshold;
  CHECK(kHuge == size_t{2} << 20);
  CHECK(CpuCachingAllocator::size_class(1) == 64);
  CHECK(CpuCachingAllocator::size_class(64) == 64);
  CHECK(CpuCachingAllocator::size_class(65) == 128);
  CHECK(CpuCachingAllocator::size_class(1024) == 1024);
  CHECK(CpuCachingAllocator::size_class(1025) == 1280);  // four classes per power of two
  CHECK(CpuCachingAllocator::size_class(kHuge) == kHuge);
  size_t previous = 0;
  std::vector<size_t> probes;
  for (size_t n = 1; n <= 70000; ++n) probes.push_back(n);
  for (size_t p = 1 << 17; p <= (size_t{1} << 34); p <<= 1) {
    for (size_t d : {size_t{0}, size_t{1}, p / 8, p / 4, p / 3, p / 2, p - 1}) probes.push_back(p + d);
  }
  probes.push_back(kHuge - 1);
  probes.push_back(kHuge + 1);
  for (size_t n : probes) {
    const size_t c = CpuCachingAllocator::size_class(n);
    INFO("nbytes " << n << " -> class " << c);
    REQUIRE(c >= n);
    REQUIRE(c % kAllocAlignment == 0);
    if (n <= 256) {
      REQUIRE(c - n < kAllocAlignment);  // at most one alignment unit of waste
    } else if (c < kHuge || n > 4 * kHuge) {
      REQUIRE(c - n <= n / 4);  // four classes per power of two: <= 25% waste
    }
    if (c >= kHuge) REQUIRE(c % kHuge == 0);
    if (n >= previous) REQUIRE(c >= CpuCachingAllocator::size_class(previous ? previous : 1));
    previous = n;
  }
  // Monotone on the dense range.
  for (size_t n = 2; n <= 70000; ++n) {
    if (CpuCachingAllocator::size_class(n) < CpuCachingAllocator::size_class(n - 1)) FAIL("not monotone at " << n);
  }
}

TEST_CASE("CPU allocator: zero bytes gives a null pointer and counts nothing", "[core]") {
  CpuCachingAllocator& a = cpu_caching_allocator();
  const CpuAllocatorStats before = a.stats();
  DataPtr p = a.allocate(0, kCpuDevice);
  CHECK(p.get() == nullptr);
  CHECK(p.capacity() == 0);
  const CpuAllocatorStats after = a.stats();
  CHECK(after.allocations == before.allocations);
  CHECK(after.allocated_bytes == before.allocated_bytes);
}

TEST_CASE("CPU allocator: a freed block is reused for the same size class", "[core]") {
  CacheLimitGuard restore;
  CpuCachingAllocator& a = cpu_caching_allocator();
  a.set_cache_limit(size_t{1} << 30);
  a.empty_cache();  // blocks cached by earlier tests in this process would turn the misses below into hits
  // An odd size whose class nothing else in this test binary is likely to use.
  const size_t n = 777777;
  const size_t cls = CpuCachingAllocator::size_class(n);
  void* first = nullptr;
  CpuAllocatorStats s0 = a.stats();
  {
    DataPtr p = a.allocate(n, kCpuDevice);
    first = p.get();
    const CpuAllocatorStats s1 = a.stats();
    CHECK(s1.allocations == s0.allocations + 1);
    CHECK(s1.allocated_bytes == s0.allocated_bytes + cls);
    CHECK(s1.peak_allocated_bytes >= s1.allocated_bytes);
    s0 = s1;
  }
  const CpuAllocatorStats freed = a.stats();
  CHECK(freed.allocated_bytes == s0.allocated_bytes - cls);
  CHECK(freed.cached_bytes == s0.cached_bytes + cls);
  CHECK(freed.system_frees == s0.system_frees);
  // Another request in the same class (not the same size) hits the cache.
  DataPtr again = a.allocate(cls - 1, kCpuDevice);
  const CpuAllocatorStats hit = a.stats();
  CHECK(again.get() == first);
  CHECK(hit.cache_hits == freed.cache_hits + 1);
  CHECK(hit.cache_misses == freed.cache_misses);
  CHECK(hit.cached_bytes == freed.cached_bytes - cls);
  // A different class misses.
  DataPtr other = a.allocate(cls + 1, kCpuDevice);
  const CpuAllocatorStats miss = a.stats();
  CHECK(miss.cache_misses == hit.cache_misses + 1);
  CHECK(other.get() != first);
}

TEST_CASE("CPU allocator: empty_cache and set_cache_limit give memory back", "[core]") {
  CacheLimitGuard restore;
  CpuCachingAllocator& a = cpu_caching_allocator();
  a.set_cache_limit(size_t{1} << 30);
  { DataPtr p = a.allocate(5000, kCpuDevice); }
  CHECK(a.stats().cached_bytes >= CpuCachingAllocator::size_class(5000));
  const uint64_t frees_before = a.stats().system_frees;
  a.empty_cache();
  CHECK(a.stats().cached_bytes == 0);
  CHECK(a.stats().system_frees > frees_before);
  CHECK(cpu_allocator_stats().cached_bytes == 0);

  // Limit 0: every free goes straight back to the system.
  a.set_cache_limit(0);
  CHECK(a.stats().cache_limit_bytes == 0);
  const CpuAllocatorStats s0 = a.stats();
  { DataPtr p = a.allocate(3000, kCpuDevice); }
  const CpuAllocatorStats s1 = a.stats();
  CHECK(s1.cached_bytes == 0);
  CHECK(s1.system_frees == s0.system_frees + 1);
  { DataPtr p = a.allocate(3000, kCpuDevice); }
  CHECK(a.stats().cache_hits == s1.cache_hits);

  // Lowering the limit trims the cache at once.
  a.set_cache_limit(size_t{1} << 30);
  {
    DataPtr p1 = a.allocate(4096, kCpuDevice);
    DataPtr p2 = a.allocate(4096, kCpuDevice);
  }
  CHECK(a.stats().cached_bytes == 2 * CpuCachingAllocator::size_class(4096));
  a.set_cache_limit(CpuCachingAllocator::size_class(4096));
  CHECK(a.stats().cached_bytes <= CpuCachingAllocator::size_class(4096));
  empty_cpu_cache();
  CHECK(a.stats().cached_bytes == 0);
}

TEST_CASE("CPU allocator: blocks of 2 MiB and more sit on 2 MiB boundaries, advised for huge pages when asked",
          "[core]") {
  CpuCachingAllocator& a = cpu_caching_allocator();
  const bool was = a.huge_pages();
  const char* env = std::getenv("LZ_CPU_HUGE_PAGES");  // on unless "0"
  CHECK(was == (env == nullptr || std::string_view(env) != "0"));
  for (const bool advise : {false, true}) {
    CAPTURE(advise);
    a.set_huge_pages(advise);
    a.empty_cache();  // a cached block would be reused, not mapped
    const CpuAllocatorStats s0 = a.stats();
    {
      DataPtr big = a.allocate(CpuCachingAllocator::kHugeBlockThreshold + 100, kCpuDevice);
      CHECK(aligned(big.get(), CpuCachingAllocator::kHugeBlockThreshold));
      CHECK(big.capacity() % CpuCachingAllocator::kHugeBlockThreshold == 0);
      std::memset(big.get(), 1, big.capacity());
      CHECK(a.stats().huge_page_blocks == s0.huge_page_blocks + (advise ? 1 : 0));
      DataPtr small = a.allocate(4096, kCpuDevice);
      CHECK(a.stats().huge_page_blocks == s0.huge_page_blocks + (advise ? 1 : 0));
    }
    a.empty_cache();
  }
  a.set_huge_pages(was);
}

TEST_CASE("CPU allocator: impossible sizes throw OutOfMemoryError", "[core]") {
  CpuCachingAllocator& a = cpu_caching_allocator();
  const CpuAllocatorStats s0 = a.stats();
  for (size_t n : {std::numeric_limits<size_t>::max(), std::numeric_limits<size_t>::max() - 100,
                   (std::numeric_limits<size_t>::max() / 4) * 3, size_t{1} << 62}) {
    INFO("nbytes " << n);
    CHECK_THROWS_AS(a.allocate(n, kCpuDevice), OutOfMemoryError);
  }
  CHECK(a.stats().allocated_bytes == s0.allocated_bytes);
  // Through the public API: 2^62 - 1 float32 elements need 2^64 - 4 bytes.
  CHECK_THROWS_AS(lz::empty({(int64_t{1} << 62) - 1}, kFloat32), OutOfMemoryError);
}

TEST_CASE("AllocatorGuard installs a custom CPU allocator and restores the old one", "[core]") {
  Allocator* const original = get_allocator(DeviceType::CPU);
  CHECK(original == &cpu_caching_allocator());
  CountingAllocator mine;
  {
    AllocatorGuard guard(DeviceType::CPU, &mine);
    CHECK(get_allocator(DeviceType::CPU) == &mine);
    {
      Tensor t = lz::empty({2, 3});
      CHECK(mine.calls == 1);
      CHECK(mine.bytes == 2 * 3 * sizeof(float));
      Tensor u = lz::zeros({5}, kFloat64);
      CHECK(mine.calls == 2);
      CHECK(mine.bytes == 24 + 40);
      CHECK(u.data_ptr<double>()[4] == 0.0);
      Storage s = make_storage(10, kCpuDevice);
      CHECK(mine.calls == 3);
    }
    CHECK(mine.frees == 3);
  }
  CHECK(get_allocator(DeviceType::CPU) == original);
  Tensor after = lz::empty({4});
  CHECK(mine.calls == 3);
  // Nested guards unwind in order.
  CountingAllocator outer, inner;
  {
    AllocatorGuard g1(DeviceType::CPU, &outer);
    {
      AllocatorGuard g2(DeviceType::CPU, &inner);
      CHECK(get_allocator(DeviceType::CPU) == &inner);
    }
    CHECK(get_allocator(DeviceType::CPU) == &outer);
  }
  CHECK(get_allocator(DeviceType::CPU) == original);
  CHECK_THROWS_AS(set_allocator(DeviceType::CPU, nullptr), ValueError);
  CHECK(get_allocator(DeviceType::CPU) == original);
}

TEST_CASE("CUDA allocation without a CUDA runtime throws DeviceError", "[core]") {
  Allocator* cuda = get_allocator(DeviceType::CUDA);
  REQUIRE(cuda != nullptr);
  CHECK_THROWS_AS(cuda->allocate(16, Device("cuda:0")), DeviceError);
  CHECK_THROWS_WITH(cuda->allocate(16, Device("cuda:1")), Contains("CUDA unavailable") && Contains("cuda:1"));
  CHECK_THROWS_AS(make_storage(16, Device("cuda")), DeviceError);
}

TEST_CASE("Storage: resize keeps contents and honours capacity", "[core]") {
  Storage s = make_storage(8, kCpuDevice);
  CHECK(s->nbytes() == 8);
  CHECK(s->resizable());
  CHECK(s->device() == kCpuDevice);
  std::memcpy(s->data(), "abcdefgh", 8);
  void* const before = s->data();
  s->resize(40);  // still inside the 64-byte class: no new block
  CHECK(s->nbytes() == 40);
  CHECK(s->data() == before);
  s->resize(4);  // never shrinks
  CHECK(s->nbytes() == 40);
  s->resize(100000);
  CHECK(s->nbytes() == 100000);
  CHECK(std::memcmp(s->data(), "abcdefgh", 8) == 0);
  CHECK(aligned(s->data(), kAllocAlignment));

  float external[4] = {1, 2, 3, 4};
  Storage blob = make_intrusive<StorageImpl>(DataPtr(external, sizeof(external), nullptr, nullptr, kCpuDevice),
                                             sizeof(external));
  CHECK_FALSE(blob->resizable());
  CHECK(blob->data() == external);
  blob->resize(8);  // shrinking requests are no-ops even when not resizable
  CHECK_THROWS_AS(blob->resize(32), ValueError);
  CHECK_THROWS_WITH(blob->resize(32), Contains("from_blob"));
  CHECK(blob->nbytes() == sizeof(external));
}

TEST_CASE("CPU allocator: concurrent allocate/free keeps the books balanced", "[core]") {
  CpuCachingAllocator& a = cpu_caching_allocator();
  const CpuAllocatorStats s0 = a.stats();
  std::vector<std::thread> threads;
  std::atomic<int> misaligned{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      std::vector<DataPtr> live;
      for (int i = 0; i < 2000; ++i) {
        live.push_back(a.allocate(64 + static_cast<size_t>((i * 37 + t * 11) % 5000), kCpuDevice));
        if (!aligned(live.back().get(), kAllocAlignment)) ++misaligned;
        std::memset(live.back().get(), t, 64);
        if (live.size() > 8) live.erase(live.begin());
      }
    });
  }
  for (auto& th : threads) th.join();
  const CpuAllocatorStats s1 = a.stats();
  CHECK(misaligned == 0);
  CHECK(s1.allocations == s0.allocations + 8000);
  CHECK(s1.cache_hits + s1.cache_misses == s0.cache_hits + s0.cache_misses + 8000);
  CHECK(s1.allocated_bytes == s0.allocated_bytes);
}
