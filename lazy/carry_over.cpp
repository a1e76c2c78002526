#include "lazy/carry_over.h"

#include <algorithm>

#include "absl/container/flat_hash_set.h"
#include "absl/container/inlined_vector.h"
#include "core/error.h"
#include "core/op_tags.h"
#include "passes/fusion.h"
#include "passes/lower_group.h"
#include "passes/lowering.h"
#include "lazy/trace.h"

namespace lz::lazy {

namespace {

// The non-input nodes of the cones of `values`, ascending (source order);
// stops past `limit` nodes.
std::vector<ir::NodeId> cone_nodes(const ir::Graph& g, std::span<const ir::ValueId> values, size_t limit) {
  std::vector<ir::NodeId> nodes;
  std::vector<ir::NodeId> stack;
  absl::flat_hash_set<ir::NodeId> seen;
  for (ir::ValueId v : values) stack.push_back(g.value(v).node);
  while (!stack.empty() && nodes.size() <= limit) {
    const ir::NodeId n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second || g.node(n).is_input()) continue;
    nodes.push_back(n);
    for (ir::ValueId o : g.node(n).operands) stack.push_back(g.value(o).node);
  }
  std::sort(nodes.begin(), nodes.end());
  return nodes;
}

// What node `n` costs per element to compute again (Lowering::cost; a
// foldable view 0), or -1 when it must be stored (a reduction, an eager
// step, a random operator).
int recompute_cost(const ir::Graph& g, const ir::Node& n) {
  if (n.implicit_generator != ir::kNone) return -1;
  for (const ir::Arg& a : g.args(n)) {
    if (a.kind == ir::ArgKind::Generator) return -1;
  }
  if (n.op->tags.has(Tag::View)) return passes::view_step_of(g, n).has_value() ? 0 : -1;
  std::string why_not;
  const passes::Lowering* l = passes::find_lowering(g, n, &why_not);
  // Gathers may fail on their indices: they run where they were traced.
  return l != nullptr && l->kind == passes::Lowering::Kind::Pointwise && l->gathered_operands == 0 ? l->cost : -1;
}

}  // namespace

bool cheap_to_recompute(const ir::Graph& g, ir::ValueId v, const absl::flat_hash_set<ir::NodeId>& taken_back) {
  const ir::ValueId values[] = {v};
  const std::vector<ir::NodeId> nodes = cone_nodes(g, values, kMaxCarriedNodes);
  if (nodes.empty() || nodes.size() > kMaxCarriedNodes) return false;
  int cost = 0;
  for (ir::NodeId n : nodes) {
    const int c = recompute_cost(g, g.node(n));
    if (c < 0 || taken_back.contains(n)) return false;
    cost += c;
  }
  return cost <= passes::kRecomputeCost;
}

std::vector<ir::NodeId> copy_cones(const ir::Graph& src, std::span<const ir::ValueId> values, ir::Graph& dst,
                                   absl::FunctionRef<ir::ValueId(ir::ValueId)> input, std::vector<ir::ValueId>& map) {
  map.assign(src.num_values(), ir::kNone);
  const std::vector<ir::NodeId> nodes = cone_nodes(src, values, src.num_nodes());
  // Inputs first (a graph of its own numbers them before its nodes), in source order.
  std::vector<ir::ValueId> inputs;
  for (ir::NodeId n : nodes) {
    for (ir::ValueId o : src.node(n).operands) {
      if (src.producer(o).is_input()) inputs.push_back(o);
    }
  }
  std::sort(inputs.begin(), inputs.end());
  inputs.erase(std::unique(inputs.begin(), inputs.end()), inputs.end());
  for (ir::ValueId v : inputs) map[v] = input(v);
  std::vector<ir::NodeId> added;
  std::vector<ir::Arg> args;
  for (ir::NodeId id : nodes) {
    const ir::Node& n = src.node(id);
    LZ_INTERNAL_ASSERT(n.implicit_generator == ir::kNone, "copy_cones: ", n.op->name, " draws random numbers");
    args.clear();
    for (const ir::Arg& a : src.args(n)) {
      LZ_INTERNAL_ASSERT(a.kind != ir::ArgKind::Generator, "copy_cones: ", n.op->name, " takes a generator");
      args.push_back(dst.copied_arg(src, a, /*copy_scalars=*/true));
    }
    absl::InlinedVector<ir::ValueId, 4> operands;
    for (ir::ValueId o : n.operands) operands.push_back(map[o]);
    absl::InlinedVector<TensorMeta, 2> types;
    for (uint32_t k = 0; k < n.num_outputs; ++k) types.push_back(src.value(n.first_output + k).type);
    const ir::ValueId first = dst.add_node(*n.op, args, operands, types);
    added.push_back(dst.value(first).node);
    for (uint32_t k = 0; k < n.num_outputs; ++k) map[n.first_output + k] = first + k;
  }
  return added;
}

