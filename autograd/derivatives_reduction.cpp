// Formulas of the reductions and scans. Selecting reductions (max, amax,
// norm with p = inf) split the gradient evenly among tied elements, as
// PyTorch does for amax/amin; max.dim/min.dim give it to the index they
// returned. prod handles zeros without dividing by them.
#include <cmath>
#include <limits>
#include <vector>

#include "autograd/derivative.h"
#include "autograd/formula_helpers.h"
#include "core/factories.h"
#include "core/ops_binary.h"
#include "core/ops_compare.h"
#include "core/ops_reduction.h"
#include "core/ops_shape.h"
#include "core/ops_unary.h"
#include "core/shape.h"

namespace lz::autograd {

namespace {

using Ctx = BackwardContext;

// A dim argument: None (all dimensions) or a list (empty: all, too).
std::optional<IntArrayRef> dims_arg(const Ctx& c, size_t i) {
  if (c.arg(i).is_none()) return std::nullopt;
  return c.ints(i);
}

// How many input elements each result element reduces.
double reduced_count(IntArrayRef input_sizes, std::optional<IntArrayRef> dims) {
  const auto n = static_cast<int64_t>(input_sizes.size());
  if (n == 0) return 1;  // a 0-dim input: dim 0 and -1 name the tensor itself
  if (!dims || dims->empty()) return static_cast<double>(checked_numel(input_sizes, "backward"));
  double count = 1;
  for (int64_t d : *dims) count *= static_cast<double>(input_sizes[static_cast<size_t>(wrap_dim(d, n, "backward"))]);
  return count;
}

// The gradient of a selecting reduction split evenly among the elements
// equal to the selected value.
Tensor among_ties(const Tensor& self, const Tensor& result, const Tensor& g, std::optional<IntArrayRef> dims,
                  bool keepdim) {
  const Tensor selected = restore_reduced_dims(result, self.dim(), dims, keepdim);
  const Tensor mask = (self == selected).to(g.dtype());
  std::vector<int64_t> all;
  if (!dims || dims->empty()) {
    for (int64_t d = 0; d < self.dim(); ++d) all.push_back(d);
  }
  const Tensor count = mask.sum(dims && !dims->empty() ? *dims : IntArrayRef(all), /*keepdim=*/true);
  return restore_reduced_dims(g, self.dim(), dims, keepdim) * mask / count;
}

// prod over `dims` (nullopt: all): the product of the other elements,
// computed without dividing by zeros (one zero: the product of the rest
// there, 0 elsewhere; more zeros: 0).
Tensor prod_backward(const Tensor& self, const Tensor& result, const Tensor& g, std::optional<IntArrayRef> dims,
                     bool keepdim) {
  const Tensor r = restore_reduced_dims(result, self.dim(), dims, keepdim);
  const Tensor gr = restore_reduced_dims(g, self.dim(), dims, keepdim);
  const Tensor is_zero = self == 0.0;
  const Tensor nonzero = where(is_zero, Scalar(1.0), self);
  Tensor others, zeros_count;
  if (dims) {
    others = nonzero.prod((*dims)[0], true);
    zeros_count = is_zero.sum(*dims, true);
  } else {
    others = nonzero.prod().reshape(std::vector<int64_t>(static_cast<size_t>(self.dim()), 1));
    zeros_count = is_zero.sum().reshape(std::vector<int64_t>(static_cast<size_t>(self.dim()), 1));
  }
  const Tensor at_zero = where(zeros_count == 1, others, Scalar(0.0));
  return gr * where(is_zero, at_zero, r / nonzero);
}

// The gradient of the p-norm over `dims` given its result.
Tensor norm_backward(const Tensor& self, const Tensor& result, const Tensor& g, double p,
                     std::optional<IntArrayRef> dims, bool keepdim) {
  const Tensor r = restore_reduced_dims(result, self.dim(), dims, keepdim);
  const Tensor gr = restore_reduced_dims(g, self.dim(), dims, keepdim);
  if (p == 0) return zeros_for(g, self.sizes());
  if (p == 1) return gr * self.sign();
  if (std::isinf(p)) return among_ties(self.abs(), result, g, dims, keepdim) * self.sign();
  // sign(x) |x|^(p-1) / norm^(p-1), and 0 where the norm is 0 (and, for
  // p < 1, where x is 0: |x|^(p-1) is infinite there).
  Tensor scaled = p == 2 ? self / r : self.sign() * self.abs().pow(p - 1) / r.pow(p - 1);
  if (p < 1) scaled = where(self == 0.0, Scalar(0.0), scaled);
  return where(r == 0.0, Scalar(0.0), gr * scaled);
}

// max.dim/min.dim(self, dim, keepdim) -> (values, indices): the values'
// gradient goes to the index each value was taken from.
GradList selected_index_backward(const Ctx& c, const GradList& g) {
  if (!g[0].defined()) return {Tensor()};
  const IntArrayRef in = c.input_sizes(0);
  if (in.empty()) return {g[0]};
  const int64_t dim = wrap_dim(c.integer(1), static_cast<int64_t>(in.size()), "backward");
  const bool keepdim = c.boolean(2);
  const Tensor index = keepdim ? c.result(1) : c.result(1).unsqueeze(dim);
  const Tensor grad = keepdim ? g[0] : g[0].unsqueeze(dim);
  return {scatter(zeros_for(g[0], in), dim, index, grad)};
}

double p_arg(const Ctx& c, size_t i) { return c.arg(i).is_none() ? 2.0 : c.scalar(i).to<double>(); }

// var.correction(self, dim, correction, keepdim): 2 (x - mean) / (N - correction).
Tensor var_backward(const Ctx& c, const Tensor& g) {
  const Tensor& x = c.self();
  const std::optional<IntArrayRef> dims = dims_arg(c, 1);
  const double correction = c.arg(2).is_none() ? 1.0 : c.scalar(2).to<double>();
  const bool keepdim = c.boolean(3);
  std::vector<int64_t> all;
  for (int64_t d = 0; d < x.dim(); ++d) all.push_back(d);
  const Tensor mean = x.mean(dims && !dims->empty() ? *dims : IntArrayRef(all), /*keepdim=*/true);
  const double n = reduced_count(x.sizes(), dims);
  return restore_reduced_dims(g, x.dim(), dims, keepdim) * (x - mean) * (2.0 / (n - correction));
}

const Derivative kReductionDerivatives[] = {
    {OpId::sum, 0, false,
     [](const Ctx& c, const GradList& g) -> GradList { return {expand_reduced(g[0], c.input_sizes(0), std::nullopt, false)}; }},
    {OpId::sum_dim_IntList, 0, false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {expand_reduced(g[0], c.input_sizes(0), dims_arg(c, 1), c.boolean(2))};
     }},
    {OpId::mean, 0, false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {expand_reduced(g[0], c.input_sizes(0), std::nullopt, false) /
               reduced_count(c.input_sizes(0), std::nullopt)};
     }},
    {OpId::mean_dim, 0, false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {expand_reduced(g[0], c.input_sizes(0), dims_arg(c, 1), c.boolean(2)) /
               reduced_count(c.input_sizes(0), dims_arg(c, 1))};
     }},
    {OpId::prod, saves({0}), true,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {prod_backward(c.self(), c.result(), g[0], std::nullopt, false)};
     }},
    {OpId::prod_dim_int, saves({0}), true,
     [](const Ctx& c, const GradList& g) -> GradList {
       const int64_t dim = c.integer(1);
       return {prod_backward(c.self(), c.result(), g[0], IntArrayRef(&dim, 1), c.boolean(2))};
     }},
    {OpId::max, saves({0}), true,
     [](const Ctx& c, const GradList& g) -> GradList { return {among_ties(c.self(), c.result(), g[0], std::nullopt, false)}; }},
    {OpId::min, saves({0}), true,
     [](const Ctx& c, const GradList& g) -> GradList { return {among_ties(c.self(), c.result(), g[0], std::nullopt, false)}; }},
    {OpId::max_dim, 0, true, &selected_index_backward},
    {OpId::min_dim, 0, true, &selected_index_backward},
    {OpId::amax, saves({0}), true,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {among_ties(c.self(), c.result(), g[0], c.ints(1), c.boolean(2))};
     }},
    {OpId::amin, saves({0}), true,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {among_ties(c.self(), c.result(), g[0], c.ints(1), c.boolean(2))};
     }},
    {OpId::var_correction, saves({0}), false,
     [](const Ctx& c, const GradList& g) -> GradList { return {var_backward(c, g[0])}; }},
    // d std = d var / (2 std), and 0 where std is 0 (as PyTorch).
    {OpId::std_correction, saves({0}), true,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor std_r = restore_reduced_dims(c.result(), c.self().dim(), dims_arg(c, 1), c.boolean(3));
       return {where(std_r == 0.0, Scalar(0.0), var_backward(c, g[0]) / (std_r * 2.0))};
     }},
    {OpId::norm_ScalarOpt_dim, saves({0}), true,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {norm_backward(c.self(), c.result(), g[0], p_arg(c, 1), c.ints(2), c.boolean(3))};
     }},
    {OpId::norm_Scalar, saves({0}), true,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {norm_backward(c.self(), c.result(), g[0], p_arg(c, 1), std::nullopt, false)};
     }},
    {OpId::logsumexp, saves({0}), true,
     [](const Ctx& c, const GradList& g) -> GradList {
       const IntArrayRef dims = c.ints(1);
       const bool keepdim = c.boolean(2);
       const Tensor r = restore_reduced_dims(c.result(), c.self().dim(), dims, keepdim);
       return {restore_reduced_dims(g[0], c.self().dim(), dims, keepdim) * exp(c.self() - r)};
     }},
    {OpId::cumsum, 0, false,
     [](const Ctx& c, const GradList& g) -> GradList {
       if (c.input_sizes(0).empty()) return {g[0]};
       const int64_t dim = c.integer(1);
       return {g[0].flip({dim}).cumsum(dim).flip({dim})};
     }},
};

}  // namespace

std::span<const Derivative> reduction_derivatives() { return kReductionDerivatives; }

}  // namespace lz::autograd
