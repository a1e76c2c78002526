#include "passes/dot.h"

#include <algorithm>
#include <sstream>
#include <vector>

#include "core/op_tags.h"
#include "ir/printer.h"

namespace lz::passes {
namespace {

// Colours chosen to stay readable in black-and-white prints too: the kinds
// differ in lightness as well as hue.
constexpr const char* kInputColor = "#e0e0e0";
constexpr const char* kViewColor = "#fff2cc";
constexpr const char* kReductionColor = "#9fc5e8";
constexpr const char* kPointwiseColor = "#d9ead3";
constexpr const char* kOtherColor = "#d9d2e9";
constexpr const char* kEagerColor = "#ff9999";

const char* kind_color(const ir::Node& n) {
  if (n.is_input()) return kInputColor;
  if (n.op->tags.has(Tag::View)) return kViewColor;
  if (n.op->tags.has(Tag::Reduction)) return kReductionColor;
  if (n.op->tags.has(Tag::Pointwise)) return kPointwiseColor;
  return kOtherColor;
}

// "%3, %4 max.dim\nf32[4], i64[4]" (unescaped).
std::string node_label(const ir::Graph& g, ir::NodeId id) {
  const ir::Node& n = g.node(id);
  std::string ids, types;
  for (uint32_t k = 0; k < n.num_outputs; ++k) {
    const ir::ValueId v = n.first_output + k;
    if (k > 0) {
      ids += ", ";
      types += ", ";
    }
    ids += "%" + std::to_string(v);
    types += ir::print_type(g.value(v).type);
  }
  if (n.num_outputs == 0) ids = "()";
  const std::string op = n.is_input() ? "input " + std::to_string(n.input_index) : n.op->name;
  return ids + " " + op + (types.empty() ? "" : "\n" + types);
}

}  // namespace

std::string dot_escape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      default:
        // Graphviz rejects or mangles raw control characters; UTF-8 passes.
        if (static_cast<unsigned char>(c) >= 0x20 && c != 0x7f) out += c;
    }
  }
  return out;
}

std::string to_dot(const Program& p, const FusionPlan* plan) {
  const ir::Graph& g = p.graph;
  const size_t num_nodes = g.num_nodes();

  // Each node's group (the first that lists it: a node in no group, such as a
  // view folded into its readers, is drawn outside every cluster).
  std::vector<uint32_t> group_of(num_nodes, ir::kNone);
  if (plan != nullptr) {
    for (size_t gi = 0; gi < plan->groups.size(); ++gi) {
      for (ir::NodeId n : plan->groups[gi].nodes) {
        if (n < num_nodes && group_of[n] == ir::kNone) group_of[n] = static_cast<uint32_t>(gi);
      }
    }
  }
  std::vector<bool> is_output_node(num_nodes, false);
  for (ir::ValueId v : p.outputs) {
    if (v < g.num_values()) is_output_node[g.value(v).node] = true;
  }

  std::ostringstream os;
  os << "digraph lazuli {\n"
     << "  rankdir=TB;\n"
     << "  node [shape=box, style=\"rounded,filled\", fontname=\"monospace\", fontsize=10];\n"
     << "  edge [fontname=\"monospace\", fontsize=8];\n";
  if (plan != nullptr) {
    os << "  label=\"" << plan->num_kernels() << " kernels, " << plan->num_eager()
       << " eager steps\";\n  labelloc=t;\n";
  }

  auto emit_node = [&](ir::NodeId id, const char* indent) {
    std::string label = node_label(g, id);
    std::string tooltip = label;
    const char* fill = kind_color(g.node(id));
    const uint32_t gi = group_of[id];
    const bool eager = gi != ir::kNone && !plan->groups[gi].is_kernel();
    if (eager) {
      fill = kEagerColor;
      label += "\neager: " + plan->groups[gi].reason;
      tooltip = "eager step (group " + std::to_string(gi) + "): " + plan->groups[gi].reason;
    }
    os << indent << "n" << id << " [label=\"" << dot_escape(label) << "\", fillcolor=\"" << fill
       << "\", tooltip=\"" << dot_escape(tooltip) << "\"";
    if (eager) os << ", color=\"red\"";
    if (is_output_node[id]) os << ", peripheries=2";
    os << "];\n";
  };

  // Kernel groups as clusters, in plan order.
  if (plan != nullptr) {
    for (size_t gi = 0; gi < plan->groups.size(); ++gi) {
      const FusionGroup& group = plan->groups[gi];
      if (!group.is_kernel()) continue;
      os << "  subgraph cluster_" << gi << " {\n"
         << "    label=\"" << dot_escape(group.kernel.name) << "\";\n"
         << "    tooltip=\"group " << gi << ": kernel " << dot_escape(group.kernel.name) << "\";\n"
         << "    style=\"rounded,dashed\";\n    color=\"#3c78d8\";\n";
      for (ir::NodeId n : group.nodes) {
        if (n < num_nodes && group_of[n] == gi) emit_node(n, "    ");
      }
      os << "  }\n";
    }
  }
  for (ir::NodeId id = 0; id < num_nodes; ++id) {
    const uint32_t gi = group_of[id];
    if (gi == ir::kNone || !plan->groups[gi].is_kernel()) emit_node(id, "  ");
  }

  // Edges: one per distinct operand value of each node.
  for (ir::NodeId id = 0; id < num_nodes; ++id) {
    const ir::Node& user = g.node(id);
    std::vector<ir::ValueId> seen;
    for (ir::ValueId v : user.operands) {
      if (v >= g.num_values() || std::find(seen.begin(), seen.end(), v) != seen.end()) continue;
      seen.push_back(v);
      const ir::NodeId src = g.value(v).node;
      os << "  n" << src << " -> n" << id;
      std::vector<std::string> attrs;
      // Which result, when the producer has several.
      if (g.node(src).num_outputs > 1) attrs.push_back("label=\"%" + std::to_string(v) + "\"");
      // A value crossing from one group to another is written to memory.
      if (plan != nullptr && group_of[src] != ir::kNone && group_of[id] != ir::kNone &&
          group_of[src] != group_of[id]) {
        attrs.push_back("penwidth=2");
      }
      if (!attrs.empty()) {
        os << " [";
        for (size_t a = 0; a < attrs.size(); ++a) os << (a ? ", " : "") << attrs[a];
        os << "]";
      }
      os << ";\n";
    }
  }
  os << "}\n";
  return os.str();
}

}  // namespace lz::passes
