// lower_group: one fusion group's kernel IR. Every value the group stores
// is lowered at the domain point; an operand's expression is asked for
// under the chain of views that takes it to that point (an operand that
// broadcasts is expanded to its user's shape; a view node adds its step),
// so views of loaded tensors become access index maps and views of values
// computed inside the group move down to the loads they read.
#include "passes/lower_group.h"

#include <algorithm>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/str_cat.h"
#include "core/error.h"
#include "core/op_tags.h"
#include "passes/lowering.h"
#include "passes/product_epilogue.h"

namespace lz::passes {

namespace {

std::vector<int64_t> ints_of(const ir::Graph& g, const ir::Arg* a) {
  if (!a || (a->kind != ir::ArgKind::IntList)) return {};
  const auto v = g.int_pool(*a);
  return {v.begin(), v.end()};
}

int64_t int_or(const ir::Arg* a, int64_t fallback) {
  return a && a->kind == ir::ArgKind::Int ? a->i : fallback;
}

}  // namespace

bool is_reduced_shape(IntArrayRef shape, IntArrayRef domain, uint64_t axes, bool kept) {
  size_t j = 0;
  for (size_t d = 0; d < domain.size(); ++d) {
    const bool reduced = (axes >> d) & 1;
    if (reduced && !kept) continue;
    if (j >= shape.size() || shape[j] != (reduced ? 1 : domain[d])) return false;
    ++j;
  }
  return j == shape.size();
}

namespace {

// Each view operator's arguments, by position (core/operators.def).
struct ViewArgs {
  ir::ArgRef view_size = ir::arg_ref(OpId::view, "size");
  ir::ArgRef reshape_shape = ir::arg_ref(OpId::reshape, "shape");
  ir::ArgRef permute_dims = ir::arg_ref(OpId::permute, "dims");
  ir::ArgRef expand_size = ir::arg_ref(OpId::expand, "size");
  ir::ArgRef unsqueeze_dim = ir::arg_ref(OpId::unsqueeze, "dim");
  ir::ArgRef squeeze_dim = ir::arg_ref(OpId::squeeze_dim, "dim");
  ir::ArgRef select_dim = ir::arg_ref(OpId::select_int, "dim");
  ir::ArgRef select_index = ir::arg_ref(OpId::select_int, "index");
  ir::ArgRef slice_dim = ir::arg_ref(OpId::slice_Tensor, "dim");
  ir::ArgRef slice_start = ir::arg_ref(OpId::slice_Tensor, "start");
  ir::ArgRef slice_end = ir::arg_ref(OpId::slice_Tensor, "end");
  ir::ArgRef slice_step = ir::arg_ref(OpId::slice_Tensor, "step");
  ir::ArgRef transpose_dim0 = ir::arg_ref(OpId::transpose_int, "dim0");
  ir::ArgRef transpose_dim1 = ir::arg_ref(OpId::transpose_int, "dim1");
  ir::ArgRef as_strided_size = ir::arg_ref(OpId::as_strided, "size");
  ir::ArgRef as_strided_stride = ir::arg_ref(OpId::as_strided, "stride");
  ir::ArgRef as_strided_offset = ir::arg_ref(OpId::as_strided, "storage_offset");
};

const ViewArgs& view_args() {
  static const ViewArgs a;
  return a;
}

}  // namespace

std::optional<ir::ViewStep> view_step_of(const ir::Graph& g, const ir::Node& n) {
  using K = ir::ViewStep::Kind;
  const ViewArgs& a = view_args();
  const auto ints = [&](ir::ArgRef r) { return ints_of(g, ir::arg(g, n, r)); };
  const auto int_at = [&](ir::ArgRef r, int64_t fallback) { return int_or(ir::arg(g, n, r), fallback); };
  const int64_t rank = static_cast<int64_t>(g.value(n.operands[0]).type.sizes.size());
  switch (n.op->id) {
    case OpId::view: return ir::ViewStep{K::Reshape, ints(a.view_size)};
    case OpId::reshape: return ir::ViewStep{K::Reshape, ints(a.reshape_shape)};
    case OpId::permute: return ir::ViewStep{K::Permute, ints(a.permute_dims)};
    case OpId::expand: return ir::ViewStep{K::Expand, ints(a.expand_size)};
    case OpId::unsqueeze: return ir::ViewStep{K::Unsqueeze, {int_at(a.unsqueeze_dim, 0)}};
    case OpId::squeeze: return ir::ViewStep{K::Squeeze, {}};
    case OpId::squeeze_dim: return ir::ViewStep{K::Squeeze, {int_at(a.squeeze_dim, 0)}};
    case OpId::select_int: return ir::ViewStep{K::Select, {int_at(a.select_dim, 0), int_at(a.select_index, 0)}};
    case OpId::slice_Tensor: {
      constexpr int64_t none = ir::ViewStep::kNoBound;
      return ir::ViewStep{K::Slice, {int_at(a.slice_dim, 0), int_at(a.slice_start, none), int_at(a.slice_end, none),
                                     int_at(a.slice_step, 1)}};
    }
    case OpId::transpose_int:
    case OpId::t: {
      std::vector<int64_t> perm(static_cast<size_t>(rank));
      for (int64_t d = 0; d < rank; ++d) perm[d] = d;
      if (rank >= 2) {
        const bool t = n.op->id == OpId::t;
        int64_t d0 = t ? 0 : int_at(a.transpose_dim0, 0);
        int64_t d1 = t ? 1 : int_at(a.transpose_dim1, 1);
        d0 = d0 < 0 ? d0 + rank : d0;
        d1 = d1 < 0 ? d1 + rank : d1;
        std::swap(perm[d0], perm[d1]);
      }
      return ir::ViewStep{K::Permute, perm};
    }
    case OpId::as_strided: {
      const std::vector<int64_t> sizes = ints(a.as_strided_size);
      const std::vector<int64_t> strides = ints(a.as_strided_stride);
      std::vector<int64_t> step{static_cast<int64_t>(sizes.size())};
      step.insert(step.end(), sizes.begin(), sizes.end());
      step.insert(step.end(), strides.begin(), strides.end());
      step.push_back(int_at(a.as_strided_offset, 0));
      return ir::ViewStep{K::AsStrided, step};
    }
    default: return std::nullopt;
  }
}

namespace {

using Chain = std::vector<ir::ViewStep>;

// The Gathered step of a lowering chain ({dim, index expression}), or null.
const ir::ViewStep* gather_step(const Chain& chain) {
  for (const ir::ViewStep& s : chain) {
    if (s.kind == ir::ViewStep::Kind::Gathered) return &s;
  }
  return nullptr;
}

class GroupLowering {
 public:
  GroupLowering(const ir::Graph& g, const std::vector<uint8_t>& in_group, FusionGroup& group)
      : g_(g), in_group_(in_group), group_(group), b_(&group.kernel) {}

