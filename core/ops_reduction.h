// Reductions. Integral and bool inputs sum to int64 unless a dtype is given.
#pragma once

#include <optional>

#include "core/tensor.h"

namespace lz {

// Sum of all elements, as a 0-dim tensor.
Tensor sum(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
// Sum over `dim` (all dims when empty); keepdim keeps them with size 1.
Tensor sum(const Tensor& self, IntArrayRef dim, bool keepdim = false,
           std::optional<ScalarType> dtype = std::nullopt);
Tensor& sum_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim = false,
                std::optional<ScalarType> dtype = std::nullopt);

}  // namespace lz
