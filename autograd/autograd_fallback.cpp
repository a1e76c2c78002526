// The Autograd key's one boxed kernel, serving every operator (the way the
// Lazy key's fallback does): with grad mode on and an input that requires
// grad, it records an OpNode holding what the operator's derivative formula
// needs, runs the operator below the Autograd key, and gives the results
// their history. In-place operators rebase their first argument's history
// onto the new node; through a view of a tensor with history, the base's as
// well (autograd/copy_slices.h). Composites without a formula of their own never reach
// it: their decomposition runs at this key and records its operators.
#include "autograd/copy_slices.h"
#include "autograd/derivative.h"
#include "autograd/grad_mode.h"
#include "autograd/op_node.h"
#include "core/dispatcher.h"
#include "core/local_dispatch_key_set.h"
#include "core/op_registration.h"
#include "core/ops_copy.h"

namespace lz::autograd {

namespace {

bool is_tensor_argument(const Argument& a) { return a.type.base == BaseType::Tensor; }

// Calls `f(tensor)` for each input slot: the tensors of the Tensor, Tensor?
// and Tensor[] arguments in order (undefined for an absent one).
template <class F>
void for_each_slot(const FunctionSchema& schema, const IValue* args, F&& f) {
  const auto& arguments = schema.arguments();
  for (size_t i = 0; i < arguments.size(); ++i) {
    if (!is_tensor_argument(arguments[i])) continue;
    const IValue& v = args[i];
    if (v.is_tensor()) {
      f(v.to_tensor());
    } else if (v.is_tensor_list()) {
      for (const Tensor& t : v.to_tensor_list()) f(t);
    } else if (v.tag() == IValue::Tag::OptionalTensorList) {
      for (const auto& t : v.to_optional_tensor_list()) f(t ? *t : Tensor());
    } else {
      f(Tensor());
    }
  }
}

bool any_requires_grad(const FunctionSchema& schema, const IValue* args) {
  bool any = false;
  for_each_slot(schema, args, [&](const Tensor& t) { any = any || (t.defined() && t.requires_grad()); });
  return any;
}

void run_below_autograd(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  ExcludeDispatchKeyGuard below(DispatchKey::Autograd);
  op.redispatch_boxed(ks & DispatchKeySet::below(DispatchKey::Autograd), stack);
}

// A view kernel copies its input's keys: results without autograd state
// must not keep the Autograd key.
void drop_stale_key(const Tensor& t) {
  if (t.defined() && t.unsafe_get_impl()->autograd_meta() == nullptr && t.key_set().has(DispatchKey::Autograd)) {
    t.unsafe_get_impl()->set_key_set(t.key_set().remove(DispatchKey::Autograd));
  }
}

void drop_stale_keys(Stack* stack, size_t num_returns) {
  for (size_t k = stack->size() - num_returns; k < stack->size(); ++k) {
    const IValue& v = (*stack)[k];
    if (v.is_tensor()) {
      drop_stale_key(v.to_tensor());
    } else if (v.is_tensor_list()) {
      for (const Tensor& t : v.to_tensor_list()) drop_stale_key(t);
    }
  }
}

void set_history(const Tensor& t, const std::shared_ptr<Node>& node, uint32_t output_nr) {
  AutogradMeta& meta = t.unsafe_get_impl()->ensure_autograd_meta();
  meta.grad_fn = node;
  meta.output_nr = output_nr;
}

// A view operator: its result shares input 0's memory (`Tensor(a) self ->
// Tensor(a)`). The operators with that schema that may return a copy
// (reshape, contiguous, to, flatten) are composites: they never get here,
// their decompositions do.
bool is_view_op(const FunctionSchema& schema) {
  if (schema.returns().empty() || schema.arguments().empty()) return false;
  const auto& out = schema.returns()[0].alias;
  const auto& in = schema.arguments()[0].alias;
  return out && in && !out->is_write && out->set == in->set;
}

// The view remembers the tensor whose storage it views (the first tensor
// with history up the chain of views), so writes through it reach the base.
void record_view(const Tensor& view, const Tensor& input) {
  AutogradMeta& meta = view.unsafe_get_impl()->ensure_autograd_meta();
  const AutogradMeta* in = autograd_meta(input);
  meta.view_base = in != nullptr && in->view_base.defined() ? in->view_base : input;
  meta.view_version = view.unsafe_get_impl()->version();
}

void autograd_fallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  const FunctionSchema& schema = op.schema();
  const size_t n = schema.arguments().size();
  const size_t num_returns = schema.returns().size();
  const IValue* args = stack->data() + (stack->size() - n);
  if (!GradMode::is_enabled() || !any_requires_grad(schema, args)) {
    run_below_autograd(op, ks, stack);
    drop_stale_keys(stack, num_returns);
    return;
  }
  LZ_CHECK(!op.has_tag(Tag::Out), ValueError, "[", op.name(),
           "] out= forms do not support automatic differentiation, but an argument requires grad "
           "(use the functional form, or call it under lz::NoGradGuard)");
  const Derivative* derivative = find_derivative(op.id());
  if (derivative == nullptr) {
    LZ_CHECK(non_differentiable_reason(op.id()).has_value(), NotImplementedError, "[", op.name(),
             "] the derivative of this operator is not implemented, and an argument requires grad "
             "(call it under lz::NoGradGuard or on detach()ed tensors)");
    run_below_autograd(op, ks, stack);
    drop_stale_keys(stack, num_returns);
    return;
  }

