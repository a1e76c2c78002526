// Tests of the CUDA execution-model emulator (codegen_cuda/emulator/cuda_emu.h):
// kernels below are written as CUDA C++ and run on the CPU by lz_emu::launch.
#include "codegen_cuda/emulator/cuda_emu.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <vector>

namespace {

// ---- Kernels ----------------------------------------------------------------

struct ThreadRecord {
  unsigned block, thread, block_dim, grid_dim;
  bool yz_ok;
  bool operator<(const ThreadRecord& o) const {
    return std::tie(block, thread, block_dim, grid_dim) < std::tie(o.block, o.thread, o.block_dim, o.grid_dim);
  }
};

__device__ __forceinline__ unsigned global_id() { return blockIdx.x * blockDim.x + threadIdx.x; }

__global__ void record_ids(std::vector<ThreadRecord>* log) {
  bool yz_ok = threadIdx.y == 0 && threadIdx.z == 0 && blockIdx.y == 0 && blockIdx.z == 0 &&
               blockDim.y == 1 && blockDim.z == 1 && gridDim.y == 1 && gridDim.z == 1;
  log->push_back({blockIdx.x, threadIdx.x, blockDim.x, gridDim.x, yz_ok});
}

__global__ void __launch_bounds__(64, 2) scale2(const float* __restrict__ in, float* __restrict__ out, int n) {
  for (int i = global_id(); i < n; i += blockDim.x * gridDim.x) out[i] = 2 * in[i];
}

template <class T>
__device__ T warp_sum(T v) {
  for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  return v;
}

// Grid-stride partial sums, reduced per warp by shuffles and across warps
// through shared memory; out[blockIdx.x] = the block's sum.
template <class T>
__global__ void block_sum(const T* in, T* out, int n) {
  __shared__ T partial[32];
  unsigned lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  T v = 0;
  for (int i = global_id(); i < n; i += blockDim.x * gridDim.x) v += in[i];
  v = warp_sum(v);
  if (lane == 0) partial[warp] = v;
  __syncthreads();
  if (warp == 0) {
    unsigned warps = (blockDim.x + 31) / 32;
    v = warp_sum(lane < warps ? partial[lane] : T(0));
    if (lane == 0) out[blockIdx.x] = v;
  }
}

__global__ void butterfly(const int* in, int* out) {
  int v = in[global_id()];
  for (int mask = 16; mask > 0; mask /= 2) v += __shfl_xor_sync(0xffffffffu, v, mask);
  out[global_id()] = v;
}

template <class T>
__global__ void broadcast_lane5(const T* in, T* out) {
  out[global_id()] = __shfl_sync(0xffffffffu, in[global_id()], 5);
}

// Width-8 segments: xor sum, shift down by 1, read lane 2 of the segment, and
// xor 8, which may read the previous segment but not the next one.
__global__ void width8(const int* in, int* sum, int* down, int* lane2, int* xor8) {
  int v = in[global_id()], s = v;
  for (int mask = 4; mask > 0; mask /= 2) s += __shfl_xor_sync(0xffffffffu, s, mask, 8);
  sum[global_id()] = s;
  down[global_id()] = __shfl_down_sync(0xffffffffu, v, 1, 8);
  lane2[global_id()] = __shfl_sync(0xffffffffu, v, 2, 8);
  xor8[global_id()] = __shfl_xor_sync(0xffffffffu, v, 8, 8);
}

// The last thread writes, so without a working barrier the others would read
// the previous block's value.
__global__ void shared_block_id(unsigned* out, unsigned* count_seen) {
  __shared__ unsigned who;
  __shared__ unsigned count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  if (threadIdx.x == blockDim.x - 1) who = blockIdx.x;
  count += 1;  // fibers are cooperative: no race
  __syncthreads();
  out[global_id()] = who;
  count_seen[global_id()] = count;
}

// Hillis-Steele inclusive scan of each block's slice: log2(blockDim) phases,
// each with a read barrier and a write barrier.
__global__ void inclusive_scan(const int* in, int* out) {
  __shared__ int buf[1024];
  unsigned t = threadIdx.x;
  buf[t] = in[global_id()];
  __syncthreads();
  for (unsigned offset = 1; offset < blockDim.x; offset *= 2) {
    int add = t >= offset ? buf[t - offset] : 0;
    __syncthreads();
    buf[t] += add;
    __syncthreads();
  }
  out[global_id()] = buf[t];
}

// Each lane reads its neighbour's slot after a warp barrier; the last warp may
// be partial.
__global__ void warp_neighbour(int* out) {
  __shared__ int slot[1024];
  unsigned t = threadIdx.x, lanes = std::min(32u, blockDim.x - t / 32 * 32);
  slot[t] = static_cast<int>(t * 10);
  __syncwarp();
  unsigned next = t / 32 * 32 + (t % 32 + 1) % lanes;
  out[t] = slot[next];
  __syncwarp();
}

__device__ float math_kernel_value(float x) {
  return expf(x) + logf(1.0f + x) + tanhf(x) + erff(x) + rintf(x) + sqrtf(x) + static_cast<float>(exp(0.0));
}

// ---- Helpers ----------------------------------------------------------------

template <class T>
std::vector<T> iota_values(std::size_t n, T step) {
  std::vector<T> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = static_cast<T>(i % 17) * step - static_cast<T>(3);
  return v;
}

// Serial per-block sums of the same grid-stride assignment block_sum uses.
template <class T>
std::vector<T> serial_block_sums(const std::vector<T>& in, unsigned grid, unsigned block) {
  std::vector<T> sums(grid, T(0));
  for (std::size_t i = 0; i < in.size(); ++i) sums[i % (grid * block) / block] += in[i];
  return sums;
}

template <class T>
std::vector<T> run_block_sum(const std::vector<T>& in, unsigned grid, unsigned block, unsigned host_threads = 1) {
  std::vector<T> out(grid, T(-1));
  int n = static_cast<int>(in.size());
  lz_emu::launch(grid, block, [&] { block_sum<T>(in.data(), out.data(), n); }, host_threads);
  return out;
}

std::string launch_error(unsigned grid, unsigned block, const std::function<void()>& kernel) {
  try {
    lz_emu::launch(grid, block, kernel);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

// ---- Tests ------------------------------------------------------------------

TEST_CASE("CUDA emulator: every thread runs once with its indices", "[codegen_cuda]") {
  for (auto [grid, block] : {std::pair{3u, 64u}, std::pair{1u, 1u}, std::pair{5u, 33u}}) {
    std::vector<ThreadRecord> log;
    lz_emu::launch(grid, block, [&] { record_ids(&log); });
    REQUIRE(log.size() == grid * block);
    std::sort(log.begin(), log.end());
    for (unsigned b = 0; b < grid; ++b)
      for (unsigned t = 0; t < block; ++t) {
        const ThreadRecord& r = log[b * block + t];
        INFO("grid " << grid << " block " << block << " record " << b * block + t);
        CHECK(r.block == b);
        CHECK(r.thread == t);
        CHECK(r.block_dim == block);
        CHECK(r.grid_dim == grid);
        CHECK(r.yz_ok);
      }
  }
}

TEST_CASE("CUDA emulator: grid 0 runs nothing", "[codegen_cuda]") {
  int calls = 0;
  lz_emu::launch(0, 32, [&] { ++calls; });
  CHECK(calls == 0);
}

TEST_CASE("CUDA emulator: grid-stride loop covers every element once", "[codegen_cuda]") {
  const int n = 1000;
  std::vector<float> in(n), out(n, -1.0f);
  for (int i = 0; i < n; ++i) in[i] = 0.5f * static_cast<float>(i) - 7.0f;
  lz_emu::launch(3, 64, [&] { scale2(in.data(), out.data(), n); });
  for (int i = 0; i < n; ++i) REQUIRE(out[i] == 2 * in[i]);
}

TEST_CASE("CUDA emulator: block reduction with shuffles and shared memory", "[codegen_cuda]") {
  const std::size_t n = 1000;
  const unsigned grid = 3;
  for (unsigned block : {32u, 64u, 96u, 256u}) {
    INFO("block " << block);
    {
      auto in = iota_values<long long>(n, 1000003LL);
      CHECK(run_block_sum(in, grid, block) == serial_block_sums(in, grid, block));
    }
    {
      auto in = iota_values<double>(n, 0.125);
      auto got = run_block_sum(in, grid, block);
      auto want = serial_block_sums(in, grid, block);
      for (unsigned b = 0; b < grid; ++b) CHECK(got[b] == Approx(want[b]).epsilon(1e-12));
    }
    {
      auto in = iota_values<float>(n, 0.25f);
      auto got = run_block_sum(in, grid, block);
      auto want = serial_block_sums(in, grid, block);
      for (unsigned b = 0; b < grid; ++b) CHECK(got[b] == Approx(want[b]).epsilon(1e-5));
    }
  }
}

TEST_CASE("CUDA emulator: xor butterfly gives every lane its warp total", "[codegen_cuda]") {
  const unsigned grid = 2, block = 64;
  std::vector<int> in(grid * block), out(grid * block, -1);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * i % 101);
  lz_emu::launch(grid, block, [&] { butterfly(in.data(), out.data()); });
  for (std::size_t w = 0; w < in.size() / 32; ++w) {
    int total = std::accumulate(in.begin() + w * 32, in.begin() + w * 32 + 32, 0);
    for (std::size_t l = 0; l < 32; ++l) REQUIRE(out[w * 32 + l] == total);
  }
}

TEMPLATE_TEST_CASE("CUDA emulator: shfl_sync broadcasts lane 5 of each warp", "[codegen_cuda]", int, unsigned,
                   long long, unsigned long long, float, double) {
  const unsigned block = 96;
  std::vector<TestType> in(block), out(block, TestType(0));
  for (unsigned i = 0; i < block; ++i) in[i] = static_cast<TestType>(i * 3 + 1);
  if constexpr (sizeof(TestType) == 8 && std::is_integral_v<TestType>)
    in[37] = static_cast<TestType>(0x7123456789abcdefULL);  // lane 5 of warp 1: needs all 64 bits
  lz_emu::launch(1, block, [&] { broadcast_lane5<TestType>(in.data(), out.data()); });
  for (unsigned i = 0; i < block; ++i) REQUIRE(out[i] == in[i / 32 * 32 + 5]);
}

TEST_CASE("CUDA emulator: shuffles with width 8 stay in their segment", "[codegen_cuda]") {
  const unsigned block = 64;
  std::vector<int> in(block), sum(block), down(block), lane2(block), xor8(block);
  for (unsigned i = 0; i < block; ++i) in[i] = static_cast<int>(i * 7 % 23);
  lz_emu::launch(1, block, [&] { width8(in.data(), sum.data(), down.data(), lane2.data(), xor8.data()); });
  for (unsigned i = 0; i < block; ++i) {
    unsigned seg = i / 8 * 8;
    INFO("thread " << i);
    CHECK(sum[i] == std::accumulate(in.begin() + seg, in.begin() + seg + 8, 0));
    CHECK(down[i] == (i % 8 == 7 ? in[i] : in[i + 1]));
    CHECK(lane2[i] == in[seg + 2]);
    CHECK(xor8[i] == (i % 16 >= 8 ? in[i - 8] : in[i]));
  }
}

TEST_CASE("CUDA emulator: a partial last warp has its own barrier and shuffles", "[codegen_cuda]") {
  const unsigned block = 40;  // warp 1 has 8 lanes
  std::vector<int> out(block, -1), down(block, -1);
  lz_emu::launch(1, block, [&] {
    warp_neighbour(out.data());
    down[threadIdx.x] = __shfl_down_sync(0xffffffffu, static_cast<int>(threadIdx.x), 1);
  });
  for (unsigned t = 0; t < block; ++t) {
    unsigned lanes = t < 32 ? 32 : 8;
    INFO("thread " << t);
    CHECK(out[t] == static_cast<int>((t / 32 * 32 + (t % 32 + 1) % lanes) * 10));
    CHECK(down[t] == static_cast<int>(t == 31 || t == 39 ? t : t + 1));
  }
}

TEST_CASE("CUDA emulator: shared memory is shared in a block and separate per block", "[codegen_cuda]") {
  const unsigned grid = 4, block = 48;
  std::vector<unsigned> who(grid * block, 99), count(grid * block, 99);
  lz_emu::launch(grid, block, [&] { shared_block_id(who.data(), count.data()); });
  for (unsigned i = 0; i < grid * block; ++i) {
    INFO("thread " << i);
    CHECK(who[i] == i / block);
    CHECK(count[i] == block);
  }
}

TEST_CASE("CUDA emulator: syncthreads phases in a loop give an exact prefix sum", "[codegen_cuda]") {
  const unsigned grid = 2;
  for (unsigned block : {1u, 37u, 128u}) {
    std::vector<int> in(grid * block), out(grid * block, 0);
    for (unsigned i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i % 13) - 4;
    lz_emu::launch(grid, block, [&] { inclusive_scan(in.data(), out.data()); });
    for (unsigned b = 0; b < grid; ++b) {
      int running = 0;
      for (unsigned t = 0; t < block; ++t) {
        running += in[b * block + t];
        INFO("block size " << block << " block " << b << " thread " << t);
        REQUIRE(out[b * block + t] == running);
      }
    }
  }
}

TEST_CASE("CUDA emulator: two host threads give the same results as one", "[codegen_cuda]") {
  const unsigned grid = 16, block = 96;
  auto in = iota_values<long long>(5000, 77LL);
  CHECK(run_block_sum(in, grid, block, 2) == run_block_sum(in, grid, block, 1));

  std::vector<int> scan_in(grid * block), scan1(grid * block), scan2(grid * block);
  for (unsigned i = 0; i < scan_in.size(); ++i) scan_in[i] = static_cast<int>(i % 5);
  lz_emu::launch(grid, block, [&] { inclusive_scan(scan_in.data(), scan1.data()); }, 1);
  lz_emu::launch(grid, block, [&] { inclusive_scan(scan_in.data(), scan2.data()); }, 2);
  CHECK(scan1 == scan2);

  std::vector<unsigned> who(grid * block), count(grid * block);
  std::vector<std::thread::id> host(grid);
  lz_emu::launch(grid, block, [&] {
    shared_block_id(who.data(), count.data());
    if (threadIdx.x == 0) host[blockIdx.x] = std::this_thread::get_id();
  }, 2);
  for (unsigned i = 0; i < grid * block; ++i) REQUIRE(who[i] == i / block);
  CHECK(std::set<std::thread::id>(host.begin(), host.end()).size() <= 2);
}

TEST_CASE("CUDA emulator: a thread returning before syncthreads is a deadlock", "[codegen_cuda]") {
  std::string msg = launch_error(2, 64, [] {
    if (threadIdx.x == 0) return;
    __syncthreads();
  });
  CHECK(msg == "cuda emulator: deadlock in block 0: 63 of 64 threads at __syncthreads, 1 returned");

  msg = launch_error(4, 64, [] {
    if (blockIdx.x == 2 && threadIdx.x == 5) return;
    __syncthreads();
  });
  CHECK(msg.find("deadlock in block 2") != std::string::npos);
}

TEST_CASE("CUDA emulator: syncthreads in only the even threads is a deadlock", "[codegen_cuda]") {
  std::string msg = launch_error(1, 64, [] {
    if (threadIdx.x % 2 == 0) __syncthreads();
  });
  CHECK(msg.find("deadlock") != std::string::npos);
  CHECK(msg.find("32 of 64 threads at __syncthreads") != std::string::npos);
  CHECK(msg.find("32 returned") != std::string::npos);
}

TEST_CASE("CUDA emulator: half a warp at syncwarp is a deadlock", "[codegen_cuda]") {
  std::string msg = launch_error(1, 32, [] {
    if (threadIdx.x < 16) __syncwarp();
  });
  CHECK(msg == "cuda emulator: deadlock in block 0: 0 of 32 threads at __syncthreads, 16 at __syncwarp/shuffle, "
               "16 returned");
}

TEST_CASE("CUDA emulator: a deadlocked block unwinds its threads and the next launch works", "[codegen_cuda]") {
  struct Counted {
    int* n;
    ~Counted() { ++*n; }
  };
  int destroyed = 0;
  std::string msg = launch_error(1, 8, [&] {
    Counted c{&destroyed};
    if (threadIdx.x != 3) __syncthreads();
  });
  CHECK(msg.find("deadlock") != std::string::npos);
  CHECK(destroyed == 8);

  std::vector<int> in(64, 1), out(64, 0);
  lz_emu::launch(1, 64, [&] { inclusive_scan(in.data(), out.data()); });
  CHECK(out[63] == 64);
}

TEST_CASE("CUDA emulator: an exception in one thread propagates out of launch", "[codegen_cuda]") {
  // The other threads of block 1 wait at the barrier: that is not reported as
  // a deadlock, the original exception is.
  CHECK_THROWS_WITH(lz_emu::launch(3, 32, [] {
    if (blockIdx.x == 1 && threadIdx.x == 7) throw std::runtime_error("boom in 1/7");
    __syncthreads();
  }), "boom in 1/7");
  CHECK_THROWS_AS(lz_emu::launch(2, 16, [] {
    if (threadIdx.x == 15) throw std::out_of_range("no barrier here");
  }), std::out_of_range);
  CHECK_THROWS_WITH(lz_emu::launch(2, 16, [] {
    if (threadIdx.x == 15) throw std::out_of_range("no barrier here");
  }, 2), "no barrier here");
}

TEST_CASE("CUDA emulator: bad launch arguments are rejected", "[codegen_cuda]") {
  auto nothing = [] {};
  CHECK_THROWS_AS(lz_emu::launch(1, 0, nothing), std::invalid_argument);
  CHECK_THROWS_AS(lz_emu::launch(1, 1025, nothing), std::invalid_argument);
  CHECK_THROWS_WITH(lz_emu::launch(1, 1025, nothing), Catch::Contains("1025"));
  CHECK_NOTHROW(lz_emu::launch(1, 1024, nothing));
  CHECK_THROWS_AS(lz_emu::launch(1, 32, [] { lz_emu::launch(1, 1, [] {}); }), std::logic_error);
  CHECK_THROWS_AS(__syncthreads(), std::logic_error);
  CHECK_THROWS_AS(lz_emu::launch(1, 32, [] { (void)__shfl_sync(0xffffffffu, 1, 0, 3); }), std::invalid_argument);
}

TEST_CASE("CUDA emulator: bit casts and unqualified math functions", "[codegen_cuda]") {
  CHECK(__float_as_uint(1.0f) == 0x3f800000u);
  CHECK(__uint_as_float(0xbf800000u) == -1.0f);
  CHECK(__float_as_int(-0.0f) == static_cast<int>(0x80000000u));
  CHECK(__int_as_float(0x40000000) == 2.0f);
  CHECK(__double_as_longlong(1.0) == 0x3ff0000000000000LL);
  CHECK(__longlong_as_double(0x4000000000000000LL) == 2.0);
  std::vector<float> out(4);
  lz_emu::launch(1, 4, [&] { out[threadIdx.x] = math_kernel_value(static_cast<float>(threadIdx.x)); });
  for (unsigned i = 0; i < 4; ++i) {
    float x = static_cast<float>(i);
    const float want = std::exp(x) + std::log1p(x) + std::tanh(x) + std::erf(x) + x + std::sqrt(x) + 1.0f;
    CHECK_THAT(out[i], Catch::Matchers::WithinRel(want, 1e-5f));
  }
}
