// Lowerings of gathers (Lowering::gathered_operands): operands read at
// indices the kernel computes, checked there against the extent of the
// gathered dim. An index out of range makes the launch fail, and the
// reference run raises the operator's own eager error.
//   index_select(self, dim, index): self at index[j] along dim (so
//     embedding, which eager composes of index_select, is one kernel with
//     its users);
//   gather(self, dim, index): self at index's value along dim, index's
//     sizes elsewhere;
//   nll_loss_forward(self, target, weight, mean|sum, ignore_index): a
//     reduction over the targets of -weight[t] * self[i, t], ignored
//     targets adding nothing (so cross_entropy is log_softmax and this, in
//     one or two kernels and no eager step).
#include "passes/lowering.h"

namespace lz::passes::detail {

namespace {

using ir::ExprId;
using ir::ScalarOp;

// ---- index_select -----------------------------------------------------------------

const uint32_t kSelectDim = shared_argument({OpId::index_select}, "dim");
const uint32_t kSelectIndex = shared_argument({OpId::index_select}, "index");
const uint32_t kSelectSelf = shared_argument({OpId::index_select}, "self");

// Int argument `position` (a dim of the output) wrapped into [0, rank);
// -1 when out of range (eager raises).
int64_t wrapped_dim(const ir::Graph& g, const ir::Node& n, uint32_t position) {
  const ir::Arg& a = g.args(n)[position];
  const int64_t rank = static_cast<int64_t>(g.value(n.first_output).type.sizes.size());
  if (a.kind != ir::ArgKind::Int || a.i < -rank || a.i >= rank) return -1;
  return a.i < 0 ? a.i + rank : a.i;
}

bool index_dtype(ScalarType t) { return t == ScalarType::Long || t == ScalarType::Int; }

const char* refuse_index_select(const ir::Graph& g, const ir::Node& n) {
  if (n.operands.size() != 2) return "an operand missing";
  const TensorMeta& self = g.value(n.operands[0]).type;
  const TensorMeta& index = g.value(n.operands[1]).type;
  if (self.sizes.empty()) return "a 0-dim source (eager copies it)";
  if (index.sizes.size() > 1) return "an index of more than one dimension (eager rejects it)";
  if (!index_dtype(index.dtype)) return "an index dtype eager rejects";
  if (wrapped_dim(g, n, kSelectDim) < 0) return "a dim eager rejects";
  return nullptr;
}

ExprId lower_index_select(LowerContext& cx) {
  const int64_t dim = wrapped_dim(cx.graph(), cx.node(), kSelectDim);
  const ExprId index = cx.along(cx.tensor_arg(kSelectIndex), dim, ScalarType::Long);
  return cx.gathered(cx.tensor_arg(kSelectSelf), dim, index, compute_dtype(cx.out_dtype()), {cx.expand_to_point()});
}

// ---- gather ----------------------------------------------------------------------

const uint32_t kGatherSelf = shared_argument({OpId::gather}, "self");
const uint32_t kGatherDim = shared_argument({OpId::gather}, "dim");
const uint32_t kGatherIndex = shared_argument({OpId::gather}, "index");

const char* refuse_gather(const ir::Graph& g, const ir::Node& n) {
  if (n.operands.size() != 2) return "an operand missing";
  const TensorMeta& self = g.value(n.operands[0]).type;
  const TensorMeta& index = g.value(n.operands[1]).type;
  if (self.sizes.empty() || self.sizes.size() != index.sizes.size()) return "a 0-dim operand";
  if (!index_dtype(index.dtype)) return "an index dtype eager rejects";
  if (wrapped_dim(g, n, kGatherDim) < 0) return "a dim eager rejects";
  return nullptr;
}

// self where index has its own sizes (self's leading part), dim at the index's value.
ExprId lower_gather(LowerContext& cx) {
  const int64_t dim = wrapped_dim(cx.graph(), cx.node(), kGatherDim);
  const ExprId index = cx.operand(cx.tensor_arg(kGatherIndex), ScalarType::Long);
  const ir::ViewStep expand = cx.expand_to_point();
  const ir::ViewStep narrow{ir::ViewStep::Kind::NarrowTo, expand.ints};
  return cx.gathered(cx.tensor_arg(kGatherSelf), dim, index, compute_dtype(cx.out_dtype()), {narrow, expand});
}

// ---- nll_loss_forward ----------------------------------------------------------------

const uint32_t kNllSelf = shared_argument({OpId::nll_loss_forward}, "self");
const uint32_t kNllTarget = shared_argument({OpId::nll_loss_forward}, "target");
const uint32_t kNllWeight = shared_argument({OpId::nll_loss_forward}, "weight");
const uint32_t kNllReduction = shared_argument({OpId::nll_loss_forward}, "reduction");
const uint32_t kNllIgnore = shared_argument({OpId::nll_loss_forward}, "ignore_index");
constexpr int64_t kReductionSum = 2;
constexpr int64_t kReductionMean = 1;

int64_t int_arg(const ir::Graph& g, const ir::Node& n, uint32_t position) {
  const ir::Arg& a = g.args(n)[position];
  return a.kind == ir::ArgKind::Int ? a.i : -1;
}

const char* refuse_nll(const ir::Graph& g, const ir::Node& n) {
  const TensorMeta& self = g.value(n.operands[0]).type;
  const TensorMeta& target = g.value(n.operands[1]).type;
  if (self.sizes.size() != 2 || target.sizes.size() != 1) return "only [N, C] scores and [N] targets are lowered";
  if (!index_dtype(target.dtype) && target.dtype != ScalarType::Byte) return "a target dtype eager rejects";
  const int64_t reduction = int_arg(g, n, kNllReduction);
  if (reduction != kReductionSum && reduction != kReductionMean) return "reduction 'none' (its output is per sample)";
  if (g.args(n)[kNllIgnore].kind != ir::ArgKind::Int) return "a runtime ignore_index";
  return nullptr;
}

// Sum (and for mean, divided by the summed weights) of -w[t] * self[i, t]
// over the samples whose target is not ignore_index; in double, as eager's kernel.
ExprId lower_nll(LowerContext& cx) {
  ir::KernelBuilder& b = cx.builder();
  const ScalarType d = ScalarType::Double;
  const ExprId target = cx.operand(cx.tensor_arg(kNllTarget), ScalarType::Long);
  const ExprId ignore = b.constant(static_cast<double>(cx.graph().args(cx.node())[kNllIgnore].i), ScalarType::Long);
  const ExprId kept = b.binary(ScalarOp::Ne, target, ignore, ScalarType::Bool);
  const ExprId cls = b.select(kept, target, b.constant(0, ScalarType::Long), ScalarType::Long);
  const ExprId score = cx.gathered(cx.tensor_arg(kNllSelf), 1, cls, d,
                                   {ir::ViewStep{ir::ViewStep::Kind::Squeeze, {1}}});
  ExprId weight = b.constant(1, d);
  if (const uint32_t w = cx.tensor_arg(kNllWeight); w != ir::kNone) {
    weight = cx.gathered(w, 0, cls, d, {cx.expand_to_point()});
  }
  const ExprId zero = b.constant(0, d);
  weight = b.select(kept, weight, zero, d);
  const ExprId loss = b.select(kept, b.unary(ScalarOp::Neg, b.binary(ScalarOp::Mul, weight, score, d), d), zero, d);
  ExprId total = cx.reduce(ir::ReduceOp::Sum, loss, d);
  if (int_arg(cx.graph(), cx.node(), kNllReduction) == kReductionMean) {
    total = b.binary(ScalarOp::Div, total, cx.reduce(ir::ReduceOp::Sum, weight, d), d);
  }
  return b.cast(total, compute_dtype(cx.out_dtype()));
}

uint64_t all_target_axes(const ir::Graph& g, const ir::Node& n) {
  return (uint64_t{1} << g.value(n.operands[1]).type.sizes.size()) - 1;
}

}  // namespace

void add_gather_lowerings(LoweringTable& table) {
  Lowering index_select{Lowering::Kind::Pointwise, 1, lower_index_select, nullptr, refuse_index_select};
  index_select.gathered_operands = uint64_t{1} << 0;
  table.add(OpId::index_select, index_select);

  Lowering gather{Lowering::Kind::Pointwise, 1, lower_gather, nullptr, refuse_gather};
  gather.gathered_operands = uint64_t{1} << 0;
  table.add(OpId::gather, gather);

  Lowering nll{Lowering::Kind::Reduction, 1, lower_nll, all_target_axes, refuse_nll};
  nll.gathered_operands = (uint64_t{1} << 0) | (uint64_t{1} << 2);  // self, weight
  nll.domain_operand = 1;                                            // the targets
  table.add(OpId::nll_loss_forward, nll);
}

}  // namespace lz::passes::detail
