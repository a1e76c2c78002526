// Recording operator calls into a trace: turning a boxed call's arguments
// into a graph node (tensors become operands, Scalars runtime scalars,
// generators runtime generators, the rest attributes) and wrapping results
// as lazy tensors.
#pragma once

#include "core/ivalue.h"
#include "core/operator_handle.h"
#include "lazy/trace.h"

namespace lz::lazy {

// Rethrows the error of a failed value `v` (of tensor `owner`), and raises
// InternalError if a value no longer pending has no data (a bug).
void check_has_value(const LazyValue& v, const LazyTensorImpl& owner);

// The graph value of `v` (a value of tensor `owner`) in trace `tr`: its id when pending there; a
// materialised value enters as an input; a value pending in another
// thread's trace is materialised there first. A failed value rethrows its
// error (check_has_value).
ir::ValueId resolve(Trace& tr, LazyValue& v, const LazyTensorImpl& owner);

// The graph value of tensor `t` in `tr` (eager tensors become inputs; a
// view whose base was written since is recomputed from the base).
ir::ValueId value_in(Trace& tr, const Tensor& t);

// Appends a node for `op` called with `args` (its schema's arguments) and
// results typed `outputs`; returns the first result's value.
ir::ValueId record_call(Trace& tr, const OperatorHandle& op, const IValue* args,
                        const MetaList& outputs);

// A new lazy tensor holding pending value `id` of `tr` (registered there).
Tensor make_lazy_result(Trace& tr, const TensorMeta& type, ir::ValueId id);
// A lazy tensor holding a copy of `v`: lets the lazy layer call operators
// on a value it holds (registered in `tr`, so an automatic materialisation
// in between keeps it valid).
Tensor lazy_wrapper(Trace& tr, const LazyValue& v, const TensorMeta& type);

}  // namespace lz::lazy
