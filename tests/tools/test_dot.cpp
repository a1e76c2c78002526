// to_dot: the DOT picture of a program and its fusion plan (passes/dot.h).
// Checked structurally (node and edge lines, clusters, attributes), not as a
// golden text, so colour or layout tweaks do not break it.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "ir/parser.h"
#include "passes/dot.h"
#include "passes/fusion.h"
#include "passes/graph_rewriter.h"
#include "passes/lower_group.h"

using namespace lz;
using namespace lz::passes;

namespace {

// An eager step (mm), a softmax-like row kernel, a reduction output and a
// view output.
constexpr std::string_view kProgram = R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[8, 4] = input 1
  %2 : f32[4, 4] = mm(%0, %1)
  %3 : f32[4, 4] = exp(%2)
  %4 : f32[4, 1] = sum.dim_IntList(%3, dim=[1], keepdim=true, dtype=None)
  %5 : f32[4, 4] = div.Tensor(%3, %4)
  %6 : f32[4, 4] = permute(%5, dims=[1, 0])
  return %6, %4
}
)";

Program program() {
  ir::ParsedGraph parsed = ir::parse_graph(kProgram);
  return copy_cone(parsed.graph, parsed.outputs);
}

size_t count(const std::string& s, std::string_view what) {
  size_t n = 0;
  for (size_t pos = s.find(what); pos != std::string::npos; pos = s.find(what, pos + 1)) ++n;
  return n;
}

// The line declaring DOT node n<id> (its attributes), or "" if none.
std::string node_line(const std::string& dot, int id) {
  std::string key = "n";  // built piecewise: GCC 12 -Wrestrict false positive on "n" + ...
  key += std::to_string(id);
  key += " [label=";
  for (size_t pos = dot.find(key); pos != std::string::npos; pos = dot.find(key, pos + 1)) {
    if (pos == 0 || dot[pos - 1] == ' ') return dot.substr(pos, dot.find('\n', pos) - pos);
  }
  return "";
}

}  // namespace

TEST_CASE("to_dot without a plan: nodes, edges, kinds and outputs") {
  const Program p = program();
  const std::string dot = to_dot(p);
  CHECK(dot.rfind("digraph lazuli {\n", 0) == 0);
  CHECK(dot.substr(dot.size() - 2) == "}\n");
  CHECK(count(dot, "subgraph cluster_") == 0);

  // One node per graph node, labelled "%id op" and the result type.
  for (int id = 0; id < 7; ++id) {
    INFO(id);
    CHECK_FALSE(node_line(dot, id).empty());
  }
  CHECK(node_line(dot, 0).find("label=\"%0 input 0\\nf32[4, 8]\"") != std::string::npos);
  CHECK(node_line(dot, 2).find("label=\"%2 mm\\nf32[4, 4]\"") != std::string::npos);
  CHECK(node_line(dot, 4).find("label=\"%4 sum.dim_IntList\\nf32[4, 1]\"") != std::string::npos);

  // Colours by kind: inputs, pointwise, reduction, view and other differ.
  auto fill = [&](int id) {
    const std::string line = node_line(dot, id);
    const size_t at = line.find("fillcolor=\"");
    return at == std::string::npos ? std::string() : line.substr(at + 11, line.find('"', at + 11) - at - 11);
  };
  CHECK(fill(0) == fill(1));  // both inputs
  CHECK(fill(3) == fill(5));  // exp, div: pointwise
  const std::string kinds[] = {fill(0), fill(2), fill(3), fill(4), fill(6)};
  for (size_t a = 0; a < 5; ++a) {
    CHECK_FALSE(kinds[a].empty());
    for (size_t b = a + 1; b < 5; ++b) CHECK(kinds[a] != kinds[b]);
  }

  // Outputs (%4, %6) have a double border; nothing else does.
  CHECK(count(dot, "peripheries=2") == 2);
  CHECK(node_line(dot, 4).find("peripheries=2") != std::string::npos);
  CHECK(node_line(dot, 6).find("peripheries=2") != std::string::npos);

  // Edges operand -> user; %3 feeds sum and div; div reads %3 once.
  for (const char* edge : {"n0 -> n2;", "n1 -> n2;", "n2 -> n3;", "n3 -> n4;", "n3 -> n5;", "n4 -> n5;", "n5 -> n6;"}) {
    INFO(edge);
    CHECK(count(dot, edge) == 1);
  }
  CHECK(count(dot, " -> ") == 7);
}

