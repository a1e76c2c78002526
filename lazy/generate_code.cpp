#include "lazy/generate_code.h"

#include <algorithm>
#include <string>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "core/op_tags.h"
#include "ir/kernel_ir.h"
#include "lazy/config.h"

namespace lz::lazy {

namespace {

// LZ_LOWERING_FAULT: the kernel stores its results plus one (bools
// negated), as a wrong lowering would.
void inject_wrong_lowering(ir::Kernel& k) {
  ir::KernelBuilder b(&k);
  for (ir::Store& store : k.stores) {
    const ScalarType t = b.dtype_of(store.value);
    store.value = t == ScalarType::Bool ? b.unary(ir::ScalarOp::LogicalNot, store.value, t)
                                        : b.binary(ir::ScalarOp::Add, store.value, b.constant(1, t), t);
  }
}

// The nodes the eager steps replacing a kernel group run, in order: the
// group's, and the views folded into its loads (index arithmetic in a
// kernel, tensors for an eager step) that no group of the plan computes.
std::vector<ir::NodeId> eager_nodes(const ir::Graph& g, const passes::FusionGroup& group,
                                    const absl::flat_hash_set<ir::NodeId>& planned) {
  std::vector<ir::NodeId> nodes = group.nodes;
  absl::flat_hash_set<ir::NodeId> seen(nodes.begin(), nodes.end());
  std::vector<ir::NodeId> stack = nodes;
  while (!stack.empty()) {
    const ir::NodeId n = stack.back();
    stack.pop_back();
    for (ir::ValueId o : g.node(n).operands) {
      const ir::NodeId p = g.value(o).node;
      const ir::Node& producer = g.node(p);
      if (producer.is_input() || !producer.op->tags.has(Tag::View) || planned.contains(p)) continue;
      if (seen.insert(p).second) {
        nodes.push_back(p);
        stack.push_back(p);
      }
    }
  }
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

}  // namespace

Device device_of(const passes::Program& p, const passes::FusionGroup& group) {
  for (size_t b = 0; b < group.buffer_values.size(); ++b) {
    if (group.kernel.buffers[b].output) return p.graph.value(group.buffer_values[b]).type.device;
  }
  return Device(DeviceType::CPU);
}

std::vector<KernelCode> generate_code(const passes::Program& p, passes::FusionPlan& plan) {
  std::vector<KernelCode> compiled;
  std::vector<passes::FusionGroup> groups;
  absl::flat_hash_set<ir::NodeId> planned;
  for (const passes::FusionGroup& group : plan.groups) planned.insert(group.nodes.begin(), group.nodes.end());
  for (passes::FusionGroup& group : plan.groups) {
    std::string failure;
    KernelCode c;
    if (group.is_kernel() && detail::lowering_fault(group.kernel.name)) inject_wrong_lowering(group.kernel);
    if (group.is_kernel()) c = compile_kernel(group.kernel, device_of(p, group), &failure);
    if (failure.empty()) {
      groups.push_back(std::move(group));
      compiled.push_back(std::move(c));
      continue;
    }
    plan.decisions.push_back("kernel " + group.kernel.name + " runs as eager steps: " + failure);
    for (ir::NodeId n : eager_nodes(p.graph, group, planned)) {
      passes::FusionGroup eager;
      eager.nodes = {n};
      eager.reason = "code generator: " + failure;
      groups.push_back(std::move(eager));
      compiled.push_back({});
    }
  }
  plan.groups = std::move(groups);
  return compiled;
}

}  // namespace lz::lazy