  void run();
  ir::ExprId value_expr(ir::ValueId v, const Chain& chain);

 private:
  ir::ExprId rounded_to_dtype(ir::ExprId e, ir::ValueId v);
  class Context;
  const SizeVec& shape(ir::ValueId v) const { return g_.value(v).type.sizes; }
  uint32_t shape_ref(ir::ValueId v);
  Chain alignment(ir::ValueId v) const;
  uint32_t buffer(ir::ValueId v, bool output);
  bool store_parts(ir::ValueId v);

  const ir::Graph& g_;
  const std::vector<uint8_t>& in_group_;
  FusionGroup& group_;
  ir::KernelBuilder b_;
  absl::flat_hash_map<ir::ValueId, uint32_t> shape_refs_;
  absl::flat_hash_map<ir::ValueId, uint32_t> load_buffers_;
  absl::flat_hash_map<std::string, ir::ExprId> memo_;  // (value, chain) -> its expression
  absl::flat_hash_map<ir::NodeId, ir::ExprId> reductions_;
};

class GroupLowering::Context final : public LowerContext {
 public:
  // A reduction's operands span the domain (reduced = true); a pointwise
  // node's are read under `chain`, expanded to its shape first.
  Context(GroupLowering& l, const ir::Node& n, const Chain& chain, bool reduction)
      : LowerContext(l.g_, n, l.b_), l_(l), chain_(chain), reduction_(reduction) {}
  ir::ExprId reduce(ir::ReduceOp op, ir::ExprId input, ScalarType dtype) override {
    return builder().reduced(builder().add_reduction(op, input, dtype));
  }
  // The chain carries the index expression in its Gathered step (lowering
  // only: the access keeps the dim), so the operand's loads, or the loads
  // of the cheap producer the planner moved here, become gathers.
  ir::ExprId gathered(uint32_t k, int64_t axis, ir::ExprId index, ScalarType dtype,
                      std::vector<ir::ViewStep> steps) override {
    Chain c{ir::ViewStep{ir::ViewStep::Kind::Gathered, {axis, static_cast<int64_t>(index)}}};
    c.insert(c.end(), steps.begin(), steps.end());
    if (!reduction_) c.insert(c.end(), chain_.begin(), chain_.end());
    return builder().cast(l_.value_expr(node().operands.at(k), c), dtype);
  }
  ir::ViewStep expand_to_point() override {
    return ir::ViewStep{ir::ViewStep::Kind::ExpandTo,
                        {l_.shape_ref(reduction_ ? l_.group_.domain : node().first_output)}};
  }
  uint32_t piece(int64_t axis, int64_t offset, const std::vector<uint32_t>& after, uint32_t size_operand) override {
    ir::Piece p{static_cast<uint32_t>(axis), offset, {}, l_.shape_ref(node().operands.at(size_operand))};
    for (uint32_t k : after) p.after.push_back(l_.shape_ref(node().operands.at(k)));
    return builder().add_piece(std::move(p));
  }
  // Placed steps name domain axes: the node's output is the domain (the
  // planner never reads it inside its kernel), so they end every chain.
  ir::ExprId placed(uint32_t k, const std::vector<uint32_t>& pieces, ScalarType dtype) override {
    LZ_INTERNAL_ASSERT(chain_.empty() && !reduction_, "%", node().first_output, " is placed under views");
    Chain c;
    for (uint32_t p : pieces) c.push_back(ir::ViewStep{ir::ViewStep::Kind::Placed, {static_cast<int64_t>(p)}});
    return builder().cast(l_.value_expr(node().operands.at(k), c), dtype);
  }
  ir::ExprId along(uint32_t k, int64_t axis, ScalarType dtype) override {
    const ir::ValueId out = node().first_output;
    std::vector<int64_t> sizes(l_.shape(out).size(), 1);
    sizes.at(static_cast<size_t>(axis)) = -1;
    Chain c{ir::ViewStep{ir::ViewStep::Kind::Reshape, std::move(sizes)},
            ir::ViewStep{ir::ViewStep::Kind::ExpandTo, {l_.shape_ref(out)}}};
    c.insert(c.end(), chain_.begin(), chain_.end());
    return builder().cast(l_.value_expr(node().operands.at(k), c), dtype);
  }

