// The lowering registry and LowerContext's shared helpers.
#include "passes/lowering.h"

#include <array>
#include <optional>

#include "core/error.h"
#include "core/op_tags.h"
#include "core/type_promotion.h"

namespace lz::passes {

ScalarType compute_dtype(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16 ? ScalarType::Float : t;
}

ir::ExprId LowerContext::operand(uint32_t operand, ScalarType dtype) {
  return b_.cast(operand_at_point(operand), dtype);
}

ScalarType LowerContext::operand_dtype(uint32_t operand) const {
  return g_.value(n_.operands.at(operand)).type.dtype;
}

const ir::Arg& LowerContext::arg(uint32_t argument) const {
  LZ_INTERNAL_ASSERT(argument < n_.num_args, "lowering of ", n_.op->name, ": no argument ", argument);
  return g_.args(n_)[argument];
}

uint32_t LowerContext::tensor_arg(uint32_t argument) const {
  const ir::Arg& a = arg(argument);
  return a.kind == ir::ArgKind::Tensor ? a.index : ir::kNone;
}

ir::ExprId LowerContext::scalar_value(const ir::Arg& a, ScalarType dtype) {
  // 0 and 1 are special scalars, part of the graph's hash: constants the
  // code generator can fold (they fit every dtype). Any other value is a
  // runtime parameter, converted to the dtype as the eager kernel does
  // (-2 is 254 in uint8).
  const Scalar& s = g_.scalar(a.index);
  if (ir::is_special_scalar(s) && (s.to_double() == 0 || s.to_double() == 1)) return b_.constant(s.to_double(), dtype);
  return b_.param(a.index, dtype);
}

ir::ExprId LowerContext::scalar(uint32_t argument, ScalarType dtype, double fallback) {
  const ir::Arg& a = arg(argument);
  if (a.kind != ir::ArgKind::Scalar) return b_.constant(fallback, dtype);
  return scalar_value(a, dtype);
}

ir::ExprId LowerContext::input(uint32_t argument, ScalarType kernel_dtype) {
  LZ_INTERNAL_ASSERT(argument < n_.num_args, "lowering of ", n_.op->name, ": no argument ", argument);
  const ir::Arg& a = g_.args(n_)[argument];
  const ScalarType c = compute_dtype(kernel_dtype);
  LZ_INTERNAL_ASSERT(a.kind == ir::ArgKind::Tensor || a.kind == ir::ArgKind::Scalar, "lowering of ",
                     n_.op->name, ": argument ", argument, " is neither a tensor nor a number");
  if (c == kernel_dtype) return a.kind == ir::ArgKind::Tensor ? operand(a.index, c) : scalar_value(a, c);
  // An f16/bf16 kernel: the eager kernel reads every input as its dtype
  // (rounding a number, or an operand of a wider dtype: a float32 1e6 is
  // inf in float16), then widens to compute.
  const ir::ExprId v = a.kind == ir::ArgKind::Tensor ? operand_at_point(a.index) : scalar_value(a, c);
  return b_.cast(b_.cast(v, kernel_dtype), c);
}

bool LowerContext::is_wrapped_number(uint32_t operand) const {
  const ir::Node& producer = g_.producer(n_.operands.at(operand));
  return producer.is_input() && producer.wrapped_number;
}

bool LowerContext::scalar_is(uint32_t argument, double v) const {
  const ir::Arg& a = arg(argument);
  if (a.kind != ir::ArgKind::Scalar) return false;
  const Scalar& s = g_.scalar(a.index);
  return ir::is_special_scalar(s) && s.to_double() == v;
}

ScalarType LowerContext::out_dtype(uint32_t output) const {
  return g_.value(n_.first_output + output).type.dtype;
}

ScalarType LowerContext::common_dtype(std::initializer_list<uint32_t> arguments) const {
  ResultTypeState state;
  for (uint32_t k : arguments) {
    LZ_INTERNAL_ASSERT(k < n_.num_args, "lowering of ", n_.op->name, ": no argument ", k);
    const ir::Arg& a = g_.args(n_)[k];
    if (a.kind == ir::ArgKind::Scalar) {
      state.add(g_.scalar(a.index).type(), 0, /*wrapped_number=*/true);
      continue;
    }
    LZ_INTERNAL_ASSERT(a.kind == ir::ArgKind::Tensor, "lowering of ", n_.op->name, ": argument ", k,
                       " is neither a tensor nor a number");
    const ir::ValueId v = n_.operands.at(a.index);
    state.add(g_.value(v).type.dtype, static_cast<int64_t>(g_.value(v).type.sizes.size()),
              is_wrapped_number(a.index));
  }
  return state.result();
}

namespace {

bool supported_dtype(ScalarType t) { return t != ScalarType::Undefined; }

}  // namespace

uint32_t detail::shared_argument(std::initializer_list<OpId> ops, std::string_view name) {
  LZ_INTERNAL_ASSERT(ops.size() > 0, "shared_argument '", name, "' of no operator");
  const size_t position = argument_position(*ops.begin(), name);
  for (OpId op : ops) {
    LZ_INTERNAL_ASSERT(argument_position(op, name) == position, "argument '", name, "' of ", op_name(op),
                       " is not at position ", position, " as in ", op_name(*ops.begin()));
  }
  return static_cast<uint32_t>(position);
}

void LoweringTable::add(OpId op, const Lowering& l) {
  Entry& e = entries_[static_cast<size_t>(op)];
  LZ_INTERNAL_ASSERT(!e.lowering && e.not_lowered.empty(), "two lowering entries for ", op_name(op));
  e.lowering = l;
}

void LoweringTable::not_lowered(OpId op, std::string_view reason) {
  Entry& e = entries_[static_cast<size_t>(op)];
  LZ_INTERNAL_ASSERT(!e.lowering && e.not_lowered.empty(), "two lowering entries for ", op_name(op));
  LZ_INTERNAL_ASSERT(!reason.empty(), op_name(op), ": not lowered without a reason");
  e.not_lowered = reason;
}

const Lowering* LoweringTable::find(OpId op) const {
  if (op == OpId::kNone) return nullptr;
  const Entry& e = entries_[static_cast<size_t>(op)];
  return e.lowering ? &*e.lowering : nullptr;
}

std::string_view LoweringTable::not_lowered_reason(OpId op) const {
  return op == OpId::kNone ? std::string_view() : entries_[static_cast<size_t>(op)].not_lowered;
}

const LoweringTable& lowering_table() {
  static const LoweringTable t = [] {
    LoweringTable t;
    detail::add_pointwise_lowerings(t);
    detail::add_reduction_lowerings(t);
    detail::add_concat_lowerings(t);
    detail::add_gather_lowerings(t);
    return t;
  }();
  return t;
}

const Lowering* find_lowering(const ir::Graph& g, const ir::Node& n, std::string* why_not) {
  if (n.is_input()) return nullptr;
  if (n.op->tags.has(Tag::Random) || n.implicit_generator != ir::kNone) {
    *why_not = "a random operator (runs its eager kernel, which draws the numbers)";
    return nullptr;
  }
  const LoweringTable& table = lowering_table();
  const Lowering* found = table.find(n.op->id);
  if (found == nullptr) {
    const std::string_view reason = table.not_lowered_reason(n.op->id);
    *why_not = reason.empty() ? "no lowering for " + n.op->name : "not lowered: " + std::string(reason);
    return nullptr;
  }
  // Each refuse runs once; `otherwise` serves the nodes `found` refuses.
  const auto refusal = [&](const Lowering& l) { return l.refuse ? l.refuse(g, n) : nullptr; };
  const Lowering* chosen = found;
  const char* refused = refusal(*found);
  if (refused != nullptr && found->otherwise != nullptr) {
    chosen = found->otherwise;
    refused = refusal(*chosen);
  }
  for (uint32_t k = 0; k < n.num_outputs; ++k) {
    const TensorMeta& t = g.value(n.first_output + k).type;
    if (!supported_dtype(t.dtype)) {
      *why_not = "dtype " + std::string(to_string(t.dtype)) + " is not lowered";
      return nullptr;
    }
  }
  if (refused != nullptr) {
    *why_not = refused;
    return nullptr;
  }
  for (ir::ValueId v : n.operands) {
    if (g.value(v).type.device != g.value(n.first_output).type.device) {
      *why_not = "operands on another device";
      return nullptr;
    }
  }
  return chosen;
}

}  // namespace lz::passes
