// Reductions and scans: libtorch's names and argument order. A dim list
// reduces the listed dims (all of them when empty); keepdim keeps them with
// size 1. *_out variants write into `out` (resized when it is empty).
#pragma once

#include <optional>
#include <tuple>

#include "core/scalar.h"
#include "core/tensor.h"

namespace lz {

// Integral and bool inputs sum (and multiply) to int64 unless dtype is given.
Tensor sum(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
Tensor sum(const Tensor& self, OptionalIntArrayRef dim, bool keepdim = false,
           std::optional<ScalarType> dtype = std::nullopt);
Tensor& sum_out(Tensor& out, const Tensor& self, OptionalIntArrayRef dim, bool keepdim = false,
                std::optional<ScalarType> dtype = std::nullopt);
Tensor& sum_out(Tensor& out, const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);

// Floating inputs (or a floating dtype) only: an integral input without a
// dtype is a TypeError, as in PyTorch.
Tensor mean(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
Tensor mean(const Tensor& self, OptionalIntArrayRef dim, bool keepdim = false,
            std::optional<ScalarType> dtype = std::nullopt);
Tensor& mean_out(Tensor& out, const Tensor& self, OptionalIntArrayRef dim, bool keepdim = false,
                 std::optional<ScalarType> dtype = std::nullopt);

Tensor prod(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
Tensor prod(const Tensor& self, int64_t dim, bool keepdim = false,
            std::optional<ScalarType> dtype = std::nullopt);
Tensor& prod_out(Tensor& out, const Tensor& self, int64_t dim, bool keepdim = false,
                 std::optional<ScalarType> dtype = std::nullopt);
Tensor& prod_out(Tensor& out, const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);

// Largest / smallest element as a 0-dim tensor (NaN if any element is NaN);
// ValueError for an empty tensor.
Tensor max(const Tensor& self);
Tensor min(const Tensor& self);
Tensor& max_out(Tensor& out, const Tensor& self);
Tensor& min_out(Tensor& out, const Tensor& self);
// (values, indices) along dim: the index of the first maximum (a NaN counts
// as the maximum); IndexError when dim has size 0.
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim = false);
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim = false);
std::tuple<Tensor&, Tensor&> max_out(Tensor& max, Tensor& max_values, const Tensor& self,
                                     int64_t dim, bool keepdim = false);
std::tuple<Tensor&, Tensor&> min_out(Tensor& min, Tensor& min_indices, const Tensor& self,
                                     int64_t dim, bool keepdim = false);
Tensor amax(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
Tensor amin(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
Tensor& amax_out(Tensor& out, const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
Tensor& amin_out(Tensor& out, const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
// int64 index of the first maximum / minimum, over the flattened tensor
// when dim is nullopt.
Tensor argmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor argmin(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor& argmax_out(Tensor& out, const Tensor& self, std::optional<int64_t> dim = std::nullopt,
                   bool keepdim = false);
Tensor& argmin_out(Tensor& out, const Tensor& self, std::optional<int64_t> dim = std::nullopt,
                   bool keepdim = false);

// Variance / standard deviation over dim (all dims when nullopt or empty),
// divided by N - correction (correction 1 by default). Floating inputs only.
Tensor var(const Tensor& self, OptionalIntArrayRef dim = std::nullopt,
           const std::optional<Scalar>& correction = std::nullopt, bool keepdim = false);
Tensor std(const Tensor& self, OptionalIntArrayRef dim = std::nullopt,
           const std::optional<Scalar>& correction = std::nullopt, bool keepdim = false);
Tensor& var_out(Tensor& out, const Tensor& self, OptionalIntArrayRef dim = std::nullopt,
                const std::optional<Scalar>& correction = std::nullopt, bool keepdim = false);
Tensor& std_out(Tensor& out, const Tensor& self, OptionalIntArrayRef dim = std::nullopt,
                const std::optional<Scalar>& correction = std::nullopt, bool keepdim = false);

// Vector p-norm (p = 2 when nullopt; also 0, 1, inf, -inf and any other p)
// over dim (all dims when empty). Floating inputs only.
Tensor norm(const Tensor& self, const Scalar& p = 2);
Tensor norm(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim = false);
Tensor& norm_out(Tensor& out, const Tensor& self, const Scalar& p = 2);
Tensor& norm_out(Tensor& out, const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
                 bool keepdim = false);

// log(sum(exp(x))) over dim, computed without overflow; integral inputs give float32.
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim = false);
Tensor& logsumexp_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim = false);

// Whether all / any elements are nonzero: bool (uint8 for uint8 inputs).
Tensor all(const Tensor& self);
Tensor all(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor& all_out(Tensor& out, const Tensor& self);
Tensor& all_out(Tensor& out, const Tensor& self, int64_t dim, bool keepdim = false);
Tensor any(const Tensor& self);
Tensor any(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor& any_out(Tensor& out, const Tensor& self);
Tensor& any_out(Tensor& out, const Tensor& self, int64_t dim, bool keepdim = false);

// Inclusive prefix sums along dim; integral and bool inputs accumulate in
// int64 unless dtype is given.
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor& cumsum_(Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor& cumsum_out(Tensor& out, const Tensor& self, int64_t dim,
                   std::optional<ScalarType> dtype = std::nullopt);

}  // namespace lz
