#include "passes/fusion_plan.h"

#include <algorithm>
#include <sstream>

#include "ir/printer.h"

namespace lz::passes {

size_t FusionPlan::num_kernels() const {
  return static_cast<size_t>(std::count_if(groups.begin(), groups.end(), [](const FusionGroup& g) { return g.is_kernel(); }));
}

size_t FusionPlan::num_eager() const { return groups.size() - num_kernels(); }

std::string print_plan(const ir::Graph& g, const FusionPlan& plan) {
  std::ostringstream os;
  os << "plan: " << plan.num_kernels() << " kernels, " << plan.num_eager() << " eager steps\n";
  for (size_t i = 0; i < plan.groups.size(); ++i) {
    const FusionGroup& group = plan.groups[i];
    os << "group " << i << (group.is_kernel() ? " kernel " + group.kernel.name : std::string(" eager")) << "\n";
    for (ir::NodeId n : group.nodes) os << "  " << ir::print_node(g, n) << "\n";
    os << "  outputs:";
    for (ir::ValueId v : group.outputs) os << " %" << v;
    os << "\n";
    if (group.is_kernel()) {
      os << "  buffers:";
      for (size_t b = 0; b < group.buffer_values.size(); ++b) os << " b" << b << "=%" << group.buffer_values[b];
      os << "\n  shapes:";
      for (size_t s = 0; s < group.shape_refs.size(); ++s) os << " s" << s << "=%" << group.shape_refs[s];
      os << "\n";
      if (group.product_epilogue) os << "  epilogue of group " << i - 1 << "'s product\n";
      std::istringstream kernel(ir::print_kernel(group.kernel));
      for (std::string line; std::getline(kernel, line);) os << "  | " << line << "\n";
    } else {
      os << "  reason: " << group.reason << "\n";
    }
  }
  return os.str();
}

}  // namespace lz::passes