TEST_CASE("to_dot with a plan: kernel clusters and highlighted eager steps") {
  const Program p = program();
  FusionPlan plan = plan_fusion(p);
  lower_groups(p.graph, plan);
  REQUIRE(plan.num_kernels() >= 1);
  const std::string dot = to_dot(p, &plan);

  CHECK(dot.find("label=\"" + std::to_string(plan.num_kernels()) + " kernels, ") != std::string::npos);
  for (size_t gi = 0; gi < plan.groups.size(); ++gi) {
    const FusionGroup& g = plan.groups[gi];
    INFO("group " << gi);
    if (g.is_kernel()) {
      const std::string head = "subgraph cluster_" + std::to_string(gi) + " {\n    label=\"" + dot_escape(g.kernel.name) + "\";";
      CHECK(count(dot, head) == 1);
      // Its nodes are declared inside the cluster (before the cluster closes).
      const size_t begin = dot.find(head);
      const size_t end = dot.find("\n  }\n", begin);
      for (ir::NodeId n : g.nodes) {
        const size_t at = dot.find("    n" + std::to_string(n) + " [label=", begin);
        CHECK((at != std::string::npos && at < end));
      }
    } else {
      for (ir::NodeId n : g.nodes) {
        const std::string line = node_line(dot, static_cast<int>(n));
        CHECK(line.find("color=\"red\"") != std::string::npos);
        CHECK(line.find("tooltip=\"eager step (group " + std::to_string(gi) + "): " + dot_escape(g.reason)) !=
              std::string::npos);
        CHECK(line.find("\\neager: ") != std::string::npos);
      }
    }
  }
  // mm has no lowering: an eager step; exp is fused.
  CHECK(node_line(dot, 2).find("color=\"red\"") != std::string::npos);
  CHECK(node_line(dot, 3).find("color=\"red\"") == std::string::npos);
  // Every node is declared exactly once.
  for (int id = 0; id < 7; ++id) {
    INFO(id);
    CHECK(count(dot, " n" + std::to_string(id) + " [label=") == 1);
  }
  // The mm result crosses into a kernel: a materialised (bold) edge.
  CHECK(count(dot, "n2 -> n3 [penwidth=2];") == 1);
}

TEST_CASE("to_dot escapes kernel names and eager reasons") {
  CHECK(dot_escape("plain %1 op") == "plain %1 op");
  CHECK(dot_escape("a\"b\\c\nd\x01" "e") == "a\\\"b\\\\c\\nde");
  CHECK(dot_escape("caf\xc3\xa9") == "caf\xc3\xa9");

  const Program p = program();
  FusionPlan plan;
  FusionGroup kernel;
  kernel.kind = FusionGroup::Kind::Kernel;
  kernel.kernel.name = "fused_\"exp\"\\sum";
  kernel.nodes = {3, 4, 5};
  FusionGroup eager;
  eager.kind = FusionGroup::Kind::Eager;
  eager.nodes = {2};
  eager.reason = "no \"lowering\"\nfor mm";
  plan.groups.push_back(eager);
  plan.groups.push_back(kernel);
  const std::string dot = to_dot(p, &plan);
  CHECK(dot.find("subgraph cluster_1 {\n    label=\"fused_\\\"exp\\\"\\\\sum\";") != std::string::npos);
  CHECK(count(dot, "subgraph cluster_") == 1);
  CHECK(node_line(dot, 2).find("eager: no \\\"lowering\\\"\\nfor mm\"") != std::string::npos);
  // No raw newline or unescaped quote inside any attribute list.
  for (int id = 0; id < 7; ++id) {
    const std::string line = node_line(dot, id);
    INFO(line);
    size_t quotes = 0;
    for (size_t i = 0; i < line.size(); ++i) quotes += line[i] == '"' && line[i - 1] != '\\';
    CHECK(quotes % 2 == 0);
  }
}
