// The lazy layer and threads: each thread records into its own trace, and a
// tensor pending in another thread's trace is materialised there when used.
// Catch2 assertions are not thread-safe: worker threads only record what
// went wrong, the test thread asserts.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

using lz::Scalar;
using lz::Tensor;

namespace {

namespace lzl = lz::lazy;



// Collects failures from worker threads.
class Failures {
 public:
  void add(std::string what) {
    std::lock_guard<std::mutex> lock(mutex_);
    messages_.push_back(std::move(what));
  }
  std::vector<std::string> take() {
    std::lock_guard<std::mutex> lock(mutex_);
    return std::move(messages_);
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> messages_;
};

// "" when `actual` (lazy or eager) has expected's sizes, dtype and values.
std::string difference(const Tensor& actual, const Tensor& expected) {
  const Tensor a = actual.to_eager();
  if (a.is_lazy()) return "to_eager returned a lazy tensor";
  if (a.sizes() != expected.sizes()) return "sizes differ: " + a.to_string() + " vs " + expected.to_string();
  if (a.dtype() != expected.dtype()) return "dtypes differ: " + a.to_string() + " vs " + expected.to_string();
  if (!lz::allclose(a, expected, 1e-5, 1e-6)) return "values differ: " + a.to_string() + " vs " + expected.to_string();
  return "";
}

void report(const std::vector<std::string>& failures) {
  for (size_t i = 0; i < failures.size() && i < 10; ++i) UNSCOPED_INFO(failures[i]);
  CHECK(failures.empty());
}

// The per-thread computation: the same code on eager and lazy inputs.
Tensor body(const Tensor& x, double k) {
  const Tensor a = x.mul(Scalar(k)).sin();
  return a.add(x, Scalar(0.5)).exp().mul(a.cos());
}

}  // namespace

TEST_CASE("lazy four threads trace and materialise their own graphs 50 times", "[lazy]") {
  lz::sync_all();
  lzl::reset_metrics();
  constexpr int kThreads = 4;
  constexpr int kRounds = 50;
  Failures failures;
  for (int round = 0; round < kRounds; ++round) {
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t) {
      threads.emplace_back([&failures, round, t] {
        try {
          const double k = 0.25 * (t + 1) + 0.01 * round;
          const Tensor xe = lz::linspace(-1.0 - t, 1.0 + round * 0.01, 24).reshape({4, 6});
          const Tensor expected = body(xe, k);
          const Tensor expected_sum = expected.sum(std::vector<int64_t>{1});
          const Tensor y = body(xe.to_lazy(), k);
          const Tensor y_sum = y.sum(std::vector<int64_t>{1});
          if (!y.is_lazy()) failures.add("result is not lazy");
          if (lzl::pending_nodes() == 0) failures.add("nothing pending before materialisation");
          std::string d = difference(y, expected);
          if (!d.empty()) failures.add("thread " + std::to_string(t) + " round " + std::to_string(round) + ": " + d);
          if (lzl::pending_nodes() != 0) failures.add("trace not cleared after materialisation");
          d = difference(y_sum, expected_sum);
          if (!d.empty()) failures.add("sum, thread " + std::to_string(t) + ": " + d);
        } catch (const std::exception& e) {
          failures.add(std::string("exception: ") + e.what());
        }
      });
    }
    for (std::thread& th : threads) th.join();
  }
  report(failures.take());
  const lzl::LazyMetrics m = lzl::metrics();
  // One graph per thread per round (y and its sum together).
  CHECK(m.graphs_materialized == kThreads * kRounds);
  CHECK(m.cache_hits + m.cache_misses == kThreads * kRounds);
  CHECK(m.cache_misses >= 1);
  CHECK(m.cache_hits >= kThreads * kRounds - kThreads);
  CHECK(lzl::count_of(m.syncs, "to_eager") == kThreads * kRounds);
  CHECK(lzl::count_of(m.syncs, "cross_thread") == 0);
}

