// TraceMutex: the recursive mutex of a trace. Its own thread takes it for
// every operator it records (recording re-enters, hence recursive); other
// threads take it rarely (destroying a tensor registered there, reading a
// value pending there). So the uncontended path is what matters: one
// atomic to lock, one to unlock, no library call (std::recursive_mutex
// costs two calls into pthreads per operator). A thread that finds it held
// sleeps on the futex (std::atomic::wait) until the holder lets go.
#pragma once

#include <atomic>
#include <cstdint>
#include <thread>

namespace lz::lazy {

class TraceMutex {
 public:
  TraceMutex() = default;
  TraceMutex(const TraceMutex&) = delete;
  TraceMutex& operator=(const TraceMutex&) = delete;

  void lock() {
    const std::thread::id me = std::this_thread::get_id();
    // Only this thread ever stores its own id, so a relaxed read is exact.
    if (owner_.load(std::memory_order_relaxed) == me) {
      ++depth_;
      return;
    }
    int free = kFree;
    if (!state_.compare_exchange_strong(free, kLocked, std::memory_order_acquire)) lock_contended();
    owner_.store(me, std::memory_order_relaxed);
    depth_ = 1;
  }

  void unlock() {
    if (--depth_ > 0) return;
    owner_.store(std::thread::id(), std::memory_order_relaxed);
    if (state_.exchange(kFree, std::memory_order_release) == kWaiters) state_.notify_one();
  }

 private:
  static constexpr int kFree = 0, kLocked = 1, kWaiters = 2;

  void lock_contended() {
    // Marks the mutex as awaited, so the holder's unlock wakes a sleeper.
    while (state_.exchange(kWaiters, std::memory_order_acquire) != kFree) {
      state_.wait(kWaiters, std::memory_order_relaxed);
    }
  }

  std::atomic<int> state_{kFree};
  std::atomic<std::thread::id> owner_{};
  uint32_t depth_ = 0;  // touched only by the owner
};

}  // namespace lz::lazy
