// Large reductions against the adjacent copy.
#include "bench/bandwidth.h"

namespace lz::bench {
namespace {

void BM_Sum(benchmark::State& state) {
  const Tensor a = randn({kElements});
  run_against_copy(state, kTensorBytes, [&] { benchmark::DoNotOptimize(sum(a)); });
}
BENCHMARK(BM_Sum)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
}  // namespace lz::bench
