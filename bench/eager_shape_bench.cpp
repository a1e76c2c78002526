// Large shape and data-movement kernels against the adjacent copy: each
// moves 64 MiB in and 64 MiB out (like the copy), so pct_of_copy near 100
// means the kernel runs at memory bandwidth.
#include "bench/bandwidth.h"

namespace lz::bench {
namespace {

// Two halves concatenated along dim 0 (two memcpys) and along the last dim
// (rows interleaved: memcpy per row piece).
void BM_CatDim0(benchmark::State& state) {
  const Tensor a = randn({kElements / 2}).view({-1, 1024}), b = randn({kElements / 2}).view({-1, 1024});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(cat({a, b}, 0)); });
}
BENCHMARK(BM_CatDim0)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_CatLastDim(benchmark::State& state) {
  const int64_t cols = state.range(0);
  const Tensor a = randn({kElements / 2}).view({-1, cols}), b = randn({kElements / 2}).view({-1, cols});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(cat({a, b}, 1)); });
}
BENCHMARK(BM_CatLastDim)->Arg(1024)->Arg(64)->Arg(4)->Unit(benchmark::kMillisecond)->UseManualTime();

// Rows of 1024 floats gathered by a permutation of the rows.
void BM_IndexSelectRows(benchmark::State& state) {
  const int64_t rows = kElements / 1024;
  const Tensor a = randn({rows, 1024});
  const Tensor idx = flip(arange(rows), {0});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(index_select(a, 0, idx)); });
}
BENCHMARK(BM_IndexSelectRows)->Unit(benchmark::kMillisecond)->UseManualTime();

// gather along the last dim with a reversing index (index bytes counted too).
void BM_GatherLastDim(benchmark::State& state) {
  const Tensor a = randn({kElements / 1024, 1024});
  const Tensor idx = flip(arange(1024), {0}).expand({kElements / 1024, 1024}).contiguous();
  run_against_copy(state, 2 * kTensorBytes + kElements * 8.0,
                   [&] { benchmark::DoNotOptimize(gather(a, 1, idx)); });
}
BENCHMARK(BM_GatherLastDim)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_FlipDim0(benchmark::State& state) {
  const Tensor a = randn({kElements / 1024, 1024});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(flip(a, {0})); });
}
BENCHMARK(BM_FlipDim0)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_FlipLastDim(benchmark::State& state) {
  const Tensor a = randn({kElements / 1024, 1024});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(flip(a, {1})); });
}
BENCHMARK(BM_FlipLastDim)->Unit(benchmark::kMillisecond)->UseManualTime();

// Output bytes only (the input is a quarter of the output and stays cached).
void BM_Repeat(benchmark::State& state) {
  const Tensor a = randn({kElements / 4096, 1024});
  run_against_copy(state, kTensorBytes, [&] { benchmark::DoNotOptimize(a.repeat({4, 1})); });
}
BENCHMARK(BM_Repeat)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_Triu(benchmark::State& state) {
  const Tensor a = randn({4096, 4096});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(triu(a)); });
}
BENCHMARK(BM_Triu)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_ConstantPad(benchmark::State& state) {
  const Tensor a = randn({kElements / 1024, 1024});
  run_against_copy(state, 2 * kTensorBytes,
                   [&] { benchmark::DoNotOptimize(constant_pad_nd(a, {0, 0, 1, 1}, 0)); });
}
BENCHMARK(BM_ConstantPad)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_Stack(benchmark::State& state) {
  const Tensor a = randn({kElements / 2}), b = randn({kElements / 2});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(stack({a, b}, 1)); });
}
BENCHMARK(BM_Stack)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
}  // namespace lz::bench
