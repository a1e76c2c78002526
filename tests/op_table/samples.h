// Sample inputs shared by table entries: every shape class (0-dim, 0-size,
// 1-D..3-D, large enough to run on several threads) in every layout
// (contiguous, transposed, strided, expanded, permuted), with values that are
// exact in the dtype and inside the operator's domain.
#pragma once

#include <cstdint>
#include <vector>

#include "tests/op_table/op_info.h"

namespace lzt {

// The values a sample may take.
struct Domain {
  double lo = -8;
  double hi = 8;
  bool nonzero = false;
};
inline constexpr Domain kPositive{0.25, 8, true};
inline constexpr Domain kNonzero{-8, 8, true};
inline constexpr Domain kUnit{-1, 1, false};

// n deterministic values in `domain` that `dtype` holds exactly: bool 0/1,
// integers (clamped to the dtype's range), floats multiples of 1/4.
std::vector<double> domain_values(lz::ScalarType dtype, int64_t n, uint32_t seed,
                                  const Domain& domain = {});
// A contiguous tensor of such values, written without any operator.
lz::Tensor domain_tensor(lz::IntArrayRef sizes, lz::ScalarType dtype, uint32_t seed,
                         const Domain& domain = {});

// One tensor of `sizes` in every layout: contiguous; transposed (the last
// two dims swapped in memory, for 2-D and up); strided (every other element
// of the last dim); expanded (a size-1 dim broadcast, when one can be made);
// each as (description, tensor).
std::vector<std::pair<std::string, lz::Tensor>> layouts(lz::IntArrayRef sizes, lz::ScalarType dtype,
                                                        uint32_t seed, const Domain& domain = {});

// One-tensor samples over all shape classes and layouts.
std::vector<SampleInput> unary_samples(lz::ScalarType dtype, const Domain& domain = {});
// Two-tensor samples of the same dtype: equal shapes, broadcasting both
// ways, 0-dim with n-D, 0-size, non-contiguous operands, and a large pair.
std::vector<SampleInput> binary_samples(lz::ScalarType dtype, const Domain& a = {},
                                        const Domain& b = {});
// Three-tensor samples (broadcasting between all three).
std::vector<SampleInput> ternary_samples(lz::ScalarType dtype, const Domain& a = {},
                                         const Domain& b = {}, const Domain& c = {});

// Every sample with one more kwarg per value of `values` (e.g. several alphas).
std::vector<SampleInput> with_kwarg(const std::vector<SampleInput>& samples,
                                    const std::string& name,
                                    const std::vector<lz::IValue>& values);

}  // namespace lzt
