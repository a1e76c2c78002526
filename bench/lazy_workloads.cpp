// The fusion workloads of shared/bench/workloads.md (W1-W5, W7, W9), eager
// and lazy (traced every iteration, executable cache hit, LLVM-compiled
// kernels), each iteration next to a STREAM-style copy (bench/bandwidth.h):
// pct_of_copy is the workload's bandwidth (the bytes it must move) over the
// copy's. Until the runner (lz-bench) exists this is how the code
// generator's bars are measured:
//   ./build/bench/bench_workloads --benchmark_repetitions=5 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <lazuli/lazuli.h>

#include <cmath>
#include <functional>
#include <vector>

#include "bench/bandwidth.h"

namespace {

using lz::Tensor;
using lz::bench::kElements;
using lz::bench::run_against_copy;

constexpr double kF = 4.0;  // bytes per float32

Tensor w1(const Tensor& x) { return 0.5 * x * (1 + lz::tanh(0.7978845608 * (x + 0.044715 * x * x * x))); }

Tensor w2(Tensor x) {
  for (int i = 0; i < 5; ++i) x = (x * (1.0 + 0.01 * i)) + 0.1 * i;
  return x;
}

// One workload: its inputs, its computation and the bytes it must move.
struct Workload {
  std::vector<Tensor> inputs;
  std::function<Tensor(const std::vector<Tensor>&)> f;
  double bytes;
};

Workload workload(int id) {
  const int64_t rows = 4096;
  switch (id) {
    case 1: return {{lz::randn({kElements})}, [](auto& v) { return w1(v[0]); }, 2 * kF * kElements};
    case 2: return {{lz::randn({kElements})}, [](auto& v) { return w2(v[0]); }, 2 * kF * kElements};
    case 3:
      return {{lz::randn({rows, 4096}), lz::randn({4096})}, [](auto& v) { return lz::relu(v[0] + v[1]); },
              2 * kF * rows * 4096};
    case 4: return {{lz::randn({rows, 1024})}, [](auto& v) { return lz::softmax(v[0], -1); }, 2 * kF * rows * 1024};
    case 5:
      return {{lz::randn({rows, 1024}), lz::randn({1024}), lz::randn({1024})},
              [](auto& v) { return lz::layer_norm(v[0], {1024}, v[1], v[2], 1e-5); }, 2 * kF * rows * 1024};
    default: return {{lz::randn({kElements})}, [](auto& v) { return lz::sum(v[0] * v[0]); }, kF * kElements};
  }
}

void BM_Workload(benchmark::State& state) {
  const int id = static_cast<int>(state.range(0));
  const bool lazy = state.range(1) != 0;
  Workload w = workload(id);
  if (lazy) {
    for (Tensor& t : w.inputs) t = t.to_lazy();
    w.f(w.inputs).to_eager();  // the first call traces and compiles
  }
  run_against_copy(state, w.bytes, [&] {
    Tensor out = w.f(w.inputs);
    if (lazy) out = out.to_eager();
    benchmark::DoNotOptimize(out);
  });
}
BENCHMARK(BM_Workload)
    ->ArgNames({"W", "lazy"})
    ->ArgsProduct({{1, 2, 3, 4, 5, 9}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseManualTime();

// W7: one Adam step updating p, m and v in place (8M parameters): reads p,
// g, m, v and writes p, m, v.
void BM_W7_Adam(benchmark::State& state) {
  const bool lazy = state.range(0) != 0;
  const int64_t n = int64_t{8} << 20;
  Tensor p = lz::randn({n}), g = lz::randn({n}), m = lz::zeros({n}), v = lz::zeros({n});
  if (lazy) {
    p = p.to_lazy();
    m = m.to_lazy();
    v = v.to_lazy();
  }
  const double lr = 1e-3, b1 = 0.9, b2 = 0.999, eps = 1e-8;
  const double bc1 = 1 - std::pow(b1, 10), bc2 = 1 - std::pow(b2, 10);
  auto step = [&] {
    m.mul_(b1).add_(g, 1 - b1);
    v.mul_(b2).addcmul_(g, g, 1 - b2);
    p.addcdiv_(m, (v / bc2).sqrt().add_(eps), -lr / bc1);
    if (lazy) lz::sync({p, m, v});
  };
  step();
  run_against_copy(state, 7 * kF * n, step);
}
BENCHMARK(BM_W7_Adam)->ArgName("lazy")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
