// The formula registry: every table indexed by operator id once, and the
// operators that have no gradient with the reason why.
#include <array>

#include "autograd/derivative.h"

namespace lz::autograd {

namespace {

constexpr std::string_view kBoolResult = "its result is boolean";
constexpr std::string_view kIntegerResult = "its result is an integer (indices or bits)";

struct NonDifferentiable {
  OpId op;
  std::string_view reason;
};

const NonDifferentiable kNonDifferentiable[] = {
    {OpId::isnan, kBoolResult},
    {OpId::isinf, kBoolResult},
    {OpId::logical_not, kBoolResult},
    {OpId::logical_and, kBoolResult},
    {OpId::logical_or, kBoolResult},
    {OpId::logical_xor, kBoolResult},
    {OpId::eq_Tensor, kBoolResult},
    {OpId::eq_Scalar, kBoolResult},
    {OpId::ne_Tensor, kBoolResult},
    {OpId::ne_Scalar, kBoolResult},
    {OpId::lt_Tensor, kBoolResult},
    {OpId::lt_Scalar, kBoolResult},
    {OpId::le_Tensor, kBoolResult},
    {OpId::le_Scalar, kBoolResult},
    {OpId::gt_Tensor, kBoolResult},
    {OpId::gt_Scalar, kBoolResult},
    {OpId::ge_Tensor, kBoolResult},
    {OpId::ge_Scalar, kBoolResult},
    {OpId::all, kBoolResult},
    {OpId::any, kBoolResult},
    {OpId::all_dim, kBoolResult},
    {OpId::any_dim, kBoolResult},
    {OpId::bitwise_not, kIntegerResult},
    {OpId::bitwise_and_Tensor, kIntegerResult},
    {OpId::bitwise_and_Scalar, kIntegerResult},
    {OpId::bitwise_or_Tensor, kIntegerResult},
    {OpId::bitwise_or_Scalar, kIntegerResult},
    {OpId::bitwise_xor_Tensor, kIntegerResult},
    {OpId::bitwise_xor_Scalar, kIntegerResult},
    {OpId::argmax, kIntegerResult},
    {OpId::argmin, kIntegerResult},
    {OpId::nonzero, kIntegerResult},
};

struct Registry {
  std::array<const Derivative*, kNumOpIds> formulas{};
  std::array<std::string_view, kNumOpIds> reasons{};

  Registry() {
    for (auto table : {pointwise_derivatives(), reduction_derivatives(), shape_derivatives(), nn_derivatives()}) {
      for (const Derivative& d : table) {
        const auto i = static_cast<size_t>(d.op);
        LZ_INTERNAL_ASSERT(formulas[i] == nullptr, "two derivative formulas for ", op_name(d.op));
        formulas[i] = &d;
      }
    }
    for (const NonDifferentiable& n : kNonDifferentiable) {
      LZ_INTERNAL_ASSERT(formulas[static_cast<size_t>(n.op)] == nullptr, op_name(n.op),
                         " has a derivative formula and is listed as not differentiable");
      reasons[static_cast<size_t>(n.op)] = n.reason;
    }
  }
};

const Registry& registry() {
  static const Registry r;
  return r;
}

}  // namespace

const Derivative* find_derivative(OpId id) {
  if (id == OpId::kNone) return nullptr;
  if (const Derivative* own = registry().formulas[static_cast<size_t>(id)]) return own;
  const OpDecl& decl = op_decl(id);
  if (decl.kind == OpDecl::Kind::Inplace) return registry().formulas[static_cast<size_t>(decl.functional)];
  return nullptr;
}

std::optional<std::string_view> non_differentiable_reason(OpId id) {
  if (id == OpId::kNone) return std::nullopt;
  const OpDecl& decl = op_decl(id);
  if (decl.kind == OpDecl::Kind::Out || decl.tags.has(Tag::Out)) {
    return "an out= form: it records no history (as in PyTorch)";
  }
  if (decl.tags.has(Tag::Factory)) return "a factory: its result depends on no tensor's values";
  if (decl.tags.has(Tag::NonTensorResult)) return "it returns a number, not a tensor";
  const OpId own = decl.kind == OpDecl::Kind::Inplace ? decl.functional : id;
  const std::string_view reason = registry().reasons[static_cast<size_t>(own)];
  if (!reason.empty()) return reason;
  return std::nullopt;
}

}  // namespace lz::autograd

namespace lz::autograd {

std::optional<Tensor> BackwardContext::optional_tensor(size_t i) const {
  const IValue& v = args_[i];
  if (v.is_tensor() && v.to_tensor().defined()) return v.to_tensor();
  return std::nullopt;
}

}  // namespace lz::autograd
