// Lowerings of gathers (Lowering::Kind::Gather): index_select reads its
// source at the index operand's value along `dim`, checked in the kernel
// against the source's extent there; an index out of range makes the
// launch fail, and the reference run raises eager's error (so embedding,
// which eager composes of index_select, is one kernel with its users).
#include "passes/lowering.h"

namespace lz::passes::detail {

namespace {

const uint32_t kSelf = shared_argument({OpId::index_select}, "self");
const uint32_t kDim = shared_argument({OpId::index_select}, "dim");
const uint32_t kIndex = shared_argument({OpId::index_select}, "index");

// `dim` wrapped into [0, rank); -1 when out of range (eager raises).
int64_t wrapped_dim(const ir::Graph& g, const ir::Node& n) {
  const ir::Arg& a = g.args(n)[kDim];
  const int64_t rank = static_cast<int64_t>(g.value(n.first_output).type.sizes.size());
  if (a.kind != ir::ArgKind::Int || a.i < -rank || a.i >= rank) return -1;
  return a.i < 0 ? a.i + rank : a.i;
}

const char* refuse_index_select(const ir::Graph& g, const ir::Node& n) {
  if (n.operands.size() != 2) return "an operand missing";
  const TensorMeta& self = g.value(n.operands[0]).type;
  const TensorMeta& index = g.value(n.operands[1]).type;
  if (self.sizes.empty()) return "a 0-dim source (eager copies it)";
  if (index.sizes.size() > 1) return "an index of more than one dimension (eager rejects it)";
  if (index.dtype != ScalarType::Long && index.dtype != ScalarType::Int) return "an index dtype eager rejects";
  if (wrapped_dim(g, n) < 0) return "a dim eager rejects";
  return nullptr;
}

ir::ExprId lower_index_select(LowerContext& cx) {
  const int64_t dim = wrapped_dim(cx.graph(), cx.node());
  const ir::ExprId index = cx.along(cx.tensor_arg(kIndex), dim, ScalarType::Long);
  return cx.gathered(cx.tensor_arg(kSelf), dim, index, compute_dtype(cx.out_dtype()));
}

}  // namespace

void add_gather_lowerings(LoweringTable& table) {
  Lowering index_select{Lowering::Kind::Gather, 1, lower_index_select, nullptr, refuse_index_select};
  index_select.gathered_operand = 0;
  table.add(OpId::index_select, index_select);
}

}  // namespace lz::passes::detail
