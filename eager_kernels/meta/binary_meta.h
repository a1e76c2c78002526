// Meta functions of the binary arithmetic operators: output sizes, dtype and
// device, and every argument check (errors are raised here, before any
// kernel runs, so lazy tracing reports them at the call that caused them).
#pragma once

#include <string_view>

#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::meta {

// Broadcast shape, promoted dtype and common device of a binary operator.
// A 0-dim CPU tensor may accompany a tensor on any device (it is a scalar).
TensorMeta binary(std::string_view op, const Tensor& self, const Tensor& other);

TensorMeta add(const Tensor& self, const Tensor& other, const Scalar& alpha);
TensorMeta sub(const Tensor& self, const Tensor& other, const Scalar& alpha);
TensorMeta mul(const Tensor& self, const Tensor& other);
// True division: integral results become the default float dtype.
TensorMeta div(const Tensor& self, const Tensor& other);

}  // namespace lz::meta
