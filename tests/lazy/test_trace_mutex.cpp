// TraceMutex: recursion on its owner thread, mutual exclusion between
// threads, and sleeping waiters being woken.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "lazy/trace_mutex.h"

using lz::lazy::TraceMutex;

TEST_CASE("TraceMutex: the owner re-locks it, and others wait until the outermost unlock", "[lazy][mutex]") {
  TraceMutex m;
  std::atomic<bool> other_in{false};
  m.lock();
  m.lock();  // recursive
  std::thread other([&] {
    std::lock_guard<TraceMutex> g(m);
    other_in = true;
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK_FALSE(other_in.load());
  m.unlock();  // still held once
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  CHECK_FALSE(other_in.load());
  m.unlock();
  other.join();
  CHECK(other_in.load());
}

TEST_CASE("TraceMutex: threads that lock it (recursively) never overlap", "[lazy][mutex]") {
  TraceMutex m;
  int64_t counter = 0;  // plain: only touched under the mutex
  std::atomic<int> inside{0};
  std::atomic<bool> overlapped{false};
  constexpr int kThreads = 4, kIterations = 20000;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 0; i < kIterations; ++i) {
        std::lock_guard<TraceMutex> outer(m);
        std::lock_guard<TraceMutex> inner(m);
        if (inside.fetch_add(1) != 0) overlapped = true;
        ++counter;
        inside.fetch_sub(1);
      }
    });
  }
  for (std::thread& t : threads) t.join();
  CHECK_FALSE(overlapped.load());
  CHECK(counter == int64_t{kThreads} * kIterations);
}
