// The fusion planner's last steps: independent sibling kernels merge, and the
// units become the plan's ordered groups (passes/fusion_planner.h).
#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "passes/fusion_planner.h"

namespace lz::passes::fusion_planner {

// Independent element-wise kernels over the same domain (an optimizer's
// updates of same-shaped parameters) become one multi-output kernel: one
// launch and one loop instead of several, with the same memory traffic.
// Units that read each other, even through other steps, stay apart (the
// merged kernel would have to run both before and after), as do reductions
// (their row structure is their own). Each unit is tried against the last
// open unit of its domain only, so planning stays linear.
void Planner::merge_siblings() {
  std::vector<std::pair<SizeVec, uint32_t>> open;  // domain shape -> unit later siblings join
  for (uint32_t u = 0; u < units_.size(); ++u) {
    Unit& unit = units_[u];
    if (find(u) != u || !unit.kernel || unit.has_reduction || unit.nodes.empty()) continue;
    // The executable checks the siblings' sizes when it is reused, through
    // the trace values they come from: a domain no trace value matches
    // cannot be checked, and is not merged.
    if (p_.origin[unit.domain_value] == ir::kNone) continue;
    const SizeVec& domain = shape(unit.domain_value);
    auto it = std::find_if(open.begin(), open.end(), [&](const auto& e) { return e.first == domain; });
    if (it == open.end()) {
      open.emplace_back(domain, u);
      continue;
    }
    const uint32_t into = it->second;
    if (units_[into].nodes.size() + unit.nodes.size() > kMaxKernelNodes || reaches(u, {into}) ||
        reaches(into, {u})) {
      it->second = u;
      continue;
    }
    units_[into].sibling_domains.push_back(unit.domain_value);
    merge_into(into, u);
    std::sort(units_[into].nodes.begin(), units_[into].nodes.end());
    decisions_.push_back(absl::StrCat("kernel ", into, ": merged kernel ", u, " (independent, same domain ",
                                      shape_str(domain), ")"));
  }
}

// Views an eager step or the program needs as tensors become eager view
// steps; kernel values read outside their kernel become its outputs; units
// are ordered so every unit runs after the units it reads.
void Planner::finish(FusionPlan& plan) {
  std::vector<uint8_t> is_output(g_.num_values(), 0);
  std::vector<uint32_t> stack;
  auto need_tensor = [&](ir::ValueId v, uint32_t reader) {
    // The tensor of v must exist: a view's step (and its operands'), or a kernel store.
    ir::ValueId cur = v;
    while (role_[g_.value(cur).node] == Role::View) {
      const ir::NodeId vn = g_.value(cur).node;
      if (unit_[vn] == ir::kNone) {
        role_[vn] = Role::View;  // stays foldable for kernels reading it
        const uint32_t u = new_unit(false, vn);
        units_[u].reason = "a view another step needs as a tensor (no copy)";
      }
      if (reader != ir::kNone) units_[reader].deps.insert(find(unit_[vn]));
      reader = find(unit_[vn]);
      cur = g_.producer(cur).operands[0];
    }
    const ir::NodeId pn = g_.value(cur).node;
    if (unit_[pn] != ir::kNone && units_[find(unit_[pn])].kernel && find(unit_[pn]) != reader) is_output[cur] = 1;
    if (reader != ir::kNone && unit_[pn] != ir::kNone && find(unit_[pn]) != reader) {
      units_[reader].deps.insert(find(unit_[pn]));
    }
  };
  for (ir::NodeId n = 0; n < g_.num_nodes(); ++n) {
    if (role_[n] != Role::Kernel && role_[n] != Role::Eager) continue;
    const uint32_t u = find(unit_[n]);
    for (ir::ValueId o : g_.node(n).operands) {
      if (units_[u].kernel) {
        const ir::ValueId src = source(o);
        const ir::NodeId pn = g_.value(src).node;
        if (unit_[pn] != ir::kNone && find(unit_[pn]) != u && units_[find(unit_[pn])].kernel) is_output[src] = 1;
      } else {
        need_tensor(o, u);
      }
    }
  }
  for (ir::ValueId v : p_.outputs) need_tensor(v, ir::kNone);

  // Order: depth-first over dependencies, units in order of first node.
  std::vector<uint32_t> order;
  std::vector<uint8_t> state(units_.size(), 0);
  for (uint32_t root = 0; root < units_.size(); ++root) {
    if (find(root) != root || units_[root].nodes.empty() || state[root]) continue;
    std::vector<std::pair<uint32_t, std::vector<uint32_t>>> dfs;
    auto push = [&](uint32_t u) {
      state[u] = 1;
      std::vector<uint32_t> deps;
      for (uint32_t d : units_[u].deps) {
        if (find(d) != u) deps.push_back(find(d));
      }
      std::sort(deps.begin(), deps.end(), std::greater<>());
      dfs.emplace_back(u, std::move(deps));
    };
    push(root);
    while (!dfs.empty()) {
      auto& [u, deps] = dfs.back();
      if (!deps.empty()) {
        const uint32_t d = deps.back();
        deps.pop_back();
        LZ_INTERNAL_ASSERT(state[d] != 1, "fusion made a cycle through unit ", d);
        if (state[d] == 0) push(d);
        continue;
      }
      state[u] = 2;
      order.push_back(u);
      dfs.pop_back();
    }
  }

  for (uint32_t u : order) {
    Unit& unit = units_[u];
    std::sort(unit.nodes.begin(), unit.nodes.end());
    FusionGroup group;
    group.nodes = unit.nodes;
    if (!unit.kernel) {
      group.kind = FusionGroup::Kind::Eager;
      group.reason = unit.reason;
      const ir::Node& node = g_.node(unit.nodes[0]);
      for (uint32_t k = 0; k < node.num_outputs; ++k) group.outputs.push_back(node.first_output + k);
      plan.groups.push_back(std::move(group));
      continue;
    }
    group.kind = FusionGroup::Kind::Kernel;
    for (ir::NodeId n : unit.nodes) {
      const ir::Node& node = g_.node(n);
      for (uint32_t k = 0; k < node.num_outputs; ++k) {
        if (is_output[node.first_output + k]) group.outputs.push_back(node.first_output + k);
      }
    }
    if (group.outputs.empty()) continue;  // nothing it computes is used
    group.domain = unit.domain_value;
    group.reduce_axes = unit.reduce_axes;
    group.has_reduction = unit.has_reduction;
    group.sibling_domains = unit.sibling_domains;
    plan.groups.push_back(std::move(group));
  }
}

}  // namespace lz::passes::fusion_planner
