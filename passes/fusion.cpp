// plan_fusion: the greedy partition described in passes/fusion.h (the planner's
// state: passes/fusion_planner.h; its last steps: fusion_finish.cpp).
#include "passes/fusion.h"

#include <algorithm>
#include <string>

#include "absl/strings/str_cat.h"
#include "core/error.h"
#include "core/op_tags.h"
#include "passes/fusion_planner.h"

namespace lz::passes {

namespace fusion_planner {

uint32_t Planner::new_unit(bool kernel, ir::NodeId n) {
  Unit u;
  u.kernel = kernel;
  u.parent = static_cast<uint32_t>(units_.size());
  units_.push_back(std::move(u));
  add_to(units_.size() - 1, n);
  return static_cast<uint32_t>(units_.size() - 1);
}

void Planner::add_to(uint32_t u, ir::NodeId n) {
  unit_[n] = u;
  units_[u].nodes.push_back(n);
  if (lowering_[n] != nullptr && lowering_[n]->gathered_operands != 0) units_[u].has_gather = true;
  for (ir::ValueId o : g_.node(n).operands) {
    const uint32_t d = unit_of_value(o);
    if (d != ir::kNone && d != u) units_[u].deps.insert(d);
  }
}

void Planner::make_eager(ir::NodeId n, std::string reason) {
  role_[n] = Role::Eager;
  const uint32_t u = new_unit(false, n);
  decisions_.push_back(absl::StrCat("eager %", g_.node(n).first_output, " (", g_.node(n).op->name, "): ", reason));
  units_[u].reason = std::move(reason);
}

// Whether unit `from` (transitively) reads a unit of `targets`. Bounded: a
// search that grows too large answers yes, which only forgoes a merge.
bool Planner::reaches(uint32_t from, const absl::flat_hash_set<uint32_t>& targets) {
  std::vector<uint32_t> stack{find(from)};
  absl::flat_hash_set<uint32_t> seen;
  while (!stack.empty()) {
    const uint32_t u = stack.back();
    stack.pop_back();
    if (targets.contains(u)) return true;
    if (!seen.insert(u).second) continue;
    if (seen.size() > 4096) return true;
    for (uint32_t d : units_[u].deps) stack.push_back(find(d));
  }
  return false;
}

// Putting `n` and the units `members` into one kernel keeps the unit graph
// acyclic when no unit outside the set sits between two of them or between
// them and n.
bool Planner::can_merge(ir::NodeId n, const absl::flat_hash_set<uint32_t>& members) {
  for (ir::ValueId o : g_.node(n).operands) {
    const uint32_t d = unit_of_value(o);
    if (d != ir::kNone && !members.contains(d) && reaches(d, members)) return false;
  }
  for (uint32_t m : members) {
    for (uint32_t d : units_[m].deps) {
      if (!members.contains(find(d)) && reaches(d, members)) return false;
    }
  }
  return true;
}

int Planner::fit(uint32_t u, ir::NodeId n) {
  const Unit& k = units_[u];
  if (full(u)) return 0;
  const SizeVec& domain = shape(k.domain_value);
  const SizeVec& out = shape(g_.node(n).first_output);
  const bool full_domain = out == domain;
  const bool reduced = k.has_reduction && !full_domain &&
                       (is_reduced_shape(out, domain, k.reduce_axes, false) ||
                        is_reduced_shape(out, domain, k.reduce_axes, true));
  if (!full_domain && !reduced) return 0;
  // A gather joins over the full domain, and loads the operands it gathers from.
  if (lowering_[n] != nullptr && lowering_[n]->gathered_operands != 0 && (!full_domain || gathered_by(n, u))) {
    return 0;
  }
  // Operands from this unit must line up with the domain point by point.
  for (ir::ValueId o : g_.node(n).operands) {
    if (unit_of_value(o) != u) continue;
    if (is_assembled(o)) return 0;
    const ir::ValueId src = source(o);
    const SizeVec& src_shape = shape(src);
    const bool src_full = src_shape == domain;
    if (reduced) {
      if (src_full || through_views(o) || src_shape != out) return 0;
      continue;
    }
    if (src_full) {
      // A full value read through views is recomputed at the viewed index:
      // only sound while no reduction feeds it, and worth it when cheap.
      if (through_views(o) && (!recomputable_at_views(u, o) || cost_of(u) > kRecomputeCost)) return 0;
      continue;
    }
    // A reduced value broadcast over the full domain must keep its dims.
    if (!is_reduced_shape(shape(o), domain, k.reduce_axes, true)) return 0;
    // A reduction that keeps the innermost axis (x.mean(0)) runs down bands
    // of columns (codegen's column variants); a later pass over the full
    // domain in its kernel would read the input again band by band, slower
    // than a pointwise kernel of its own that reads the reduced values back
    // (x - x.mean(0, true), hand-written: 5.6-6.2 ms fused, 4.5 ms apart).
    if (!domain.empty() && ((k.reduce_axes >> (domain.size() - 1)) & 1) == 0) return 0;
  }
  return full_domain ? 1 : 2;
}

void Planner::plan_pointwise(ir::NodeId n) {
  // Candidates in unit order, so equal graphs get equal plans.
  std::vector<uint32_t> full_fits, reduced_fits;
  for (ir::ValueId o : g_.node(n).operands) {
    const uint32_t u = unit_of_value(o);
    if (u == ir::kNone || !units_[u].kernel) continue;
    const int f = fit(u, n);
    if (f == 1) full_fits.push_back(u);
    if (f == 2) reduced_fits.push_back(u);
  }
  for (auto* v : {&full_fits, &reduced_fits}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  std::vector<uint32_t> chosen = joinable(n, full_fits);
  if (chosen.empty() && !reduced_fits.empty()) chosen = joinable(n, {reduced_fits[0]});
  const ir::ValueId out = g_.node(n).first_output;
  // Producer kernels only n reads (through views, or broadcast from a
  // smaller shape) are recomputed at n's points instead of stored and read
  // back: always when n reads them once through views (the same work, no
  // memory round trip), and when cheap otherwise (a broadcast producer runs
  // once per point of n; a transcendental one is stored instead).
  std::vector<uint32_t> absorbed;
  for (ir::ValueId o : g_.node(n).operands) {
    const uint32_t u = unit_of_value(o);
    if (u == ir::kNone || !units_[u].kernel || units_[u].has_reduction || units_[u].has_concat ||
        gathered_by(n, u) || !recomputable_at_views(u, o)) {
      continue;
    }
    if (std::find(chosen.begin(), chosen.end(), u) != chosen.end()) continue;
    if (std::find(absorbed.begin(), absorbed.end(), u) != absorbed.end()) continue;
    if (!only_read_by(u, n) || full(u)) continue;
    int reads = 0;
    for (ir::ValueId other : g_.node(n).operands) reads += unit_of_value(other) == u ? 1 : 0;
    const bool broadcast = shape(o) != shape(out);
    const bool cheap = cost_of(u) <= kRecomputeCost;
    if ((!broadcast && reads == 1 && through_views(o)) || cheap) {
      absorbed.push_back(u);
    } else {
      decisions_.push_back(absl::StrCat("kernel ", u, ": stored, not recomputed for %", out, " (cost ", cost_of(u),
                                        broadcast ? ", broadcast" : "", ")"));
    }
  }
  if (!absorbed.empty()) {
    absl::flat_hash_set<uint32_t> all(chosen.begin(), chosen.end());
    all.insert(absorbed.begin(), absorbed.end());
    if (!can_merge(n, all)) absorbed.clear();
  }
  const uint32_t into = join(n, chosen, out);
  for (uint32_t u : absorbed) {
    merge_into(into, u);
    decisions_.push_back(absl::StrCat("kernel ", into, ": recomputes kernel ", u, " at the viewed points of %", out));
  }
  if (!absorbed.empty()) std::sort(units_[into].nodes.begin(), units_[into].nodes.end());
  recompute_gathered(n);
}

std::vector<uint32_t> Planner::joinable(ir::NodeId n, const std::vector<uint32_t>& candidates) {
  std::vector<uint32_t> chosen;  // chosen[0] survives a merge
  uint64_t axes = 0;
  bool has_reduction = false;
  size_t nodes = 1;
  for (uint32_t u : candidates) {
    if (nodes + units_[u].nodes.size() > kMaxKernelNodes) continue;
    if (units_[u].has_reduction) {
      if (has_reduction && units_[u].reduce_axes != axes) continue;
      has_reduction = true;
      axes = units_[u].reduce_axes;
    }
    nodes += units_[u].nodes.size();
    chosen.push_back(u);
  }
  absl::flat_hash_set<uint32_t> members(chosen.begin(), chosen.end());
  if (chosen.size() > 1 && !can_merge(n, members)) {
    // Keep the first candidate only.
    for (size_t i = 1; i < chosen.size(); ++i) members.erase(chosen[i]);
    chosen.erase(chosen.begin() + 1, chosen.end());
  }
  if (!chosen.empty() && !can_merge(n, members)) chosen.clear();
  return chosen;
}

uint32_t Planner::join(ir::NodeId n, const std::vector<uint32_t>& chosen, ir::ValueId domain) {
  const ir::ValueId out = g_.node(n).first_output;
  if (chosen.empty()) {
    const uint32_t into = new_unit(true, n);
    units_[into].domain_value = domain;
    decisions_.push_back(absl::StrCat("kernel ", into, ": starts at %", out, " (", g_.node(n).op->name, ")"));
    return into;
  }
  const uint32_t into = chosen[0];
  for (size_t i = 1; i < chosen.size(); ++i) {
    merge_into(into, chosen[i]);
    decisions_.push_back(absl::StrCat("kernel ", into, ": merged kernel ", chosen[i], " (both feed %", out, ")"));
  }
  add_to(into, n);
  decisions_.push_back(absl::StrCat("kernel ", into, ": fused %", out, " (", g_.node(n).op->name, ")"));
  // Appending keeps node order; merging interleaves.
  if (chosen.size() > 1) std::sort(units_[into].nodes.begin(), units_[into].nodes.end());
  return into;
}

// Moves every node of unit `from` into `into` (same domain, or `from` only
// feeds `into` through views).
void Planner::merge_into(uint32_t into, uint32_t from_id) {
  Unit& from = units_[from_id];
  Unit& to = units_[into];
  for (ir::NodeId m : from.nodes) {
    unit_[m] = into;
    to.nodes.push_back(m);
  }
  from.nodes.clear();
  for (uint32_t d : from.deps) to.deps.insert(d);
  to.sibling_domains.insert(to.sibling_domains.end(), from.sibling_domains.begin(), from.sibling_domains.end());
  to.has_concat |= from.has_concat;
  to.has_gather |= from.has_gather;
  if (from.has_reduction) {
    to.has_reduction = true;
    to.reduce_axes = from.reduce_axes;
    to.domain_value = from.domain_value;
  }
  from.parent = into;
  to.deps.erase(into);
  to.deps.erase(from_id);
}

// Whether node `n` is the only reader of every value unit `u` computes
// (readers outside u; through views; program outputs count as readers).
int Planner::cost_of(uint32_t u) const {
  int cost = 0;
  for (ir::NodeId m : units_[u].nodes) cost += lowering_[m] ? lowering_[m]->cost : 0;
  return cost;
}

bool Planner::only_read_by(uint32_t u, ir::NodeId n) {
  for (ir::NodeId m : units_[u].nodes) {
    const ir::Node& node = g_.node(m);
    for (uint32_t k = 0; k < node.num_outputs; ++k) {
      const ir::ValueId v = node.first_output + k;
      if (program_output_[v]) return false;
      for (ir::NodeId reader : readers_[v]) {
        const bool inside = unit_[reader] != ir::kNone && find(unit_[reader]) == u;
        if (reader != n && !inside) return false;
      }
    }
  }
  return true;
}

void Planner::plan_reduction(ir::NodeId n, const Lowering& l) {
  const ir::Node& node = g_.node(n);
  const ir::ValueId input = node.operands[l.domain_operand];
  const uint64_t axes = l.reduce_axes(g_, node);
  const uint32_t u = unit_of_value(input);
  const ir::ValueId out = node.first_output;
  if (u != ir::kNone && units_[u].kernel && !full(u) && !through_views(input) && !is_assembled(input) &&
      !gathered_by(n, u) &&
      shape(units_[u].domain_value) == shape(input) &&
      (!units_[u].has_reduction || units_[u].reduce_axes == axes) && can_merge(n, {u})) {
    units_[u].has_reduction = true;
    units_[u].reduce_axes = axes;
    add_to(u, n);
    decisions_.push_back(absl::StrCat("kernel ", u, ": fused reduction %", out, " (", node.op->name, ")"));
    recompute_gathered(n);
    return;
  }
  const uint32_t k = new_unit(true, n);
  units_[k].domain_value = input;
  units_[k].has_reduction = true;
  units_[k].reduce_axes = axes;
  decisions_.push_back(absl::StrCat("kernel ", k, ": starts at reduction %", out, " (", node.op->name, ")"));
  recompute_gathered(n);
}

// A gathered operand computed by a cheap element-wise node that only the
// gather reads (log_softmax's `x - lse` under nll_loss) is recomputed at the
// gathered points in the gather's kernel: the node moves there from its
// kernel, which then stores its operands instead (lse: one value a row,
// not the [N, C] log-probabilities).
void Planner::recompute_gathered(ir::NodeId n) {
  const Lowering* l = lowering_[n];
  if (l == nullptr || l->gathered_operands == 0) return;
  const uint32_t into = find(unit_[n]);
  const auto& operands = g_.node(n).operands;
  for (size_t k = 0; k < operands.size(); ++k) {
    if (((l->gathered_operands >> k) & 1) == 0) continue;
    const ir::ValueId v = source(operands[k]);
    const ir::NodeId p = g_.value(v).node;
    const uint32_t u = unit_of_value(v);
    if (u == ir::kNone || u == into || !units_[u].kernel || lowering_[p] == nullptr) continue;
    const Lowering& pl = *lowering_[p];
    if (pl.kind != Lowering::Kind::Pointwise || pl.gathered_operands != 0 || pl.cost > kRecomputeCost) continue;
    if (g_.node(p).num_outputs != 1 || program_output_[v] || readers_[v].size() != 1) continue;
    // Its operands are loaded there (a gather's kernel computes none of them).
    bool loaded = true;
    for (ir::ValueId o : g_.node(p).operands) loaded = loaded && unit_of_value(o) != into;
    if (!loaded) continue;
    const Unit& from = units_[u];
    if (from.has_concat || std::find(from.sibling_domains.begin(), from.sibling_domains.end(), v) !=
                               from.sibling_domains.end()) {
      continue;
    }
    if (from.nodes.size() == 1) {
      merge_into(into, u);  // the kernel was p alone
    } else {
      if (from.domain_value == v) continue;  // its kernel's sizes are p's
      std::vector<ir::NodeId>& nodes = units_[u].nodes;
      nodes.erase(std::find(nodes.begin(), nodes.end(), p));
      add_to(into, p);
      units_[into].deps.insert(u);
    }
    std::sort(units_[into].nodes.begin(), units_[into].nodes.end());
    decisions_.push_back(absl::StrCat("kernel ", into, ": recomputes %", v, " (", g_.node(p).op->name,
                                      ") at the points %", g_.node(n).first_output, " gathers, not stored by kernel ",
                                      u));
  }
}

// A concatenation of equal parts joins the kernels computing its operands
// when they run over the parts' shape (one kernel then stores every part of
// the output: x1 * cos - x2 * sin and x2 * cos + x1 * sin side by side);
// other operands are loaded. Its consumers run over the output's shape, in
// other kernels. The parts must stay equal for the executable to serve
// other sizes: their sizes are checked like merged siblings' domains.
void Planner::plan_concat(ir::NodeId n) {
  const ir::Node& node = g_.node(n);
  const SizeVec& part = shape(node.operands[0]);
  std::vector<uint32_t> fits;
  for (ir::ValueId o : node.operands) {
    const uint32_t u = unit_of_value(o);
    if (u == ir::kNone || !units_[u].kernel || full(u) || shape(units_[u].domain_value) != part) continue;
    if (is_assembled(o) || shape(source(o)) != part) continue;
    if (through_views(o) && (!recomputable_at_views(u, o) || cost_of(u) > kRecomputeCost)) continue;
    fits.push_back(u);
  }
  std::sort(fits.begin(), fits.end());
  fits.erase(std::unique(fits.begin(), fits.end()), fits.end());
  const uint32_t into = join(n, joinable(n, fits), node.operands[0]);
  decisions_.push_back(absl::StrCat("kernel ", into, ": stores the parts of %", node.first_output, " over ",
                                    shape_str(part)));
  units_[into].has_concat = true;
  units_[into].sibling_domains.insert(units_[into].sibling_domains.end(), node.operands.begin(),
                                      node.operands.end());
}

// A concatenation of unequal parts or a padding starts a kernel over its
// output's shape. Producer kernels only it reads move in: each of their
// points is computed once, in the box of its piece (the launch runs pieces
// box by box, and the code of a box keeps only its piece's operand), so
// the rule needs no cost bound. Kernels with reductions or gathers stay
// apart (a box outside a piece reads zeros, which a gather would check),
// as do merged siblings (their domains are checked against the kernel's).
void Planner::plan_place(ir::NodeId n) {
  const ir::Node& node = g_.node(n);
  std::vector<uint32_t> absorbed;
  for (ir::ValueId o : node.operands) {
    const uint32_t u = unit_of_value(o);
    if (u == ir::kNone || !units_[u].kernel || full(u)) continue;
    const Unit& unit = units_[u];
    if (unit.has_reduction || unit.has_concat || unit.has_gather || !unit.sibling_domains.empty()) continue;
    if (std::find(absorbed.begin(), absorbed.end(), u) != absorbed.end() || !only_read_by(u, n)) continue;
    absorbed.push_back(u);
  }
  if (!absorbed.empty() && !can_merge(n, absl::flat_hash_set<uint32_t>(absorbed.begin(), absorbed.end()))) {
    absorbed.clear();
  }
  const uint32_t into = join(n, {}, node.first_output);
  size_t nodes = units_[into].nodes.size();
  for (uint32_t u : absorbed) {
    if (nodes + units_[u].nodes.size() > kMaxKernelNodes) continue;
    nodes += units_[u].nodes.size();
    merge_into(into, u);
    decisions_.push_back(absl::StrCat("kernel ", into, ": computes kernel ", u, " in its piece of %",
                                      node.first_output));
  }
  std::sort(units_[into].nodes.begin(), units_[into].nodes.end());
  units_[into].has_concat = true;
}

FusionPlan Planner::run() {
  const size_t num_nodes = g_.num_nodes();
  role_.assign(num_nodes, Role::Input);
  unit_.assign(num_nodes, ir::kNone);
  lowering_.assign(num_nodes, nullptr);
  for (ir::NodeId n = 0; n < num_nodes; ++n) {
    const ir::Node& node = g_.node(n);
    if (!node.is_input() && node.op->tags.has(Tag::View) && options_.fuse && view_step_of(g_, node)) {
      role_[n] = Role::View;
    }
  }
  readers_.assign(g_.num_values(), {});
  program_output_.assign(g_.num_values(), 0);
  for (ir::NodeId n = 0; n < num_nodes; ++n) {
    if (g_.node(n).is_input() || role_[n] == Role::View) continue;
    for (ir::ValueId o : g_.node(n).operands) readers_[source(o)].push_back(n);
  }
  for (ir::ValueId v : p_.outputs) program_output_[source(v)] = 1;
  for (ir::NodeId n = 0; n < num_nodes; ++n) {
    const ir::Node& node = g_.node(n);
    if (node.is_input() || role_[n] == Role::View) continue;
    if (node.op->tags.has(Tag::View)) {
      make_eager(n, options_.fuse ? "a view without index arithmetic" : "fusion is off");
      continue;
    }
    if (!options_.fuse) {
      make_eager(n, "fusion is off");
      continue;
    }
    std::string why_not;
    const Lowering* l = find_lowering(g_, node, &why_not);
    if (!l) {
      make_eager(n, why_not);
      continue;
    }
    if ((l->kind == Lowering::Kind::Concat || l->kind == Lowering::Kind::Place) && !sizes_checkable(node)) {
      make_eager(n, "a part whose sizes the executable cannot check");
      continue;
    }
    if (reads_later_outputs(n)) {
      make_eager(n, "an output after the first is read (only the first is lowered)");
      continue;
    }
    role_[n] = Role::Kernel;
    lowering_[n] = l;
    if (l->kind == Lowering::Kind::Reduction) {
      plan_reduction(n, *l);
    } else if (l->kind == Lowering::Kind::Concat) {
      plan_concat(n);
    } else if (l->kind == Lowering::Kind::Place) {
      plan_place(n);
    } else {
      plan_pointwise(n);
    }
  }
  if (options_.fuse) merge_siblings();
  FusionPlan plan;
  finish(plan);
  plan.decisions = std::move(decisions_);
  return plan;
}

}  // namespace fusion_planner

FusionPlan plan_fusion(const Program& p, const FusionOptions& options) {
  return fusion_planner::Planner(p, options).run();
}

}  // namespace lz::passes
