// The fusion planner's state (passes/fusion.h describes the partition): units
// of nodes that become kernels or eager steps. fusion.cpp grows the units node
// by node; fusion_finish.cpp merges sibling kernels and turns the units into
// the plan's groups. Private to passes/.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "core/shape.h"
#include "passes/fusion.h"
#include "passes/lower_group.h"
#include "passes/lowering.h"

namespace lz::passes::fusion_planner {

enum class Role : uint8_t { Input, View, Kernel, Eager };

struct Unit {
  bool kernel = false;
  uint32_t parent;  // union-find: merged units point to the survivor
  ir::ValueId domain_value = 0;
  bool has_reduction = false;
  uint64_t reduce_axes = 0;
  bool has_concat = false;  // stores a concatenation or padding (Concat, Place)
  // Its gathers check every index only when all of their points are computed.
  bool has_gather = false;
  std::vector<ir::NodeId> nodes;
  // Values whose sizes must equal domain_value's for the kernel to be right
  // (it runs over domain_value's): merged independent siblings' domains,
  // the parts a concatenation stores.
  std::vector<ir::ValueId> sibling_domains;
  absl::flat_hash_set<uint32_t> deps;  // units whose values this one reads
  std::string reason;                  // eager units
};

class Planner {
 public:
  Planner(const Program& p, const FusionOptions& o) : p_(p), g_(p.graph), options_(o) {}

  FusionPlan run();

 private:
  const SizeVec& shape(ir::ValueId v) const { return g_.value(v).type.sizes; }
  uint32_t find(uint32_t u) {
    while (units_[u].parent != u) u = units_[u].parent = units_[units_[u].parent].parent;
    return u;
  }
  // Looks through folded views to the value a kernel would load or compute.
  ir::ValueId source(ir::ValueId v) const {
    while (role_[g_.value(v).node] == Role::View) v = g_.producer(v).operands[0];
    return v;
  }
  bool through_views(ir::ValueId v) const { return source(v) != v; }
  // Whether a node or the program reads an output of `n` after its first.
  bool reads_later_outputs(ir::NodeId n) const {
    const ir::Node& node = g_.node(n);
    for (uint32_t k = 1; k < node.num_outputs; ++k) {
      if (!readers_[node.first_output + k].empty() || program_output_[node.first_output + k]) return true;
    }
    return false;
  }
  // Whether the folded views taking source(v) to v keep every element (no
  // slice, select or as_strided): a unit recomputed at v's points then
  // still computes each of its points, so its gathers check every index.
  bool keeps_every_element(ir::ValueId v) const {
    while (role_[g_.value(v).node] == Role::View) {
      const ir::Node& n = g_.producer(v);
      const std::optional<ir::ViewStep> step = view_step_of(g_, n);
      if (!step || step->kind == ir::ViewStep::Kind::Slice || step->kind == ir::ViewStep::Kind::Select ||
          step->kind == ir::ViewStep::Kind::AsStrided) {
        return false;
      }
      v = n.operands[0];
    }
    return true;
  }
  // Whether `n` may recompute unit `u` at the points it reads of `o` (through views).
  bool recomputable_at_views(uint32_t u, ir::ValueId o) const {
    return !units_[u].has_reduction && (!units_[u].has_gather || keeps_every_element(o));
  }
  // Whether node `n` gathers from a value unit `u` computes (it must load it).
  bool gathered_by(ir::NodeId n, uint32_t u) {
    const Lowering* l = lowering_[n];
    if (l == nullptr) return false;
    const auto& operands = g_.node(n).operands;
    for (size_t k = 0; k < operands.size(); ++k) {
      if (((l->gathered_operands >> k) & 1) && unit_of_value(operands[k]) == u) return true;
    }
    return false;
  }
  // The unit producing `v` (views looked through); kNone for graph inputs.
  uint32_t unit_of_value(ir::ValueId v) {
    const ir::NodeId n = g_.value(source(v)).node;
    return unit_[n] == ir::kNone ? ir::kNone : find(unit_[n]);
  }
  uint32_t new_unit(bool kernel, ir::NodeId n);
  bool reaches(uint32_t from, const absl::flat_hash_set<uint32_t>& targets);
  bool can_merge(ir::NodeId n, const absl::flat_hash_set<uint32_t>& members);
  void add_to(uint32_t unit, ir::NodeId n);
  void plan_pointwise(ir::NodeId n);
  void plan_reduction(ir::NodeId n, const Lowering& l);
  void plan_concat(ir::NodeId n);
  void plan_place(ir::NodeId n);
  // Of the kernels `candidates` (ascending) node `n` could join, those it
  // joins: within the node limit, of at most one reduction shape, and
  // all of them, or the first alone, or none, as merging keeps the unit
  // graph acyclic.
  std::vector<uint32_t> joinable(ir::NodeId n, const std::vector<uint32_t>& candidates);
  // Adds `n` to chosen[0], merging the others into it, or to a new kernel
  // over the sizes of `domain` when `chosen` is empty; returns the kernel.
  uint32_t join(ir::NodeId n, const std::vector<uint32_t>& chosen, ir::ValueId domain);
  // Whether the executable can find every operand's sizes at run time
  // (through the trace values they stand for).
  bool sizes_checkable(const ir::Node& n) const {
    return std::all_of(n.operands.begin(), n.operands.end(), [&](ir::ValueId o) { return p_.origin[o] != ir::kNone; });
  }
  // Whether `v` is a concatenation's or padding's output (stored, never an
  // expression another node of its kernel reads).
  bool is_assembled(ir::ValueId v) const {
    const Lowering* l = lowering_[g_.value(source(v)).node];
    return l != nullptr && (l->kind == Lowering::Kind::Concat || l->kind == Lowering::Kind::Place);
  }
  void make_eager(ir::NodeId n, std::string reason);
  void merge_into(uint32_t into, uint32_t from);
  void merge_siblings();
  bool only_read_by(uint32_t u, ir::NodeId n);
  int cost_of(uint32_t u) const;
  void recompute_gathered(ir::NodeId n);
  // Nodes per kernel: a longer chain continues in a new kernel (bounded
  // compile time and lowering depth; a kernel boundary per 1024 operators
  // costs one store and load).
  static constexpr size_t kMaxKernelNodes = 1024;
  bool full(uint32_t u) const { return units_[u].nodes.size() >= kMaxKernelNodes; }
  // How `n` (pointwise) would sit in kernel unit `u`: 0 no, 1 over the full
  // domain, 2 in the reduced shape.
  int fit(uint32_t u, ir::NodeId n);
  void finish(FusionPlan& plan);

  const Program& p_;
  const ir::Graph& g_;
  FusionOptions options_;
  std::vector<Role> role_;
  std::vector<uint32_t> unit_;
  std::vector<const Lowering*> lowering_;
  std::vector<Unit> units_;
  std::vector<std::string> decisions_;
  // Per value: the non-view nodes that read it (directly or through views),
  // and whether the program returns it (directly or through views).
  std::vector<std::vector<ir::NodeId>> readers_;
  std::vector<uint8_t> program_output_;
};

}  // namespace lz::passes::fusion_planner
