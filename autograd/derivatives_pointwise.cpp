// Formulas of the element-wise operators: unary math, binary arithmetic and
// the ternary ones (where, clamp, lerp, addcmul, masked_fill). Step
// functions (floor, sign, ...) have gradient zero almost everywhere, as in
// PyTorch; maximum/minimum split the gradient evenly where the inputs tie.
#include <cmath>
#include <numbers>

#include "autograd/derivative.h"
#include "autograd/formula_helpers.h"
#include "core/factories.h"
#include "core/ops_binary.h"
#include "core/ops_compare.h"
#include "core/ops_unary.h"

namespace lz::autograd {

namespace {

using Ctx = BackwardContext;

// A saved tensor in the gradient's dtype: a bfloat16 `other` of a float64
// call would otherwise round the formula's products to bfloat16.
Tensor in_grad_type(const Tensor& t, const Tensor& g) {
  return t.is_floating_point() && t.dtype() != g.dtype() ? t.to(g.dtype()) : t;
}

Tensor zero_grad(const Tensor& g) { return zeros_for(g, g.sizes()); }
// g where `keep`, else 0.
Tensor where_keep(const Tensor& keep, const Tensor& g) { return where(keep, g, Scalar(0.0)); }
// The share of g for `self` in maximum/minimum: all where it wins, half on ties.
Tensor winner_share(const Tensor& wins, const Tensor& ties, const Tensor& g) {
  return g * (wins.to(g.dtype()) + ties.to(g.dtype()) * 0.5);
}

Tensor gelu_derivative(const Tensor& x, std::string_view approximate) {
  if (approximate == "tanh") {
    const double k = std::sqrt(2.0 / std::numbers::pi);
    const Tensor x2 = x * x;
    const Tensor t = tanh((x + x * x2 * 0.044715) * k);
    return (t + 1.0) * 0.5 + x * 0.5 * (1.0 - t * t) * k * (x2 * (3 * 0.044715) + 1.0);
  }
  const Tensor cdf = (erf(x * std::numbers::sqrt2 / 2) + 1.0) * 0.5;
  const Tensor pdf = exp(x * x * -0.5) * (1.0 / std::sqrt(2.0 * std::numbers::pi));
  return cdf + x * pdf;
}

const Derivative kPointwiseDerivatives[] = {
    // ---- unary ----
    {OpId::neg, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {-g[0]}; }},
    {OpId::abs, saves({0}), false, [](const Ctx& c, const GradList& g) -> GradList { return {g[0] * c.self().sign()}; }},
    {OpId::sign, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {zero_grad(g[0])}; }},
    {OpId::square, saves({0}), false, [](const Ctx& c, const GradList& g) -> GradList { return {g[0] * c.self() * 2.0}; }},
    {OpId::reciprocal, 0, true,
     [](const Ctx& c, const GradList& g) -> GradList { return {-g[0] * c.result() * c.result()}; }},
    {OpId::exp, 0, true, [](const Ctx& c, const GradList& g) -> GradList { return {g[0] * c.result()}; }},
    {OpId::exp2, 0, true,
     [](const Ctx& c, const GradList& g) -> GradList { return {g[0] * c.result() * std::numbers::ln2}; }},
    {OpId::expm1, 0, true, [](const Ctx& c, const GradList& g) -> GradList { return {g[0] * (c.result() + 1.0)}; }},
    {OpId::log, saves({0}), false, [](const Ctx& c, const GradList& g) -> GradList { return {g[0] / c.self()}; }},
    {OpId::log2, saves({0}), false,
     [](const Ctx& c, const GradList& g) -> GradList { return {g[0] / (c.self() * std::numbers::ln2)}; }},
    {OpId::log1p, saves({0}), false, [](const Ctx& c, const GradList& g) -> GradList { return {g[0] / (c.self() + 1.0)}; }},
    {OpId::sqrt, 0, true, [](const Ctx& c, const GradList& g) -> GradList { return {g[0] / (c.result() * 2.0)}; }},
    {OpId::rsqrt, 0, true,
     [](const Ctx& c, const GradList& g) -> GradList { return {g[0] * c.result() * c.result() * c.result() * -0.5}; }},
    {OpId::sin, saves({0}), false, [](const Ctx& c, const GradList& g) -> GradList { return {g[0] * c.self().cos()}; }},
    {OpId::cos, saves({0}), false, [](const Ctx& c, const GradList& g) -> GradList { return {-g[0] * c.self().sin()}; }},
    {OpId::tan, 0, true,
     [](const Ctx& c, const GradList& g) -> GradList { return {g[0] * (c.result() * c.result() + 1.0)}; }},
    {OpId::tanh, 0, true,
     [](const Ctx& c, const GradList& g) -> GradList { return {g[0] * (1.0 - c.result() * c.result())}; }},
    {OpId::sigmoid, 0, true,
     [](const Ctx& c, const GradList& g) -> GradList { return {g[0] * c.result() * (1.0 - c.result())}; }},
    {OpId::relu, 0, true, [](const Ctx& c, const GradList& g) -> GradList { return {where_keep(c.result() > 0, g[0])}; }},
    {OpId::silu, saves({0}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor s = c.self().sigmoid();
       return {g[0] * s * (c.self() * (1.0 - s) + 1.0)};
     }},
    {OpId::hardswish, saves({0}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor& x = c.self();
       const Tensor middle = g[0] * (x * 2.0 + 3.0) / 6.0;
       return {where(x < -3.0, Scalar(0.0), where(x > 3.0, g[0], middle))};
     }},
    {OpId::erf, saves({0}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {g[0] * exp(-c.self() * c.self()) * (2.0 / std::sqrt(std::numbers::pi))};
     }},
    {OpId::floor, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {zero_grad(g[0])}; }},
    {OpId::ceil, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {zero_grad(g[0])}; }},
    {OpId::round, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {zero_grad(g[0])}; }},
    {OpId::trunc, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {zero_grad(g[0])}; }},
    {OpId::gelu, saves({0}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {g[0] * gelu_derivative(c.self(), c.arg(1).to_string_view())};
     }},

    // ---- binary ----
    {OpId::add_Tensor, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {g[0], g[0] * c.scalar(2)}; }},
    {OpId::add_Scalar, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {g[0]}; }},
    {OpId::sub_Tensor, 0, false,
     [](const Ctx& c, const GradList& g) -> GradList { return {g[0], -g[0] * c.scalar(2)}; }},
    {OpId::sub_Scalar, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {g[0]}; }},
    {OpId::mul_Tensor, saves({0, 1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {c.needs_grad(0) ? g[0] * c.tensor(1) : Tensor(), c.needs_grad(1) ? g[0] * c.self() : Tensor()};
     }},
    {OpId::mul_Scalar, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {g[0] * c.scalar(1)}; }},
    {OpId::div_Tensor, saves({0, 1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor other = in_grad_type(c.tensor(1), g[0]);
       return {c.needs_grad(0) ? g[0] / other : Tensor(),
               c.needs_grad(1) ? -g[0] * c.self() / (other * other) : Tensor()};
     }},
    {OpId::div_Scalar, 0, false, [](const Ctx& c, const GradList& g) -> GradList { return {g[0] / c.scalar(1)}; }},
    {OpId::div_Tensor_mode, saves({0, 1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       if (!c.arg(2).is_none()) return {zero_grad(g[0]), Tensor()};  // floor/trunc: a step function
       const Tensor other = in_grad_type(c.tensor(1), g[0]);
       return {c.needs_grad(0) ? g[0] / other : Tensor(),
               c.needs_grad(1) ? -g[0] * c.self() / (other * other) : Tensor()};
     }},
    {OpId::div_Scalar_mode, 0, false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {c.arg(2).is_none() ? g[0] / c.scalar(1) : zero_grad(g[0])};
     }},
    {OpId::pow_Tensor_Tensor, saves({0, 1}), true,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor& x = c.self();
       const Tensor& e = c.tensor(1);
       Tensor gx, ge;
       if (c.needs_grad(0)) gx = where(e == 0.0, Scalar(0.0), g[0] * e * pow(x, e - 1.0));
       // d/de x^e = x^e log x, taken as 0 where x == 0 and e >= 0 (PyTorch's convention).
       if (c.needs_grad(1)) ge = where((x == 0.0).logical_and(e >= 0.0), Scalar(0.0), g[0] * c.result() * log(x));
       return {gx, ge};
     }},
    {OpId::pow_Tensor_Scalar, saves({0}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Scalar e = c.scalar(1);
       if (e.to<double>() == 0.0) return {zero_grad(g[0])};
       return {g[0] * pow(c.self(), e.to<double>() - 1.0) * e};
     }},
    {OpId::remainder_Tensor, saves({0, 1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {g[0], c.needs_grad(1) ? -g[0] * div(c.self(), c.tensor(1), "floor") : Tensor()};
     }},
    {OpId::remainder_Scalar, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {g[0]}; }},
    {OpId::fmod_Tensor, saves({0, 1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {g[0], c.needs_grad(1) ? -g[0] * div(c.self(), c.tensor(1), "trunc") : Tensor()};
     }},
    {OpId::fmod_Scalar, 0, false, [](const Ctx&, const GradList& g) -> GradList { return {g[0]}; }},
    {OpId::atan2, saves({0, 1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor y = in_grad_type(c.self(), g[0]);
       const Tensor x = in_grad_type(c.tensor(1), g[0]);
       const Tensor denom = y * y + x * x;
       return {g[0] * x / denom, -g[0] * y / denom};
     }},
    {OpId::maximum, saves({0, 1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor& a = c.self();
       const Tensor& b = c.tensor(1);
       const Tensor ties = a == b;
       return {winner_share(a > b, ties, g[0]), winner_share(b > a, ties, g[0])};
     }},
    {OpId::minimum, saves({0, 1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor& a = c.self();
       const Tensor& b = c.tensor(1);
       const Tensor ties = a == b;
       return {winner_share(a < b, ties, g[0]), winner_share(b < a, ties, g[0])};
     }},

    // ---- ternary ----
    {OpId::where_self, saves({0}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor& cond = c.tensor(0);
       return {Tensor(), where_keep(cond, g[0]), where(cond, Scalar(0.0), g[0])};
     }},
    // clamp(x, lo, hi) = min(max(x, lo), hi): hi wins over lo when lo > hi.
    {OpId::clamp_Tensor, saves({0, 1, 2}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor& x = c.self();
       const std::optional<Tensor> lo = c.optional_tensor(1);
       const std::optional<Tensor> hi = c.optional_tensor(2);
       Tensor lo_wins = lo ? x < *lo : zeros_like(x, TensorOptions(ScalarType::Bool));
       const Tensor raised = lo ? where(lo_wins, *lo, x) : x;
       const Tensor hi_wins = hi ? raised > *hi : zeros_like(x, TensorOptions(ScalarType::Bool));
       const Tensor neither = lo_wins.logical_or(hi_wins).logical_not();
       return {where_keep(neither, g[0]), lo ? where_keep(lo_wins.logical_and(hi_wins.logical_not()), g[0]) : Tensor(),
               hi ? where_keep(hi_wins, g[0]) : Tensor()};
     }},
    {OpId::clamp_min_Tensor, saves({0, 1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor below = c.self() < c.tensor(1);
       return {where(below, Scalar(0.0), g[0]), where_keep(below, g[0])};
     }},
    {OpId::clamp_max_Tensor, saves({0, 1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor above = c.self() > c.tensor(1);
       return {where(above, Scalar(0.0), g[0]), where_keep(above, g[0])};
     }},
    {OpId::lerp_Scalar, 0, false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const double w = c.scalar(2).to<double>();
       return {g[0] * (1.0 - w), g[0] * w};
     }},
    {OpId::lerp_Tensor, saves({0, 1, 2}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor& w = c.tensor(2);
       return {g[0] * (1.0 - w), g[0] * w, g[0] * (c.tensor(1) - c.self())};
     }},
    {OpId::addcmul, saves({1, 2}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Scalar v = c.scalar(3);
       return {g[0], c.needs_grad(1) ? g[0] * c.tensor(2) * v : Tensor(),
               c.needs_grad(2) ? g[0] * c.tensor(1) * v : Tensor()};
     }},
    {OpId::addcdiv, saves({1, 2}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Scalar v = c.scalar(3);
       const Tensor& t1 = c.tensor(1);
       const Tensor& t2 = c.tensor(2);
       return {g[0], c.needs_grad(1) ? g[0] * v / t2 : Tensor(),
               c.needs_grad(2) ? -g[0] * v * t1 / (t2 * t2) : Tensor()};
     }},
    {OpId::masked_fill_Scalar, saves({1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       return {where(c.tensor(1), Scalar(0.0), g[0]), Tensor()};
     }},
    {OpId::masked_fill_Tensor, saves({1}), false,
     [](const Ctx& c, const GradList& g) -> GradList {
       const Tensor& mask = c.tensor(1);
       return {where(mask, Scalar(0.0), g[0]), Tensor(), c.needs_grad(2) ? where_keep(mask, g[0]).sum() : Tensor()};
     }},
};

}  // namespace

std::span<const Derivative> pointwise_derivatives() { return kPointwiseDerivatives; }

}  // namespace lz::autograd
