// Large eager kernels against the machine's memory bandwidth. The memory
// bandwidth of these VMs moves between levels within seconds, so every
// iteration also times a STREAM-style copy right next to the kernel (split
// over the thread pool, written with streaming stores like the kernels'
// large outputs); pct_of_copy is the kernel's bandwidth over the copy's,
// both summed over the same iterations. Bytes counted: what a kernel must
// move (each input read once, the output written once).
// Run: ./build/bench/bench_eager
#include <benchmark/benchmark.h>

#include <chrono>

#include <lazuli/lazuli.h>

#include "core/parallel.h"
#include "eager_kernels/cpu/streaming_store.h"

namespace {

constexpr int64_t kElements = int64_t{16} << 20;  // 64 MiB of float32
constexpr double kTensorBytes = kElements * 4.0;

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) {
  return std::chrono::duration<double>(Clock::now() - t0).count();
}

void stream_copy(const lz::Tensor& dst, const lz::Tensor& src) {
  float* d = dst.data_ptr<float>();
  const float* s = src.data_ptr<float>();
  lz::parallel_for(0, kElements, 1 << 16, [&](int64_t b, int64_t e) {
    lz::cpu::streaming_copy(d + b, s + b, static_cast<size_t>(e - b) * sizeof(float));
    lz::cpu::streaming_store_fence();
  });
}

// Times `kernel` (manual time) and an adjacent copy per iteration.
template <class Kernel>
void run_against_copy(benchmark::State& state, double kernel_bytes, Kernel&& kernel) {
  const lz::Tensor src = lz::ones({kElements}), dst = lz::zeros({kElements});
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

void BM_Copy(benchmark::State& state) {
  const lz::Tensor a = lz::randn({kElements});
  lz::Tensor b = lz::empty({kElements});
  run_against_copy(state, 2 * kTensorBytes, [&] { b.copy_(a); });
}
BENCHMARK(BM_Copy)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_Add(benchmark::State& state) {
  const lz::Tensor a = lz::randn({kElements}), b = lz::randn({kElements});
  run_against_copy(state, 3 * kTensorBytes, [&] { benchmark::DoNotOptimize(lz::add(a, b)); });
}
BENCHMARK(BM_Add)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_AddInplace(benchmark::State& state) {
  lz::Tensor a = lz::randn({kElements});
  const lz::Tensor b = lz::randn({kElements});
  run_against_copy(state, 3 * kTensorBytes, [&] { benchmark::DoNotOptimize(a.add_(b)); });
}
BENCHMARK(BM_AddInplace)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_MulScalar(benchmark::State& state) {
  const lz::Tensor a = lz::randn({kElements});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(a * 1.5); });
}
BENCHMARK(BM_MulScalar)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_Exp(benchmark::State& state) {
  const lz::Tensor a = lz::randn({kElements});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(lz::exp(a)); });
}
BENCHMARK(BM_Exp)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_Sum(benchmark::State& state) {
  const lz::Tensor a = lz::randn({kElements});
  run_against_copy(state, kTensorBytes, [&] { benchmark::DoNotOptimize(lz::sum(a)); });
}
BENCHMARK(BM_Sum)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("lazuli_threads", std::to_string(lz::get_num_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
