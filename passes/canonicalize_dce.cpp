// Dead code elimination: keeps the inputs (their indices are the graph's
// interface) and the nodes some output needs; drops every other node.
//
// Dropped even so: Random nodes nobody reads. Their generator call slot was
// reserved when they were traced, so dropping one does not shift the
// numbers the others draw. Nodes with no results are unused by definition
// and dropped too (the graph is functional: no node is kept for effects).
// Kept: the surviving nodes in their source order.
#include "passes/canonicalize.h"
#include "passes/canonicalize_util.h"

namespace lz::passes {
namespace {

bool run_dce(Program& p) {
  const ir::Graph& g = p.graph;
  // Operands are defined before their users, so one backward sweep marks
  // everything the outputs reach.
  std::vector<uint8_t> live(g.num_nodes(), 0);
  for (const ir::ValueId v : p.outputs) live[g.value(v).node] = 1;
  size_t dead = 0;
  for (size_t k = g.num_nodes(); k-- > 0;) {
    const ir::Node& n = g.node(static_cast<ir::NodeId>(k));
    if (!live[k]) {
      if (!n.is_input()) ++dead;
      continue;
    }
    for (const ir::ValueId v : n.operands) live[g.value(v).node] = 1;
  }
  if (dead == 0) return false;
  GraphRewriter rw(p);
  for (ir::NodeId id = 0; id < g.num_nodes(); ++id) {
    if (live[id] && !g.node(id).is_input()) rw.copy_node(id);
  }
  p = std::move(rw).finish(p.outputs);
  return true;
}

}  // namespace

std::unique_ptr<Pass> make_dce_pass() { return std::make_unique<detail::FunctionPass>("dce", &run_dce); }

}  // namespace lz::passes
