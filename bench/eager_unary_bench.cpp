// Large unary element-wise kernels against the adjacent copy. float32
// transcendental kernels run the branch-free vec_math functions, vectorised
// per ISA; they should stay close to the copy's bandwidth.
#include "bench/bandwidth.h"

namespace lz::bench {
namespace {

template <class Op>
void unary_against_copy(benchmark::State& state, Op op) {
  const Tensor a = randn({kElements});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(op(a)); });
}

void BM_Exp(benchmark::State& state) {
  unary_against_copy(state, [](const Tensor& a) { return exp(a); });
}
BENCHMARK(BM_Exp)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_Tanh(benchmark::State& state) {
  unary_against_copy(state, [](const Tensor& a) { return tanh(a); });
}
BENCHMARK(BM_Tanh)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_Sigmoid(benchmark::State& state) {
  unary_against_copy(state, [](const Tensor& a) { return sigmoid(a); });
}
BENCHMARK(BM_Sigmoid)->Unit(benchmark::kMillisecond)->UseManualTime();

void BM_Gelu(benchmark::State& state) {
  unary_against_copy(state, [](const Tensor& a) { return gelu(a, "tanh"); });
}
BENCHMARK(BM_Gelu)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
}  // namespace lz::bench
