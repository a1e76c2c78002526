// Element-wise kernels on operands the contiguous loop cannot read in place:
// a transposed operand, a column broadcast along rows, a strided output, and
// rows of four elements (the per-row cost of the iteration). The same
// kernels as bench/eager_binary_bench.cpp on contiguous data, against the
// adjacent copy.
#include "bench/bandwidth.h"

namespace lz::bench {
namespace {

constexpr int64_t kSide = int64_t{4} << 10;  // kSide * kSide == kElements

void BM_AddTransposed(benchmark::State& state) {
  const Tensor a = randn({kSide, kSide}), b = randn({kSide, kSide}).t();
  run_against_copy(state, 3 * kTensorBytes, [&] { benchmark::DoNotOptimize(add(a, b)); });
}
BENCHMARK(BM_AddTransposed)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_ExpTransposed(benchmark::State& state) {
  const Tensor a = randn({kSide, kSide}).t();
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(exp(a)); });
}
BENCHMARK(BM_ExpTransposed)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_SubColumn(benchmark::State& state) {
  const Tensor a = randn({kSide, kSide}), column = randn({kSide, 1});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(sub(a, column)); });
}
BENCHMARK(BM_SubColumn)->Unit(benchmark::kMillisecond)->UseManualTime();

// Every other element of a row-pair: the output is written with stride 2.
void BM_MulIntoStrided(benchmark::State& state) {
  const Tensor a = randn({kElements / 2}), b = randn({kElements / 2});
  Tensor out = empty({kElements / 2, 2});
  Tensor column = out.select(1, 0);
  run_against_copy(state, 3 * kTensorBytes / 2, [&] { benchmark::DoNotOptimize(mul_out(column, a, b)); });
}
BENCHMARK(BM_MulIntoStrided)->Unit(benchmark::kMillisecond)->UseManualTime();

// [n, 4] + the transpose of a [4, n]: no two dims merge, every row is four elements.
void BM_AddRowsOfFour(benchmark::State& state) {
  const Tensor a = randn({kElements / 4, 4}), b = randn({4, kElements / 4}).t();
  run_against_copy(state, 3 * kTensorBytes, [&] { benchmark::DoNotOptimize(add(a, b)); });
}
BENCHMARK(BM_AddRowsOfFour)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
}  // namespace lz::bench
