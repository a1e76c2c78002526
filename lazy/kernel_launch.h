// Running one fused kernel of an executable: its accesses' view chains are
// resolved on the bound tensors with the eager view rules (no copy, except
// a reshape the strides cannot express), aligned to the domain, and the
// kernel runs through a backend (the reference interpreter until the code
// generators land).
#pragma once

#include <span>
#include <vector>

#include "core/scalar.h"
#include "core/tensor.h"
#include "ir/kernel_ir.h"

namespace lz::lazy {

// `buffers`: one tensor per kernel buffer (outputs already allocated);
// `shapes`: the sizes of each shape reference; `params`: one per kernel
// parameter. Throws InternalError when an access does not line up with the
// domain (a fusion bug, never a wrong answer).
void launch_kernel(const ir::Kernel& k, std::span<const Tensor> buffers, std::span<const SizeVec> shapes,
                   std::vector<Scalar> params);

}  // namespace lz::lazy
