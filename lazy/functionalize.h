// Functionalisation: in-place operators, out= operators and views on lazy
// tensors, recorded so that the graph stays pure and every tensor still
// reads what eager mode would give (see lazy_tensor_impl.h for the model).
#pragma once

#include "core/ivalue.h"
#include "core/operator_handle.h"
#include "lazy/trace.h"

namespace lz::lazy {

// Recomputes a stale view's value from its group's base (as_strided).
void refresh_view(Trace& tr, LazyTensorImpl& view);

// Once its base's value is materialised, a view's value is read from it:
// the base's data seen through the view's geometry (so it has eager's
// layout and costs nothing), or the base's error. False, and nothing
// changes, while the base's value is pending.
bool read_view_from_base(LazyTensorImpl& view);

// Makes `value` (typed `type`, same sizes as dst) the new contents of dst:
// cast to dst's dtype if needed; a view also writes through into its base
// (as_strided_scatter). Bumps dst's version counter.
void write_value(Trace& tr, LazyTensorImpl& dst, ir::ValueId value, const TensorMeta& type);

// An in-place or out= call on lazy destinations, recorded through the
// operator's functional variant (or, for copy_ and fill_, their functional
// equivalents). Replaces the arguments on the stack by the returns.
// Returns false when the operator has no functional form (caller falls back).
bool record_mutation(Trace& tr, const OperatorHandle& op, Stack* stack, const MetaList& metas);

// A result that eagerly has `strides`, a dense layout other than
// contiguous (clone of a transposed tensor): a view with those strides of
// a base holding its values in memory order, as the eager storage does.
// Registered in `tr`.
Tensor strided_result(Trace& tr, const TensorMeta& type, ir::ValueId value, IntArrayRef strides);

// The results of a view operator on lazy `self`: lazy views sharing self's
// alias group, with the geometry the eager kernel computes.
void push_view_results(Trace& tr, const OperatorHandle& op, Stack* stack, const MetaList& metas);

}  // namespace lz::lazy
