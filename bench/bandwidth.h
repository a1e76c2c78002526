// Shared by the eager bandwidth benchmarks (one binary, bench_eager): the
// memory bandwidth of these VMs moves between levels within seconds, so
// every iteration also times a STREAM-style copy right next to the kernel
// (split over the thread pool, written with streaming stores like the
// kernels' large outputs: lz-bench's copy, tools/lz_bench/bandwidth.h,
// linked as lz_bandwidth_probe). pct_of_copy is the kernel's bandwidth over
// the copy's, both summed over the same iterations. Bytes counted: what a
// kernel must move (each input read once, each output written once).
#pragma once

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdint>

#include <lazuli/lazuli.h>

#include "tools/lz_bench/bandwidth.h"

namespace lz::bench {

// 64 MiB of float32: far larger than the caches.
inline constexpr int64_t kElements = int64_t{16} << 20;
inline constexpr double kTensorBytes = kElements * 4.0;

// Copies src into dst (both kElements float32) the way the copy reference does.
inline void stream_copy(const Tensor& dst, const Tensor& src) {
  bench_runner::stream_copy(dst.data_ptr<float>(), src.data_ptr<float>(), kElements);
}

// The sum of src's kElements float32 as a bare read loop split over the
// thread pool: what any read-only kernel (a reduction) can reach here.
float read_only_sum(const Tensor& src);

// Times `kernel` (the benchmark's manual time) and an adjacent copy per
// iteration; reports bytes/s, copy_GBps and pct_of_copy.
template <class Kernel>
void run_against_copy(benchmark::State& state, double kernel_bytes, Kernel&& kernel) {
  using Clock = std::chrono::steady_clock;
  auto seconds_since = [](Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
  };
  const Tensor src = ones({kElements}), dst = zeros({kElements});
  double kernel_seconds = 0, copy_seconds = 0;
  for (auto _ : state) {
    Clock::time_point t0 = Clock::now();
    stream_copy(dst, src);
    copy_seconds += seconds_since(t0);
    t0 = Clock::now();
    kernel();
    const double s = seconds_since(t0);
    kernel_seconds += s;
    state.SetIterationTime(s);
  }
  const double n = static_cast<double>(state.iterations());
  state.SetBytesProcessed(static_cast<int64_t>(kernel_bytes * n));
  state.counters["copy_GBps"] = 2 * kTensorBytes * n / copy_seconds / 1e9;
  state.counters["pct_of_copy"] =
      100 * (kernel_bytes * n / kernel_seconds) / (2 * kTensorBytes * n / copy_seconds);
}

}  // namespace lz::bench