 protected:
  ir::ExprId operand_at_point(uint32_t k) override {
    const ir::ValueId o = node().operands.at(k);
    const ir::ValueId out = node().first_output;
    if (reduction_) return l_.value_expr(o, l_.alignment(o));
    if (l_.shape(o) == l_.shape(out)) return l_.value_expr(o, chain_);
    Chain c{ir::ViewStep{ir::ViewStep::Kind::ExpandTo, {l_.shape_ref(out)}}};
    c.insert(c.end(), chain_.begin(), chain_.end());
    return l_.value_expr(o, c);
  }

 private:
  GroupLowering& l_;
  const Chain& chain_;
  bool reduction_;
};

uint32_t GroupLowering::shape_ref(ir::ValueId v) {
  auto [it, inserted] = shape_refs_.emplace(v, static_cast<uint32_t>(group_.shape_refs.size()));
  if (inserted) group_.shape_refs.push_back(v);
  return it->second;
}

uint32_t GroupLowering::buffer(ir::ValueId v, bool output) {
  const TensorMeta& t = g_.value(v).type;
  if (!output) {
    auto it = load_buffers_.find(v);
    if (it != load_buffers_.end()) return it->second;
  }
  const uint32_t b = b_.add_buffer(t.dtype, static_cast<uint32_t>(t.sizes.size()), output);
  group_.buffer_values.push_back(v);
  if (!output) load_buffers_.emplace(v, b);
  return b;
}

// The steps taking group value `v` to the domain: none for full-domain
// values and reduced values with kept dims, an unsqueeze per reduced axis
// otherwise.
Chain GroupLowering::alignment(ir::ValueId v) const {
  const SizeVec& domain = shape(group_.domain);
  if (shape(v) == domain || !group_.has_reduction || is_reduced_shape(shape(v), domain, group_.reduce_axes, true)) {
    return {};
  }
  Chain c;
  for (size_t a = 0; a < domain.size(); ++a) {
    if ((group_.reduce_axes >> a) & 1) c.push_back(ir::ViewStep{ir::ViewStep::Kind::Unsqueeze, {static_cast<int64_t>(a)}});
  }
  return c;
}

// A float16/bfloat16 value computes in float32 but is rounded to its own
// dtype before another node reads it, as the eager kernels store it: a
// fused chain then gives eager's answer, overflow to inf included.
ir::ExprId GroupLowering::rounded_to_dtype(ir::ExprId e, ir::ValueId v) {
  const ScalarType t = g_.value(v).type.dtype;
  if (compute_dtype(t) == t) return e;
  return b_.cast(b_.cast(e, t), compute_dtype(t));
}

ir::ExprId GroupLowering::value_expr(ir::ValueId v, const Chain& chain) {
  const std::string key = std::to_string(v) + ir::key_of(chain);
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  const ir::Node& n = g_.producer(v);
  ir::ExprId e;
  if (!n.is_input() && n.op->tags.has(Tag::View) && !in_group_[g_.value(v).node]) {
    if (std::optional<ir::ViewStep> step = view_step_of(g_, n)) {
      Chain c{*step};
      c.insert(c.end(), chain.begin(), chain.end());
      e = value_expr(n.operands[0], c);
      memo_.emplace(key, e);
      return e;
    }
  }
  if (!n.is_input() && in_group_[g_.value(v).node]) {
    std::string why_not;
    const Lowering* l = find_lowering(g_, n, &why_not);
    LZ_INTERNAL_ASSERT(l != nullptr, "fused node %", v, " has no lowering: ", why_not);
    LZ_INTERNAL_ASSERT(v == n.first_output, "%", v, " is not the first output of its node (the one lowered)");
    LZ_INTERNAL_ASSERT(l->kind != Lowering::Kind::Concat, "concatenation %", v, " is read inside its kernel");
    if (l->kind == Lowering::Kind::Reduction) {
      LZ_INTERNAL_ASSERT(gather_step(chain) == nullptr, "reduction %", v, " is read at gathered points");
      // A reduction is computed once per outer point, whatever view of it is read.
      auto it = reductions_.find(g_.value(v).node);
      if (it != reductions_.end()) return it->second;
      const Chain input_chain;  // the reduction's input spans the domain
      Context cx(*this, n, input_chain, true);
      e = rounded_to_dtype(l->lower(cx), v);
      reductions_.emplace(g_.value(v).node, e);
      return e;
    }
    Context cx(*this, n, chain, false);
    e = rounded_to_dtype(l->lower(cx), v);
  } else if (const ir::ViewStep* gathered = gather_step(chain)) {
    // A gathered load: the access keeps the dim, the expression the index.
    const ir::ExprId index = static_cast<ir::ExprId>(gathered->ints.at(1));
    Chain views = chain;
    for (ir::ViewStep& s : views) {
      if (s.kind == ir::ViewStep::Kind::Gathered) s.ints.resize(1);
    }
    const uint32_t access = b_.add_access(ir::Access{buffer(v, false), std::move(views)});
    e = b_.gather(access, index, compute_dtype(g_.value(v).type.dtype));
  } else {
    const uint32_t access = b_.add_access(ir::Access{buffer(v, false), chain});
    e = b_.load(access, compute_dtype(g_.value(v).type.dtype));
  }
  memo_.emplace(key, e);
  return e;
}

// A concatenation's output `v` is stored part by part: each operand, over
// the domain (the parts' shape), through its part's view of the one output
// buffer. False when `v` is no concatenation.
bool GroupLowering::store_parts(ir::ValueId v) {
  const ir::Node& n = g_.producer(v);
  std::string why_not;
  const Lowering* l = n.is_input() ? nullptr : find_lowering(g_, n, &why_not);
  if (l == nullptr || l->kind != Lowering::Kind::Concat) return false;
  const ScalarType dtype = compute_dtype(g_.value(v).type.dtype);
  const uint32_t out = buffer(v, true);
  for (uint32_t j = 0; j < n.operands.size(); ++j) {
    const ir::ExprId e = b_.cast(value_expr(n.operands[j], alignment(n.operands[j])), dtype);
    const uint32_t access = b_.add_access(ir::Access{out, {l->part(g_, n, j)}});
    b_.add_store(access, e, false);
  }
  return true;
}

void GroupLowering::run() {
  ir::Kernel& k = group_.kernel;
  const SizeVec& domain = shape(group_.domain);
  k.rank = static_cast<uint32_t>(domain.size());
  k.reduce_axes = group_.reduce_axes;
  k.domain_shape = shape_ref(group_.domain);
  // The first operators name the kernel; "_and<n>" counts the others.
  k.name = "fused";
  for (size_t i = 0; i < group_.nodes.size() && i < 4; ++i) k.name += "_" + g_.node(group_.nodes[i]).op->schema.name();
  if (group_.nodes.size() > 4) k.name += "_and" + std::to_string(group_.nodes.size() - 4);
  for (ir::ValueId v : group_.outputs) {
    if (store_parts(v)) continue;
    const Chain align = alignment(v);
    const ir::ExprId e = value_expr(v, align);
    const bool reduced = group_.has_reduction && shape(v) != domain;
    const uint32_t access = b_.add_access(ir::Access{buffer(v, true), align});
    b_.add_store(access, e, reduced);
  }
  k.num_shape_refs = static_cast<uint32_t>(group_.shape_refs.size());
  for (uint32_t p = 0; p < k.num_params; ++p) group_.params.push_back(p);
  const std::string problem = ir::verify_kernel(k);
  LZ_INTERNAL_ASSERT(problem.empty(), "lowering made an invalid kernel ", k.name, ": ", problem, "\n",
                     ir::print_kernel(k));
}

}  // namespace

void lower_groups(const ir::Graph& g, FusionPlan& plan) {
  std::vector<uint8_t> in_group(g.num_nodes(), 0);
  for (FusionGroup& group : plan.groups) {
    if (!group.is_kernel()) continue;
    for (ir::NodeId n : group.nodes) in_group[n] = 1;
    GroupLowering(g, in_group, group).run();
    for (ir::NodeId n : group.nodes) in_group[n] = 0;
  }
  mark_product_epilogues(g, plan);
}

}  // namespace lz::passes
