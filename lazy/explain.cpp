#include "lazy/explain.h"

#include <array>
#include <functional>
#include <memory>
#include <sstream>
#include <utility>
#include <vector>

#include "core/error.h"
#include "ir/code_generator.h"
#include "ir/parser.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "lazy/code_generators.h"
#include "lazy/compile.h"
#include "lazy/generate_code.h"
#include "passes/dot.h"

namespace lz::lazy {

namespace {

// What lz-dump prints, caught from the compile pipeline (lazy/compile.h) as
// it runs: the IR around each pass, the lowered plan (to `lowered`), each
// step's time and each pass's statistics.
class PipelineCapture final : public CompileObserver {
 public:
  // `passes`: where the IR before and after each pass goes, or null;
  // `keep_cpu_kernels`: fill cpu_kernels (ExplainOptions::compile_kernels).
  PipelineCapture(std::ostringstream* passes, std::function<void(const Compilation&)> lowered, bool keep_cpu_kernels)
      : passes_(passes), lowered_(std::move(lowered)), keep_cpu_kernels_(keep_cpu_kernels) {}

  void after_pass(std::string_view pass, const passes::Program& p) override {
    if (passes_) *passes_ << "=== after " << pass << " ===\n" << ir::print_graph(p.graph, p.outputs);
  }
  void after_step(CompileStep step, const Compilation& c) override {
    if (step == CompileStep::CopyCone && passes_) {
      *passes_ << "=== input ===\n" << ir::print_graph(c.program.graph, c.program.outputs);
    }
    if (step == CompileStep::Lower) lowered_(c);
    if (step == CompileStep::GenerateCode && keep_cpu_kernels_) {
      for (const passes::FusionGroup& g : c.plan.groups) {
        if (g.is_kernel() && device_of(c.program, g).is_cpu()) cpu_kernels.push_back(g.kernel);
      }
    }
    if (step == CompileStep::Assemble) {
      pass_stats = c.pass_stats;
      ms = c.ms;
    }
  }

  std::vector<passes::PassStat> pass_stats;
  std::array<double, kNumCompileSteps> ms{};
  // The CPU kernels code generation kept (it turns the kernels it cannot
  // emit into eager steps), in plan order.
  std::vector<ir::Kernel> cpu_kernels;

 private:
  std::ostringstream* passes_;
  std::function<void(const Compilation&)> lowered_;
  bool keep_cpu_kernels_;
};

// Each kernel's code from `generator` (a shared prelude once), under a
// `comment`-started line naming its group.
void print_sources(std::ostringstream& out, const passes::FusionPlan& plan, const ir::CodeGenerator& generator,
                   std::string_view comment) {
  const ir::CodegenSettings settings = codegen_settings();
  bool prelude_shown = false;
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const passes::FusionGroup& g = plan.groups[i];
    if (!g.is_kernel()) continue;
    try {
      const ir::GeneratedSource src = generator.source(g.kernel, settings);
      if (!prelude_shown) out << src.prelude;
      prelude_shown = true;
      out << comment << " group " << i << ": kernel " << g.kernel.name;
      if (!src.summary.empty()) out << " (" << src.summary << ")";
      out << "\n" << src.text;
    } catch (const Error& e) {
      out << comment << " group " << i << ": kernel " << g.kernel.name << ": cannot generate code: " << e.what()
          << "\n";
    }
  }
  if (plan.num_kernels() == 0) out << comment << " (no kernels)\n";
}

}  // namespace

IrGraph::IrGraph(std::string_view ir_text)
    : parsed_(std::make_unique<ir::ParsedGraph>(ir::parse_graph(ir_text))) {
  LZ_CHECK(!parsed_->outputs.empty(), ValueError, "the graph returns nothing (add a 'return %k' line)");
  // The parser builds what the text says; a hand-written graph may still
  // break an invariant the passes rely on, so check it before they run.
  try {
    ir::verify_graph(parsed_->graph, parsed_->outputs);
  } catch (const Error& e) {
    throw ValueError(std::string("invalid graph: ") + e.what());
  }
}

IrGraph::IrGraph(IrGraph&&) noexcept = default;
IrGraph& IrGraph::operator=(IrGraph&&) noexcept = default;
IrGraph::~IrGraph() = default;

uint64_t IrGraph::cache_key() const { return parsed_->graph.hash_of(parsed_->outputs); }

Explanation explain_graph(std::string_view ir_text, const ExplainOptions& o) { return explain_graph(IrGraph(ir_text), o); }

Explanation explain_graph(const IrGraph& graph, const ExplainOptions& o) {
  const ir::ParsedGraph& parsed = *graph.parsed_;
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
      print_sources(out, plan, code_generator_named(DeviceType::CPU, "llvm"), ";");
    }
    if (o.print.cuda) {
      section("cuda");
      print_sources(out, plan, code_generator_named(DeviceType::CUDA, "nvrtc"), "//");
    }
    if (want_dot) result.dot = passes::to_dot(program, &plan);
  };
  PipelineCapture captured(o.print.passes ? &out : nullptr, print_lowered, o.compile_kernels);
  compile(parsed.graph, GraphData{}, parsed.outputs, CompileOptions{o.passes, o.fuse}, &captured);
  for (size_t step = 0; step < kNumCompileSteps; ++step) {
    result.steps.push_back({std::string(step_name(static_cast<CompileStep>(step))), captured.ms[step]});
  }
  for (const ir::Kernel& kernel : captured.cpu_kernels) {
    const ir::ColdCompile c = code_generator_named(DeviceType::CPU).compile_cold(kernel, codegen_settings());
    result.kernel_compiles.push_back({kernel.name, c.ms, c.optimize_ms, c.codegen_ms, c.failure});
  }
  if (o.print.stats) {
    section("stats");
    out << step_time_table(captured.ms) << pass_stat_table(captured.pass_stats);
  }
  if (o.print.dot) {
    section("dot");
    out << result.dot;
  }
  result.text = out.str();
  return result;
}

}  // namespace lz::lazy
