// cuda_emu.h - runs CUDA C++ kernels on the CPU.
//
// Generated CUDA source is compiled by the host compiler together with this
// header, so code generation can be tested without a GPU. The header provides
// the subset of the CUDA execution model the generator uses (x dimension only)
// and lz_emu::launch(), which runs a grid of blocks:
//   * every CUDA thread of a block is a cooperative fiber (ucontext) on one
//     host thread; a fiber runs until it reaches a barrier or returns, and a
//     deterministic round-robin scheduler resumes fibers whose barrier is done;
//   * blocks run one after another on each of `host_threads` OS threads;
//   * __shared__ is `static thread_local`: a block's shared arrays live per
//     host thread, and as the blocks on one host thread never overlap, each
//     block has them to itself. Their contents are left over from the previous
//     block (CUDA shared memory is uninitialised too). `extern __shared__`
//     (dynamic shared memory) is not supported.
// Only standard and POSIX headers may be included: the runtime pastes this
// text at the top of generated sources.
// Include guard rather than #pragma once, which g++ warns about in a main file.
#ifndef LZ_CUDA_EMU_H
#define LZ_CUDA_EMU_H

#include <atomic>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <exception>
#include <functional>
#include <math.h>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <sys/mman.h>
#include <ucontext.h>
#include <unistd.h>

// ---- Qualifiers -------------------------------------------------------------
// __restrict__ is a g++ keyword already and is left alone.
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __launch_bounds__(...)
#define __shared__ static thread_local

// AddressSanitizer must be told about stack switches, or it reports false
// stack overflows once a fiber throws.
#if defined(__SANITIZE_ADDRESS__)
extern "C" void __sanitizer_start_switch_fiber(void** fake_stack, const void* bottom, std::size_t size);
extern "C" void __sanitizer_finish_switch_fiber(void* fake_stack, const void** bottom, std::size_t* size);
#define LZ_EMU_ASAN_START(fake, bottom, size) __sanitizer_start_switch_fiber(fake, bottom, size)
#define LZ_EMU_ASAN_FINISH(fake, bottom, size) __sanitizer_finish_switch_fiber(fake, bottom, size)
#else
#define LZ_EMU_ASAN_START(fake, bottom, size) ((void)0)
#define LZ_EMU_ASAN_FINISH(fake, bottom, size) ((void)0)
#endif

// Hidden visibility: every shared object that pastes this header gets its own
// emulator state instead of binding to another object's copy.
namespace lz_emu __attribute__((visibility("hidden"))) {

struct uint3 {
  unsigned int x, y, z;
};

namespace detail {

// ---- Per-block state --------------------------------------------------------
enum class State { ready, at_syncthreads, at_syncwarp, done };

struct Fiber {
  ucontext_t ctx;
  State state = State::ready;
  unsigned tid = 0;
  char* stack = nullptr;
  void* asan_fake_stack = nullptr;
};

// Thrown into fibers left at a barrier so their stacks unwind (destructors
// run) before the block is discarded. Deliberately not a std::exception.
struct Cancelled {};

struct Block {
  const std::function<void()>* kernel = nullptr;
  unsigned index = 0, size = 0;
  std::vector<Fiber> fibers;
  std::vector<std::uint64_t> shfl_slots;  // one per thread, read by its warp
  ucontext_t scheduler;
  std::exception_ptr error;  // first exception thrown by a thread
  bool cancelling = false;
  const void* scheduler_stack = nullptr;  // for ASan only
  std::size_t scheduler_stack_size = 0;
  void* asan_fake_stack = nullptr;
};

// State of the fiber running on this host thread; read by the built-ins.
inline thread_local Block* tl_block = nullptr;
inline thread_local Fiber* tl_fiber = nullptr;
inline thread_local uint3 tl_thread_idx{0, 0, 0};
inline thread_local uint3 tl_block_idx{0, 0, 0};
inline thread_local uint3 tl_block_dim{1, 1, 1};
inline thread_local uint3 tl_grid_dim{1, 1, 1};

// ---- Fiber stacks -----------------------------------------------------------
// 256 KiB per fiber plus a PROT_NONE guard page, so an overflow faults instead
// of corrupting a neighbour. Pages are committed on touch; one pool per host
// thread is reused by all the blocks that thread runs.
class StackPool {
 public:
  static constexpr std::size_t stack_bytes = 256 * 1024;

