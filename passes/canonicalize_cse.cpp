// Common subexpression elimination: a node equal to an earlier one (same
// operator, same attributes, same operands after merging, same runtime
// scalar and generator pool indices, same result types) is replaced by it.
//
// Scalars compare by pool index, never by value: two runtime scalars that
// hold the same number today may not tomorrow, and the cached executable
// must serve both. Never merged: Random operators (two draws are two
// different tensors), nodes with an implicit generator or a Generator
// argument, mutating (in-place/out=) operators, operators returning
// numbers, and nodes without results.
//
// Filter: the source node hash. Merging replaces a node by a structurally
// identical one, so the source hashes of equal nodes are equal before and
// after merging; equal hashes are then compared exactly.
#include <algorithm>
#include <bit>

#include "absl/container/flat_hash_map.h"
#include "absl/container/inlined_vector.h"
#include "passes/canonicalize.h"
#include "passes/canonicalize_util.h"

namespace lz::passes {
namespace {

using ir::Arg;
using ir::ArgKind;

bool mergeable(const ir::Graph& g, const ir::Node& n) {
  const TagSet tags = n.op->tags;
  if (tags.has(Tag::Random) || tags.has(Tag::Inplace) || tags.has(Tag::Out) ||
      tags.has(Tag::NonTensorResult) || n.op->schema.is_mutable()) {
    return false;
  }
  if (n.implicit_generator != ir::kNone || n.num_outputs == 0) return false;
  for (const Arg& a : g.args(n)) {
    if (a.kind == ArgKind::Generator) return false;
  }
  return true;
}

// Argument payloads, read from each argument's own graph (pools differ).
bool same_arg(const ir::Graph& ga, const Arg& a, const ir::Graph& gb, const Arg& b) {
  if (a.kind != b.kind) return false;
  switch (a.kind) {
    case ArgKind::None: return true;
    case ArgKind::Tensor: return a.index == b.index;  // operand positions; operands compared apart
    case ArgKind::TensorList: return a.index == b.index && a.count == b.count;
    case ArgKind::Scalar: return a.index == b.index && a.i == b.i;
    case ArgKind::Generator: return a.index == b.index;
    case ArgKind::Double: return std::bit_cast<uint64_t>(a.d) == std::bit_cast<uint64_t>(b.d);
    case ArgKind::Int:
    case ArgKind::Bool:
    case ArgKind::ScalarType:
    case ArgKind::Layout:
    case ArgKind::MemoryFormat: return a.i == b.i;
    case ArgKind::Device: return a.i == b.i && a.index == b.index;
    case ArgKind::IntList:
    case ArgKind::BoolList:
    case ArgKind::OptTensorList: {
      const auto x = ga.int_pool(a);
      const auto y = gb.int_pool(b);
      return std::equal(x.begin(), x.end(), y.begin(), y.end());
    }
    case ArgKind::DoubleList: {
      const auto x = ga.double_pool(a);
      const auto y = gb.double_pool(b);
      return std::equal(x.begin(), x.end(), y.begin(), y.end(), [](double l, double r) {
        return std::bit_cast<uint64_t>(l) == std::bit_cast<uint64_t>(r);
      });
    }
    case ArgKind::String: return ga.string_at(a) == gb.string_at(b);
  }
  return false;
}

// Whether source node `n`, with operands remapped to `operands`, equals
// node `c` of the new graph.
bool same_node(const ir::Graph& src, const ir::Node& n, std::span<const ir::ValueId> operands,
               const ir::Graph& dst, const ir::Node& c) {
  if (n.op != c.op || n.num_outputs != c.num_outputs || n.num_args != c.num_args ||
      c.implicit_generator != ir::kNone) {
    return false;
  }
  if (!std::equal(operands.begin(), operands.end(), c.operands.begin(), c.operands.end())) return false;
  const auto na = src.args(n);
  const auto ca = dst.args(c);
  for (size_t k = 0; k < na.size(); ++k) {
    if (!same_arg(src, na[k], dst, ca[k])) return false;
  }
  for (uint32_t k = 0; k < n.num_outputs; ++k) {
    if (!(src.value(n.first_output + k).type == dst.value(c.first_output + k).type)) return false;
  }
  return true;
}

bool run_cse(Program& p) {
  const ir::Graph& src = p.graph;
  GraphRewriter rw(p);
  // Source hash -> the new-graph nodes copied with that hash.
  absl::flat_hash_map<uint64_t, absl::InlinedVector<ir::NodeId, 1>> seen;
  bool changed = false;
  absl::InlinedVector<ir::ValueId, 4> operands;
  for (ir::NodeId id = 0; id < src.num_nodes(); ++id) {
    const ir::Node& n = src.node(id);
    if (n.is_input()) continue;
    if (!mergeable(src, n)) {
      rw.copy_node(id);
      continue;
    }
    operands.clear();
    for (const ir::ValueId v : n.operands) operands.push_back(rw.mapped(v));
    auto& candidates = seen[n.hash];
    bool merged = false;
    for (const ir::NodeId c : candidates) {
      const ir::Node& cn = rw.graph().node(c);
      if (!same_node(src, n, operands, rw.graph(), cn)) continue;
      for (uint32_t k = 0; k < n.num_outputs; ++k) rw.replace(n.first_output + k, cn.first_output + k);
      merged = changed = true;
      break;
    }
    if (merged) continue;
    const ir::ValueId first = rw.copy_node(id);
    candidates.push_back(rw.graph().value(first).node);
  }
  if (!changed) return false;
  p = std::move(rw).finish(p.outputs);
  return true;
}

}  // namespace

std::unique_ptr<Pass> make_cse_pass() { return std::make_unique<detail::FunctionPass>("cse", &run_cse); }

}  // namespace lz::passes
