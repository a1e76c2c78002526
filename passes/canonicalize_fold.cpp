// Constant folding of pointwise arithmetic with a constant operand that
// provably changes nothing. A constant is a node without tensor data
// inputs, not Random, whose value is fixed by hashed attributes or a
// special scalar (ir::is_special_scalar):
//   zeros(size) = 0, ones(size) = 1, full(size, fill_value=$k special),
//   scalar_tensor($k special)                      (sizes: the size list / [])
//   zeros_like(y) = 0, ones_like(y) = 1, full_like(y, $k special)  (y's sizes)
// The result must be the other operand x for every size the hash admits:
// the constant's sizes must broadcast into x's without changing them, so
// its size list is all 1s and no longer than x's rank, or it is *_like(x)
// of x itself; and the result's dtype (and device) must be x's.
//
// Folded:
//   mul.Tensor(x, 1), mul.Tensor(1, x)   -> x   (x * 1 is exact)
//   div.Tensor(x, 1)                     -> x   (floating x; integral x divides
//                                                 into a float, so dtypes differ)
//   add.Tensor(x, 0, alpha)              -> x   integral/bool result only
//   add.Tensor(0, x, alpha=1 special)    -> x   integral/bool result only
//   sub.Tensor(x, 0, alpha)              -> x   integral/bool result; floating
//                                                 when alpha is special (x - +0)
// Not folded: x + 0 for floats (-0.0 + 0.0 == +0.0); x * 0 (NaN, inf, -0.0);
// a constant whose size list is not all 1s (x's sizes are not hashed: the
// same executable would see an x the constant broadcasts up); div's
// rounding modes; arithmetic among constants only (no tensor is computed at
// compile time: the result would need sizes baked in).
#include <algorithm>

#include "passes/canonicalize.h"
#include "passes/canonicalize_util.h"

namespace lz::passes {
namespace {

using ir::arg;
using ir::arg_ref;
using ir::ArgRef;
using detail::special_value;
using ir::kNone;
using ir::ValueId;

struct Constant {
  int value = 0;               // 0 or 1
  ValueId like = kNone;        // *_like: the value whose sizes it has
  size_t unit_rank = 0;        // otherwise: its sizes are `unit_rank` ones
  bool all_ones_shape = false;
};

const ArgRef kFullValue = arg_ref(OpId::full, "fill_value");
const ArgRef kFullLikeValue = arg_ref(OpId::full_like, "fill_value");
const ArgRef kScalarTensorValue = arg_ref(OpId::scalar_tensor, "s");
// The `size` of zeros, ones and full (their first argument).
const ArgRef kZerosSize = arg_ref(OpId::zeros, "size");
const ArgRef kOnesSize = arg_ref(OpId::ones, "size");
const ArgRef kFullSize = arg_ref(OpId::full, "size");

std::optional<Constant> constant_of(const ir::Graph& g, ValueId v) {
  const ir::Node& n = g.producer(v);
  if (n.is_input() || n.op->tags.has(Tag::Random) || n.implicit_generator != kNone) return std::nullopt;
  Constant c;
  std::optional<ArgRef> size;  // a factory's; nullopt for *_like
  switch (n.op->id) {
    case OpId::zeros: c.value = 0, size = kZerosSize; break;
    case OpId::zeros_like: c.value = 0; break;
    case OpId::ones: c.value = 1, size = kOnesSize; break;
    case OpId::ones_like: c.value = 1; break;
    case OpId::full:
    case OpId::full_like: {
      const bool like = n.op->id == OpId::full_like;
      const std::optional<int> fill = special_value(g, arg(g, n, like ? kFullLikeValue : kFullValue));
      if (!fill) return std::nullopt;
      c.value = *fill;
      if (!like) size = kFullSize;
      break;
    }
    case OpId::scalar_tensor: {
      const std::optional<int> s = special_value(g, arg(g, n, kScalarTensorValue));
      if (!s) return std::nullopt;
      c.value = *s;
      c.all_ones_shape = true;  // 0-dim
      return c;
    }
    default: return std::nullopt;
  }
  if (!size) {
    c.like = n.operands[0];
    return c;
  }
  const ir::Arg* size_arg = arg(g, n, *size);
  if (size_arg == nullptr || size_arg->kind != ir::ArgKind::IntList) return std::nullopt;
  const auto sizes = g.int_pool(*size_arg);
  if (!std::all_of(sizes.begin(), sizes.end(), [](int64_t s) { return s == 1; })) return std::nullopt;
  c.all_ones_shape = true;
  c.unit_rank = sizes.size();
  return c;
}

// Whether `c` broadcast against x (for any sizes of x) leaves x's sizes.
bool keeps_sizes(const ir::Graph& g, const Constant& c, ValueId x) {
  if (c.like != kNone) return c.like == x;
  return c.all_ones_shape && c.unit_rank <= detail::rank_of(g, x);
}

// x when `c_value` (a new-graph value) is the constant `want` and x keeps its sizes.
bool is_neutral(const ir::Graph& g, ValueId c_value, int want, ValueId x) {
  const std::optional<Constant> c = constant_of(g, c_value);
  return c && c->value == want && keeps_sizes(g, *c, x);
}

const ArgRef kAddAlpha = arg_ref(OpId::add_Tensor, "alpha");
const ArgRef kSubAlpha = arg_ref(OpId::sub_Tensor, "alpha");

ValueId fold_rule(GraphRewriter& rw, ir::NodeId id) {
  const ir::Graph& src = rw.source();
  const ir::Node& n = src.node(id);
  const OpId op = n.op->id;
  if (op != OpId::mul_Tensor && op != OpId::div_Tensor && op != OpId::add_Tensor && op != OpId::sub_Tensor) {
    return kNone;
  }
  // self, other (and alpha) at the same positions in all four.
  const std::span<const ir::Arg> args = src.args(n);
  if (args.size() < 2) return kNone;
  const ir::Arg* self = &args[0];
  const ir::Arg* other = &args[1];
  if (!self || !other || self->kind != ir::ArgKind::Tensor || other->kind != ir::ArgKind::Tensor) return kNone;
  const ValueId a = rw.mapped(detail::operand_of(n, *self));
  const ValueId b = rw.mapped(detail::operand_of(n, *other));
  const ir::Graph& g = rw.graph();
  const TensorMeta& out = src.value(n.first_output).type;
  const bool integral = is_integral(out.dtype, /*include_bool=*/true);
  // The dtype/device check is the driver's type guard (result type == x's).
  if (op == OpId::mul_Tensor) {
    if (is_neutral(g, b, 1, a)) return a;
    if (is_neutral(g, a, 1, b)) return b;
    return kNone;
  }
  if (op == OpId::div_Tensor) return is_neutral(g, b, 1, a) ? a : kNone;
  const std::optional<int> alpha = special_value(src, arg(src, n, op == OpId::add_Tensor ? kAddAlpha : kSubAlpha));
  if (op == OpId::add_Tensor) {
    if (!integral) return kNone;
    if (is_neutral(g, b, 0, a)) return a;
    if (alpha == 1 && is_neutral(g, a, 0, b)) return b;
    return kNone;
  }
  // sub.Tensor: x - alpha * 0; for floats the term is +0.0 only for a
  // finite, non-negative alpha: a special one.
  if (is_neutral(g, b, 0, a) && (integral || alpha)) return a;
  return kNone;
}

bool run_fold(Program& p) { return detail::rewrite_nodes(p, &fold_rule); }

}  // namespace

std::unique_ptr<Pass> make_fold_pass() { return std::make_unique<detail::FunctionPass>("fold", &run_fold); }

}  // namespace lz::passes
