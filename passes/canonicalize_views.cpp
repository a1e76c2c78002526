// View normalisation. Every rewrite is shape-generic: it reads ranks (they
// are hashed) and attributes, never sizes, and never writes sizes into an
// attribute, because one executable serves every size with the same hash.
//
// Rewritten:
//   transpose.int(x, d0, d1), t(x)   -> permute(x, dims) (rank from x's type)
//   permute(permute(x, p1), p2)      -> permute(x, p1[p2[i]])
//   permute with the identity order  -> x   (also transpose(x, d, d), t of rank <= 1)
//   permute with negative dims       -> the same dims wrapped (one spelling for CSE)
//   view/reshape(view/reshape(x, s1), s2) -> view(x, s2) when both are views,
//                                     else reshape(x, s2) (s1 is forgotten; -1
//                                     in s2 still infers from the same numel)
//   expand(expand(x, s1), s2)        -> expand(x, s) with s[j] = s2[j], or s1's
//                                     entry where s2[j] is -1 (keep that size)
//   squeeze.dim(unsqueeze(x, d), d)  -> x   (the inserted dim has size 1)
// Not rewritten (each would depend on sizes the hash does not cover):
//   a view/reshape of a permute (or any other view); a view to x's own
//   sizes; unsqueeze(squeeze.dim(x, d), d) (x's dim d may not be 1); squeeze
//   without a dim; expand to x's own sizes.
#include <algorithm>
#include <numeric>

#include "passes/canonicalize.h"
#include "passes/canonicalize_util.h"

namespace lz::passes {
namespace {

using ir::arg;
using ir::ArgRef;
using ir::is_op;
using detail::int_list;
using detail::rank_of;
using detail::wrap_dim;
using ir::kNone;
using ir::ValueId;
using Dims = absl::InlinedVector<int64_t, 6>;

// Wraps `dims` for rank `rank`; false if one is out of range.
bool wrapped_dims(std::span<const int64_t> dims, size_t rank, Dims& out) {
  out.clear();
  for (const int64_t d : dims) {
    const int64_t w = wrap_dim(d, rank);
    if (w < 0 || w >= static_cast<int64_t>(rank)) return false;
    out.push_back(w);
  }
  return out.size() == rank;
}

const ArgRef kPermuteDims = ir::arg_ref(OpId::permute, "dims");
const ArgRef kTransposeDim0 = ir::arg_ref(OpId::transpose_int, "dim0");
const ArgRef kTransposeDim1 = ir::arg_ref(OpId::transpose_int, "dim1");
const ArgRef kExpandSize = ir::arg_ref(OpId::expand, "size");
const ArgRef kUnsqueezeDim = ir::arg_ref(OpId::unsqueeze, "dim");
const ArgRef kSqueezeDim = ir::arg_ref(OpId::squeeze_dim, "dim");

bool is_identity(const Dims& dims) {
  for (size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] != static_cast<int64_t>(i)) return false;
  }
  return true;
}

// permute(x, perm) in the new graph, composed with x's own permute if it
// has one; x itself when the order is the identity. `rewrote`: whether
// the caller's node already differs from this (otherwise a plain permute
// of a non-permute is copied, not rebuilt).
ValueId emit_permute(GraphRewriter& rw, ValueId x, Dims perm, const TensorMeta& out, bool rewrote) {
  if (is_identity(perm)) return x;  // before composing: x is already canonical
  const ir::Graph& g = rw.graph();
  const ir::Node& inner = g.producer(x);
  if (is_op(inner, OpId::permute)) {
    const ir::Arg* dims = arg(g, inner, kPermuteDims);
    Dims p1;
    const ValueId z = inner.operands[0];
    if (dims && dims->kind == ir::ArgKind::IntList && wrapped_dims(int_list(g, *dims), rank_of(g, z), p1) &&
        p1.size() == perm.size()) {
      for (int64_t& d : perm) d = p1[d];
      x = z;
      rewrote = true;
    }
  }
  if (is_identity(perm)) return x;
  if (!rewrote) return kNone;
  ir::Arg self;  // operand 0
  self.kind = ir::ArgKind::Tensor;
  const ir::Arg args[] = {self, rw.graph().int_list_arg(perm)};
  const ValueId operands[] = {x};
  return rw.add_node(operator_info(OpId::permute), args, operands, std::span<const TensorMeta>(&out, 1));
}

ValueId rewrite_permute_like(GraphRewriter& rw, const ir::Node& n) {
  const ir::Graph& src = rw.source();
  const ValueId x = rw.mapped(n.operands[0]);
  const size_t rank = rank_of(rw.graph(), x);
  const TensorMeta& out = src.value(n.first_output).type;
  Dims perm(rank);
  std::iota(perm.begin(), perm.end(), 0);
  if (is_op(n, OpId::permute)) {
    const ir::Arg* dims = arg(src, n, kPermuteDims);
    if (!dims || dims->kind != ir::ArgKind::IntList || !wrapped_dims(int_list(src, *dims), rank, perm)) {
      return kNone;
    }
    const auto given = int_list(src, *dims);
    const bool had_negative = std::any_of(given.begin(), given.end(), [](int64_t d) { return d < 0; });
    return emit_permute(rw, x, perm, out, had_negative);
  }
  if (is_op(n, OpId::transpose_int)) {
    const ir::Arg* d0 = arg(src, n, kTransposeDim0);
    const ir::Arg* d1 = arg(src, n, kTransposeDim1);
    if (!d0 || !d1 || d0->kind != ir::ArgKind::Int || d1->kind != ir::ArgKind::Int) return kNone;
    if (rank == 0) return x;  // transpose of a 0-dim tensor is the tensor
    const int64_t a = wrap_dim(d0->i, rank);
    const int64_t b = wrap_dim(d1->i, rank);
    if (a < 0 || b < 0 || a >= static_cast<int64_t>(rank) || b >= static_cast<int64_t>(rank)) return kNone;
    std::swap(perm[a], perm[b]);
    return emit_permute(rw, x, perm, out, true);
  }
  // t: rank <= 2 by its contract.
  if (rank < 2) return x;
  if (rank != 2) return kNone;
  std::swap(perm[0], perm[1]);
  return emit_permute(rw, x, perm, out, true);
}

