// Lowerings of concatenations (cat, stack) and of constant_pad_nd.
// Operands of one shape: the kernel runs over that shape and stores each
// operand into its part of the output (Lowering::Kind::Concat). cat of
// unequal parts and constant_pad_nd: the kernel runs over the output's
// shape, each operand placed in its piece (Lowering::Kind::Place; the
// pieces' bounds are runtime sizes, so an executable serves every size).
#include "passes/lowering.h"

#include "core/op_id.h"

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

// cat of parts of different sizes along dim (their other sizes are the
// output's, as eager requires).
const char* refuse_cat_pieces(const ir::Graph& g, const ir::Node& n) {
  if (n.operands.empty()) return "no operands";
  const SizeVec& out = g.value(n.first_output).type.sizes;
  const int64_t dim = wrapped_concat_dim(concat_dim(g, n), out.size());
  if (out.empty() || dim < 0) return "a dim eager rejects";
  for (ir::ValueId o : n.operands) {
    const SizeVec& part = g.value(o).type.sizes;
    if (part.size() != out.size()) return "an operand of another rank (eager skips 1-D empty ones)";
    for (size_t d = 0; d < out.size(); ++d) {
      if (static_cast<int64_t>(d) != dim && part[d] != out[d]) return "operands whose other sizes differ";
    }
  }
  return nullptr;
}

// Operand j at its piece of dim, the first operand whose piece holds the point.
ir::ExprId lower_cat_pieces(LowerContext& cx) {
  const ir::Graph& g = cx.graph();
  const ir::Node& n = cx.node();
  const int64_t dim = wrapped_concat_dim(concat_dim(g, n), g.value(n.first_output).type.sizes.size());
  const ScalarType t = compute_dtype(cx.out_dtype());
  const auto count = static_cast<uint32_t>(n.operands.size());
  std::vector<uint32_t> pieces, before;
  for (uint32_t j = 0; j < count; ++j) {
    pieces.push_back(cx.piece(dim, 0, before, j));
    before.push_back(j);
  }
  ir::ExprId e = cx.placed(count - 1, {pieces.back()}, t);
  for (uint32_t j = count - 1; j-- > 0;) {
    e = cx.builder().select(cx.builder().in_piece(pieces[j]), cx.placed(j, {pieces[j]}, t), e, t);
  }
  return e;
}

const uint32_t kPadPad = argument_position(OpId::constant_pad_nd, "pad");
const uint32_t kPadValue = argument_position(OpId::constant_pad_nd, "value");

std::vector<int64_t> pad_amounts(const ir::Graph& g, const ir::Node& n) {
  const ir::Arg& a = g.args(n)[kPadPad];
  if (a.kind != ir::ArgKind::IntList) return {};
  const auto v = g.int_pool(a);
  return {v.begin(), v.end()};
}

const char* refuse_pad(const ir::Graph& g, const ir::Node& n) {
  const std::vector<int64_t> pad = pad_amounts(g, n);
  const size_t rank = g.value(n.operands.at(0)).type.sizes.size();
  if (pad.size() % 2 != 0 || pad.size() > 2 * rank) return "a pad eager rejects";
  return nullptr;
}

// constant_pad_nd: self where the point lies in its piece of every padded
// dim (pad pairs run from the last dim; a negative amount crops), else value.
ir::ExprId lower_pad(LowerContext& cx) {
  const std::vector<int64_t> pad = pad_amounts(cx.graph(), cx.node());
  const auto rank = static_cast<int64_t>(cx.graph().value(cx.node().first_output).type.sizes.size());
  const ScalarType t = compute_dtype(cx.out_dtype());
  std::vector<uint32_t> pieces;
  ir::ExprId inside = cx.builder().constant(1, ScalarType::Bool);
  for (size_t i = 0; 2 * i < pad.size(); ++i) {
    if (pad[2 * i] == 0 && pad[2 * i + 1] == 0) continue;
    const int64_t dim = rank - 1 - static_cast<int64_t>(i);
    pieces.push_back(cx.piece(dim, pad[2 * i], {}, 0));
    const ir::ExprId in = cx.builder().in_piece(pieces.back());
    inside = pieces.size() == 1 ? in : cx.builder().binary(ir::ScalarOp::LogicalAnd, inside, in, ScalarType::Bool);
  }
  const ir::ExprId self = cx.placed(0, pieces, t);
  if (pieces.empty()) return self;
  return cx.builder().select(inside, self, cx.scalar(kPadValue, t), t);
}

const Lowering kCatPieces{Lowering::Kind::Place, 1, lower_cat_pieces, nullptr, refuse_cat_pieces};

}  // namespace

void add_concat_lowerings(LoweringTable& table) {
  // Cost 1: the planner's recompute rule never sees a concatenation (its
  // output is not read inside its kernel).
  Lowering cat{Lowering::Kind::Concat, 1, nullptr, nullptr, refuse_unequal, cat_part};
  cat.otherwise = &kCatPieces;
  table.add(OpId::cat, cat);
  table.add(OpId::constant_pad_nd, Lowering{Lowering::Kind::Place, 1, lower_pad, nullptr, refuse_pad});
  table.add(OpId::stack, Lowering{Lowering::Kind::Concat, 1, nullptr, nullptr, refuse_unequal, stack_part});
}

}  // namespace lz::passes::detail
