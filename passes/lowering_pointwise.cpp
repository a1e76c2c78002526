// Lowerings of element-wise operators. Each computes in the operator's
// result dtype (f16/bf16 in f32), with the semantics of its eager kernel.
// Binary lowerings read their arguments by position (LowerContext::input),
// so the Tensor-Scalar overloads (mul.Scalar: x * 2.5, the number a runtime
// parameter) share them. The Scalar-Tensor overloads (pow(2, x)) and
// where/clamp with numbers are composites over the Tensor overloads.
#include "passes/lowering.h"

namespace lz::passes::detail {

namespace {

using ir::ExprId;
using ir::ScalarOp;
using Kind = Lowering::Kind;

// Arguments read by position, resolved once from the declared schemas.
const uint32_t kAlpha =
    shared_argument({OpId::add_Tensor, OpId::add_Scalar, OpId::sub_Tensor, OpId::sub_Scalar}, "alpha");
const uint32_t kRoundingMode = shared_argument({OpId::div_Tensor_mode, OpId::div_Scalar_mode}, "rounding_mode");
const uint32_t kExponent = shared_argument({OpId::pow_Tensor_Scalar}, "exponent");
const uint32_t kApproximate = shared_argument({OpId::gelu}, "approximate");
const uint32_t kClampMin = shared_argument({OpId::clamp_Tensor, OpId::clamp_min_Tensor}, "min");
const uint32_t kClampMax = shared_argument({OpId::clamp_Tensor}, "max");
const uint32_t kClampMaxOnly = shared_argument({OpId::clamp_max_Tensor}, "max");
const uint32_t kLerpWeight = shared_argument({OpId::lerp_Scalar}, "weight");
const uint32_t kAddcValue = shared_argument({OpId::addcmul, OpId::addcdiv}, "value");
const uint32_t kFillValue = shared_argument({OpId::masked_fill_Scalar}, "value");
const uint32_t kFullValue = shared_argument({OpId::full}, "fill_value");
const uint32_t kDivisor = shared_argument({OpId::remainder_Scalar, OpId::fmod_Scalar, OpId::div_Scalar_mode}, "other");

ScalarType compute_out(LowerContext& cx) { return compute_dtype(cx.out_dtype()); }

template <ScalarOp Op>
ExprId unary_same(LowerContext& cx) {
  const ScalarType c = compute_out(cx);
  return cx.builder().unary(Op, cx.operand(0, c), c);
}

// Predicates on the operand's own dtype (isnan, logical_not).
template <ScalarOp Op>
ExprId unary_predicate(LowerContext& cx) {
  const ScalarType c = compute_dtype(cx.operand_dtype(0));
  return cx.builder().unary(Op, cx.operand(0, c), ScalarType::Bool);
}

template <ScalarOp Op>
ExprId binary_same(LowerContext& cx) {
  const ScalarType out = cx.out_dtype();
  return cx.builder().binary(Op, cx.input(0, out), cx.input(1, out), compute_dtype(out));
}

template <ScalarOp Op>
ExprId compare(LowerContext& cx) {
  const ScalarType common = cx.common_dtype({0, 1});
  return cx.builder().binary(Op, cx.input(0, common), cx.input(1, common), ScalarType::Bool);
}

template <ScalarOp Op>
ExprId logical(LowerContext& cx) {
  return cx.builder().binary(Op, cx.operand(0, ScalarType::Bool), cx.operand(1, ScalarType::Bool),
                             ScalarType::Bool);
}

// self + alpha * other (add, sub with Op = Sub; other a tensor or a number).
template <ScalarOp Op>
ExprId add_alpha(LowerContext& cx) {
  const ScalarType out = cx.out_dtype();
  const ScalarType c = compute_dtype(out);
  ir::KernelBuilder& b = cx.builder();
  if (c == ScalarType::Bool) return b.binary(ScalarOp::LogicalOr, cx.input(0, out), cx.input(1, out), c);
  ExprId other = cx.input(1, out);
  if (!cx.scalar_is(kAlpha, 1)) other = b.binary(ScalarOp::Mul, other, cx.scalar(kAlpha, c, 1), c);
  return b.binary(Op, cx.input(0, out), other, c);
}

ExprId mul(LowerContext& cx) {
  const ScalarType out = cx.out_dtype();
  const ScalarOp op = out == ScalarType::Bool ? ScalarOp::LogicalAnd : ScalarOp::Mul;
  return cx.builder().binary(op, cx.input(0, out), cx.input(1, out), compute_dtype(out));
}

ExprId div_mode(LowerContext& cx) {
  const ScalarType c = compute_out(cx);
  const ir::Arg& mode = cx.arg(kRoundingMode);
  ScalarOp op = ScalarOp::Div;
  if (mode.kind == ir::ArgKind::String) {
    const std::string_view m = cx.graph().string_at(mode);
    if (m == "floor") op = ScalarOp::FloorDiv;
    if (m == "trunc") op = is_floating_point(c) ? ScalarOp::TruncDiv : ScalarOp::Div;
  }
  return cx.builder().binary(op, cx.input(0, cx.out_dtype()), cx.input(1, cx.out_dtype()), c);
}

// pow with a number exponent: the eager kernel computes the common powers
// as products, square roots and reciprocals (they differ from C's pow at
// -inf and -0.0: sqrt(-inf) is nan, pow(-inf, 0.5) is inf). Those exponents
// are hashed by value (ir::is_special_scalar), so the kernel specialises.
ExprId pow_tensor_scalar(LowerContext& cx) {
  const ScalarType out = cx.out_dtype();
  const ScalarType c = compute_dtype(out);
  ir::KernelBuilder& b = cx.builder();
  const ExprId x = cx.input(0, out);
  const auto mul = [&](ExprId l, ExprId r) { return b.binary(ScalarOp::Mul, l, r, c); };
  const auto inverse = [&](ExprId v) { return b.binary(ScalarOp::Div, b.constant(1, c), v, c); };
  if (cx.scalar_is(kExponent, 2)) return mul(x, x);
  if (cx.scalar_is(kExponent, 3)) return mul(mul(x, x), x);
  if (is_floating_point(c)) {
    if (cx.scalar_is(kExponent, 0.5)) return b.unary(ScalarOp::Sqrt, x, c);
    if (cx.scalar_is(kExponent, -0.5)) return inverse(b.unary(ScalarOp::Sqrt, x, c));
    if (cx.scalar_is(kExponent, -1)) return inverse(x);
    if (cx.scalar_is(kExponent, -2)) return inverse(mul(x, x));
  }
  return b.binary(ScalarOp::Pow, x, cx.input(1, out), c);
}

ExprId square(LowerContext& cx) {
  const ScalarType c = compute_out(cx);
  const ExprId x = cx.operand(0, c);
  return cx.builder().binary(ScalarOp::Mul, x, x, c);
}

ExprId reciprocal(LowerContext& cx) {
  const ScalarType c = compute_out(cx);
  ir::KernelBuilder& b = cx.builder();
  return b.binary(ScalarOp::Div, b.constant(1, c), cx.operand(0, c), c);
}

// relu keeps NaN: x < 0 ? 0 : x, as the eager kernel.
ExprId relu(LowerContext& cx) {
  const ScalarType c = compute_out(cx);
  ir::KernelBuilder& b = cx.builder();
  const ExprId x = cx.operand(0, c);
  const ExprId zero = b.constant(0, c);
  return b.select(b.binary(ScalarOp::Lt, x, zero, ScalarType::Bool), zero, x, c);
}

ExprId silu(LowerContext& cx) {
  const ScalarType c = compute_out(cx);
  ir::KernelBuilder& b = cx.builder();
  const ExprId x = cx.operand(0, c);
  return b.binary(ScalarOp::Mul, x, b.unary(ScalarOp::Sigmoid, x, c), c);
}

// hardswish: x min(max(x + 3, 0), 6) / 6, NaN-propagating as the eager kernel.
ExprId hardswish(LowerContext& cx) {
  const ScalarType c = compute_out(cx);
  ir::KernelBuilder& b = cx.builder();
  const ExprId x = cx.operand(0, c);
  const ExprId shifted = b.binary(ScalarOp::Add, x, b.constant(3, c), c);
  const ExprId relu6 = b.binary(ScalarOp::Minimum, b.binary(ScalarOp::Maximum, shifted, b.constant(0, c), c),
                                b.constant(6, c), c);
  return b.binary(ScalarOp::Div, b.binary(ScalarOp::Mul, x, relu6, c), b.constant(6, c), c);
}

// gelu: x/2 (1 + erf(x/sqrt 2)); tanh form: x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))).
ExprId gelu(LowerContext& cx) {
  const ScalarType c = compute_out(cx);
  ir::KernelBuilder& b = cx.builder();
  const ExprId x = cx.operand(0, c);
  const ir::Arg& approximate = cx.arg(kApproximate);
  const bool tanh_form = approximate.kind == ir::ArgKind::String && cx.graph().string_at(approximate) == "tanh";
  ExprId inner;
  if (tanh_form) {
    const ExprId x3 = b.binary(ScalarOp::Mul, b.binary(ScalarOp::Mul, x, x, c), x, c);
    const ExprId poly = b.binary(ScalarOp::Add, x, b.binary(ScalarOp::Mul, b.constant(0.044715, c), x3, c), c);
    inner = b.unary(ScalarOp::Tanh, b.binary(ScalarOp::Mul, b.constant(0.7978845608028654, c), poly, c), c);
  } else {
    inner = b.unary(ScalarOp::Erf, b.binary(ScalarOp::Mul, x, b.constant(0.7071067811865476, c), c), c);
  }
  const ExprId half_x = b.binary(ScalarOp::Mul, b.constant(0.5, c), x, c);
  return b.binary(ScalarOp::Mul, half_x, b.binary(ScalarOp::Add, b.constant(1, c), inner, c), c);
}

ExprId where(LowerContext& cx) {
  const ScalarType c = compute_out(cx);
  return cx.builder().select(cx.operand(0, ScalarType::Bool), cx.operand(1, c), cx.operand(2, c), c);
}

// clamp(x, lo, hi) = min(max(x, lo), hi), NaN-propagating; lo > hi gives hi.
ExprId clamp_bounds(LowerContext& cx, uint32_t lo, uint32_t hi) {
  const ScalarType c = compute_out(cx);
  ir::KernelBuilder& b = cx.builder();
  ExprId x = cx.operand(0, c);
  if (lo != ir::kNone) x = b.binary(ScalarOp::Maximum, x, cx.operand(lo, c), c);
  if (hi != ir::kNone) x = b.binary(ScalarOp::Minimum, x, cx.operand(hi, c), c);
  return x;
}
ExprId clamp(LowerContext& cx) { return clamp_bounds(cx, cx.tensor_arg(kClampMin), cx.tensor_arg(kClampMax)); }
ExprId clamp_min(LowerContext& cx) { return clamp_bounds(cx, cx.tensor_arg(kClampMin), ir::kNone); }
ExprId clamp_max(LowerContext& cx) { return clamp_bounds(cx, ir::kNone, cx.tensor_arg(kClampMaxOnly)); }

// lerp: weight < 0.5 ? self + w (end - self) : end - (end - self)(1 - w), as PyTorch.
ExprId lerp_with(LowerContext& cx, ExprId w) {
  const ScalarType c = compute_out(cx);
  ir::KernelBuilder& b = cx.builder();
  const ExprId self = cx.operand(0, c);
  const ExprId end = cx.operand(1, c);
  const ExprId diff = b.binary(ScalarOp::Sub, end, self, c);
  const ExprId low = b.binary(ScalarOp::Add, self, b.binary(ScalarOp::Mul, w, diff, c), c);
  const ExprId one_minus = b.binary(ScalarOp::Sub, b.constant(1, c), w, c);
  const ExprId high = b.binary(ScalarOp::Sub, end, b.binary(ScalarOp::Mul, diff, one_minus, c), c);
  const ExprId is_low = b.binary(ScalarOp::Lt, b.unary(ScalarOp::Abs, w, c), b.constant(0.5, c), ScalarType::Bool);
  return b.select(is_low, low, high, c);
}
ExprId lerp_tensor(LowerContext& cx) { return lerp_with(cx, cx.operand(2, compute_out(cx))); }
ExprId lerp_scalar(LowerContext& cx) { return lerp_with(cx, cx.scalar(kLerpWeight, compute_out(cx))); }

// addcmul: self + value t1 t2; addcdiv: self + value t1 / t2.
template <ScalarOp Op>
ExprId addc(LowerContext& cx) {
  const ScalarType c = compute_out(cx);
  ir::KernelBuilder& b = cx.builder();
  ExprId t = b.binary(Op, cx.operand(1, c), cx.operand(2, c), c);
  if (!cx.scalar_is(kAddcValue, 1)) t = b.binary(ScalarOp::Mul, cx.scalar(kAddcValue, c, 1), t, c);
  return b.binary(ScalarOp::Add, cx.operand(0, c), t, c);
}

ExprId masked_fill_scalar(LowerContext& cx) {
  const ScalarType c = compute_out(cx);
  return cx.builder().select(cx.operand(1, ScalarType::Bool), cx.scalar(kFillValue, c), cx.operand(0, c), c);
}
ExprId masked_fill_tensor(LowerContext& cx) {
  const ScalarType c = compute_out(cx);
  return cx.builder().select(cx.operand(1, ScalarType::Bool), cx.operand(2, c), cx.operand(0, c), c);
}

// A conversion rounds to its dtype even when consumers compute wider (x.half().float()).
ExprId convert(LowerContext& cx) {
  const ScalarType out = cx.out_dtype();
  const ExprId x = cx.operand(0, compute_dtype(cx.operand_dtype(0)));
  if (compute_dtype(out) == out) return cx.builder().cast(x, out);
  return cx.builder().cast(cx.builder().cast(x, out), compute_dtype(out));
}

ExprId identity(LowerContext& cx) { return cx.operand(0, compute_out(cx)); }

// Factories: one number at every point of the kernel (zeros_like of a lazy
// tensor as an accumulator's start, fill_ as traced), not a tensor stored first.
ExprId zeros_value(LowerContext& cx) { return cx.builder().constant(0, compute_out(cx)); }
ExprId ones_value(LowerContext& cx) { return cx.builder().constant(1, compute_out(cx)); }
ExprId full_value(LowerContext& cx) { return cx.scalar(kFullValue, compute_out(cx)); }

// masked_fill.Tensor converts its 0-dim value to the output dtype checked,
// raising in its eager kernel when it does not fit (-3 into uint8, 1e6
// into float16, NaN into an integer): lowered only when every value of the
// value's dtype fits.
const char* refuse_unfit_fill(const ir::Graph& g, const ir::Node& n) {
  const ScalarType from = g.value(n.operands.at(2)).type.dtype;
  const ScalarType to = g.value(n.first_output).type.dtype;
  if (to == ScalarType::Bool || always_fits(from, to)) return nullptr;  // to bool never raises
  return "a fill value of a dtype that may not fit the output's raises in its eager kernel";
}

// Integer division, remainder and powers raise in their eager kernels (a
// zero divisor, a negative exponent): they stay eager so the error does.
const char* refuse_integral(const ir::Graph& g, const ir::Node& n) {
  const ScalarType t = g.value(n.first_output).type.dtype;
  return is_integral(t, true) ? "integer division and powers raise on bad values in their eager kernel" : nullptr;
}

// ... except by a number known not to be zero in the operator's dtype when
// the graph is planned: a special Scalar (hashed by value: a plan made for
// x % 2 never serves x % 0) other than 0, or any non-zero Scalar for int64
// (only special values are hashed, and any other int64 value is non-zero;
// in a narrower dtype 256 would wrap to 0 and must raise as eager does).
const char* refuse_zero_divisor(const ir::Graph& g, const ir::Node& n) {
  const ScalarType t = g.value(n.first_output).type.dtype;
  const ir::Arg& divisor = g.args(n)[kDivisor];
  bool nonzero = false;
  if (divisor.kind == ir::ArgKind::Scalar && t != ScalarType::Bool) {
    const Scalar& d = g.scalar(divisor.index);
    nonzero = ir::is_special_scalar(d) ? d.to_double() != 0 : t == ScalarType::Long;
  }
  return nonzero ? nullptr : refuse_integral(g, n);
}

}  // namespace

void add_pointwise_lowerings(LoweringTable& table) {
  // `costliest`: the scalar operation whose cost (ir/scalar_ops.def) the
  // planner counts for one element of the operator.
  const auto pw = [&](OpId id, ExprId (*fn)(LowerContext&), ScalarOp costliest = ScalarOp::Add) {
    table.add(id, Lowering{Kind::Pointwise, ir::cost(costliest), fn, nullptr, nullptr});
  };
  const auto pw_float = [&](OpId id, ExprId (*fn)(LowerContext&), ScalarOp costliest) {
    table.add(id, Lowering{Kind::Pointwise, ir::cost(costliest), fn, nullptr, refuse_integral});
  };
  pw(OpId::neg, unary_same<ScalarOp::Neg>);
  pw(OpId::abs, unary_same<ScalarOp::Abs>);
  pw(OpId::sign, unary_same<ScalarOp::Sign>);
  pw(OpId::square, square);
  pw(OpId::reciprocal, reciprocal, ScalarOp::Reciprocal);
  pw(OpId::floor, unary_same<ScalarOp::Floor>);
  pw(OpId::ceil, unary_same<ScalarOp::Ceil>);
  pw(OpId::round, unary_same<ScalarOp::Round>);
  pw(OpId::trunc, unary_same<ScalarOp::Trunc>);
  pw(OpId::bitwise_not, unary_same<ScalarOp::BitwiseNot>);
  pw(OpId::logical_not, unary_predicate<ScalarOp::LogicalNot>);
  pw(OpId::isnan, unary_predicate<ScalarOp::IsNan>);
  pw(OpId::isinf, unary_predicate<ScalarOp::IsInf>);
  pw(OpId::relu, relu);
  pw(OpId::exp, unary_same<ScalarOp::Exp>, ScalarOp::Exp);
  pw(OpId::exp2, unary_same<ScalarOp::Exp2>, ScalarOp::Exp2);
  pw(OpId::expm1, unary_same<ScalarOp::Expm1>, ScalarOp::Expm1);
  pw(OpId::log, unary_same<ScalarOp::Log>, ScalarOp::Log);
  pw(OpId::log2, unary_same<ScalarOp::Log2>, ScalarOp::Log2);
  pw(OpId::log1p, unary_same<ScalarOp::Log1p>, ScalarOp::Log1p);
  pw(OpId::sqrt, unary_same<ScalarOp::Sqrt>, ScalarOp::Sqrt);
  pw(OpId::rsqrt, unary_same<ScalarOp::Rsqrt>, ScalarOp::Rsqrt);
  pw(OpId::sin, unary_same<ScalarOp::Sin>, ScalarOp::Sin);
  pw(OpId::cos, unary_same<ScalarOp::Cos>, ScalarOp::Cos);
  pw(OpId::tan, unary_same<ScalarOp::Tan>, ScalarOp::Tan);
  pw(OpId::tanh, unary_same<ScalarOp::Tanh>, ScalarOp::Tanh);
  pw(OpId::sigmoid, unary_same<ScalarOp::Sigmoid>, ScalarOp::Sigmoid);
  pw(OpId::erf, unary_same<ScalarOp::Erf>, ScalarOp::Erf);
  pw(OpId::silu, silu, ScalarOp::Sigmoid);
  pw(OpId::hardswish, hardswish, ScalarOp::Div);
  pw(OpId::gelu, gelu, ScalarOp::Erf);

  // Tensor and Tensor-Scalar overloads share a lowering.
  const auto both = [&](OpId tensor, OpId scalar, ExprId (*fn)(LowerContext&),
                        ScalarOp costliest = ScalarOp::Add) {
    pw(tensor, fn, costliest);
    pw(scalar, fn, costliest);
  };
  both(OpId::add_Tensor, OpId::add_Scalar, add_alpha<ScalarOp::Add>);
  both(OpId::sub_Tensor, OpId::sub_Scalar, add_alpha<ScalarOp::Sub>);
  both(OpId::mul_Tensor, OpId::mul_Scalar, mul);
  both(OpId::div_Tensor, OpId::div_Scalar, binary_same<ScalarOp::Div>, ScalarOp::Div);
  pw_float(OpId::div_Tensor_mode, div_mode, ScalarOp::Div);
  const auto pw_divisor = [&](OpId id, ExprId (*fn)(LowerContext&), ScalarOp costliest) {
    table.add(id, Lowering{Kind::Pointwise, ir::cost(costliest), fn, nullptr, refuse_zero_divisor});
  };
  pw_divisor(OpId::div_Scalar_mode, div_mode, ScalarOp::Div);
  pw_float(OpId::pow_Tensor_Tensor, binary_same<ScalarOp::Pow>, ScalarOp::Pow);
  pw_float(OpId::pow_Tensor_Scalar, pow_tensor_scalar, ScalarOp::Pow);
  pw_float(OpId::remainder_Tensor, binary_same<ScalarOp::Remainder>, ScalarOp::Remainder);
  pw_divisor(OpId::remainder_Scalar, binary_same<ScalarOp::Remainder>, ScalarOp::Remainder);
  pw_float(OpId::fmod_Tensor, binary_same<ScalarOp::Fmod>, ScalarOp::Fmod);
  pw_divisor(OpId::fmod_Scalar, binary_same<ScalarOp::Fmod>, ScalarOp::Fmod);
  pw(OpId::atan2, binary_same<ScalarOp::Atan2>, ScalarOp::Atan2);
  pw(OpId::maximum, binary_same<ScalarOp::Maximum>);
  pw(OpId::minimum, binary_same<ScalarOp::Minimum>);
  both(OpId::eq_Tensor, OpId::eq_Scalar, compare<ScalarOp::Eq>);
  both(OpId::ne_Tensor, OpId::ne_Scalar, compare<ScalarOp::Ne>);
  both(OpId::lt_Tensor, OpId::lt_Scalar, compare<ScalarOp::Lt>);
  both(OpId::le_Tensor, OpId::le_Scalar, compare<ScalarOp::Le>);
  both(OpId::gt_Tensor, OpId::gt_Scalar, compare<ScalarOp::Gt>);
  both(OpId::ge_Tensor, OpId::ge_Scalar, compare<ScalarOp::Ge>);
  pw(OpId::logical_and, logical<ScalarOp::LogicalAnd>);
  pw(OpId::logical_or, logical<ScalarOp::LogicalOr>);
  pw(OpId::logical_xor, logical<ScalarOp::LogicalXor>);
  both(OpId::bitwise_and_Tensor, OpId::bitwise_and_Scalar, binary_same<ScalarOp::BitwiseAnd>);
  both(OpId::bitwise_or_Tensor, OpId::bitwise_or_Scalar, binary_same<ScalarOp::BitwiseOr>);
  both(OpId::bitwise_xor_Tensor, OpId::bitwise_xor_Scalar, binary_same<ScalarOp::BitwiseXor>);

  pw(OpId::where_self, where);
  pw(OpId::clamp_Tensor, clamp);
  pw(OpId::clamp_min_Tensor, clamp_min);
  pw(OpId::clamp_max_Tensor, clamp_max);
  pw(OpId::lerp_Tensor, lerp_tensor, ScalarOp::Mul);
  pw(OpId::lerp_Scalar, lerp_scalar, ScalarOp::Mul);
  pw(OpId::addcmul, addc<ScalarOp::Mul>);
  pw(OpId::addcdiv, addc<ScalarOp::Div>, ScalarOp::Div);
  pw(OpId::masked_fill_Scalar, masked_fill_scalar);
  table.add(OpId::masked_fill_Tensor, Lowering{Kind::Pointwise, ir::cost(ScalarOp::Add), masked_fill_tensor, nullptr, refuse_unfit_fill});
  pw(OpId::_to_copy, convert);
  pw(OpId::clone, identity);
  pw(OpId::zeros, zeros_value);
  pw(OpId::ones, ones_value);
  pw(OpId::full, full_value);
}

}  // namespace lz::passes::detail
