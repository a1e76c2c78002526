// Lowering one fusion group to a kernel: the expressions of the values it
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

struct GroupDomain {
  ir::ValueId domain_value = 0;  // a value whose sizes are the domain
  uint64_t reduce_axes = 0;
  bool has_reduction = false;
};

// Fills group.kernel, buffer_values, shape_refs and params from
// group.nodes and group.outputs. `in_group[node]` says which nodes the
// group computes (views are never in it: they fold into accesses).
void lower_group(const ir::Graph& g, const std::vector<uint8_t>& in_group, const GroupDomain& domain,
                 FusionGroup& group);

// A shape is "reduced" against a domain when it is the domain with the
// reduction axes removed (kept = false) or set to 1 (kept = true).
bool is_reduced_shape(IntArrayRef shape, IntArrayRef domain, uint64_t axes, bool kept);

}  // namespace lz::passes
