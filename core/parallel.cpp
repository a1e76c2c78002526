#include "core/parallel.h"

#include <sched.h>

#include <atomic>
#include <condition_variable>
#include <cstdlib>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/error.h"

namespace lz {

namespace {

thread_local bool tls_in_parallel = false;

int default_num_threads() {
  if (const char* env = std::getenv("LZ_NUM_THREADS")) {
    const int n = std::atoi(env);
    if (n >= 1) return n;
  }
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

// A fixed set of workers that wait for one job at a time. A job is a
// chunked range: every thread (workers and the caller) claims chunks from an
// atomic counter until none are left.
class ThreadPool {
 public:
  static ThreadPool& instance() {
    // Leaked: workers may still be parked when static destructors run.
    static ThreadPool* pool = new ThreadPool();
    return *pool;
  }

  int num_threads() const { return num_threads_.load(std::memory_order_relaxed); }

  void set_num_threads(int n) {
    std::lock_guard<std::mutex> run(run_mutex_);
    stop_workers();
    num_threads_.store(n, std::memory_order_relaxed);
  }

  void run(int64_t begin, int64_t end, int64_t chunks,
           const std::function<void(int64_t, int64_t)>& f) {
    std::lock_guard<std::mutex> run(run_mutex_);  // one job at a time
    start_workers();
    {
      // Workers still leaving the previous job hold its (finished) state;
      // wait for them before resetting the chunk counter.
      std::unique_lock<std::mutex> lock(mutex_);
      done_.wait(lock, [&] { return active_ == 0; });
      job_ = Job{begin, end, chunks, &f};
      next_chunk_.store(0, std::memory_order_relaxed);
      pending_ = chunks;
      error_ = nullptr;
      ++generation_;
    }
    wake_.notify_all();
    work(job_);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [&] { return pending_ == 0; });
    if (error_) std::rethrow_exception(error_);
  }

 private:
  struct Job {
    int64_t begin = 0, end = 0, chunks = 0;
    const std::function<void(int64_t, int64_t)>* f = nullptr;
  };

  ThreadPool() : num_threads_(default_num_threads()) {}

  void start_workers() {
    const int wanted = num_threads() - 1;
    if (static_cast<int>(workers_.size()) == wanted) return;
    stop_workers();
    stopping_ = false;
    for (int i = 0; i < wanted; ++i) workers_.emplace_back([this] { worker_loop(); });
  }

  void stop_workers() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stopping_ = true;
    }
    wake_.notify_all();
    for (std::thread& t : workers_) t.join();
    workers_.clear();
  }

  void worker_loop() {
    uint64_t seen = 0;
    while (true) {
      Job job;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait(lock, [&] { return stopping_ || generation_ != seen; });
        if (stopping_) return;
        seen = generation_;
        job = job_;
        ++active_;
      }
      work(job);
      std::lock_guard<std::mutex> lock(mutex_);
      if (--active_ == 0) done_.notify_all();
    }
  }

  // Claims and runs chunks of `job` until none are left.
  void work(const Job& job) {
    tls_in_parallel = true;
    while (true) {
      const int64_t c = next_chunk_.fetch_add(1, std::memory_order_relaxed);
      if (c >= job.chunks) break;
      const int64_t n = job.end - job.begin;
      const int64_t lo = job.begin + n * c / job.chunks;
      const int64_t hi = job.begin + n * (c + 1) / job.chunks;
      try {
        (*job.f)(lo, hi);
      } catch (...) {
        std::lock_guard<std::mutex> lock(mutex_);
        if (!error_) error_ = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex_);
      if (--pending_ == 0) done_.notify_all();
    }
    tls_in_parallel = false;
  }

  std::atomic<int> num_threads_;
  std::mutex run_mutex_;
  std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable done_;
  std::vector<std::thread> workers_;
  bool stopping_ = false;
  uint64_t generation_ = 0;
  Job job_;
  std::atomic<int64_t> next_chunk_{0};
  int64_t pending_ = 0;  // chunks not yet finished
  int active_ = 0;       // workers inside the current job
  std::exception_ptr error_;
};

}  // namespace

int get_num_threads() { return ThreadPool::instance().num_threads(); }

void set_num_threads(int n) {
  LZ_CHECK(n >= 1, ValueError, "[set_num_threads] n: must be >= 1, got ", n);
  ThreadPool::instance().set_num_threads(n);
}

bool in_parallel_region() { return tls_in_parallel; }

int64_t parallel_chunks(int64_t begin, int64_t end, int64_t grain) {
  const int64_t n = end - begin;
  if (n <= 0) return 1;
  if (tls_in_parallel) return 1;
  const int64_t by_grain = (n + std::max<int64_t>(grain, 1) - 1) / std::max<int64_t>(grain, 1);
  return std::max<int64_t>(1, std::min<int64_t>(get_num_threads(), by_grain));
}

void parallel_for(int64_t begin, int64_t end, int64_t grain,
                  const std::function<void(int64_t, int64_t)>& f) {
  if (end <= begin) return;
  const int64_t chunks = parallel_chunks(begin, end, grain);
  if (chunks == 1) {
    f(begin, end);
    return;
  }
  ThreadPool::instance().run(begin, end, chunks, f);
}

}  // namespace lz
