// Whole-tensor comparisons that return a C++ bool (they read values, so a
// lazy tensor is materialised first).
#pragma once

#include "core/tensor.h"

namespace lz {

// Same sizes and the same values (after type promotion).
bool equal(const Tensor& self, const Tensor& other);
// |self - other| <= atol + rtol * |other| everywhere (broadcasting); inputs
// must have the same dtype. NaNs compare equal only with equal_nan.
bool allclose(const Tensor& self, const Tensor& other, double rtol = 1e-05, double atol = 1e-08,
              bool equal_nan = false);

}  // namespace lz
