#include "passes/graph_rewriter.h"

#include <utility>

#include "absl/container/inlined_vector.h"
#include "core/error.h"

namespace lz::passes {

using ir::Arg;
using ir::ArgKind;
using ir::kNone;
using ir::NodeId;
using ir::ValueId;

GraphRewriter::GraphRewriter(const ir::Graph& source, std::span<const ValueId> source_origin)
    : src_(source), src_origin_(source_origin) {
  LZ_INTERNAL_ASSERT(src_origin_.empty() || src_origin_.size() == src_.num_values(),
                     "GraphRewriter: origin has ", src_origin_.size(), " entries for ",
                     src_.num_values(), " values");
  map_.assign(src_.num_values(), kNone);
  // Inputs first and in input order, so every input keeps its index.
  for (uint32_t i = 0; i < src_.num_inputs(); ++i) {
    const ValueId old = src_.input_value(i);
    map_[old] = dst_.add_input(src_.value(old).type, src_.producer(old).wrapped_number);
    origin_.push_back(this->source_origin(old));
  }
  // Whole pools in order: Arg{Scalar, k} / Arg{Generator, k} stay valid.
  for (uint32_t k = 0; k < src_.num_scalars(); ++k) (void)dst_.scalar_arg(src_.scalar(k));
  for (uint32_t k = 0; k < src_.num_generators(); ++k) (void)dst_.add_generator();
}

ValueId GraphRewriter::source_origin(ValueId old) const {
  return src_origin_.empty() ? old : src_origin_[old];
}

void GraphRewriter::grow_origin() { origin_.resize(dst_.num_values(), kNone); }

std::vector<Arg> GraphRewriter::copy_args(NodeId old) {
  const ir::Node& n = src_.node(old);
  std::vector<Arg> out;
  out.reserve(n.num_args);
  // Scalars keep their pool index: the new graph copied the whole scalar pool first.
  for (const Arg& a : src_.args(n)) out.push_back(dst_.copied_arg(src_, a, /*copy_scalars=*/false));
  return out;
}

ValueId GraphRewriter::copy_node(NodeId old) {
  const ir::Node& n = src_.node(old);
  LZ_INTERNAL_ASSERT(!n.is_input(), "GraphRewriter::copy_node: node ", old, " is an input");
  absl::InlinedVector<ValueId, 4> operands;
  for (const ValueId v : n.operands) {
    LZ_INTERNAL_ASSERT(map_[v] != kNone, "GraphRewriter::copy_node: node ", old, " (", n.op->name,
                       "): operand %", v, " is not mapped yet");
    operands.push_back(map_[v]);
  }
  absl::InlinedVector<TensorMeta, 2> types;
  for (uint32_t k = 0; k < n.num_outputs; ++k) types.push_back(src_.value(n.first_output + k).type);
  const std::vector<Arg> args = copy_args(old);
  const ValueId first = dst_.add_node(*n.op, args, operands, types, n.implicit_generator);
  grow_origin();
  for (uint32_t k = 0; k < n.num_outputs; ++k) {
    map_[n.first_output + k] = first + k;
    origin_[first + k] = source_origin(n.first_output + k);
  }
  return first;
}

ValueId GraphRewriter::add_node(const OperatorInfo& op, std::span<const Arg> args,
                                std::span<const ValueId> operands, std::span<const TensorMeta> outputs,
                                uint32_t implicit_generator) {
  const ValueId first = dst_.add_node(op, args, operands, outputs, implicit_generator);
  grow_origin();
  return first;
}

void GraphRewriter::replace(ValueId old, ValueId replacement) {
  LZ_INTERNAL_ASSERT(old < map_.size(), "GraphRewriter::replace: %", old, " is not a source value");
  LZ_INTERNAL_ASSERT(replacement < dst_.num_values(), "GraphRewriter::replace: %", replacement,
                     " is not a value of the new graph");
  grow_origin();
  map_[old] = replacement;
  if (origin_[replacement] == kNone) origin_[replacement] = source_origin(old);
}

Program GraphRewriter::finish(std::span<const ValueId> source_outputs) && {
  Program p;
  p.outputs.reserve(source_outputs.size());
  for (const ValueId v : source_outputs) {
    LZ_INTERNAL_ASSERT(v < map_.size() && map_[v] != kNone, "GraphRewriter::finish: output %", v,
                       " was not copied");
    p.outputs.push_back(map_[v]);
  }
  grow_origin();
  p.graph = std::move(dst_);
  p.origin = std::move(origin_);
  return p;
}

Program copy_cone(const ir::Graph& g, std::span<const ValueId> outputs) {
  GraphRewriter rw(g, {});
  // Iterative post-order DFS: a frame is a node and its next operand.
  enum : uint8_t { kUnseen, kOnStack, kDone };
  std::vector<uint8_t> state(g.num_nodes(), kUnseen);
  std::vector<std::pair<NodeId, uint32_t>> stack;
  auto visit = [&](ValueId v) {
    LZ_INTERNAL_ASSERT(v < g.num_values(), "copy_cone: %", v, " is not a value of the graph");
    const NodeId n = g.value(v).node;
    if (state[n] != kUnseen || g.node(n).is_input()) return;
    state[n] = kOnStack;
    stack.emplace_back(n, 0);
  };
  for (const ValueId out : outputs) {
    visit(out);
    while (!stack.empty()) {
      auto& [n, next] = stack.back();
      const ir::Node& node = g.node(n);
      if (next < node.operands.size()) {
        visit(node.operands[next++]);  // may reallocate: `n`/`next` are not used after
        continue;
      }
      rw.copy_node(n);
      state[n] = kDone;
      stack.pop_back();
    }
  }
  return std::move(rw).finish(outputs);
}

}  // namespace lz::passes
