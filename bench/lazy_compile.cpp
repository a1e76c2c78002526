// What the lazy layer's compile path costs (Google Benchmark):
//   BM_CompileKernel/W   one fused kernel of workload W (1 gelu_tanh,
//                        4 softmax, 5 layer_norm, 7 Adam) through LLVM:
//                        emission, the IR pipeline and machine code, every
//                        iteration a fresh key (no memory or disk cache)
//   BM_PlanGraph/W       the same graph's compile steps up to its kernels:
//                        copy_cone, canonicalise (the passes), plan_fusion
//                        and lower
//   BM_GraphHash100      the executable cache's key of a traced 100-operator
//                        chain (W8): the structural hash of its outputs' cone
// The graphs are traced through the public API and read back from their
// text (lz::lazy::dump_trace), as lz-dump reads graphs; they are compiled
// and measured through lazy/explain.h, lz-dump's library side. Iteration
// times are the measured steps' own (manual time): each iteration compiles
// the whole graph, the rest of the pipeline untimed.
#include <benchmark/benchmark.h>

#include <lazuli/lazuli.h>

#include <cstdlib>
#include <string>

#include "lazy/config.h"
#include "lazy/explain.h"

namespace {

using lz::Tensor;

// The trace of workload `id` at small sizes (sizes do not change the code).
std::string trace_of(int id) {
  Tensor x = lz::randn({64, 1024}).to_lazy();
  Tensor keep;
  if (id == 1) {
    keep = 0.5 * x * (1 + lz::tanh(0.7978845608 * (x + 0.044715 * x * x * x)));
  } else if (id == 4) {
    keep = lz::softmax(x, -1);
  } else if (id == 5) {
    keep = lz::layer_norm(x, {1024}, lz::randn({1024}), lz::randn({1024}), 1e-5);
  } else {
    Tensor p = x.clone(), g = lz::randn({64, 1024}), m = lz::zeros({64, 1024}).to_lazy(), v = m.clone();
    m.mul_(0.9).add_(g, 0.1);
    v.mul_(0.999).addcmul_(g, g, 0.001);
    p.addcdiv_(m, (v / 0.01).sqrt().add_(1e-8), -1e-3 / 0.65);
    keep = p;
  }
  std::string text = lz::lazy::dump_trace();
  lz::sync_all();
  return text;
}

// Nothing printed: the explanation's data only.
lz::lazy::ExplainOptions quiet() {
  lz::lazy::ExplainOptions o;
  o.print.ir = false;
  o.print.plan = false;
  return o;
}

double step_ms(const lz::lazy::Explanation& e, std::string_view step) {
  for (const lz::lazy::StepTime& s : e.steps) {
    if (s.step == step) return s.ms;
  }
  return 0;
}

void BM_CompileKernel(benchmark::State& state) {
  const lz::lazy::IrGraph graph(trace_of(static_cast<int>(state.range(0))));
  lz::lazy::ExplainOptions options = quiet();
  options.compile_kernels = true;
  double ms = 0, optimize_ms = 0, codegen_ms = 0;
  for (auto _ : state) {
    const lz::lazy::Explanation e = lz::lazy::explain_graph(graph, options);
    if (e.kernel_compiles.empty()) {
      state.SkipWithError("the workload has no kernel the LLVM code generator took (LZ_CODEGEN?)");
      break;
    }
    // The plan's first kernel, as lz-dump --print=kernels lists it first.
    const lz::lazy::KernelCompile& k = e.kernel_compiles.front();
    if (!k.failure.empty()) {
      state.SkipWithError(("kernel " + k.kernel + " did not compile: " + k.failure).c_str());
      break;
    }
    state.SetIterationTime(k.ms / 1e3);
    ms += k.ms;
    optimize_ms += k.optimize_ms;
    codegen_ms += k.codegen_ms;
  }
  if (ms > 0) {
    state.counters["ir_share"] = optimize_ms / ms;
    state.counters["codegen_share"] = codegen_ms / ms;
  }
}
BENCHMARK(BM_CompileKernel)->ArgName("W")->Arg(1)->Arg(4)->Arg(5)->Arg(7)->UseManualTime()->Unit(benchmark::kMillisecond);

void BM_PlanGraph(benchmark::State& state) {
  const lz::lazy::IrGraph graph(trace_of(static_cast<int>(state.range(0))));
  const lz::lazy::ExplainOptions options = quiet();
  // The untimed generate_code step would emit every kernel (LLVM) once per
  // iteration; the interpreter takes them as they are.
  const lz::lazy::Settings saved = lz::lazy::settings();
  lz::lazy::Settings interpret = saved;
  interpret.codegen = lz::lazy::Settings::Codegen::Interpreter;
  lz::lazy::set_settings(interpret);
  for (auto _ : state) {
    const lz::lazy::Explanation e = lz::lazy::explain_graph(graph, options);
    state.SetIterationTime((step_ms(e, "copy_cone") + step_ms(e, "canonicalise") + step_ms(e, "plan_fusion") +
                            step_ms(e, "lower")) /
                           1e3);
  }
  lz::lazy::set_settings(saved);
}
BENCHMARK(BM_PlanGraph)->ArgName("W")->Arg(1)->Arg(4)->Arg(5)->Arg(7)->UseManualTime()->Unit(benchmark::kMicrosecond);

void BM_GraphHash100(benchmark::State& state) {
  Tensor x = lz::randn({1024}).to_lazy();
  for (int i = 0; i < 100; ++i) x = i % 2 ? x * 1.0001 : x.abs();
  const lz::lazy::IrGraph graph(lz::lazy::dump_trace());
  for (auto _ : state) benchmark::DoNotOptimize(graph.cache_key());
}
BENCHMARK(BM_GraphHash100)->Unit(benchmark::kNanosecond);

}  // namespace

int main(int argc, char** argv) {
  // BM_CompileKernel's objects would otherwise fill the on-disk kernel
  // cache (each under a key that is never asked for again). Before
  // anything starts the JIT, which reads it once.
  setenv("LZ_KERNEL_CACHE", "0", 1);
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("lazuli_threads", std::to_string(lz::get_num_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
