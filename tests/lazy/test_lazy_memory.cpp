// Memory stays flat in a long trace -> materialise -> drop loop (10^5
// iterations): every node is freed, the executable cache stays within its
// capacity, the CPU allocator hands out no more bytes at the end than after
// warm-up, and the process's resident memory does not grow.
#include <catch2/catch.hpp>

#include <fstream>

#include <unistd.h>

#include "lazy_test_util.h"

namespace {

using namespace lazy_test;

// Resident set size of this process, from /proc (0 where there is none,
// and under ASan, whose quarantine keeps freed memory resident on purpose:
// there the allocator's books and LeakSanitizer are the checks).
size_t resident_bytes() {
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
  return 0;
#else
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  if (!(statm >> pages >> resident)) return 0;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
#endif
}

struct Snapshot {
  size_t allocated = lz::cpu_allocator_stats().allocated_bytes;
  uint64_t cache_size = lzl::metrics().cache_size;
  size_t resident = resident_bytes();
};

TEST_CASE("memory: 10^5 trace, materialise, drop iterations keep memory flat", "[lazy][memory]") {
  fresh_start();
  SettingsGuard guard;
  const uint64_t cached_before = lzl::metrics().cache_size;  // other tests' executables
  // Eight input shapes: eight executables, reused from the cache.
  std::vector<Tensor> eager_inputs;
  for (int64_t n = 1; n <= 8; ++n) eager_inputs.push_back(lz::ones({n, 33}));
  auto iteration = [&](int i) {
    const Tensor x = eager_inputs[i % 8].to_lazy();
    const Tensor y = lz::softmax(lz::relu(x * 2 + 1), -1).sum();
    return y.item<double>();  // materialises, then x and y go out of scope
  };
  double total = 0;
  for (int i = 0; i < 2000; ++i) total += iteration(i);
  const Snapshot warm;
  const uint64_t freed_before = lzl::metrics().nodes_freed;
  for (int i = 0; i < 100000; ++i) total += iteration(i);
  const Snapshot end;
  // Each softmax row sums to 1: y = n, 4.5 on average; float sums round a little.
  CHECK_THAT(total, Catch::Matchers::WithinRel(459000.0, 2e-5));
  CHECK(lzl::pending_nodes() == 0);
  // Every node traced was freed: 6 operators and an input per iteration.
  CHECK(lzl::metrics().nodes_freed - freed_before >= 100000 * 6);
  CHECK(end.cache_size == warm.cache_size);
  CHECK(end.cache_size <= cached_before + 8);
  CHECK(end.allocated == warm.allocated);
  if (warm.resident > 0) {
    INFO("resident after warm-up " << warm.resident << " B, after 10^5 iterations " << end.resident << " B");
    CHECK(end.resident <= warm.resident + 8 * 1024 * 1024);
  }
}

TEST_CASE("memory: ever new graphs stay within the executable cache's capacity", "[lazy][memory]") {
  fresh_start();
  SettingsGuard guard;
  lzl::Settings s = lzl::settings();
  s.cache_capacity = 32;
  lzl::set_settings(s);
  const uint64_t evictions = lzl::metrics().cache_evictions;
  const Tensor base = lz::ones({4, 8});
  size_t warm_resident = 0;
  // 2000 distinct graphs: chains of 1..2000 additions of a scalar parameter
  // would be one graph per length; mixing ops by the bits of i makes them distinct.
  for (int i = 0; i < 2000; ++i) {
    Tensor x = base.to_lazy();
    for (int bit = 0; bit < 11; ++bit) x = (i >> bit) & 1 ? lz::exp(x * 0.01) : lz::neg(x);
    x.to_eager();
    if (i == 200) warm_resident = resident_bytes();
    CHECK(lzl::metrics().cache_size <= 32);
  }
  CHECK(lzl::metrics().cache_evictions - evictions >= 2000 - 32);
  CHECK(lzl::pending_nodes() == 0);
  if (warm_resident > 0) {
    INFO("resident after 200 graphs " << warm_resident << " B, after 2000 " << resident_bytes() << " B");
    CHECK(resident_bytes() <= warm_resident + 16 * 1024 * 1024);
  }
}

}  // namespace
