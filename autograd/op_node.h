// OpNode: the backward node of one dispatcher operator call, running the
// operator's derivative formula (autograd/derivative.h) on what the call
// saved.
#pragma once

#include <vector>

#include "autograd/derivative.h"
#include "autograd/saved_tensor.h"
#include "core/operator_handle.h"

namespace lz::autograd {

class OpNode final : public Node {
 public:
  OpNode(const OperatorHandle& op, const Derivative& derivative);
  // "MulBackward" (from the operator's name: mul.Tensor).
  std::string name() const override;
  GradList apply(GradList&& grads) override;
  void release_saved() override;

  // Filled by the Autograd fallback while it records the call.
  // The call's arguments: non-tensors as given, tensors None (kept in saved_arguments).
  std::vector<IValue> arguments;
  std::vector<std::pair<size_t, SavedTensor>> saved_arguments;
  std::vector<SavedTensor> saved_results;
  std::vector<bool> needs_grad;  // per input slot

 private:
  OperatorHandle op_;
  const Derivative& derivative_;
};

}  // namespace lz::autograd
