#include "codegen_llvm/compile_queue.h"

#include <pthread.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <condition_variable>
#include <deque>
#include <mutex>
#include <new>
#include <thread>

namespace lz::codegen_llvm {

namespace {

constexpr int kNice = 10;

class CompileQueue {
 public:
  CompileQueue() {
    // A forked child has none of the parent's threads: it starts its own
    // compile thread on demand (the parent's queue and lock are not its).
    pthread_atfork(nullptr, nullptr, [] { queue_in_child(); });
  }

  ~CompileQueue() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stopping_ = true;
      pending_ -= static_cast<int64_t>(jobs_.size());
      jobs_.clear();
    }
    more_.notify_all();
    if (thread_.joinable()) thread_.join();
  }

  void push(std::function<void()> job) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      if (stopping_) return;
      if (!thread_.joinable()) thread_ = std::thread([this] { work(); });
      jobs_.push_back(std::move(job));
      ++pending_;
    }
    more_.notify_one();
  }

  void wait() {
    std::unique_lock<std::mutex> lock(mu_);
    done_.wait(lock, [&] { return pending_ == 0; });
  }

  int64_t pending() {
    std::lock_guard<std::mutex> lock(mu_);
    return pending_;
  }

 private:
  void work() {
    // Below the program's threads: on a machine whose cores the program
    // keeps busy, a compile must not delay its parallel loops' chunks (a
    // loop waits for its slowest thread). Linux: a thread's own nice value.
    setpriority(PRIO_PROCESS, static_cast<id_t>(::syscall(SYS_gettid)), kNice);
    std::unique_lock<std::mutex> lock(mu_);
    while (true) {
      more_.wait(lock, [&] { return stopping_ || !jobs_.empty(); });
      if (jobs_.empty()) return;  // stopping
      std::function<void()> job = std::move(jobs_.front());
      jobs_.pop_front();
      lock.unlock();
      job();  // jobs catch their own errors
      job = nullptr;  // what it holds goes before the job counts as done
      lock.lock();
      if (--pending_ == 0) done_.notify_all();
    }
  }

  static void queue_in_child();

  std::mutex mu_;
  std::condition_variable more_, done_;
  std::deque<std::function<void()>> jobs_;
  std::deque<std::function<void()>>* parents_jobs_ = nullptr;  // in a forked child
  int64_t pending_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

CompileQueue& queue() {
  static CompileQueue q;
  return q;
}

void CompileQueue::queue_in_child() {
  CompileQueue& q = queue();
  new (&q.mu_) std::mutex();
  new (&q.more_) std::condition_variable();
  new (&q.done_) std::condition_variable();
  // The parent's queued jobs are the parent's: never run or destroyed here
  // (they hold its kernels), kept reachable.
  if (!q.jobs_.empty()) q.parents_jobs_ = new std::deque<std::function<void()>>(std::move(q.jobs_));
  q.jobs_.clear();
  q.pending_ = 0;
  new (&q.thread_) std::thread();  // not joinable: no thread of this process
}

}  // namespace

void compile_later(std::function<void()> job) { queue().push(std::move(job)); }
void wait_for_compiles() { queue().wait(); }
int64_t compiles_pending() { return queue().pending(); }

}  // namespace lz::codegen_llvm