std::vector<ir::ValueId> Trace::values_to_leave_pending(std::span<const ir::ValueId> requested) {
  // Candidates first: live base tensors pending here that were not asked
  // for. Usually there are none, and a sync pays for this scan only.
  std::vector<ir::ValueId> candidates;
  for (LazyTensorImpl* t : registry_) {
    if (t->is_view() || t->has_group()) continue;  // views read their base's stored result
    const LazyValue& v = t->own_value();
    if (!v.pending_in(this, epoch_)) continue;
    if (std::find(requested.begin(), requested.end(), v.id) == requested.end()) candidates.push_back(v.id);
  }
  if (candidates.empty() || requested.empty()) return {};
  // A value a view or a group's base also holds is stored: views read their
  // base's result (a view written with copy_ holds the value written).
  absl::flat_hash_set<ir::ValueId> in_views;
  for (LazyTensorImpl* t : registry_) {
    if (t->is_view() && t->own_value().pending_in(this, epoch_)) in_views.insert(t->own_value().id);
    if ((t->is_view() || t->has_group()) && t->group().base.pending_in(this, epoch_)) {
      in_views.insert(t->group().base.id);
    }
  }
  if (!in_views.empty()) {
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                    [&](ir::ValueId v) { return in_views.contains(v); }),
                     candidates.end());
    if (candidates.empty()) return {};
  }
  // The nodes the requested values are computed from.
  std::vector<uint8_t> read(graph_.num_nodes(), 0);
  std::vector<ir::NodeId> stack;
  for (ir::ValueId v : requested) {
    if (v < graph_.num_values()) stack.push_back(graph_.value(v).node);
  }
  while (!stack.empty()) {
    const ir::NodeId n = stack.back();
    stack.pop_back();
    if (read[n]) continue;
    read[n] = 1;
    for (ir::ValueId o : graph_.node(n).operands) stack.push_back(graph_.value(o).node);
  }
  std::vector<ir::ValueId> left;
  for (ir::ValueId v : candidates) {
    if (read[graph_.value(v).node] && cheap_to_recompute(graph_, v, taken_back_)) left.push_back(v);
  }
  std::sort(left.begin(), left.end());
  left.erase(std::unique(left.begin(), left.end()), left.end());
  return left;
}

void Trace::take_back(LazyTensorImpl& t) {
  {
    std::lock_guard<TraceMutex> lock(mutex_);
    LazyValue& v = t.own_value();
    LZ_INTERNAL_ASSERT(v.cones && !t.is_view(), "take_back: the tensor holds no pending cone");
    const PendingCones& cones = *v.cones;
    std::vector<ir::ValueId> map;
    const ir::ValueId values[] = {v.cone_value};
    const std::vector<ir::NodeId> added = copy_cones(
        cones.graph, values, graph_,
        [&](ir::ValueId in) { return input_for(cones.inputs.at(cones.graph.producer(in).input_index)); }, map);
    taken_back_.insert(added.begin(), added.end());
    v = pending(map[v.cone_value]);
  }
  register_tensor(t);
}

}  // namespace lz::lazy
