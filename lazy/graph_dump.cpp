#include "lazy/graph_dump.h"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "ir/printer.h"
#include "passes/dot.h"

namespace lz::lazy {

GraphDump::GraphDump(const std::string& dir, uint64_t graph_hash) {
  if (dir.empty()) return;
  dir_ = absl::StrCat(dir, "/graph_", absl::Hex(graph_hash, absl::kZeroPad16));
  std::error_code ec;
  std::filesystem::create_directories(dir_, ec);
  if (ec) {
    std::fprintf(stderr, "[lazuli] LZ_DUMP: cannot create %s: %s\n", dir_.c_str(), ec.message().c_str());
    dir_.clear();
  }
}

void GraphDump::write(std::string_view file, std::string_view text) const {
  std::ofstream out(dir_ + "/" + std::string(file));
  out << text;
}

void GraphDump::write(CompileStep step, std::string_view suffix, std::string_view text) const {
  write(absl::StrCat(static_cast<int>(step) + 1, "_", std::string(step_name(step)), std::string(suffix)), text);
}

void GraphDump::after_pass(std::string_view pass, const passes::Program& p) {
  if (dir_.empty()) return;
  char number[16];
  std::snprintf(number, sizeof number, "_%02d_", ++passes_);
  write(CompileStep::Canonicalise, absl::StrCat(number, std::string(pass), ".ir"), ir::print_graph(p.graph, p.outputs));
}

void GraphDump::after_step(CompileStep step, const Compilation& c) {
  if (dir_.empty()) return;
  const passes::FusionPlan& plan = c.plan;
  switch (step) {
    case CompileStep::CopyCone: write(step, ".ir", ir::print_graph(c.program.graph, c.program.outputs)); break;
    case CompileStep::Canonicalise: break;  // after each pass
    case CompileStep::PlanFusion: {
      std::string decisions;
      for (const std::string& d : plan.decisions) absl::StrAppend(&decisions, d, "\n");
      write(step, ".txt", decisions);
      break;
    }
    case CompileStep::Lower: write(step, ".txt", passes::print_plan(c.program.graph, plan)); break;
    case CompileStep::GenerateCode: {
      size_t k = 0;
      for (size_t i = 0; i < plan.groups.size(); ++i) {
        if (!plan.groups[i].is_kernel()) continue;
        const std::string kernel = absl::StrCat("_kernel_", k++);
        write(step, kernel + ".kir", ir::print_kernel(plan.groups[i].kernel));
        const KernelCode& code = c.code[i];
        if (code && !code->language().empty()) write(step, kernel + "." + std::string(code->language()), code->text());
      }
      break;
    }
    case CompileStep::PlanBuffers: write(step, ".txt", passes::print_buffer_plan(plan, c.buffers)); break;
    case CompileStep::Assemble:
      write(step, ".txt", passes::print_plan(c.program.graph, plan));
      summary(c);
      break;
  }
}

void GraphDump::summary(const Compilation& c) const {
  const passes::Program& p = c.program;
  const passes::FusionPlan& plan = c.plan;
  std::ostringstream summary;
  summary << "nodes: " << p.graph.num_nodes() << "\ngroups: " << plan.groups.size()
          << "\nkernels: " << plan.num_kernels() << "\neager steps: " << plan.num_eager() << "\n";
  for (const passes::FusionGroup& g : plan.groups) {
    if (!g.is_kernel()) summary << "  eager " << ir::print_node(p.graph, g.nodes[0]) << "\n    not fused: " << g.reason << "\n";
  }
  summary << "\n" << step_time_table(c.ms) << "\n" << pass_stat_table(c.pass_stats) << "\n";
  summary << "decisions:\n";
  for (const std::string& d : plan.decisions) summary << "  " << d << "\n";
  write("summary.txt", summary.str());
  const std::string dot = absl::StrCat(dir_, "/graph.dot");
  write("graph.dot", passes::to_dot(p, &plan));
  if (std::system("command -v dot > /dev/null 2>&1") == 0) {
    const std::string cmd = absl::StrCat("dot -Tsvg '", dot, "' -o '", dir_, "/graph.svg' > /dev/null 2>&1");
    (void)std::system(cmd.c_str());
  }
}

}  // namespace lz::lazy
