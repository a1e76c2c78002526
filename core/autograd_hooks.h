// How core reaches the autograd layer without depending on it: autograd/
// installs these at start-up; Tensor::backward(), register_hook() and
// retain_grad() go through them.
#pragma once

#include "core/autograd_meta.h"

namespace lz {

struct AutogradHooks {
  void (*backward)(const Tensor& self, const Tensor& gradient, bool retain_graph, bool create_graph) = nullptr;
  // A hook on a non-leaf tensor's gradient (it lives on the tensor's grad_fn).
  void (*add_grad_fn_hook)(const Tensor& self, TensorHook hook) = nullptr;
};

// The installed hooks (null when the autograd layer is not linked).
AutogradHooks& autograd_hooks();

}  // namespace lz
