// CPU impls of the reductions and scans (structured: `out` has the meta's
// sizes and dtype, any strides). All reductions run on the shared layer in
// reduce.h: vectorised, parallel over outputs or over the reduced extent,
// and independent of the thread count.
#pragma once

#include <optional>
#include <tuple>

#include "core/tensor.h"

namespace lz::cpu {

// Floating sums are pairwise (error grows with log n, not n) in float for
// 16-bit floats; integer sums are exact in int64 (wrapping like the output dtype).
void sum_all_impl(const Tensor& out, const Tensor& self, std::optional<ScalarType> dtype);
void sum_impl(const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
              std::optional<ScalarType> dtype);
void mean_all_impl(const Tensor& out, const Tensor& self, std::optional<ScalarType> dtype);
void mean_impl(const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
               std::optional<ScalarType> dtype);
void prod_all_impl(const Tensor& out, const Tensor& self, std::optional<ScalarType> dtype);
void prod_impl(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim,
               std::optional<ScalarType> dtype);

// Maxima and minima propagate NaN; indices are those of the first maximum
// (a NaN counts as the maximum).
void max_all_impl(const Tensor& out, const Tensor& self);
void min_all_impl(const Tensor& out, const Tensor& self);
void amax_impl(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim);
void amin_impl(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim);
void argmax_impl(const Tensor& out, const Tensor& self, std::optional<int64_t> dim, bool keepdim);
void argmin_impl(const Tensor& out, const Tensor& self, std::optional<int64_t> dim, bool keepdim);
// (values, indices); runs its meta checks first.
std::tuple<Tensor, Tensor> max_dim(const Tensor& self, int64_t dim, bool keepdim);
std::tuple<Tensor, Tensor> min_dim(const Tensor& self, int64_t dim, bool keepdim);

// Two-pass per block (mean, then squared deviations) in float64, blocks
// merged with Chan's formula.
void var_impl(const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim,
              const std::optional<Scalar>& correction, bool keepdim);
void std_impl(const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim,
              const std::optional<Scalar>& correction, bool keepdim);
void norm_impl(const Tensor& out, const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
               bool keepdim);
void norm_scalar_impl(const Tensor& out, const Tensor& self, const Scalar& p);
// log(sum(exp(x - m))) + m per block with the block's max m, blocks merged
// by rescaling: never overflows; rows of -inf give -inf.
void logsumexp_impl(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim);

void all_all_impl(const Tensor& out, const Tensor& self);
void all_dim_impl(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim);
void any_all_impl(const Tensor& out, const Tensor& self);
void any_dim_impl(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim);

// Inclusive prefix sum along dim, accumulated in float for 16-bit floats
// and in int64 for integers.
void cumsum_impl(const Tensor& out, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);

}  // namespace lz::cpu