  explicit StackPool(unsigned count) : page_(static_cast<std::size_t>(sysconf(_SC_PAGESIZE))) {
    stacks_.reserve(count);
    for (unsigned i = 0; i < count; ++i) {
      void* p = mmap(nullptr, page_ + stack_bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      stacks_.push_back(static_cast<char*>(p));
      mprotect(p, page_, PROT_NONE);
    }
  }
  ~StackPool() {
    for (char* p : stacks_) munmap(p, page_ + stack_bytes);
  }
  StackPool(const StackPool&) = delete;
  StackPool& operator=(const StackPool&) = delete;

  char* stack(unsigned i) const { return stacks_[i] + page_; }

 private:
  std::size_t page_;
  std::vector<char*> stacks_;
};

// ---- Fibers -----------------------------------------------------------------
// Exceptions must never cross swapcontext, so the fiber's bottom frame catches
// everything; returning then switches to uc_link (the scheduler).
inline void fiber_entry() {
  Block& b = *tl_block;
  LZ_EMU_ASAN_FINISH(nullptr, &b.scheduler_stack, &b.scheduler_stack_size);
  try {
    (*b.kernel)();
  } catch (const Cancelled&) {
  } catch (...) {
    if (!b.error) b.error = std::current_exception();
  }
  tl_fiber->state = State::done;
  LZ_EMU_ASAN_START(nullptr, b.scheduler_stack, b.scheduler_stack_size);
}

inline void resume(Block& b, Fiber& f) {
  tl_fiber = &f;
  tl_thread_idx = {f.tid, 0, 0};
  LZ_EMU_ASAN_START(&b.asan_fake_stack, f.stack, StackPool::stack_bytes);
  swapcontext(&b.scheduler, &f.ctx);
  LZ_EMU_ASAN_FINISH(b.asan_fake_stack, nullptr, nullptr);
  tl_fiber = nullptr;
}

inline Block& current_block(const char* what) {
  if (tl_block == nullptr || tl_fiber == nullptr)
    throw std::logic_error(std::string("cuda emulator: ") + what + " called outside a kernel launch");
  return *tl_block;
}

// Parks the calling fiber at a barrier until the scheduler releases it.
inline void wait_at(State barrier, const char* what) {
  Block& b = current_block(what);
  if (b.cancelling) throw Cancelled{};
  Fiber& self = *tl_fiber;
  self.state = barrier;
  LZ_EMU_ASAN_START(&self.asan_fake_stack, b.scheduler_stack, b.scheduler_stack_size);
  swapcontext(&self.ctx, &b.scheduler);
  LZ_EMU_ASAN_FINISH(self.asan_fake_stack, &b.scheduler_stack, &b.scheduler_stack_size);
  if (b.cancelling) throw Cancelled{};
}

// ---- Scheduler --------------------------------------------------------------
inline unsigned warp_lanes(const Block& b, unsigned warp) {
  unsigned first = warp * 32;
  return b.size - first < 32 ? b.size - first : 32;
}

// Releases every barrier all of whose threads have arrived; false if none.
inline bool release_barriers(Block& b) {
  bool released = false;
  unsigned at_block = 0;
  for (const Fiber& f : b.fibers) at_block += f.state == State::at_syncthreads;
  if (at_block == b.size) {
    for (Fiber& f : b.fibers) f.state = State::ready;
    return true;
  }
  for (unsigned w = 0; w * 32 < b.size; ++w) {
    unsigned lanes = warp_lanes(b, w), arrived = 0;
    for (unsigned l = 0; l < lanes; ++l) arrived += b.fibers[w * 32 + l].state == State::at_syncwarp;
    if (arrived != lanes) continue;
    for (unsigned l = 0; l < lanes; ++l) b.fibers[w * 32 + l].state = State::ready;
    released = true;
  }
  return released;
}

inline std::string deadlock_message(const Block& b) {
  unsigned at_block = 0, at_warp = 0, returned = 0;
  for (const Fiber& f : b.fibers) {
    at_block += f.state == State::at_syncthreads;
    at_warp += f.state == State::at_syncwarp;
    returned += f.state == State::done;
  }
  std::string msg = "cuda emulator: deadlock in block " + std::to_string(b.index) + ": " + std::to_string(at_block) +
                    " of " + std::to_string(b.size) + " threads at __syncthreads";
  if (at_warp != 0) msg += ", " + std::to_string(at_warp) + " at __syncwarp/shuffle";
  return msg + ", " + std::to_string(returned) + " returned";
}

// Runs all threads of one block to completion, or throws.
inline void run_block(Block& b, const StackPool& stacks) {
  for (unsigned t = 0; t < b.size; ++t) {
    Fiber& f = b.fibers[t];
    f.tid = t;
    f.state = State::ready;
    f.stack = stacks.stack(t);
    getcontext(&f.ctx);
    f.ctx.uc_stack.ss_sp = f.stack;
    f.ctx.uc_stack.ss_size = StackPool::stack_bytes;
    f.ctx.uc_link = &b.scheduler;
    makecontext(&f.ctx, fiber_entry, 0);
  }
  b.error = nullptr;
  b.cancelling = false;
  for (;;) {
    // One round: every ready fiber runs, in thread order, until it parks.
    for (Fiber& f : b.fibers)
      if (f.state == State::ready) resume(b, f);
    if (release_barriers(b)) continue;
    bool all_done = true;
    for (const Fiber& f : b.fibers) all_done = all_done && f.state == State::done;
    if (all_done) break;
    // Stuck: unwind the parked fibers, then report the cause.
    std::string msg = deadlock_message(b);
    b.cancelling = true;
    for (Fiber& f : b.fibers)
      if (f.state != State::done) resume(b, f);
    if (b.error) std::rethrow_exception(b.error);
    throw std::runtime_error(msg);
  }
  if (b.error) std::rethrow_exception(b.error);
}

// One host thread: takes block indices from a shared counter until none are
// left or a block failed.
struct Launch {
  unsigned grid = 0, block = 0;
  const std::function<void()>* kernel = nullptr;
  std::atomic<unsigned> next{0};
  std::atomic<bool> failed{false};
  std::mutex mutex;
  std::exception_ptr error;
};

inline void host_worker(Launch& l) {
  try {
    StackPool stacks(l.block);
    Block b;
    b.kernel = l.kernel;
    b.size = l.block;
    b.fibers.resize(l.block);
    b.shfl_slots.assign(l.block, 0);
    tl_block = &b;
    tl_block_dim = {l.block, 1, 1};
    tl_grid_dim = {l.grid, 1, 1};
    while (!l.failed) {
      unsigned i = l.next++;
      if (i >= l.grid) break;
      b.index = i;
      tl_block_idx = {i, 0, 0};
      run_block(b, stacks);
    }
  } catch (...) {
    std::lock_guard<std::mutex> lock(l.mutex);
    if (!l.error) l.error = std::current_exception();
    l.failed = true;
  }
  tl_block = nullptr;
  tl_fiber = nullptr;
}

}  // namespace detail

// ---- Launch -----------------------------------------------------------------
// Runs `kernel` as a grid of `grid` blocks of `block` threads each (x only).
// Every emulated thread calls kernel() once, with threadIdx/blockIdx/... set.
// Throws std::runtime_error on a deadlock (e.g. a __syncthreads that not all
// threads of a block reach, or a barrier after some threads returned) naming
// the block and how many threads arrived, and rethrows an exception thrown by
// any emulated thread (after the block has been torn down cleanly).
// Blocks run on min(host_threads, grid) OS threads (0 counts as 1); with 1 the
// calling thread runs everything. A launch from inside a kernel is a
// std::logic_error.
inline void launch(unsigned grid, unsigned block, const std::function<void()>& kernel,
                   unsigned host_threads = 1) {
  if (block == 0 || block > 1024)
    throw std::invalid_argument("cuda emulator: block size " + std::to_string(block) +
                                " is not in 1..1024");
  if (detail::tl_block != nullptr)
    throw std::logic_error("cuda emulator: launch from inside a kernel is not supported");
  if (grid == 0) return;
  detail::Launch l;
  l.grid = grid;
  l.block = block;
  l.kernel = &kernel;
  unsigned workers = host_threads == 0 ? 1 : (host_threads < grid ? host_threads : grid);
  std::vector<std::thread> threads;
  try {
    for (unsigned i = 1; i < workers; ++i) threads.emplace_back(detail::host_worker, std::ref(l));
  } catch (...) {  // could not start a thread: stop the others, then report
    l.failed = true;
    for (std::thread& t : threads) t.join();
    throw;
  }
  detail::host_worker(l);
  for (std::thread& t : threads) t.join();
  if (l.error) std::rethrow_exception(l.error);
}

// ---- Barriers and warp shuffles ---------------------------------------------
namespace detail {

template <class T>
concept Shufflable = std::is_trivially_copyable_v<T> && sizeof(T) <= 8;

inline unsigned check_width(int width) {
  if (width < 1 || width > 32 || (width & (width - 1)) != 0)
    throw std::invalid_argument("cuda emulator: shuffle width " + std::to_string(width) +
                                " is not a power of two in 1..32");
  return static_cast<unsigned>(width);
}

// Every lane publishes its value, then reads lane `src` of its warp (its own
// value when src is out of range). The second barrier keeps the next shuffle
// from overwriting a slot before every lane has read it.
template <Shufflable T>
T exchange(T value, unsigned src) {
  Block& b = current_block("a warp shuffle");
  unsigned tid = tl_thread_idx.x, from = tid - tid % 32 + src;
  std::uint64_t bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  b.shfl_slots[tid] = bits;
  wait_at(State::at_syncwarp, "a warp shuffle");
  T result = value;
  if (src < 32 && from < b.size) std::memcpy(&result, &b.shfl_slots[from], sizeof(T));
  wait_at(State::at_syncwarp, "a warp shuffle");
  return result;
}

}  // namespace detail
}  // namespace lz_emu

// ---- CUDA built-ins ---------------------------------------------------------
#define threadIdx (static_cast<const ::lz_emu::uint3&>(::lz_emu::detail::tl_thread_idx))
#define blockIdx (static_cast<const ::lz_emu::uint3&>(::lz_emu::detail::tl_block_idx))
#define blockDim (static_cast<const ::lz_emu::uint3&>(::lz_emu::detail::tl_block_dim))
#define gridDim (static_cast<const ::lz_emu::uint3&>(::lz_emu::detail::tl_grid_dim))

// Waits for every thread of the block.
inline void __syncthreads() {
  lz_emu::detail::wait_at(lz_emu::detail::State::at_syncthreads, "__syncthreads");
}

// Waits for every lane of the caller's warp; the mask is ignored (all lanes of
// the warp must call it, as with a full mask).
inline void __syncwarp(unsigned /*mask*/ = 0xffffffffu) {
  lz_emu::detail::wait_at(lz_emu::detail::State::at_syncwarp, "__syncwarp");
}

// Shuffles work within width-sized segments of the warp; the mask is ignored.
template <lz_emu::detail::Shufflable T>
T __shfl_sync(unsigned /*mask*/, T var, int srcLane, int width = 32) {
  unsigned w = lz_emu::detail::check_width(width), lane = threadIdx.x % 32;
  return lz_emu::detail::exchange(var, lane - lane % w + (static_cast<unsigned>(srcLane) & (w - 1)));
}

template <lz_emu::detail::Shufflable T>
T __shfl_down_sync(unsigned /*mask*/, T var, unsigned delta, int width = 32) {
  unsigned w = lz_emu::detail::check_width(width), lane = threadIdx.x % 32;
  return lz_emu::detail::exchange(var, delta < w - lane % w ? lane + delta : lane);
}

// A lane may read from its own or an earlier segment, never a later one.
template <lz_emu::detail::Shufflable T>
T __shfl_xor_sync(unsigned /*mask*/, T var, int laneMask, int width = 32) {
  unsigned w = lz_emu::detail::check_width(width), lane = threadIdx.x % 32;
  unsigned src = lane ^ static_cast<unsigned>(laneMask);
  return lz_emu::detail::exchange(var, src < lane - lane % w + w ? src : lane);
}

// ---- Bit casts --------------------------------------------------------------
inline unsigned int __float_as_uint(float x) { return std::bit_cast<unsigned int>(x); }
inline float __uint_as_float(unsigned int x) { return std::bit_cast<float>(x); }
inline int __float_as_int(float x) { return std::bit_cast<int>(x); }
inline float __int_as_float(int x) { return std::bit_cast<float>(x); }
inline long long __double_as_longlong(double x) { return std::bit_cast<long long>(x); }
inline double __longlong_as_double(long long x) { return std::bit_cast<double>(x); }

#undef LZ_EMU_ASAN_START
#undef LZ_EMU_ASAN_FINISH

#endif  // LZ_CUDA_EMU_H
