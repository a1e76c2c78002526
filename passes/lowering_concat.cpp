// Lowerings of concatenations (cat, stack) of operands of one shape: the
// kernel runs over that shape and stores each operand into its part of
// the output (Lowering::Kind::Concat). Operands of different shapes are
// not lowered: their parts' bounds would depend on sizes an executable
// does not fix.
#include "passes/lowering.h"

namespace lz::passes::detail {

namespace {

const uint32_t kConcatDim = shared_argument({OpId::cat, OpId::stack}, "dim");

int64_t concat_dim(const ir::Graph& g, const ir::Node& n) {
  return n.num_args > kConcatDim && g.args(n)[kConcatDim].kind == ir::ArgKind::Int ? g.args(n)[kConcatDim].i : 0;
}

// `dim` wrapped into [0, rank); -1 when out of range (eager raises).
int64_t wrapped_concat_dim(int64_t dim, size_t rank) {
  const int64_t r = static_cast<int64_t>(rank);
  if (dim < -r || dim >= r) return -1;
  return dim < 0 ? dim + r : dim;
}

const char* refuse_unequal(const ir::Graph& g, const ir::Node& n) {
  if (n.operands.empty()) return "no operands";
  const SizeVec& first = g.value(n.operands[0]).type.sizes;
  for (ir::ValueId o : n.operands) {
    if (g.value(o).type.sizes != first) return "operands of different shapes (only equal parts are lowered)";
  }
  const size_t out_rank = g.value(n.first_output).type.sizes.size();
  if (out_rank == 0 || wrapped_concat_dim(concat_dim(g, n), out_rank) < 0) return "a dim eager rejects";
  if (n.op->id == OpId::cat && first.empty()) return "0-dim operands (eager rejects them)";
  return nullptr;
}

// cat: operand j is the j-th of equal parts along dim.
ir::ViewStep cat_part(const ir::Graph& g, const ir::Node& n, uint32_t operand) {
  const int64_t dim = wrapped_concat_dim(concat_dim(g, n), g.value(n.first_output).type.sizes.size());
  return ir::ViewStep{ir::ViewStep::Kind::Chunk, {dim, static_cast<int64_t>(n.operands.size()), operand}};
}

// stack: operand j is index j of the new dim.
ir::ViewStep stack_part(const ir::Graph& g, const ir::Node& n, uint32_t operand) {
  const int64_t dim = wrapped_concat_dim(concat_dim(g, n), g.value(n.first_output).type.sizes.size());
  return ir::ViewStep{ir::ViewStep::Kind::Select, {dim, operand}};
}

}  // namespace

void add_concat_lowerings(LoweringTable& table) {
  // Cost 1: the planner's recompute rule never sees a concatenation (its
  // output is not read inside its kernel).
  table.add(OpId::cat, Lowering{Lowering::Kind::Concat, 1, nullptr, nullptr, refuse_unequal, cat_part});
  table.add(OpId::stack, Lowering{Lowering::Kind::Concat, 1, nullptr, nullptr, refuse_unequal, stack_part});
}

}  // namespace lz::passes::detail
