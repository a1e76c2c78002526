// The thread pool: chunking, determinism, exceptions, nesting, thread count.
#include <catch2/catch.hpp>

#include <atomic>
#include <mutex>
#include <numeric>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

#include <lazuli/lazuli.h>

#include "core/parallel.h"

using namespace lz;

namespace {

// Restores the thread count when a test changes it.
struct ThreadCountGuard {
  int saved = get_num_threads();
  ~ThreadCountGuard() { set_num_threads(saved); }
};

}  // namespace

TEST_CASE("parallel_for covers the range exactly once, in static chunks", "[core][parallel]") {
  ThreadCountGuard guard;
  for (int threads : {1, 2, 3, 4}) {
    set_num_threads(threads);
    for (int64_t n : {0, 1, 7, 1000, 100003}) {
      std::vector<std::atomic<int>> hits(static_cast<size_t>(n));
      std::mutex mutex;
      std::vector<std::pair<int64_t, int64_t>> chunks;
      parallel_for(0, n, 100, [&](int64_t b, int64_t e) {
        for (int64_t i = b; i < e; ++i) hits[static_cast<size_t>(i)]++;
        std::lock_guard<std::mutex> lock(mutex);
        chunks.emplace_back(b, e);
      });
      for (int64_t i = 0; i < n; ++i) REQUIRE(hits[static_cast<size_t>(i)] == 1);
      const int64_t expected_chunks = n == 0 ? 0 : parallel_chunks(0, n, 100);
      CHECK(static_cast<int64_t>(chunks.size()) == expected_chunks);
      CHECK(expected_chunks <= std::max<int64_t>(threads, 1));
      for (auto [b, e] : chunks) CHECK((e - b >= 100 || expected_chunks == 1));
    }
  }
}

TEST_CASE("parallel_chunks depends only on range, grain and thread count", "[core][parallel]") {
  ThreadCountGuard guard;
  set_num_threads(4);
  CHECK(parallel_chunks(0, 10, 100) == 1);
  CHECK(parallel_chunks(0, 250, 100) == 3);
  CHECK(parallel_chunks(0, 1'000'000, 100) == 4);
  CHECK(parallel_chunks(5, 5, 100) == 1);
  set_num_threads(1);
  CHECK(parallel_chunks(0, 1'000'000, 100) == 1);
}

TEST_CASE("parallel_for uses several threads for large ranges", "[core][parallel]") {
  ThreadCountGuard guard;
  set_num_threads(2);
  std::mutex mutex;
  std::set<std::thread::id> ids;
  parallel_for(0, 1 << 20, 1, [&](int64_t, int64_t) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));  // keep both threads busy
    std::lock_guard<std::mutex> lock(mutex);
    ids.insert(std::this_thread::get_id());
  });
  CHECK(ids.size() == 2);
}

TEST_CASE("exceptions from chunks reach the caller", "[core][parallel]") {
  ThreadCountGuard guard;
  set_num_threads(2);
  REQUIRE_THROWS_WITH(parallel_for(0, 1000, 1,
                                   [](int64_t b, int64_t) {
                                     if (b > 0) throw std::runtime_error("chunk failed");
                                   }),
                      "chunk failed");
  // The pool still works afterwards.
  std::atomic<int64_t> total{0};
  parallel_for(0, 1000, 1, [&](int64_t b, int64_t e) { total += e - b; });
  CHECK(total == 1000);
}

TEST_CASE("nested parallel regions run inline", "[core][parallel]") {
  ThreadCountGuard guard;
  set_num_threads(2);
  std::atomic<int> inner_chunks{0};
  std::atomic<bool> saw_region{false};
  parallel_for(0, 2, 1, [&](int64_t, int64_t) {
    if (in_parallel_region()) saw_region = true;
    parallel_for(0, 1000, 1, [&](int64_t, int64_t) { inner_chunks++; });
  });
  CHECK(saw_region);
  CHECK(inner_chunks == 2);  // one inline chunk per outer chunk
  CHECK_FALSE(in_parallel_region());
}

TEST_CASE("set_num_threads validates its argument", "[core][parallel]") {
  ThreadCountGuard guard;
  REQUIRE_THROWS_AS(set_num_threads(0), ValueError);
  REQUIRE_THROWS_WITH(set_num_threads(-3), Catch::Contains("[set_num_threads] n: must be >= 1, got -3"));
  set_num_threads(3);
  CHECK(get_num_threads() == 3);
}

TEST_CASE("kernels give the same answer on any number of threads", "[core][parallel]") {
  ThreadCountGuard guard;
  // Large enough to be split; transposed so rows are cut mid-way by chunks.
  const Tensor a = randn({700, 301}, make_generator(3)).t();
  const Tensor b = randn({700}, make_generator(4));
  set_num_threads(1);
  const Tensor one = a * b + 1;
  const Tensor one_sum = a.sum({0});
  for (int threads : {2, 3, 5}) {
    set_num_threads(threads);
    CHECK(equal(a * b + 1, one));
    CHECK(equal(a.sum({0}), one_sum));
  }
}
