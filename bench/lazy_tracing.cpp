// Costs of the lazy layer itself (Google Benchmark), on the W8 workload of
// shared/bench/workloads.md: 100 chained element-wise operators on 1024
// elements, traced and run again and again.
//   BM_TraceOnly/1     recording W8's 100 operators (ns per traced operator)
//   BM_TraceOnly/0     recording 100 unary operators (no C++ numbers)
//   BM_W8_Lazy         trace + materialise, executable cache hit, per run
//   BM_W8_Eager        the same 100 operators run eagerly, per run
//   BM_CacheHit100     materialising W8's traced chain on one element: the
//                      executable cache's lookup and the run's bookkeeping
//                      around a one-point kernel (what a cache hit adds)
// Cache-hit overhead per run = W8_Lazy - TraceOnly/1 - W8_Eager.
#include <benchmark/benchmark.h>

#include <lazuli/lazuli.h>

namespace {

constexpr int kOps = 100;
constexpr int64_t kElements = 1024;

// W8's chain; with_numbers=false leaves out the operators with a C++
// number (x * 1.0001 records mul.Scalar with the number as a runtime scalar).
lz::Tensor chain(lz::Tensor x, bool with_numbers = true) {
  for (int i = 0; i < kOps; ++i) {
    switch (with_numbers ? i % 4 : 2 + i % 2) {
      case 0: x = x * 1.0001; break;
      case 1: x = x + 0.5; break;
      case 2: x = x.neg(); break;
      default: x = x.abs(); break;
    }
  }
  return x;
}

void BM_TraceOnly(benchmark::State& state) {
  const lz::Tensor x = lz::randn({kElements}).to_lazy();
  const bool with_numbers = state.range(0) != 0;
  for (auto _ : state) {
    lz::Tensor y = chain(x, with_numbers);
    benchmark::DoNotOptimize(y);
    state.PauseTiming();
    y = lz::Tensor();
    lz::sync_all();  // nothing live: frees the nodes
    state.ResumeTiming();
  }
  // Seconds per traced operator (printed with an SI suffix: 250n = 250 ns).
  state.counters["per_op"] = benchmark::Counter(
      kOps, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
// Arg 1: W8's chain; arg 0: unary operators only (neg, abs).
BENCHMARK(BM_TraceOnly)->Arg(1)->Arg(0)->Unit(benchmark::kMicrosecond);

// The first runs compile the chain's kernel (in the background): timed
// runs start with its code in.
void warm_up(const lz::Tensor& x) {
  for (int i = 0; i < 3; ++i) {
    chain(x).to_eager();
    lz::lazy::wait_for_compiles();
  }
}

void BM_W8_Lazy(benchmark::State& state) {
  const lz::Tensor x = lz::randn({kElements}).to_lazy();
  warm_up(x);
  lz::lazy::reset_metrics();
  for (auto _ : state) {
    lz::Tensor y = chain(x).to_eager();
    benchmark::DoNotOptimize(y.data_ptr());
  }
  const lz::lazy::LazyMetrics m = lz::lazy::metrics();
  state.counters["cache_hits"] = static_cast<double>(m.cache_hits);
  state.counters["cache_misses"] = static_cast<double>(m.cache_misses);
}
BENCHMARK(BM_W8_Lazy)->Unit(benchmark::kMicrosecond);

void BM_CacheHit100(benchmark::State& state) {
  const lz::Tensor x = lz::randn({1}).to_lazy();
  warm_up(x);
  for (auto _ : state) {
    state.PauseTiming();
    lz::Tensor y = chain(x);
    state.ResumeTiming();
    benchmark::DoNotOptimize(y.to_eager().data_ptr());
  }
}
BENCHMARK(BM_CacheHit100)->Unit(benchmark::kMicrosecond);

void BM_W8_Eager(benchmark::State& state) {
  const lz::Tensor x = lz::randn({kElements});
  for (auto _ : state) {
    lz::Tensor y = chain(x);
    benchmark::DoNotOptimize(y.data_ptr());
  }
}
BENCHMARK(BM_W8_Eager)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
