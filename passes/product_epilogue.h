// Which kernels run as the epilogue of a matrix product: a pointwise kernel
// planned right after an eager mm or addmm step whose 2-D domain is the
// product's result, which it reads point for point (bias, activation,
// residual, scaling, casting). The executor launches such a kernel on each
// block of the product's result as soon as the block is final, while it is
// in cache (lazy/executable.cpp, eager_kernels/cpu/packed_gemm.h), instead
// of in a second pass over the result.
#pragma once

#include "ir/graph.h"
#include "passes/fusion_plan.h"

namespace lz::passes {

// Sets FusionGroup::product_epilogue on the lowered kernel groups that
// qualify (a decision line each). Part of the lowering step (lower_group.h).
void mark_product_epilogues(const ir::Graph& g, FusionPlan& plan);

}  // namespace lz::passes
