// Filling CUDA tensors with the driver's memsets: a contiguous tensor's
// elements are one run of memory, so zeros, ones, full and fill_ need no
// kernel and nothing from the host.
#pragma once

#include "core/scalar.h"
#include "core/tensor.h"

namespace lz::cuda {

// Whether fill_contiguous can write `self` (a contiguous CUDA tensor).
bool can_fill_contiguous(const Tensor& self);
// Every element of `self` = value, converted as the CPU's fill_ converts.
void fill_contiguous(const Tensor& self, const Scalar& value);

}  // namespace lz::cuda
