#include "autograd/accumulate_grad.h"

#include "core/ops_copy.h"

namespace lz::autograd {

AccumulateGrad::AccumulateGrad(Tensor leaf) : leaf_(std::move(leaf)) {}

GradList AccumulateGrad::apply(GradList&& grads) {
  Tensor grad = std::move(grads.at(0));
  if (!grad.defined()) return {};
  AutogradMeta& meta = *leaf_.unsafe_get_impl()->autograd_meta();
  for (const TensorHook& hook : meta.hooks) {
    if (Tensor replaced = hook(grad); replaced.defined()) grad = std::move(replaced);
  }
  if (!meta.grad.defined()) {
    // The gradient becomes the leaf's own: a contiguous tensor nothing else
    // holds (an expanded or a caller's gradient would alias; a transposed
    // one, as a weight's through t(), would keep its strides and make every
    // later update strided). It has history only under create_graph (the
    // engine runs formulas with grad mode off otherwise).
    const bool sole_owner = grad.use_count() == 1 && grad.is_contiguous();
    meta.grad = sole_owner ? std::move(grad) : grad.clone(MemoryFormat::Contiguous);
  } else {
    // Out of place: a grad() the caller still holds keeps its values.
    meta.grad = meta.grad + grad;
  }
  return {};
}

std::shared_ptr<Node> grad_accumulator(const Tensor& leaf) {
  AutogradMeta& meta = *leaf.unsafe_get_impl()->autograd_meta();
  if (std::shared_ptr<Node> existing = meta.grad_accumulator.lock()) return existing;
  auto made = std::make_shared<AccumulateGrad>(leaf);
  meta.grad_accumulator = made;
  return made;
}

}  // namespace lz::autograd
