// Large unary element-wise kernels against the adjacent copy.
#include "bench/bandwidth.h"

namespace lz::bench {
namespace {

void BM_Exp(benchmark::State& state) {
  const Tensor a = randn({kElements});
  run_against_copy(state, 2 * kTensorBytes, [&] { benchmark::DoNotOptimize(exp(a)); });
}
BENCHMARK(BM_Exp)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
}  // namespace lz::bench
