// Large copies and binary element-wise kernels against the adjacent copy.
#include "bench/bandwidth.h"

namespace lz::bench {
namespace {

void BM_Copy(benchmark::State& state) {
  const Tensor a = randn({kElements});
  Tensor b = empty({kElements});
  run_against_copy(state, 2 * kTensorBytes, [&] { b.copy_(a); });
}
BENCHMARK(BM_Copy)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_Add(benchmark::State& state) {
  const Tensor a = randn({kElements}), b = randn({kElements});
  run_against_copy(state, 3 * kTensorBytes, [&] { benchmark::DoNotOptimize(add(a, b)); });
}
BENCHMARK(BM_Add)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_AddInplace(benchmark::State& state) {
  Tensor a = randn({kElements});
  const Tensor b = randn({kElements});
  run_against_copy(state, 3 * kTensorBytes, [&] { benchmark::DoNotOptimize(a.add_(b)); });
}
BENCHMARK(BM_AddInplace)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_MulScalar(benchmark::State& state) {
  const Tensor a = randn({kElements});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(a * 1.5); });
}
BENCHMARK(BM_MulScalar)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
}  // namespace lz::bench
