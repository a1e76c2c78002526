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

void GraphDump::program(std::string_view name, const passes::Program& p) const {
  if (dir_.empty()) return;
  write(std::string(name) + ".ir", ir::print_graph(p.graph, p.outputs));
}

void GraphDump::kernel_code(size_t k, std::string_view ext, std::string_view code) const {
  if (dir_.empty()) return;
  write(absl::StrCat("kernel_", k, ".", std::string(ext)), code);
}

void GraphDump::plan(const passes::Program& p, const passes::FusionPlan& plan,
                     std::span<const passes::PassStat> stats) const {
  if (dir_.empty()) return;
  write("plan.txt", passes::print_plan(p.graph, plan));
  std::ostringstream summary;
  summary << "nodes: " << p.graph.num_nodes() << "\ngroups: " << plan.groups.size()
          << "\nkernels: " << plan.num_kernels() << "\neager steps: " << plan.num_eager() << "\n";
  size_t k = 0;
  for (const passes::FusionGroup& g : plan.groups) {
    if (g.is_kernel()) {
      write(absl::StrCat("kernel_", k++, ".kir"), ir::print_kernel(g.kernel));
    } else {
      summary << "  eager " << ir::print_node(p.graph, g.nodes[0]) << "\n    not fused: " << g.reason << "\n";
    }
  }
  summary << "passes:\n";
  for (const passes::PassStat& s : stats) {
    char line[160];
    std::snprintf(line, sizeof line, "  %-10s %8.1f us  %-9s  nodes %zu -> %zu\n", s.name.c_str(),
                  static_cast<double>(s.time.count()) / 1e3, s.changed ? "changed" : "unchanged", s.nodes_before,
                  s.nodes_after);
    summary << line;
  }
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
