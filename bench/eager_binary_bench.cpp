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

void BM_Maximum(benchmark::State& state) {
  const Tensor a = randn({kElements}), b = randn({kElements});
  run_against_copy(state, 3 * kTensorBytes, [&] { benchmark::DoNotOptimize(maximum(a, b)); });
}
BENCHMARK(BM_Maximum)->Unit(benchmark::kMillisecond)->UseManualTime();

// where(condition, a, b): a bool condition (1 byte per element) and two float32 inputs.
void BM_Where(benchmark::State& state) {
  const Tensor a = randn({kElements}), b = randn({kElements});
  const Tensor c = gt(a, b);
  run_against_copy(state, 3 * kTensorBytes + kTensorBytes / 4,
                   [&] { benchmark::DoNotOptimize(where(c, a, b)); });
}
BENCHMARK(BM_Where)->Unit(benchmark::kMillisecond)->UseManualTime();

// where(condition, a, 0.0): the scalar is bound into a binary loop.
void BM_WhereScalar(benchmark::State& state) {
  const Tensor a = randn({kElements});
  const Tensor c = gt(a, 0);
  run_against_copy(state, 2 * kTensorBytes + kTensorBytes / 4,
                   [&] { benchmark::DoNotOptimize(where(c, a, 0.0)); });
}
BENCHMARK(BM_WhereScalar)->Unit(benchmark::kMillisecond)->UseManualTime();

// Comparison: float32 in, bool (1 byte) out.
void BM_Lt(benchmark::State& state) {
  const Tensor a = randn({kElements}), b = randn({kElements});
  run_against_copy(state, 2 * kTensorBytes + kTensorBytes / 4, [&] { benchmark::DoNotOptimize(lt(a, b)); });
}
BENCHMARK(BM_Lt)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_ClampScalar(benchmark::State& state) {
  const Tensor a = randn({kElements});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(clamp(a, -0.5, 0.5)); });
}
BENCHMARK(BM_ClampScalar)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_Addcmul(benchmark::State& state) {
  const Tensor a = randn({kElements}), b = randn({kElements}), c = randn({kElements});
  run_against_copy(state, 4 * kTensorBytes, [&] { benchmark::DoNotOptimize(addcmul(a, b, c, 0.5)); });
}
BENCHMARK(BM_Addcmul)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_PowSquare(benchmark::State& state) {
  const Tensor a = randn({kElements});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(pow(a, 2)); });
}
BENCHMARK(BM_PowSquare)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
}  // namespace lz::bench
