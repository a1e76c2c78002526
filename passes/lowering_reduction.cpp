// Lowerings of reductions. Each reduces over the group's reduction axes
// (which the planner took from reduce_axes below) and accumulates in the
// result dtype (f16/bf16 in f32), as the eager kernels do.
#include "passes/lowering.h"

#include <cmath>

namespace lz::passes::detail {

namespace {

using ir::ExprId;
using ir::ReduceOp;
using ir::ScalarOp;
using Kind = Lowering::Kind;

uint64_t all_axes(const ir::Graph& g, const ir::Node& n) {
  const size_t rank = g.value(n.operands[0]).type.sizes.size();
  return rank >= 64 ? ~uint64_t{0} : (uint64_t{1} << rank) - 1;
}

uint64_t axis_bit(int64_t d, size_t rank) {
  if (rank == 0) return 0;  // a 0-dim tensor reduces over nothing (dim 0 or -1 name it)
  const int64_t r = static_cast<int64_t>(rank);
  return uint64_t{1} << static_cast<uint64_t>(d < 0 ? d + r : d);
}

// Arguments read by position, resolved once from the declared schemas.
const uint32_t kDim = shared_argument({OpId::sum_dim_IntList, OpId::mean_dim, OpId::prod_dim_int, OpId::amax,
                                       OpId::amin, OpId::all_dim, OpId::any_dim, OpId::var_correction,
                                       OpId::std_correction, OpId::logsumexp},
                                      "dim");
const uint32_t kCorrection = shared_argument({OpId::var_correction, OpId::std_correction}, "correction");

// The reduction's `dim`; nullptr for the whole-tensor reductions.
const ir::Arg* dim_arg(const ir::Graph& g, const ir::Node& n) {
  return n.num_args > kDim ? &g.args(n)[kDim] : nullptr;
}

// `dim` as a list: None or [] reduce every dim (PyTorch's sum/amax rule).
uint64_t dim_list_axes(const ir::Graph& g, const ir::Node& n) {
  const ir::Arg* a = dim_arg(g, n);
  if (a == nullptr || a->kind != ir::ArgKind::IntList || a->count == 0) return all_axes(g, n);
  const size_t rank = g.value(n.operands[0]).type.sizes.size();
  uint64_t mask = 0;
  for (int64_t d : g.int_pool(*a)) mask |= axis_bit(d, rank);
  return mask;
}

uint64_t dim_int_axes(const ir::Graph& g, const ir::Node& n) {
  const ir::Arg* a = dim_arg(g, n);
  if (a == nullptr || a->kind != ir::ArgKind::Int) return all_axes(g, n);
  return axis_bit(a->i, g.value(n.operands[0]).type.sizes.size());
}

ScalarType acc_dtype(LowerContext& cx) { return compute_dtype(cx.out_dtype()); }

template <ReduceOp Op>
ExprId reduce_to_out(LowerContext& cx) {
  const ScalarType c = acc_dtype(cx);
  return cx.reduce(Op, cx.operand(0, c), c);
}

// all/any: truth of each element, result in the output dtype (bool, or uint8 for uint8).
template <ReduceOp Op>
ExprId reduce_truth(LowerContext& cx) {
  const ExprId r = cx.reduce(Op, cx.operand(0, ScalarType::Bool), ScalarType::Bool);
  return cx.builder().cast(r, acc_dtype(cx));
}

ExprId mean(LowerContext& cx) {
  const ScalarType c = acc_dtype(cx);
  ir::KernelBuilder& b = cx.builder();
  return b.binary(ScalarOp::Div, cx.reduce(ReduceOp::Sum, cx.operand(0, c), c), b.reduce_count(c), c);
}

// var = sum((x - mean)^2) / max(N - correction, 0): two passes over the row.
ExprId variance(LowerContext& cx) {
  const ScalarType c = acc_dtype(cx);
  ir::KernelBuilder& b = cx.builder();
  const ExprId x = cx.operand(0, c);
  const ExprId n = b.reduce_count(c);
  const ExprId m = b.binary(ScalarOp::Div, cx.reduce(ReduceOp::Sum, x, c), n, c);
  const ExprId d = b.binary(ScalarOp::Sub, x, m, c);
  const ExprId ss = cx.reduce(ReduceOp::Sum, b.binary(ScalarOp::Mul, d, d, c), c);
  const ExprId dof = b.binary(ScalarOp::Maximum, b.binary(ScalarOp::Sub, n, cx.scalar(kCorrection, c, 1), c),
                              b.constant(0, c), c);
  return b.binary(ScalarOp::Div, ss, dof, c);
}

ExprId standard_deviation(LowerContext& cx) {
  return cx.builder().unary(ScalarOp::Sqrt, variance(cx), acc_dtype(cx));
}

// logsumexp = log(sum(exp(x - m))) + m with m = max, taken as 0 when infinite.
ExprId logsumexp(LowerContext& cx) {
  const ScalarType c = acc_dtype(cx);
  ir::KernelBuilder& b = cx.builder();
  const ExprId x = cx.operand(0, c);
  const ExprId mx = cx.reduce(ReduceOp::Max, x, c);
  const ExprId m = b.select(b.unary(ScalarOp::IsInf, mx, ScalarType::Bool), b.constant(0, c), mx, c);
  const ExprId s = cx.reduce(ReduceOp::Sum, b.unary(ScalarOp::Exp, b.binary(ScalarOp::Sub, x, m, c), c), c);
  return b.binary(ScalarOp::Add, b.unary(ScalarOp::Log, s, c), m, c);
}

}  // namespace

void add_reduction_lowerings(LoweringTable& table) {
  const auto red = [&](OpId id, ExprId (*fn)(LowerContext&),
                       uint64_t (*axes)(const ir::Graph&, const ir::Node&), ScalarOp costliest = ScalarOp::Add) {
    table.add(id, Lowering{Kind::Reduction, ir::cost(costliest), fn, axes, nullptr});
  };
  red(OpId::sum, reduce_to_out<ReduceOp::Sum>, all_axes);
  red(OpId::sum_dim_IntList, reduce_to_out<ReduceOp::Sum>, dim_list_axes);
  red(OpId::mean, mean, all_axes);
  red(OpId::mean_dim, mean, dim_list_axes);
  red(OpId::prod, reduce_to_out<ReduceOp::Prod>, all_axes);
  red(OpId::prod_dim_int, reduce_to_out<ReduceOp::Prod>, dim_int_axes);
  red(OpId::amax, reduce_to_out<ReduceOp::Max>, dim_list_axes);
  red(OpId::amin, reduce_to_out<ReduceOp::Min>, dim_list_axes);
  red(OpId::all, reduce_truth<ReduceOp::All>, all_axes);
  red(OpId::any, reduce_truth<ReduceOp::Any>, all_axes);
  red(OpId::all_dim, reduce_truth<ReduceOp::All>, dim_int_axes);
  red(OpId::any_dim, reduce_truth<ReduceOp::Any>, dim_int_axes);
  red(OpId::var_correction, variance, dim_list_axes, ScalarOp::Div);
  red(OpId::std_correction, standard_deviation, dim_list_axes, ScalarOp::Div);
  red(OpId::logsumexp, logsumexp, dim_list_axes, ScalarOp::Exp);

  table.not_lowered(OpId::max, "raises on an empty input in its eager kernel, which a shape-generic kernel cannot");
  table.not_lowered(OpId::min, "raises on an empty input in its eager kernel, which a shape-generic kernel cannot");
  table.not_lowered(OpId::max_dim, "returns indices: the kernel IR has no arg-reductions");
  table.not_lowered(OpId::min_dim, "returns indices: the kernel IR has no arg-reductions");
  table.not_lowered(OpId::argmax, "an index reduction: the kernel IR has no arg-reductions");
  table.not_lowered(OpId::argmin, "an index reduction: the kernel IR has no arg-reductions");
  table.not_lowered(OpId::norm_ScalarOpt_dim, "p-norms (0, inf, fractional p) are not lowered yet");
  table.not_lowered(OpId::norm_Scalar, "p-norms (0, inf, fractional p) are not lowered yet");
}

}  // namespace lz::passes::detail
