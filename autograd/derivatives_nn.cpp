// Formulas of the neural-network operators and the matrix products.
// softmax, log_softmax, layer_norm and rms_norm are composites that have
// formulas of their own: each saves one tensor (the result, or the input)
// where differentiating the decomposition would save every intermediate
// (the shifted input, exp, the sums) and add their nodes to the graph.
#include <limits>
#include <vector>

#include "autograd/derivative.h"
#include "autograd/formula_helpers.h"
#include "core/factories.h"
#include "core/ops_binary.h"
#include "core/ops_compare.h"
#include "core/ops_linalg.h"
#include "core/ops_reduction.h"
#include "core/ops_shape.h"
#include "core/ops_unary.h"
#include "core/shape.h"

namespace lz::autograd {

namespace {

using Ctx = BackwardContext;

// The trailing dimensions a normalisation over `normalized_shape` reduces.
std::vector<int64_t> trailing_dims(int64_t ndim, IntArrayRef normalized_shape) {
  std::vector<int64_t> dims;
  for (int64_t d = ndim - static_cast<int64_t>(normalized_shape.size()); d < ndim; ++d) dims.push_back(d);
  return dims;
}

// 16-bit floats compute in float32, as the forward composites do.
Tensor opmath(const Tensor& t) {
  return t.dtype() == ScalarType::Half || t.dtype() == ScalarType::BFloat16 ? t.to(ScalarType::Float) : t;
}

// layer_norm(input, normalized_shape, weight, bias, eps, cudnn_enable)
GradList layer_norm_backward(const Ctx& c, const GradList& g) {
  const Tensor x = opmath(c.self());
  const std::vector<int64_t> dims = trailing_dims(x.dim(), c.ints(1));
  const std::optional<Tensor> weight = c.optional_tensor(2);
  const Tensor centred = x - x.mean(dims, true);
  const Tensor rstd = ((centred * centred).mean(dims, true) + c.real(4)).rsqrt();
  const Tensor normalised = centred * rstd;
  const Tensor gy = weight ? g[0] * *weight : g[0];
  Tensor dx;
  if (c.needs_grad(0)) {
    dx = rstd * (gy - gy.mean(dims, true) - normalised * (gy * normalised).mean(dims, true));
  }
  return {dx, c.needs_grad(1) ? g[0] * normalised : Tensor(), c.needs_grad(2) ? g[0] : Tensor()};
}

// rms_norm(input, normalized_shape, weight, eps)
GradList rms_norm_backward(const Ctx& c, const GradList& g) {
  const Tensor x = opmath(c.self());
  const std::vector<int64_t> dims = trailing_dims(x.dim(), c.ints(1));
  const std::optional<Tensor> weight = c.optional_tensor(2);
  // The forward's default: the machine epsilon of the computation type.
  const double eps = !c.arg(3).is_none()               ? c.real(3)
                     : x.dtype() == ScalarType::Double ? std::numeric_limits<double>::epsilon()
                                                       : std::numeric_limits<float>::epsilon();
  const Tensor rstd = ((x * x).mean(dims, true) + eps).rsqrt();
  const Tensor normalised = x * rstd;
  const Tensor gy = weight ? g[0] * *weight : g[0];
  Tensor dx;
  if (c.needs_grad(0)) dx = rstd * (gy - normalised * (gy * normalised).mean(dims, true));
  return {dx, c.needs_grad(1) ? g[0] * normalised : Tensor()};
}

// nll_loss_forward(self, target, weight, reduction, ignore_index) ->
// (output, total_weight): output = -sum w[t_i] x[i, t_i] (divided by the
// total weight sum w[t_i] for the mean).
GradList nll_loss_backward(const Ctx& c, const GradList& g) {
  const bool output_grad = g[0].defined();
  const bool total_weight_grad = g.size() > 1 && g[1].defined();
  if (!output_grad && !total_weight_grad) return {Tensor(), Tensor(), Tensor()};
  const Tensor& self = c.self();
  // (uint8 targets compare with ignore_index as int64, as the kernel reads them.)
  const Tensor target = c.tensor(1).to(ScalarType::Long);
  const std::optional<Tensor> weight = c.optional_tensor(2);
  const int64_t reduction = c.integer(3);
  const int64_t ignore_index = c.integer(4);
  const bool mean = reduction == 1;
  const int64_t class_dim = self.dim() == 1 ? 0 : 1;
  const Tensor ignored = target == ignore_index;
  const Tensor safe_target = where(ignored, Scalar(int64_t{0}), target);
  const Tensor index = safe_target.unsqueeze(class_dim);
  Tensor w = weight ? weight->index_select(0, safe_target.flatten()).reshape(target.sizes()).to(self.dtype())
                    : ones_like(target, TensorOptions(self.dtype()));
  w = where(ignored, Scalar(0.0), w);
  const Tensor& total_weight = c.result(1);
  Tensor grad_self, grad_weight;
  if (c.needs_grad(0) && output_grad) {
    Tensor coefficient = -w * g[0];
    if (mean) coefficient = coefficient / total_weight;
    grad_self = scatter(zeros_for(g[0], self.sizes()), class_dim, index, coefficient.unsqueeze(class_dim));
  }
  if (c.needs_grad(2)) {
    // d output / d w[t_i] per target element, summed per class (one-hot:
    // several elements may share a class).
    // The total weight (output 1) counts w[t_i] once per element.
    Tensor per_element = zeros_like(w);
    if (output_grad) {
      const Tensor picked = -self.gather(class_dim, index).squeeze(class_dim);
      per_element = mean ? (picked - c.result(0)) * g[0] / total_weight : picked * g[0];
    }
    if (total_weight_grad) per_element = per_element + g[1];
    per_element = where(ignored, Scalar(0.0), per_element);
    // (zeros_for keeps the one-hot on self's device, and lazy when it is.)
    const int64_t classes = self.size(class_dim);
    const Tensor rows = safe_target.reshape({-1, 1});
    const Tensor one_hot = scatter(zeros_for(per_element, {rows.size(0), classes}), 1, rows, Scalar(1.0));
    grad_weight = (per_element.reshape({-1, 1}) * one_hot).sum(IntArrayRef({0}));
  }
  return {grad_self, Tensor(), grad_weight};
}

const Derivative kNnDerivatives[] = {
    {OpId::softmax_int, 0, true,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor y = opmath(c.result());
       const int64_t dim = c.integer(1);
       return {y * (g[0] - (g[0] * y).sum(IntArrayRef(&dim, 1), true))};
     }},
    {OpId::log_softmax_int, 0, true,
     [](const Ctx& c, const GradList& g) -> GradList {
       const int64_t dim = c.integer(1);
       return {g[0] - opmath(c.result()).exp() * g[0].sum(IntArrayRef(&dim, 1), true)};
     }},
    {OpId::layer_norm, saves({0, 2}), false, &layer_norm_backward},
    {OpId::rms_norm, saves({0, 2}), false, &rms_norm_backward},
    {OpId::native_dropout, 0, true,
     [](const Ctx& c, const GradList& g) -> GradList {
       if (!g[0].defined()) return {Tensor()};
       const bool train = c.arg(2).is_none() || c.boolean(2);
       const double p = c.real(1);
       if (!train) return {g[0]};
       const double scale = p >= 1 ? 0.0 : 1.0 / (1.0 - p);
       return {g[0] * c.result(1) * scale};
     }},
    {OpId::nll_loss_forward, saves({0, 1, 2}), true, &nll_loss_backward},
    {OpId::mm, saves({0, 1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {c.needs_grad(0) ? mm_mat1_backward(g[0], c.tensor(1), c.self()) : Tensor(),
               c.needs_grad(1) ? mm_mat2_backward(g[0], c.self(), c.tensor(1)) : Tensor()};
     }},
    {OpId::bmm, saves({0, 1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {c.needs_grad(0) ? bmm(g[0], c.tensor(1).transpose(1, 2)) : Tensor(),
               c.needs_grad(1) ? bmm(c.self().transpose(1, 2), g[0]) : Tensor()};
     }},
    {OpId::addmm, saves({1, 2}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Scalar beta = c.scalar(3);
       const Scalar alpha = c.scalar(4);
       // alpha is almost always 1: no product then (it would lose the layout
       // the mm backward chose, too).
       const Tensor g_alpha = alpha.to<double>() == 1.0 ? g[0] : g[0] * alpha;
       return {c.needs_grad(0) ? g[0] * beta : Tensor(),
               c.needs_grad(1) ? mm_mat1_backward(g_alpha, c.tensor(2), c.tensor(1)) : Tensor(),
               c.needs_grad(2) ? mm_mat2_backward(g_alpha, c.tensor(1), c.tensor(2)) : Tensor()};
     }},
};

}  // namespace

std::span<const Derivative> nn_derivatives() { return kNnDerivatives; }

}  // namespace lz::autograd
