#include "lazy/explain.h"

#include <array>
#include <cstdio>
#include <functional>
#include <sstream>
#include <utility>
#include <vector>

#include "codegen_cuda/cuda_prelude.h"
#include "codegen_cuda/cuda_source.h"
#include "codegen_llvm/compiled_kernel.h"
#include "codegen_llvm/jit_engine.h"
#include "core/error.h"
#include "ir/parser.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "lazy/compile.h"
#include "passes/dot.h"

namespace lz::lazy {

namespace {

// What lz-dump prints, caught from the compile pipeline (lazy/compile.h) as
// it runs: the IR around each pass, the lowered plan (to `lowered`), each
// step's time and each pass's statistics.
class PipelineCapture final : public CompileObserver {
 public:
  // `passes`: where the IR before and after each pass goes, or null.
  PipelineCapture(std::ostringstream* passes, std::function<void(const Compilation&)> lowered)
      : passes_(passes), lowered_(std::move(lowered)) {}

  void after_pass(std::string_view pass, const passes::Program& p) override {
    if (passes_) *passes_ << "=== after " << pass << " ===\n" << ir::print_graph(p.graph, p.outputs);
  }
  void after_step(CompileStep step, const Compilation& c) override {
    if (step == CompileStep::CopyCone && passes_) {
      *passes_ << "=== input ===\n" << ir::print_graph(c.program.graph, c.program.outputs);
    }
    if (step == CompileStep::Lower) lowered_(c);
    if (step == CompileStep::Assemble) {
      pass_stats = c.pass_stats;
      ms = c.ms;
    }
  }

  std::vector<passes::PassStat> pass_stats;
  std::array<double, kNumCompileSteps> ms{};

 private:
  std::ostringstream* passes_;
  std::function<void(const Compilation&)> lowered_;
};

std::string steps_table(const std::array<double, kNumCompileSteps>& ms) {
  std::ostringstream os;
  char line[160];
  std::snprintf(line, sizeof line, "%-14s %10s\n", "step", "time_us");
  os << line;
  for (size_t s = 0; s < ms.size(); ++s) {
    const std::string name(step_name(static_cast<CompileStep>(s)));
    std::snprintf(line, sizeof line, "%-14s %10.1f\n", name.c_str(), ms[s] * 1e3);
    os << line;
  }
  return os.str();
}

std::string stats_table(const std::vector<passes::PassStat>& stats) {
  std::ostringstream os;
  char line[160];
  std::snprintf(line, sizeof line, "%-12s %10s  %-7s  %12s %12s\n", "pass", "time_us", "changed", "nodes_before",
                "nodes_after");
  os << line;
  for (const auto& s : stats) {
    std::snprintf(line, sizeof line, "%-12s %10.1f  %-7s  %12zu %12zu\n", s.name.c_str(),
                  static_cast<double>(s.time.count()) / 1000.0, s.changed ? "yes" : "no", s.nodes_before,
                  s.nodes_after);
    os << line;
  }
  if (stats.empty()) os << "(no passes ran)\n";
  return os.str();
}

}  // namespace

Explanation explain_graph(std::string_view ir_text, const ExplainOptions& o) {
  const ir::ParsedGraph parsed = ir::parse_graph(ir_text);
  LZ_CHECK(!parsed.outputs.empty(), ValueError, "the graph returns nothing (add a 'return %k' line)");
  // The parser builds what the text says; a hand-written graph may still
  // break an invariant the passes rely on, so check it before they run.
  try {
    ir::verify_graph(parsed.graph, parsed.outputs);
  } catch (const Error& e) {
    throw ValueError(std::string("invalid graph: ") + e.what());
  }

  Explanation result;
  std::ostringstream out;
  const bool headers = o.print.count() > 1;
  auto section = [&](std::string_view title) {
    if (headers) out << "=== " << title << " ===\n";
  };
  const bool want_dot = o.print.dot || o.want_dot;
  // The sections that show the program and its kernels, printed once the
  // plan is lowered (before any code generator fallback).
  auto print_lowered = [&](const Compilation& c) {
    const passes::Program& program = c.program;
    const passes::FusionPlan& plan = c.plan;
    if (o.print.ir) {
      section("ir");
      out << ir::print_graph(program.graph, program.outputs);
    }
    if (o.print.plan) {
      section("plan");
      out << passes::print_plan(program.graph, plan);
    }
    if (o.print.kernels) {
      section("kernels");
      for (size_t i = 0; i < plan.groups.size(); ++i) {
        const passes::FusionGroup& g = plan.groups[i];
        if (!g.is_kernel()) continue;
        out << "# group " << i << ": kernel " << g.kernel.name << "\n" << ir::print_kernel(g.kernel);
      }
      if (plan.num_kernels() == 0) out << "(no kernels)\n";
    }
    if (o.print.llvm) {
      section("llvm");
      for (size_t i = 0; i < plan.groups.size(); ++i) {
        const passes::FusionGroup& g = plan.groups[i];
        if (!g.is_kernel()) continue;
        out << "; group " << i << ": kernel " << g.kernel.name << "\n";
        try {
          out << codegen_llvm::CompiledKernel(g.kernel).llvm_ir();
        } catch (const codegen_llvm::CompileFailure& f) {
          out << "; cannot compile: " << f.reason << "\n";
        }
      }
      if (plan.num_kernels() == 0) out << "; (no kernels)\n";
    }
    if (o.print.cuda) {
      section("cuda");
      bool prelude = false;
      for (size_t i = 0; i < plan.groups.size(); ++i) {
        const passes::FusionGroup& g = plan.groups[i];
        if (!g.is_kernel()) continue;
        try {
          const codegen_cuda::CudaSource src = codegen_cuda::generate_cuda_source(g.kernel);
          const std::string_view pre = codegen_cuda::cuda_prelude();
          if (!prelude) out << pre;
          prelude = true;
          out << "\n// group " << i << ": kernel " << g.kernel.name << " ("
              << (src.row_kernel ? "one block per row" : "grid-stride") << ")"
              << std::string_view(src.code).substr(pre.size());
        } catch (const Error& e) {
          out << "// group " << i << ": kernel " << g.kernel.name << ": cannot generate CUDA: " << e.what() << "\n";
        }
      }
      if (plan.num_kernels() == 0) out << "// (no kernels)\n";
    }
    if (want_dot) result.dot = passes::to_dot(program, &plan);
  };
  PipelineCapture captured(o.print.passes ? &out : nullptr, print_lowered);
  compile(parsed.graph, GraphData{}, parsed.outputs, CompileOptions{o.passes, o.fuse}, &captured);
  if (o.print.stats) {
    section("stats");
    out << steps_table(captured.ms) << stats_table(captured.pass_stats);
  }
  if (o.print.dot) {
    section("dot");
    out << result.dot;
  }
  result.text = out.str();
  return result;
}

}  // namespace lz::lazy
