#include "autograd/node.h"

#include "autograd/accumulate_grad.h"
#include "autograd/copy_slices.h"

namespace lz::autograd {

namespace {
thread_local uint64_t t_next_sequence_nr = 0;
}  // namespace

Node::Node() : sequence_nr_(t_next_sequence_nr++) {}
Node::~Node() = default;

Edge gradient_edge(const Tensor& t) {
  AutogradMeta* meta = autograd_meta(t);
  if (meta == nullptr) return {};
  if (meta->view_base.defined()) rebuild_view_grad_fn(t, *meta);
  if (meta->grad_fn) return Edge{meta->grad_fn, meta->output_nr};
  if (meta->requires_grad) return Edge{grad_accumulator(t), 0};
  return {};
}

InputMeta input_meta_of(const Tensor& t) { return InputMeta{SizeVec(t.sizes().begin(), t.sizes().end()), t.dtype()}; }

}  // namespace lz::autograd
