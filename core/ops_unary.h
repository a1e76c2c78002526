// Unary element-wise operators: libtorch's names. *_ variants write into
// self; *_out variants write into `out` (resized if it is empty).
#pragma once

#include "core/tensor.h"

namespace lz {

Tensor neg(const Tensor& self);
Tensor& neg_(Tensor& self);
Tensor& neg_out(Tensor& out, const Tensor& self);

// Integer inputs give a floating result.
Tensor exp(const Tensor& self);
Tensor& exp_(Tensor& self);
Tensor& exp_out(Tensor& out, const Tensor& self);

Tensor relu(const Tensor& self);
Tensor& relu_(Tensor& self);
Tensor& relu_out(Tensor& out, const Tensor& self);

}  // namespace lz
