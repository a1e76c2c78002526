// CPU kernels that read values back as C++ numbers.
#pragma once

#include "core/tensor.h"

namespace lz::cpu {

bool equal(const Tensor& self, const Tensor& other);
bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan);
// The value of a one-element tensor.
Scalar local_scalar_dense(const Tensor& self);

}  // namespace lz::cpu
