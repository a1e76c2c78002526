// Algebraic simplification, exact in IEEE arithmetic for every input value
// (NaN, inf, -0.0 included). A literal is recognised only as a special
// runtime scalar (ir::is_special_scalar: exactly 0 or 1, hashed by value);
// any other scalar is a parameter the cached executable must honour.
//
// Folded (the replacement always has the replaced value's dtype, checked,
// and its sizes, because these operators keep their input's sizes):
//   neg(neg(x))                         -> x
//   mul.Scalar(x, 1), div.Scalar(x, 1)  -> x   (x * 1 and x / 1 are exact)
//   sub.Scalar(x, o, alpha)             -> x   integral/bool result: o == 0 or
//                                              alpha == 0; floating: o and alpha
//                                              special, one of them 0 (x - +0 == x)
//   add.Scalar(x, o, alpha)             -> x   integral/bool result only, o == 0
//                                              or alpha == 0
//   _to_copy(_to_copy(x, dtype=A), dtype=B) -> _to_copy(x, dtype=B) when A holds
//       every value of x's dtype exactly (bool -> any, u8 -> wider, i32 -> i64/f64,
//       f16/bf16 -> f32/f64, f32 -> f64) and the inner copy changes nothing else
//       (layout strided/None, device None or x's, pin_memory None/false,
//       memory_format None/preserve); -> x when moreover B is x's dtype and the
//       outer copy changes nothing else either.
// Not folded:
//   x + 0 for floating x (-0.0 + 0.0 is +0.0); x * 0 (NaN, inf, -0.0; and for
//   integers the zeros would need x's sizes baked in); x / 1 with integral x
//   (true division gives a float: dtype differs); add.Tensor/sub.Tensor with
//   alpha == 0 (the result's sizes are the broadcast of both operands, which
//   the hash does not pin down); narrowing casts (f32 -> f16 -> f32 rounds).
#include "passes/canonicalize.h"
#include "passes/canonicalize_util.h"

