// The output metas of an operator call, memoised per thread and operator.
// Tracing a chain runs each operator's meta function again and again on
// the same argument types (a loop body, a training step): a call whose
// arguments have exactly the types of that operator's previous call on
// this thread gets that call's metas without running the meta function.
//
// Only operators whose arguments are all tensors and numbers (Tensor,
// Tensor?, Scalar, Scalar?) and that neither are views nor write are
// memoised: their meta functions read nothing but each tensor's sizes,
// dtype, device and wrapped-number flag and each number's kind and value,
// which is the key.
// A call its meta function rejects is not memoised: the next one raises
// the same error.
#pragma once

#include "core/ivalue.h"
#include "core/operator_handle.h"
#include "core/tensor_meta.h"

namespace lz::lazy {

// The metas of calling `op` with the arguments on top of `stack`: the
// memoised ones, or the meta function's (memoised when the operator is),
// or, for operators that are not memoised, computed into `scratch`.
const MetaList& call_meta(const OperatorHandle& op, const Stack& stack, MetaList& scratch);

}  // namespace lz::lazy
