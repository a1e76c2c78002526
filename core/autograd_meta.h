// AutogradMeta: what the autograd layer keeps on a tensor that requires
// grad or was computed from one (its history). Core owns the data so that
// Tensor's accessors (requires_grad(), grad(), is_leaf()) need no autograd
// code; the graph nodes it points to are the autograd module's
// (autograd/node.h), reached through core/autograd_hooks.h.
//
// A tensor carries DispatchKey::Autograd exactly while it has history or
// requires grad, so operators on every other tensor skip the Autograd key
// at no cost.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "core/tensor.h"

namespace lz {

namespace autograd {
class Node;
}

// Called with the gradient of a tensor during backward; a defined result
// replaces the gradient.
using TensorHook = std::function<Tensor(const Tensor& grad)>;

struct AutogradMeta {
  bool requires_grad = false;  // a leaf the user marked (requires_grad_)
  bool retains_grad = false;   // a non-leaf whose grad() backward fills
  Tensor grad;
  // The node that computes this tensor's inputs' gradients (null for leaves),
  // and which of its forward outputs this tensor is.
  std::shared_ptr<autograd::Node> grad_fn;
  uint32_t output_nr = 0;
  // Leaves: the node that accumulates into `grad`, made on first use; weak,
  // because the node holds the leaf.
  std::weak_ptr<autograd::Node> grad_accumulator;
  // Leaves' hooks (a non-leaf's hooks sit on its grad_fn).
  std::vector<TensorHook> hooks;
  // A differentiable view (made by a view operator from a tensor with
  // history): the tensor whose storage it views, and the storage's version
  // when grad_fn was set. A write through the view gives the base a
  // CopySlices node, and a view whose version moved on has its grad_fn
  // rebuilt from the base's (autograd/copy_slices.h).
  Tensor view_base;
  uint64_t view_version = 0;
};

// The meta of `t`, or nullptr when it has none.
inline AutogradMeta* autograd_meta(const Tensor& t) {
  return t.defined() ? t.unsafe_get_impl()->autograd_meta() : nullptr;
}

}  // namespace lz
