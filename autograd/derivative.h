// Derivative formulas, one per differentiable operator, keyed by the
// operator's typed id (core/operators.def), as PyTorch's derivatives.yaml
// is keyed by its schemas. A formula is written with lz operators, so a
// lazy backward pass traces and fuses like the forward, and with grad mode
// on (create_graph) it records its own history for higher derivatives.
//
// In-place variants use their functional operator's formula; out= variants
// record no history; composites (a composite kernel and no formula of
// their own) are differentiated through their decomposition. Every other
// operator either has a formula or a reason why it is not differentiable
// (autograd/derivatives.cpp; tests/autograd checks the list is complete).
#pragma once

#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

#include "autograd/node.h"
#include "core/ivalue.h"
#include "core/op_id.h"

namespace lz::autograd {

// What a formula sees of its forward call.
class BackwardContext {
 public:
  BackwardContext(const IValue* args, const GradList& results, std::span<const InputMeta> inputs,
                  const std::vector<bool>& needs_grad)
      : args_(args), results_(results), inputs_(inputs), needs_grad_(needs_grad) {}

  // Forward argument `i` (schema position): tensors only if the formula
  // saves them (Derivative::saved_arguments), None otherwise.
  const IValue& arg(size_t i) const { return args_[i]; }
  const Tensor& tensor(size_t i) const { return args_[i].to_tensor(); }
  const Tensor& self() const { return tensor(0); }
  std::optional<Tensor> optional_tensor(size_t i) const;
  Scalar scalar(size_t i) const { return args_[i].to_scalar(); }
  int64_t integer(size_t i) const { return args_[i].to_int(); }
  double real(size_t i) const { return args_[i].to_double(); }
  bool boolean(size_t i) const { return args_[i].to_bool(); }
  IntArrayRef ints(size_t i) const { return args_[i].to_int_list(); }
  // The forward outputs (if the formula saves them).
  const Tensor& result(size_t i = 0) const { return results_.at(i); }

  // Differentiable inputs ("slots"): the tensor arguments in order, a
  // Tensor[] argument contributing one slot per element.
  size_t num_inputs() const { return inputs_.size(); }
  IntArrayRef input_sizes(size_t slot) const { return inputs_[slot].sizes; }
  ScalarType input_dtype(size_t slot) const { return inputs_[slot].dtype; }
  // Whether the gradient of input `slot` is wanted (formulas may skip the others).
  bool needs_grad(size_t slot) const { return needs_grad_[slot]; }

 private:
  const IValue* args_;
  const GradList& results_;
  std::span<const InputMeta> inputs_;
  const std::vector<bool>& needs_grad_;
};

// Returns one gradient per input slot (undefined where there is none). The
// engine sums a broadcast gradient down to the input's sizes and casts it
// to the input's dtype, so formulas need not. `grads` has one entry per
// forward output; an output without a gradient is undefined.
using Formula = GradList (*)(const BackwardContext& ctx, const GradList& grads);

struct Derivative {
  OpId op = OpId::kNone;
  uint32_t saved_arguments = 0;  // bit i: argument i is a tensor the formula reads
  bool saves_results = false;
  Formula backward = nullptr;
};

// Derivative::saved_arguments of the given argument positions.
constexpr uint32_t saves(std::initializer_list<int> arguments) {
  uint32_t mask = 0;
  for (int i : arguments) mask |= uint32_t{1} << i;
  return mask;
}

// The formula of `id`: its own, or its functional operator's for an
// in-place variant; null if none.
const Derivative* find_derivative(OpId id);
// Why `id` has no gradient (declared, or implied by its tags: factories,
// number results, out= forms); nullopt for differentiable operators.
std::optional<std::string_view> non_differentiable_reason(OpId id);

// The formula tables (autograd/derivatives_<family>.cpp).
std::span<const Derivative> pointwise_derivatives();
std::span<const Derivative> reduction_derivatives();
std::span<const Derivative> shape_derivatives();
std::span<const Derivative> nn_derivatives();

}  // namespace lz::autograd