  const bool in_place = schema.is_mutable();
  if (in_place) {
    const Tensor& self = args[0].to_tensor();
    // A view of a tensor without history, written with values that require
    // grad: the write changes its base, which gets the history (below).
    if (autograd_meta(self) == nullptr && self.unsafe_get_impl()->view_base() != nullptr) {
      record_view(self, Tensor(intrusive_ptr<TensorImpl>(self.unsafe_get_impl()->view_base())));
    }
    LZ_CHECK(!(self.requires_grad() && self.is_leaf()), ValueError, "[", op.name(), "] ",
             schema.arguments()[0].name,
             ": a leaf tensor that requires grad is being used in an in-place operation "
             "(use lz::NoGradGuard for updates such as optimizer steps, or write into a clone())");
    check_view_write_allowed(self, op.name().c_str());
  }

  auto node = std::make_shared<OpNode>(op, *derivative);
  for_each_slot(schema, args, [&](const Tensor& t) {
    const Edge edge = t.defined() ? gradient_edge(t) : Edge{};
    node->needs_grad.push_back(edge.valid());
    node->add_next_edge(edge, t.defined() ? input_meta_of(t) : InputMeta{});
  });
  node->arguments.resize(n);
  for (size_t i = 0; i < n; ++i) {
    if (!is_tensor_argument(schema.arguments()[i])) {
      node->arguments[i] = args[i];
    } else if ((derivative->saved_arguments >> i) & 1u) {
      const Tensor& t = args[i].is_tensor() ? args[i].to_tensor() : Tensor();
      // The value an in-place operator is about to overwrite is kept as a copy.
      Tensor value = t;
      if (in_place && i == 0) {
        ExcludeDispatchKeyGuard below(DispatchKey::Autograd);
        value = t.clone();
      }
      node->saved_arguments.emplace_back(i, SavedTensor(value, /*is_output=*/false));
    }
  }

  // The operator's results replace its arguments on the stack.
  const Tensor view_input = !in_place && is_view_op(schema) ? args[0].to_tensor() : Tensor();
  run_below_autograd(op, ks, stack);

  node->set_num_outputs(static_cast<uint32_t>(num_returns));
  const size_t first = stack->size() - num_returns;
  for (size_t k = 0; k < num_returns; ++k) {
    IValue& v = (*stack)[first + k];
    LZ_INTERNAL_ASSERT(v.is_tensor(), "[", op.name(), "] autograd records operators returning tensors only, got ",
                       v.tag_name());
    Tensor out = v.to_tensor();
    const bool differentiable = out.defined() && out.is_floating_point();
    if (!(in_place && k == 0)) {
      if (!differentiable) {
        drop_stale_key(out);
        continue;
      }
      // A result that is an input itself (an operator returning its argument
      // unchanged) gets its own alias, so the input keeps its history.
      if (out.unsafe_get_impl()->autograd_meta() != nullptr) {
        out = out.detach();
        v = IValue(out);
      }
    }
    set_history(out, node, static_cast<uint32_t>(k));
    if (k == 0 && view_input.defined()) record_view(out, view_input);
  }
  if (in_place) {
    const Tensor& self = (*stack)[first].to_tensor();
    const AutogradMeta* meta = autograd_meta(self);
    if (meta != nullptr && meta->view_base.defined()) rebase_view_write(self, node);
  }
  if (derivative->saves_results) {
    for (size_t k = 0; k < num_returns; ++k) {
      node->saved_results.emplace_back((*stack)[first + k].to_tensor(), /*is_output=*/true, static_cast<uint32_t>(k));
    }
  }
}

}  // namespace

LZ_LIBRARY(autograd_fallback) {
  lib.fallback(DispatchKey::Autograd, KernelFunction::from_boxed(&autograd_fallback));
  // A composite with a formula of its own (softmax, layer_norm, ...) runs
  // the formula instead of differentiating its decomposition.
  for (auto table : {pointwise_derivatives(), reduction_derivatives(), shape_derivatives(), nn_derivatives()}) {
    for (const Derivative& d : table) {
      const OperatorHandle op = Dispatcher::singleton().find(d.op);
      if (op.has_composite()) lib.impl_kernel(op, DispatchKey::Autograd, KernelFunction::from_boxed(&autograd_fallback));
    }
  }
}

}  // namespace lz::autograd
