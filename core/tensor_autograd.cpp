// Tensor's autograd methods: the state lives in core (core/autograd_meta.h);
// what needs the graph (backward, hooks on non-leaves) goes through the
// hooks the autograd layer installs.
#include "core/autograd_hooks.h"
#include "core/local_dispatch_key_set.h"
#include "core/ops_views.h"

namespace lz {

AutogradHooks& autograd_hooks() {
  static AutogradHooks hooks;
  return hooks;
}

namespace {

const AutogradHooks& checked_autograd_hooks(const char* op) {
  const AutogradHooks& hooks = autograd_hooks();
  LZ_CHECK(hooks.backward != nullptr, NotImplementedError, "[", op, "] the autograd layer is not part of this build");
  return hooks;
}

const Tensor& undefined_tensor() {
  static const Tensor undefined;
  return undefined;
}

}  // namespace

const Tensor& Tensor::requires_grad_(bool requires_grad) const {
  LZ_CHECK(defined(), ValueError, "[requires_grad_] self: the tensor is undefined");
  AutogradMeta* meta = impl()->autograd_meta();
  if (meta != nullptr && meta->grad_fn) {
    LZ_CHECK(requires_grad, ValueError,
             "[requires_grad_] self: requires_grad can only be switched off on leaf tensors; this one has "
             "history (use detach())");
    return *this;
  }
  if (requires_grad) {
    LZ_CHECK(is_floating_point(), ValueError,
             "[requires_grad_] self: only tensors of floating-point dtype can require gradients, got ", dtype());
    impl()->ensure_autograd_meta().requires_grad = true;
  } else if (meta != nullptr) {
    meta->requires_grad = false;
    // Nothing but a gradient left: keep the meta (grad() stays readable) without the key.
    if (!meta->grad.defined()) {
      impl()->clear_autograd_meta();
    } else {
      impl()->set_key_set(key_set().remove(DispatchKey::Autograd));
    }
  }
  return *this;
}

bool Tensor::requires_grad() const {
  const AutogradMeta* meta = autograd_meta(*this);
  return meta != nullptr && (meta->requires_grad || meta->grad_fn);
}

bool Tensor::is_leaf() const {
  const AutogradMeta* meta = autograd_meta(*this);
  return meta == nullptr || !meta->grad_fn;
}

std::shared_ptr<autograd::Node> Tensor::grad_fn() const {
  const AutogradMeta* meta = autograd_meta(*this);
  return meta != nullptr ? meta->grad_fn : nullptr;
}

uint32_t Tensor::output_nr() const {
  const AutogradMeta* meta = autograd_meta(*this);
  return meta != nullptr ? meta->output_nr : 0;
}

const Tensor& Tensor::grad() const {
  const AutogradMeta* meta = autograd_meta(*this);
  return meta != nullptr ? meta->grad : undefined_tensor();
}

Tensor& Tensor::mutable_grad() const {
  LZ_CHECK(defined(), ValueError, "[mutable_grad] self: the tensor is undefined");
  AutogradMeta* meta = impl()->autograd_meta();
  if (meta == nullptr) {
    // A gradient slot without requiring grad: no Autograd key.
    meta = &impl()->ensure_autograd_meta();
    impl()->set_key_set(key_set().remove(DispatchKey::Autograd));
  }
  return meta->grad;
}

void Tensor::backward(const Tensor& gradient, std::optional<bool> retain_graph, bool create_graph) const {
  LZ_CHECK(defined(), ValueError, "[backward] self: the tensor is undefined");
  checked_autograd_hooks("backward").backward(*this, gradient, retain_graph.value_or(create_graph), create_graph);
}

Tensor Tensor::detach() const {
  LZ_CHECK(defined(), ValueError, "[detach] self: the tensor is undefined");
  // An alias (same values, same version counter) made below the Autograd
  // key, so it records nothing; views start without autograd state.
  ExcludeDispatchKeyGuard no_autograd(DispatchKey::Autograd);
  Tensor alias = lz::expand(*this, sizes());
  alias.unsafe_get_impl()->set_view_base(nullptr);  // writes into it do not reach this tensor's history
  return alias;
}

const Tensor& Tensor::detach_() const {
  LZ_CHECK(defined(), ValueError, "[detach_] self: the tensor is undefined");
  if (impl()->autograd_meta() != nullptr) impl()->clear_autograd_meta();
  return *this;
}

void Tensor::retain_grad() const {
  LZ_CHECK(requires_grad(), ValueError,
           "[retain_grad] self: can't retain_grad on a tensor that does not require grad");
  AutogradMeta& meta = *impl()->autograd_meta();
  if (!meta.grad_fn || meta.retains_grad) return;  // leaves keep their grad anyway
  meta.retains_grad = true;
  std::weak_ptr<AutogradMeta> weak = impl()->shared_autograd_meta();
  checked_autograd_hooks("retain_grad").add_grad_fn_hook(*this, [weak](const Tensor& grad) {
    if (std::shared_ptr<AutogradMeta> m = weak.lock(); m && m->retains_grad) {
      m->grad = m->grad.defined() ? m->grad + grad : grad.detach();
    }
    return Tensor();
  });
}

bool Tensor::retains_grad() const {
  const AutogradMeta* meta = autograd_meta(*this);
  return meta != nullptr && meta->retains_grad;
}

unsigned Tensor::register_hook(std::function<Tensor(const Tensor&)> hook) const {
  LZ_CHECK(requires_grad(), ValueError,
           "[register_hook] self: cannot register a hook on a tensor that does not require gradient");
  AutogradMeta& meta = *impl()->autograd_meta();
  if (!meta.grad_fn) {
    meta.hooks.push_back(std::move(hook));
    return static_cast<unsigned>(meta.hooks.size() - 1);
  }
  checked_autograd_hooks("register_hook").add_grad_fn_hook(*this, std::move(hook));
  return 0;
}

}  // namespace lz
