// Large reductions against the adjacent copy: 16M float32 (64 MiB) reduced
// to one value, or as a [4096, 4096] matrix over dim 0 (outer: columns
// accumulate whole rows) and dim 1 (inner: contiguous rows). Bytes counted:
// the input once (the outputs are negligible).
#include "bench/bandwidth.h"

namespace lz::bench {
namespace {

constexpr int64_t kSide = 4096;
static_assert(kSide * kSide == kElements);

// The ceiling of a read-only kernel on this machine (a bare vector read
// loop), for comparing the reductions below.
void BM_ReadOnlyReference(benchmark::State& state) {
  const Tensor a = randn({kElements});
  run_against_copy(state, kTensorBytes, [&] { benchmark::DoNotOptimize(read_only_sum(a)); });
}
BENCHMARK(BM_ReadOnlyReference)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_Sum(benchmark::State& state) {
  const Tensor a = randn({kElements});
  run_against_copy(state, kTensorBytes, [&] { benchmark::DoNotOptimize(sum(a)); });
}
BENCHMARK(BM_Sum)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_SumDim0(benchmark::State& state) {
  const Tensor a = randn({kSide, kSide});
  run_against_copy(state, kTensorBytes, [&] { benchmark::DoNotOptimize(sum(a, {0})); });
}
BENCHMARK(BM_SumDim0)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_SumDim1(benchmark::State& state) {
  const Tensor a = randn({kSide, kSide});
  run_against_copy(state, kTensorBytes, [&] { benchmark::DoNotOptimize(sum(a, {1})); });
}
BENCHMARK(BM_SumDim1)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_Amax(benchmark::State& state) {
  const Tensor a = randn({kElements});
  run_against_copy(state, kTensorBytes, [&] { benchmark::DoNotOptimize(amax(a)); });
}
BENCHMARK(BM_Amax)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_Var(benchmark::State& state) {
  const Tensor a = randn({kElements});
  run_against_copy(state, kTensorBytes, [&] { benchmark::DoNotOptimize(var(a)); });
}
BENCHMARK(BM_Var)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
}  // namespace lz::bench