ValueId rewrite_view_chain(GraphRewriter& rw, ir::NodeId id) {
  const ir::Graph& src = rw.source();
  const ir::Node& n = src.node(id);
  const ir::Node& inner = rw.graph().producer(rw.mapped(n.operands[0]));
  const bool inner_view = is_op(inner, OpId::view);
  if (!inner_view && !is_op(inner, OpId::reshape)) return kNone;
  const ValueId z = inner.operands[0];
  const bool outer_view = is_op(n, OpId::view);
  // The outer node's size list, re-added to the new graph.
  const std::vector<ir::Arg> args = rw.copy_args(id);
  const ValueId operands[] = {z};
  const OperatorInfo& op = inner_view && outer_view ? *n.op : operator_info(OpId::reshape);
  return rw.add_node(op, args, operands, std::span<const TensorMeta>(&src.value(n.first_output).type, 1));
}

ValueId rewrite_expand_chain(GraphRewriter& rw, ir::NodeId id) {
  const ir::Graph& src = rw.source();
  const ir::Node& n = src.node(id);
  const ir::Graph& g = rw.graph();
  const ir::Node& inner = g.producer(rw.mapped(n.operands[0]));
  if (!is_op(inner, OpId::expand)) return kNone;
  const ir::Arg* s1_arg = arg(g, inner, kExpandSize);
  const ir::Arg* s2_arg = arg(src, n, kExpandSize);
  if (!s1_arg || !s2_arg || s1_arg->kind != ir::ArgKind::IntList || s2_arg->kind != ir::ArgKind::IntList) {
    return kNone;
  }
  const auto s1 = int_list(g, *s1_arg);
  const auto s2 = int_list(src, *s2_arg);
  Dims merged(s2.begin(), s2.end());
  const auto lead = static_cast<int64_t>(s2.size()) - static_cast<int64_t>(s1.size());
  for (size_t j = 0; j < merged.size(); ++j) {
    if (merged[j] >= 0) continue;
    const int64_t pos = static_cast<int64_t>(j) - lead;
    if (pos < 0) return kNone;  // -1 on a new leading dim: invalid anyway
    merged[j] = s1[pos];        // s1's entry, itself -1 when it kept x's size
  }
  const ValueId z = inner.operands[0];
  std::vector<ir::Arg> args = rw.copy_args(id);
  args[kExpandSize.index] = rw.graph().int_list_arg(merged);
  const ValueId operands[] = {z};
  return rw.add_node(*n.op, args, operands, std::span<const TensorMeta>(&src.value(n.first_output).type, 1));
}

ValueId rewrite_squeeze_unsqueeze(GraphRewriter& rw, const ir::Node& n) {
  const ir::Graph& src = rw.source();
  const ir::Graph& g = rw.graph();
  const ValueId y = rw.mapped(n.operands[0]);
  const ir::Node& inner = g.producer(y);
  if (!is_op(inner, OpId::unsqueeze)) return kNone;
  const ir::Arg* outer_dim = arg(src, n, kSqueezeDim);
  const ir::Arg* inner_dim = arg(g, inner, kUnsqueezeDim);
  if (!outer_dim || !inner_dim || outer_dim->kind != ir::ArgKind::Int || inner_dim->kind != ir::ArgKind::Int) {
    return kNone;
  }
  // unsqueeze wraps its dim for rank(x) + 1, which is rank(y).
  const size_t rank = rank_of(g, y);
  return wrap_dim(outer_dim->i, rank) == wrap_dim(inner_dim->i, rank) ? inner.operands[0] : kNone;
}

ValueId views_rule(GraphRewriter& rw, ir::NodeId id) {
  const ir::Node& n = rw.source().node(id);
  if (n.operands.size() != 1) return kNone;
  switch (n.op->id) {
    case OpId::permute: case OpId::transpose_int: case OpId::t: return rewrite_permute_like(rw, n);
    case OpId::view: case OpId::reshape: return rewrite_view_chain(rw, id);
    case OpId::expand: return rewrite_expand_chain(rw, id);
    case OpId::squeeze_dim: return rewrite_squeeze_unsqueeze(rw, n);
    default: return kNone;
  }
}

bool run_views(Program& p) { return detail::rewrite_nodes(p, &views_rule); }

}  // namespace

std::unique_ptr<Pass> make_views_pass() { return std::make_unique<detail::FunctionPass>("views", &run_views); }

}  // namespace lz::passes
