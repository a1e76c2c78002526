#include "lazy/compile.h"

#include <chrono>
#include <cstdio>
#include <sstream>

#include "core/stable_hash.h"
#include "ir/printer.h"
#include "lazy/config.h"
#include "lazy/generate_code.h"
#include "lazy/graph_dump.h"
#include "lazy/metrics.h"
#include "passes/fusion.h"
#include "passes/graph_rewriter.h"
#include "passes/lower_group.h"

namespace lz::lazy {

std::string_view step_name(CompileStep step) {
  static constexpr std::array<std::string_view, kNumCompileSteps> kNames = {
      "copy_cone", "canonicalise", "plan_fusion", "lower", "generate_code", "plan_buffers", "assemble"};
  return kNames[static_cast<size_t>(step)];
}

CompileOptions CompileOptions::from_settings() {
  const Settings s = settings();
  return CompileOptions{s.pipeline, s.fusion};
}

CompileOptions CompileOptions::reference() { return CompileOptions{"none", false}; }

namespace {

// Everything that reports on a compile: the LZ_DUMP files and the caller's
// observer after each step, then LZ_DEBUG's lines and the metrics.
class CompileReport final : public CompileObserver {
 public:
  CompileReport(const Settings& s, uint64_t graph_hash, CompileObserver* observer)
      : dump_(s.dump_dir, graph_hash), observer_(observer), debug_level_(s.debug_level) {}

  // Runs one step of `c`, timed, then tells the observers.
  template <class Run>
  void step(CompileStep step, Compilation& c, Run&& run) {
    const auto started = std::chrono::steady_clock::now();
    run();
    c.ms[static_cast<size_t>(step)] =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
    after_step(step, c);
  }

  bool watches_passes() const { return dump_.enabled() || observer_ != nullptr; }
  void after_pass(std::string_view pass, const passes::Program& p) override {
    dump_.after_pass(pass, p);
    if (observer_) observer_->after_pass(pass, p);
  }
  void after_step(CompileStep step, const Compilation& c) override {
    dump_.after_step(step, c);
    if (observer_) observer_->after_step(step, c);
  }

  // The metrics and LZ_DEBUG, once `exe` is assembled.
  void finish(const Compilation& c, const Executable& exe) const {
    std::vector<std::string> not_fused;
    for (const passes::FusionGroup& group : c.plan.groups) {
      if (!group.is_kernel()) not_fused.push_back(c.program.graph.node(group.nodes[0]).op->name + ": " + group.reason);
    }
    detail::count_compile(c.plan.num_kernels(), not_fused);
    std::array<std::pair<std::string_view, double>, kNumCompileSteps> per_step;
    for (size_t s = 0; s < kNumCompileSteps; ++s) per_step[s] = {step_name(static_cast<CompileStep>(s)), c.ms[s]};
    detail::count_compile_ms(per_step);
    if (debug_level_ < 3) return;
    std::string line = "[lazuli] compile:";
    for (const auto& [name, ms] : per_step) {
      char took[32];
      std::snprintf(took, sizeof took, " %.3f ms,", ms);
      line += " ";
      line += name;
      line += took;
    }
    line.back() = '\n';
    std::fputs(line.c_str(), stderr);
    for (const std::string& d : c.plan.decisions) std::fprintf(stderr, "[lazuli] fusion: %s\n", d.c_str());
    if (debug_level_ >= 4) std::fprintf(stderr, "[lazuli] %s", exe.plan_text().c_str());
  }

 private:
  GraphDump dump_;
  CompileObserver* observer_;
  int debug_level_;
};

// The traced graph's operators and wiring without attributes or types.
uint64_t skeleton_hash(const ir::Graph& g) {
  uint64_t skeleton = stable_hash("skeleton");
  for (ir::NodeId n = 0; n < g.num_nodes(); ++n) {
    const ir::Node& node = g.node(n);
    skeleton = hash_combine(skeleton, node.is_input() ? 0 : node.op->name_hash);
    for (ir::ValueId o : node.operands) skeleton = hash_combine(skeleton, o);
  }
  return skeleton;
}

void copy_cone(const ir::Graph& trace, std::span<const ir::ValueId> outputs, Compilation& c) {
  c.program = passes::copy_cone(trace, outputs);
  c.skeleton_hash = skeleton_hash(c.program.graph);
  if (c.program.graph.num_nodes() <= Executable::kMaxExplainedNodes) {
    c.traced_text = ir::print_graph(c.program.graph, c.program.outputs);
  }
}

void canonicalise(const std::string& spec, CompileReport& report, Compilation& c) {
  passes::PassManager pipeline = passes::make_pipeline(spec);
  if (report.watches_passes()) {
    pipeline.set_dump_hook([&](std::string_view pass, const passes::Program& p) { report.after_pass(pass, p); });
  }
  pipeline.run(c.program);
  c.pass_stats = pipeline.stats();
}

}  // namespace

std::string step_time_table(const std::array<double, kNumCompileSteps>& ms) {
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

std::string pass_stat_table(const std::vector<passes::PassStat>& stats) {
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

std::unique_ptr<Executable> compile(const ir::Graph& trace, const GraphData& data,
                                    std::span<const ir::ValueId> outputs, const CompileOptions& options,
                                    CompileObserver* observer) {
  const Settings s = settings();
  CompileReport report(s, trace.hash_of(outputs), observer);
  Compilation c;
  std::unique_ptr<Executable> exe;
  using Step = CompileStep;
  report.step(Step::CopyCone, c, [&] { copy_cone(trace, outputs, c); });
  report.step(Step::Canonicalise, c, [&] { canonicalise(options.pipeline, report, c); });
  report.step(Step::PlanFusion, c, [&] { c.plan = passes::plan_fusion(c.program, {options.fusion}); });
  report.step(Step::Lower, c, [&] { passes::lower_groups(c.program.graph, c.plan); });
  report.step(Step::GenerateCode, c, [&] { c.code = generate_code(c.program, c.plan); });
  report.step(Step::PlanBuffers, c, [&] { c.buffers = passes::plan_buffers(c.program, c.plan); });
  report.step(Step::Assemble, c, [&] { exe = Executable::assemble(trace, data, outputs, c); });
  report.finish(c, *exe);
  return exe;
}

}  // namespace lz::lazy
