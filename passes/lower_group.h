// Lowering fusion groups to kernels: the expressions of the values a group
// stores, with views folded into the accesses of the loads (fusion.cpp
// decides the groups; this builds their kernel IR).
#pragma once

#include <optional>
#include <vector>

#include "ir/graph.h"
#include "ir/kernel_ir.h"
#include "passes/fusion_plan.h"

namespace lz::passes {

// The view step a view node folds into, or nullopt when it has none (the
// view then runs as an eager step and kernels read its result).
std::optional<ir::ViewStep> view_step_of(const ir::Graph& g, const ir::Node& n);

// The lowering step of the compile pipeline: fills every kernel group's
// kernel, buffer_values, shape_refs and params from its nodes, outputs and
// domain (views are never in a group: they fold into the loads' accesses),
// then marks the kernels that run as a product's epilogue
// (passes/product_epilogue.h).
void lower_groups(const ir::Graph& g, FusionPlan& plan);

// A shape is "reduced" against a domain when it is the domain with the
// reduction axes removed (kept = false) or set to 1 (kept = true).
bool is_reduced_shape(IntArrayRef shape, IntArrayRef domain, uint64_t axes, bool kept);

}  // namespace lz::passes
