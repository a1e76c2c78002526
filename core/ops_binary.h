// Binary and ternary element-wise operators: libtorch's names and argument
// order. They broadcast and promote types (core/type_promotion.h); *_out
// variants write into `out` (resized if it is empty) and return it.
#pragma once

#include "core/tensor.h"

namespace lz {

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);

Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);

Tensor mul(const Tensor& self, const Tensor& other);
Tensor mul(const Tensor& self, const Scalar& other);
Tensor& mul_out(Tensor& out, const Tensor& self, const Tensor& other);

// True division: integer inputs give a floating result.
Tensor div(const Tensor& self, const Tensor& other);
Tensor div(const Tensor& self, const Scalar& other);
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other);

}  // namespace lz