namespace lz::passes {
namespace {

using ir::arg;
using ir::arg_ref;
using ir::ArgRef;
using ir::is_op;
using detail::special_value;
using ir::kNone;
using ir::ValueId;

bool integral_result(const ir::Graph& g, const ir::Node& n) {
  return is_integral(g.value(n.first_output).type.dtype, /*include_bool=*/true);
}

// The mapped value of the node's `self`, its first argument (neg, the
// Tensor-Scalar arithmetic and _to_copy all read it first).
ValueId mapped_self(const GraphRewriter& rw, const ir::Node& n) {
  const std::span<const ir::Arg> args = rw.source().args(n);
  if (args.empty() || args[0].kind != ir::ArgKind::Tensor) return kNone;
  return rw.mapped(detail::operand_of(n, args[0]));
}

ValueId fold_neg(const GraphRewriter& rw, const ir::Node& n) {
  const ValueId x = mapped_self(rw, n);
  if (x == kNone) return kNone;
  const ir::Node& inner = rw.graph().producer(x);
  return is_op(inner, OpId::neg) ? inner.operands[0] : kNone;
}

// The `other` and `alpha` of mul/div/add/sub.Scalar (the same positions in all four).
const ArgRef kOther = arg_ref(OpId::add_Scalar, "other");
const ArgRef kAlpha = arg_ref(OpId::add_Scalar, "alpha");

ValueId fold_scalar_arith(const GraphRewriter& rw, const ir::Node& n) {
  const ir::Graph& g = rw.source();
  const auto arg_at = [&](ArgRef r) { return r.index < n.num_args ? &g.args(n)[r.index] : nullptr; };
  const std::optional<int> other = special_value(g, arg_at(kOther));
  const OpId op = n.op->id;
  bool fold = false;
  if (op == OpId::mul_Scalar || op == OpId::div_Scalar) {
    fold = other == 1;
  } else {
    const std::optional<int> alpha = special_value(g, arg_at(kAlpha));
    // The added term is alpha * other; it must be exactly 0.
    const bool zero_term = other == 0 || alpha == 0;
    if (integral_result(g, n)) {
      fold = zero_term;
    } else if (op == OpId::sub_Scalar) {
      // x - (+0.0) == x for every float x; the term is +0.0 only when both
      // factors are known (0 * inf is NaN) and one is 0.
      fold = zero_term && other && alpha;
    }
  }
  return fold ? mapped_self(rw, n) : kNone;
}

// Widening casts: `wide` represents every value of `narrow` exactly.
bool represents_all(ScalarType wide, ScalarType narrow) {
  if (wide == narrow || narrow == kBool) return true;
  switch (narrow) {
    case kByte: return wide != kBool && wide != kChar;  // 0..255 fit in every other type, f16 and bf16 too
    case kChar: return wide != kBool && wide != kByte;  // -128..127 likewise
    case kShort: return wide == kInt || wide == kLong || wide == kFloat || wide == kDouble;
    case kInt: return wide == kLong || wide == kDouble;
    case kHalf:
    case kBFloat16: return wide == kFloat || wide == kDouble;
    case kFloat: return wide == kDouble;
    default: return false;
  }
}

// Whether a _to_copy node changes nothing but (possibly) the dtype of a
// value on `device`.
const ArgRef kCopyDtype = arg_ref(OpId::_to_copy, "dtype");
const ArgRef kCopyLayout = arg_ref(OpId::_to_copy, "layout");
const ArgRef kCopyDevice = arg_ref(OpId::_to_copy, "device");
const ArgRef kCopyPinMemory = arg_ref(OpId::_to_copy, "pin_memory");
const ArgRef kCopyMemoryFormat = arg_ref(OpId::_to_copy, "memory_format");

bool only_casts(const ir::Graph& g, const ir::Node& n, Device device) {
  const ir::Arg* layout = arg(g, n, kCopyLayout);
  const ir::Arg* dev = arg(g, n, kCopyDevice);
  const ir::Arg* pin = arg(g, n, kCopyPinMemory);
  const ir::Arg* format = arg(g, n, kCopyMemoryFormat);
  if (!layout || !dev || !pin || !format) return false;
  const bool layout_ok = layout->kind == ir::ArgKind::None ||
                         (layout->kind == ir::ArgKind::Layout && layout->i == static_cast<int64_t>(Layout::Strided));
  const bool device_ok =
      dev->kind == ir::ArgKind::None ||
      (dev->kind == ir::ArgKind::Device &&
       Device(static_cast<DeviceType>(dev->i), static_cast<int>(dev->index)) == device);
  const bool pin_ok = pin->kind == ir::ArgKind::None || detail::bool_value(pin) == false;
  const bool format_ok = format->kind == ir::ArgKind::None ||
                         (format->kind == ir::ArgKind::MemoryFormat &&
                          format->i == static_cast<int64_t>(MemoryFormat::Preserve));
  return layout_ok && device_ok && pin_ok && format_ok;
}

ValueId fold_cast_chain(GraphRewriter& rw, ir::NodeId id) {
  const ir::Graph& src = rw.source();
  const ir::Node& outer = src.node(id);
  const ValueId y = mapped_self(rw, outer);
  if (y == kNone) return kNone;
  const ir::Graph& dst = rw.graph();
  const ir::Node& inner = dst.producer(y);
  if (inner.is_input() || inner.op != outer.op || inner.operands.size() != 1) return kNone;
  const ValueId x = inner.operands[0];
  const TensorMeta& xt = dst.value(x).type;
  if (!only_casts(dst, inner, xt.device)) return kNone;
  if (!represents_all(dst.value(y).type.dtype, xt.dtype)) return kNone;
  const TensorMeta& out = src.value(outer.first_output).type;
  if (out.dtype == xt.dtype && only_casts(src, outer, xt.device)) return x;
  // One cast from x, with the outer cast's other arguments and its dtype
  // made explicit (None meant "the inner cast's dtype").
  std::vector<ir::Arg> args = rw.copy_args(id);
  if (kCopyDtype.index >= args.size()) return kNone;
  args[kCopyDtype.index].kind = ir::ArgKind::ScalarType;
  args[kCopyDtype.index].i = static_cast<int64_t>(out.dtype);
  const ValueId operands[] = {x};
  return rw.add_node(*outer.op, args, operands, std::span<const TensorMeta>(&out, 1));
}

ValueId simplify_rule(GraphRewriter& rw, ir::NodeId id) {
  const ir::Node& n = rw.source().node(id);
  switch (n.op->id) {
    case OpId::neg: return fold_neg(rw, n);
    case OpId::mul_Scalar: case OpId::div_Scalar: case OpId::add_Scalar: case OpId::sub_Scalar:
      return fold_scalar_arith(rw, n);
    case OpId::_to_copy: return fold_cast_chain(rw, id);
    default: return kNone;
  }
}

bool run_simplify(Program& p) { return detail::rewrite_nodes(p, &simplify_rule); }

}  // namespace

std::unique_ptr<Pass> make_simplify_pass() {
  return std::make_unique<detail::FunctionPass>("simplify", &run_simplify);
}

}  // namespace lz::passes
