// plan_fusion: the greedy partition described in passes/fusion.h.
#include "passes/fusion.h"

#include <algorithm>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/strings/str_cat.h"
#include "core/error.h"
#include "core/op_tags.h"
#include "core/shape.h"
#include "passes/lower_group.h"
#include "passes/lowering.h"

namespace lz::passes {

namespace {

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

}  // namespace

FusionPlan plan_fusion(const Program& p, const FusionOptions& options) {
  return Planner(p, options).run();
}

}  // namespace lz::passes
