// GraphRewriter: how a pass builds its result. Graphs are append-only SSA
// arenas, so a pass never edits a graph in place: it copies the source into
// a new graph node by node, replacing what it rewrites.
//
// The new graph starts with every input of the source, in input order and
// with its data (input indices are preserved), and the source's whole
// runtime scalar and generator pools in order (Arg{Scalar, k} and
// Arg{Generator, k} mean the same runtime parameter in both graphs). Then:
//
//   GraphRewriter rw(program);
//   for (NodeId n = 0; n < src.num_nodes(); ++n) {
//     if (src.node(n).is_input()) continue;          // already copied
//     if (can_simplify(n)) rw.replace(old_value, rw.mapped(x));
//     else rw.copy_node(n);                          // operands remapped
//   }
//   program = std::move(rw).finish(program.outputs);
//
// Every value of the new graph records the source program's origin of the
// value it stands for (Program::origin): a copy takes its source value's
// origin, a brand-new value the origin of the value it replaces (kNone if it
// replaces nothing).
#pragma once

#include <span>
#include <vector>

#include "ir/graph.h"
#include "passes/program.h"

namespace lz::passes {

class GraphRewriter {
 public:
  // `source_origin`: the source's origin per value; empty means identity
  // (origin[v] == v, a graph copied from a trace).
  GraphRewriter(const ir::Graph& source, std::span<const ir::ValueId> source_origin);
  explicit GraphRewriter(const Program& source) : GraphRewriter(source.graph, source.origin) {}

  const ir::Graph& source() const { return src_; }
  // The graph being built. Passes may add pool arguments (int_list_arg, ...)
  // and nodes to it directly; values added that way get origin kNone until
  // they replace a source value.
  ir::Graph& graph() { return dst_; }
  const ir::Graph& graph() const { return dst_; }

  // The new value standing for source value `old`, or kNone if none yet.
  ir::ValueId mapped(ir::ValueId old) const { return map_[old]; }

  // Copies source node `old` (not an input) with its operands remapped
  // (they must be mapped already) and its pooled arguments re-added; maps
  // each of its results to the new ones and returns the first.
  ir::ValueId copy_node(ir::NodeId old);

  // The source node's arguments, with pooled payloads (int/double/bool
  // lists, strings, optional-tensor lists) re-added to the new graph's
  // pools; Scalar/Generator indices and operand positions are unchanged.
  std::vector<ir::Arg> copy_args(ir::NodeId old);

  // Appends a node to the new graph (operands are new-graph values);
  // its results get origin kNone.
  ir::ValueId add_node(const OperatorInfo& op, std::span<const ir::Arg> args,
                       std::span<const ir::ValueId> operands, std::span<const TensorMeta> outputs,
                       uint32_t implicit_generator = ir::kNone);

  // From now on source value `old` is new-graph value `replacement` (which
  // must have the same dtype and sizes). A replacement without an origin
  // yet takes `old`'s.
  void replace(ir::ValueId old, ir::ValueId replacement);

  // The rewritten program: outputs are the mapped `source_outputs` (all must
  // be mapped), origin has one entry per new value.
  Program finish(std::span<const ir::ValueId> source_outputs) &&;

 private:
  ir::ValueId source_origin(ir::ValueId old) const;
  void grow_origin();

  const ir::Graph& src_;
  std::span<const ir::ValueId> src_origin_;
  ir::Graph dst_;
  std::vector<ir::ValueId> map_;     // source value -> new value
  std::vector<ir::ValueId> origin_;  // new value -> source program's origin
};

// The canonical copy of the cone of `outputs`: every input of `g` (input
// indices preserved), its scalar and generator pools, then only the nodes
// the outputs need, in post order: a depth-first walk from the outputs in
// order, visiting each node's operands in order, emitting a node after its
// operands (iterative, any depth). Nodes are therefore numbered by the
// structure of the cone alone (after the inputs, which come first as in the
// source). origin[v] is the value of `g` that v copies.
Program copy_cone(const ir::Graph& g, std::span<const ir::ValueId> outputs);

}  // namespace lz::passes
