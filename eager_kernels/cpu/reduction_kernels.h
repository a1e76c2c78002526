// CPU impls of the reductions (structured: `out` has the meta's sizes/dtype).
#pragma once

#include <optional>

#include "core/tensor.h"

namespace lz::cpu {

// Floating sums are pairwise (error grows with log n, not n); integer sums
// are exact in int64 (wrapping like the output dtype).
void sum_impl(const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
              std::optional<ScalarType> dtype);

}  // namespace lz::cpu
