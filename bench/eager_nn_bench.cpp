// Row-wise neural-network kernels over [4096, 4096] float32 (64 MiB, far
// larger than the caches) against the adjacent copy. Bytes counted: the
// input read once and the output written once.
#include "bench/bandwidth.h"

namespace lz::bench {
namespace {

constexpr int64_t kRows = 4096;
constexpr int64_t kCols = kElements / kRows;

void BM_Softmax(benchmark::State& state) {
  const Tensor x = randn({kRows, kCols});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(softmax(x, 1)); });
}
BENCHMARK(BM_Softmax)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_SoftmaxOut(benchmark::State& state) {
  const Tensor x = randn({kRows, kCols});
  Tensor out = empty({kRows, kCols});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(softmax_out(out, x, 1)); });
}
BENCHMARK(BM_SoftmaxOut)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_LogSoftmax(benchmark::State& state) {
  const Tensor x = randn({kRows, kCols});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(log_softmax(x, 1)); });
}
BENCHMARK(BM_LogSoftmax)->Unit(benchmark::kMillisecond)->UseManualTime();

// Softmax over dim 0: columns, the [outer, n, inner] path.
void BM_SoftmaxDim0(benchmark::State& state) {
  const Tensor x = randn({kRows, kCols});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(softmax(x, 0)); });
}
BENCHMARK(BM_SoftmaxDim0)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_LayerNorm(benchmark::State& state) {
  const Tensor x = randn({kRows, kCols});
  const Tensor w = randn({kCols}), b = randn({kCols});
  run_against_copy(state, 2 * kTensorBytes,
                   [&] { benchmark::DoNotOptimize(layer_norm(x, {kCols}, w, b)); });
}
BENCHMARK(BM_LayerNorm)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_RmsNorm(benchmark::State& state) {
  const Tensor x = randn({kRows, kCols});
  const Tensor w = randn({kCols});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(rms_norm(x, {kCols}, w)); });
}
BENCHMARK(BM_RmsNorm)->Unit(benchmark::kMillisecond)->UseManualTime();

// Dropout writes the output and a 1-byte mask.
void BM_Dropout(benchmark::State& state) {
  const Tensor x = randn({kRows, kCols});
  run_against_copy(state, 2.25 * kTensorBytes, [&] { benchmark::DoNotOptimize(dropout(x, 0.1, true)); });
}
BENCHMARK(BM_Dropout)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
}  // namespace lz::bench
