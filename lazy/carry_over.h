// Live values a materialisation leaves pending: values of live tensors that
// the requested values read on the way and that are cheap to compute again.
// `lz::sum(x * x).to_eager()` keeps the temporary `x * x` alive until the
// end of the statement; storing it would cost a write of every element and
// its memory, though it is usually dropped unread. Cheap: element-wise
// operators with a lowering and views over graph inputs, costing at most
// passes::kRecomputeCost per element as the fusion planner counts it
// (arithmetic: x * x, x * 2 + 1; not exp, which is stored). Anything behind
// a reduction, a matrix product, an eager step or a random operator is
// stored, as is any value that is requested, a view or a base of views
// (docs/lazy-mode.md).
//
// Such a value keeps its cone (LazyValue::cones): a small graph of its own
// and the tensors its inputs stand for. It joins a trace again
// (Trace::take_back) only when it is used or read: a temporary dropped
// unread leaves nothing behind, and one read later is recomputed, fused
// into whatever reads it.
#pragma once

#include <span>
#include <vector>

#include "absl/container/flat_hash_set.h"
#include "absl/functional/function_ref.h"
#include "core/tensor.h"
#include "ir/graph.h"

namespace lz::lazy {

struct PendingCones {
  ir::Graph graph;
  std::vector<Tensor> inputs;  // by graph input index
};

// A bound on the cone walked (the cost bound stops far earlier in practice).
inline constexpr size_t kMaxCarriedNodes = 64;

// Whether value `v` of `g` is cheap to recompute (above) and no node of its
// cone is in `taken_back` (copied from pending cones: a value computed from
// one is stored, so a cone is recomputed once, not again and again).
bool cheap_to_recompute(const ir::Graph& g, ir::ValueId v, const absl::flat_hash_set<ir::NodeId>& taken_back);

// Copies the cones of `values` of `src` into `dst`, nodes in source order
// (they must draw no random numbers): each input of `src` they read becomes
// input(that input's value), each other value `map[v]` (kNone when not
// copied). Returns the nodes added to `dst`.
std::vector<ir::NodeId> copy_cones(const ir::Graph& src, std::span<const ir::ValueId> values, ir::Graph& dst,
                                   absl::FunctionRef<ir::ValueId(ir::ValueId)> input, std::vector<ir::ValueId>& map);

}  // namespace lz::lazy
