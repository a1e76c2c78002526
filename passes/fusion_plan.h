// The fusion plan: a program's nodes partitioned into groups, in execution
// order. A fused group is one kernel (kernel IR, ir/kernel_ir.h, once
// lowered) with the graph values bound to its buffers; an eager group is one node run through
// its eager kernel, with the reason it was not fused. The cost model that
// decides the partition is documented in passes/fusion.h.
#pragma once

#include <string>
#include <vector>

#include "ir/kernel_ir.h"
#include "passes/program.h"

namespace lz::passes {

struct FusionGroup {
  enum class Kind : uint8_t { Kernel, Eager };
  Kind kind = Kind::Eager;
  std::vector<ir::NodeId> nodes;     // the graph nodes it covers, operands first
  std::vector<ir::ValueId> outputs;  // values it produces that later groups or the program need
  std::string reason;                // Eager: why the node was not fused

  // Kernel groups only. Fusion planning decides the domain: the value whose
  // sizes are the kernel's loop domain, and the axes it reduces (a row
  // kernel); lowering (lower_group.h) fills in the kernel and its bindings.
  ir::ValueId domain = 0;
  uint64_t reduce_axes = 0;
  bool has_reduction = false;
  ir::Kernel kernel;
  std::vector<ir::ValueId> buffer_values;  // kernel buffer b holds graph value buffer_values[b]
  std::vector<ir::ValueId> shape_refs;     // kernel shape reference k: the sizes of this value
  std::vector<uint32_t> params;            // kernel parameter k: graph scalar pool index
  // Values a run is right for only while their sizes equal the domain's:
  // the domains of independent kernels merged into this one (passes/fusion.h),
  // the parts of a concatenation it stores.
  std::vector<ir::ValueId> sibling_domains;
  // Runs on each finished block of the matrix product of the eager group
  // before it, in the product's pass over its result (passes/product_epilogue.h).
  bool product_epilogue = false;

  bool is_kernel() const { return kind == Kind::Kernel; }
};

struct FusionPlan {
  std::vector<FusionGroup> groups;
  // One line per decision the planner made ("fused exp into group 0",
  // "did not fuse %7 (mm): no lowering"), for LZ_DEBUG=3 and dumps.
  std::vector<std::string> decisions;

  size_t num_kernels() const;
  size_t num_eager() const;
};

// A readable plan: each group with its nodes, inputs, outputs, and either
// its kernel IR or its eager reason.
std::string print_plan(const ir::Graph& g, const FusionPlan& plan);

}  // namespace lz::passes
