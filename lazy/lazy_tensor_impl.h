// LazyTensorImpl: a tensor whose value is a node of a trace (pending) or an
// eager tensor computed earlier (materialised). It has sizes, strides, dtype
// and device like any tensor, but no storage of its own.
//
// Functionalisation: the graph is pure, so aliasing is resolved here. A base
// tensor and every view taken from it share an AliasGroup that holds the
// base's current value and a generation count. Writing to the base replaces
// that value; writing to a view records as_strided_scatter into the base. A
// view remembers which generation its own value belongs to and recomputes it
// (as_strided of the base) when the base has moved on. A view's strides and
// offset are those eager mode would give it relative to a contiguous base,
// so composites (reshape, contiguous) decide exactly as they do eagerly.
#pragma once

#include <cstdint>
#include <exception>
#include <memory>

#include "core/tensor.h"
#include "core/tensor_meta.h"
#include "ir/graph.h"

namespace lz::lazy {

class Trace;
struct PendingCones;  // lazy/carry_over.h

// A value: pending in a trace (trace != nullptr), materialised (data), or
// failed (error: what computing it raised, rethrown whenever it is read).
struct LazyValue {
  intrusive_ptr<Trace> trace;
  uint64_t epoch = 0;  // the trace's graph epoch the id belongs to
  ir::ValueId id = ir::kNone;
  Tensor data;
  std::exception_ptr error;
  // What to_eager() gave out for `data`, and its version then: given again
  // while the caller has not written it (lazy/eager_values.h).
  Tensor handed_out;
  uint64_t handed_out_version = 0;
  // A value a materialisation left pending (lazy/carry_over.h): value
  // `cone_value` of `cones`, taken back into a trace when used or read.
  std::shared_ptr<const PendingCones> cones;
  ir::ValueId cone_value = ir::kNone;

  bool pending() const { return static_cast<bool>(trace); }
  // Pending in graph epoch `epoch` of trace `tr` (not a stale id of an earlier graph).
  bool pending_in(const Trace* tr, uint64_t graph_epoch) const {
    return trace.get() == tr && tr != nullptr && epoch == graph_epoch;
  }
  bool failed() const { return static_cast<bool>(error); }
  bool empty() const { return !trace && !data.defined() && !error && !cones; }
};

class AliasGroup final : public RefCounted {
 public:
  LazyValue base;
  TensorMeta base_type;
  uint64_t generation = 0;
};

class LazyTensorImpl final : public TensorImpl {
 public:
  // A base tensor (contiguous strides) holding `value`.
  LazyTensorImpl(const TensorMeta& type, LazyValue value);
  // A view of `base` with eager view geometry and its own current value.
  LazyTensorImpl(LazyTensorImpl& base, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset,
                 LazyValue value);
  ~LazyTensorImpl() override;

  bool is_view() const { return is_view_; }
  // The base tensor a view was taken from (itself for a base). Views keep
  // it alive: a write through a view makes the base's value pending, and
  // the base must then be registered where it is pending, or nothing would
  // compute it once the view is gone.
  LazyTensorImpl& base_tensor() { return is_view_ ? *base_ : *this; }
  // The group shared with views (made when the first view is taken).
  AliasGroup& group();
  bool has_group() const { return static_cast<bool>(group_); }
  // The value of the whole base: the group's, or this base's own.
  LazyValue& base_value() { return group_ ? group_->base : value_; }
  // This tensor's own value; for a view possibly stale (see is_current()).
  LazyValue& own_value() { return is_view_ ? value_ : base_value(); }
  // Whether a view's own value still belongs to the group's generation.
  bool is_current() const { return !is_view_ || generation_ == group_->generation; }
  void set_view_value(LazyValue v) {
    value_ = std::move(v);
    generation_ = group_->generation;
  }
  TensorMeta meta() const { return TensorMeta{SizeVec(sizes().begin(), sizes().end()), dtype(), device()}; }

  // The trace whose registry lists this tensor (set by Trace::register_tensor).
  Trace* registered_trace() const { return registered_; }

 private:
  friend class Trace;
  LazyValue value_;
  intrusive_ptr<AliasGroup> group_;
  intrusive_ptr<LazyTensorImpl> base_;  // views only
  uint64_t generation_ = 0;
  bool is_view_ = false;
  // Not a reference: a trace with registered tensors keeps itself alive
  // (Trace::self_while_registered_), which costs atomics only when its
  // registry fills or empties, not for every tensor.
  Trace* registered_ = nullptr;
  uint32_t registry_slot_ = 0;
};

// The LazyTensorImpl behind `t`, or nullptr for an eager (or undefined) tensor.
inline LazyTensorImpl* lazy_impl(const Tensor& t) {
  return t.is_lazy() ? static_cast<LazyTensorImpl*>(t.unsafe_get_impl()) : nullptr;
}


}  // namespace lz::lazy
