// What the lazy layer's compile path costs (Google Benchmark):
//   BM_CompileKernel/W   one fused kernel of workload W (1 gelu_tanh,
//                        4 softmax, 5 layer_norm, 7 Adam) through LLVM:
//                        emission, the O3 pipeline and machine code, every
//                        iteration a fresh key (no memory or disk cache)
//   BM_PlanGraph/W       the same graph's passes and fusion planning
//   BM_GraphHash100      the executable cache's key of a traced 100-operator
//                        chain (W8): the structural hash of its outputs' cone
// The graphs are traced through the public API and read back from their
// text (lz::lazy::dump_trace), as lz-dump reads graphs.
#include <benchmark/benchmark.h>

#include <lazuli/lazuli.h>

#include <cmath>
#include <string>

#include "codegen_llvm/jit_engine.h"
#include "codegen_llvm/kernel_emitter.h"
#include "ir/parser.h"
#include "passes/fusion.h"
#include "passes/graph_rewriter.h"
#include "passes/lower_group.h"
#include "passes/pass_manager.h"

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

lz::passes::FusionPlan plan_of(const std::string& text) {
  const lz::ir::ParsedGraph parsed = lz::ir::parse_graph(text);
  lz::passes::Program program = lz::passes::copy_cone(parsed.graph, parsed.outputs);
  lz::passes::make_pipeline("default").run(program);
  lz::passes::FusionPlan plan = lz::passes::plan_fusion(program);
  lz::passes::lower_groups(program.graph, plan);
  return plan;
}

const lz::ir::Kernel& first_kernel(const lz::passes::FusionPlan& plan) {
  for (const auto& g : plan.groups) {
    if (g.is_kernel()) return g.kernel;
  }
  throw std::runtime_error("the workload has no kernel");
}

void BM_CompileKernel(benchmark::State& state) {
  const lz::passes::FusionPlan plan = plan_of(trace_of(static_cast<int>(state.range(0))));
  const lz::ir::Kernel& kernel = first_kernel(plan);
  lz::codegen_llvm::JitEngine& jit = lz::codegen_llvm::JitEngine::instance();
  jit.set_disk_cache(false);
  lz::codegen_llvm::VariantSpec spec;
  spec.classes.assign(kernel.accesses.size(), lz::codegen_llvm::StrideClass::Unit);
  spec.vector_bits = jit.vector_bits();
  static int serial = 0;
  for (auto _ : state) {
    // A new symbol prefix and key each time: nothing is cached.
    const std::string prefix = "lzbench" + std::to_string(serial++);
    const auto r = jit.get("bench|" + prefix, {prefix + "_run"}, lz::codegen_llvm::kernel_emit_fn(kernel, spec, prefix));
    benchmark::DoNotOptimize(r.addresses.data());
  }
  const lz::codegen_llvm::JitStats s = jit.stats();
  state.counters["o3_share"] = s.optimize_ms / s.compile_ms;
  state.counters["codegen_share"] = s.codegen_ms / s.compile_ms;
}
BENCHMARK(BM_CompileKernel)->ArgName("W")->Arg(1)->Arg(4)->Arg(5)->Arg(7)->Unit(benchmark::kMillisecond);

void BM_PlanGraph(benchmark::State& state) {
  const std::string text = trace_of(static_cast<int>(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(plan_of(text));
}
BENCHMARK(BM_PlanGraph)->ArgName("W")->Arg(1)->Arg(4)->Arg(5)->Arg(7)->Unit(benchmark::kMicrosecond);

void BM_GraphHash100(benchmark::State& state) {
  Tensor x = lz::randn({1024}).to_lazy();
  for (int i = 0; i < 100; ++i) x = i % 2 ? x * 1.0001 : x.abs();
  const lz::ir::ParsedGraph parsed = lz::ir::parse_graph(lz::lazy::dump_trace());
  for (auto _ : state) benchmark::DoNotOptimize(parsed.graph.hash_of(parsed.outputs));
}
BENCHMARK(BM_GraphHash100)->Unit(benchmark::kNanosecond);

}  // namespace
