// The backward engine: runs the graph's nodes from the given roots in
// dependency order on the calling thread, summing the gradients that meet
// at a node, and either accumulates into leaves (backward) or returns the
// gradients of chosen inputs (grad).
#pragma once

#include <optional>
#include <vector>

#include "autograd/node.h"

namespace lz::autograd {

// Tensor::backward and lz::autograd::backward: accumulates into the grad()
// of every leaf that requires grad and that `outputs` depend on.
void backward(const std::vector<Tensor>& outputs, const std::vector<Tensor>& grad_outputs, bool retain_graph,
              bool create_graph);

// The gradients of `outputs` with respect to `inputs` (nothing accumulated).
// grad_outputs may be empty (one-element outputs); retain_graph defaults to
// create_graph; an input the outputs do not depend on is a ValueError
// unless allow_unused (then its gradient is undefined).
GradList grad(const std::vector<Tensor>& outputs, const std::vector<Tensor>& inputs,
              const std::vector<Tensor>& grad_outputs = {}, std::optional<bool> retain_graph = std::nullopt,
              bool create_graph = false, bool allow_unused = false);

}  // namespace lz::autograd
