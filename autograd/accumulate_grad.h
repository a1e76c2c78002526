// AccumulateGrad: the node at a leaf that requires grad; adds the gradient
// arriving at it into the leaf's grad() after the leaf's hooks.
#pragma once

#include "autograd/node.h"

namespace lz::autograd {

class AccumulateGrad final : public Node {
 public:
  explicit AccumulateGrad(Tensor leaf);
  std::string name() const override { return "AccumulateGrad"; }
  GradList apply(GradList&& grads) override;
  const Tensor& leaf() const { return leaf_; }

 private:
  Tensor leaf_;
};

// The leaf's accumulator (made on first use, shared while alive).
std::shared_ptr<Node> grad_accumulator(const Tensor& leaf);

}  // namespace lz::autograd
