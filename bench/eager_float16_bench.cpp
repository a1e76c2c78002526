// Large float16 and bfloat16 element-wise kernels against the adjacent copy.
// They run the float loop of the same operator over blocks converted to
// float in L1 (eager_kernels/cpu/loops.h, blocked_rows); bytes counted are
// the 16-bit tensors' own, so pct_of_copy compares like with like.
#include "bench/bandwidth.h"

namespace lz::bench {
namespace {

// Bytes of one kElements tensor of a 16-bit type.
constexpr double kHalfTensorBytes = kTensorBytes / 2;

template <class Op>
void float16_against_copy(benchmark::State& state, ScalarType dtype, int inputs, Op op) {
  const Tensor a = randn({kElements}).to(dtype), b = randn({kElements}).to(dtype);
  run_against_copy(state, (inputs + 1) * kHalfTensorBytes, [&] { benchmark::DoNotOptimize(op(a, b)); });
}

void BM_ExpHalf(benchmark::State& state) {
  float16_against_copy(state, kFloat16, 1, [](const Tensor& a, const Tensor&) { return exp(a); });
}
BENCHMARK(BM_ExpHalf)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_AddHalf(benchmark::State& state) {
  float16_against_copy(state, kFloat16, 2, [](const Tensor& a, const Tensor& b) { return add(a, b); });
}
BENCHMARK(BM_AddHalf)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_MulScalarBFloat16(benchmark::State& state) {
  float16_against_copy(state, kBFloat16, 1, [](const Tensor& a, const Tensor&) { return a * 1.5; });
}
BENCHMARK(BM_MulScalarBFloat16)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
}  // namespace lz::bench