TEST_CASE("lazy tensor traced on one thread and used on another", "[lazy]") {
  lz::sync_all();
  lzl::reset_metrics();
  const Tensor xe = lz::randn({8});
  Tensor a;
  size_t pending_on_producer = 0;
  std::thread producer([&] {
    a = xe.to_lazy().exp().mul(Scalar(3.0));
    pending_on_producer = lzl::pending_operators();
  });
  producer.join();
  REQUIRE(a.is_lazy());
  CHECK(pending_on_producer == 2);
  CHECK(lzl::pending_nodes() == 0);  // this thread's trace is another one
  CHECK(lzl::metrics().ops_traced == 2);  // counted by a thread that has exited

  const Tensor b = a.add(Scalar(1.0));  // runs the producer's trace first
  lzl::LazyMetrics m = lzl::metrics();
  CHECK(lzl::count_of(m.syncs, "cross_thread") == 1);
  CHECK(m.graphs_materialized == 1);
  CHECK(lzl::pending_operators() == 1);  // the add (a is an input now)

  const Tensor ae = xe.exp().mul(Scalar(3.0));
  CHECK(difference(b, ae.add(Scalar(1.0))) == "");
  CHECK(difference(a, ae) == "");
  m = lzl::metrics();
  CHECK(m.graphs_materialized == 2);
  CHECK(lzl::count_of(m.syncs, "cross_thread") == 1);
  CHECK(lzl::count_of(m.syncs, "to_eager") == 1);

  // A pending tensor of a finished thread read directly, and one dropped here.
  Tensor c;
  Tensor dropped;
  std::thread other([&] {
    c = xe.to_lazy().sin();
    dropped = xe.to_lazy().cos();
  });
  other.join();
  CHECK(lzl::metrics().ops_traced == 5);
  dropped = Tensor();
  CHECK(difference(c, xe.sin()) == "");
}

TEST_CASE("lazy tensors handed between running threads", "[lazy]") {
  lz::sync_all();
  lzl::reset_metrics();
  constexpr int kItems = 50;
  const Tensor xe = lz::randn({16});
  std::mutex mutex;
  std::condition_variable cv;
  std::deque<std::pair<int, Tensor>> queue;
  bool consumer_done = false;
  Failures failures;

  // The producer keeps tracing (its own values pending in its trace) while
  // the consumer uses what it hands over.
  std::thread producer([&] {
    try {
      Tensor own = xe.to_lazy();
      for (int i = 0; i < kItems; ++i) {
        const Tensor item = xe.to_lazy().mul(Scalar(static_cast<double>(i))).sin();
        own = own.mul(Scalar(0.5)).add(item);
        {
          std::lock_guard<std::mutex> lock(mutex);
          queue.emplace_back(i, item);
        }
        cv.notify_all();
      }
      // Materialise the own chain only when the consumer is done, so the
      // consumer finds pending values of this trace (cross-thread syncs).
      {
        std::unique_lock<std::mutex> lock(mutex);
        cv.wait(lock, [&] { return consumer_done; });
      }
      Tensor own_e = xe;
      for (int i = 0; i < kItems; ++i) {
        own_e = own_e.mul(Scalar(0.5)).add(xe.mul(Scalar(static_cast<double>(i))).sin());
      }
      const std::string d = difference(own, own_e);
      if (!d.empty()) failures.add("producer: " + d);
    } catch (const std::exception& e) {
      failures.add(std::string("producer exception: ") + e.what());
    }
  });
  std::thread consumer([&] {
    try {
      for (int received = 0; received < kItems; ++received) {
        std::pair<int, Tensor> next;
        {
          std::unique_lock<std::mutex> lock(mutex);
          cv.wait(lock, [&] { return !queue.empty(); });
          next = std::move(queue.front());
          queue.pop_front();
        }
        const Tensor used = next.second.add(Scalar(1.0)).exp();
        const Tensor expected = xe.mul(Scalar(static_cast<double>(next.first))).sin().add(Scalar(1.0)).exp();
        const std::string d = difference(used, expected);
        if (!d.empty()) failures.add("consumer item " + std::to_string(next.first) + ": " + d);
      }
    } catch (const std::exception& e) {
      failures.add(std::string("consumer exception: ") + e.what());
    }
    {
      std::lock_guard<std::mutex> lock(mutex);
      consumer_done = true;
    }
    cv.notify_all();
  });
  producer.join();
  consumer.join();
  report(failures.take());
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(lzl::count_of(m.syncs, "cross_thread") >= 1);
  CHECK(lzl::count_of(m.syncs, "cross_thread") <= kItems);
}
