#include "autograd/optimizer.h"

#include <cmath>

#include "autograd/grad_mode.h"
#include "core/factories.h"
#include "core/ops_binary.h"
#include "core/ops_unary.h"

namespace lz::optim {

Optimizer::Optimizer(std::vector<Tensor> parameters) : parameters_(std::move(parameters)) {
  for (size_t i = 0; i < parameters_.size(); ++i) {
    LZ_CHECK(parameters_[i].defined() && parameters_[i].requires_grad() && parameters_[i].is_leaf(), ValueError,
             "[optim] parameter ", i, ": expected a leaf tensor that requires grad");
  }
}

void Optimizer::zero_grad() {
  for (Tensor& p : parameters_) p.mutable_grad() = Tensor();
}

SGD::SGD(std::vector<Tensor> parameters, SGDOptions options)
    : Optimizer(std::move(parameters)), options_(options), momentum_buffers_(parameters_.size()) {
  LZ_CHECK(options_.lr() >= 0, ValueError, "[SGD] lr: expected a non-negative learning rate, got ", options_.lr());
  LZ_CHECK(!options_.nesterov() || (options_.momentum() > 0 && options_.dampening() == 0), ValueError,
           "[SGD] nesterov: needs a momentum and zero dampening");
}

void SGD::step() {
  NoGradGuard no_grad;
  for (size_t i = 0; i < parameters_.size(); ++i) {
    Tensor& p = parameters_[i];
    Tensor g = p.grad();
    if (!g.defined()) continue;
    if (options_.weight_decay() != 0) g = g + p * options_.weight_decay();
    if (options_.momentum() != 0) {
      Tensor& buf = momentum_buffers_[i];
      buf = buf.defined() ? buf * options_.momentum() + g * (1 - options_.dampening()) : g.clone();
      g = options_.nesterov() ? g + buf * options_.momentum() : buf;
    }
    p.sub_(g * options_.lr());
  }
}

Adam::Adam(std::vector<Tensor> parameters, AdamOptions options) : Adam(std::move(parameters), options, false) {}

Adam::Adam(std::vector<Tensor> parameters, AdamOptions options, bool decoupled_weight_decay)
    : Optimizer(std::move(parameters)),
      options_(options),
      decoupled_(decoupled_weight_decay),
      exp_avg_(parameters_.size()),
      exp_avg_sq_(parameters_.size()) {
  const auto [b1, b2] = options_.betas();
  LZ_CHECK(b1 >= 0 && b1 < 1 && b2 >= 0 && b2 < 1, ValueError, "[Adam] betas: expected values in [0, 1), got (", b1,
           ", ", b2, ")");
}

void Adam::step() {
  NoGradGuard no_grad;
  ++steps_;
  const auto [b1, b2] = options_.betas();
  const double lr = options_.lr();
  const double correction1 = 1 - std::pow(b1, static_cast<double>(steps_));
  const double correction2 = 1 - std::pow(b2, static_cast<double>(steps_));
  for (size_t i = 0; i < parameters_.size(); ++i) {
    Tensor& p = parameters_[i];
    Tensor g = p.grad();
    if (!g.defined()) continue;
    if (options_.weight_decay() != 0) {
      if (decoupled_) {
        p.mul_(1 - lr * options_.weight_decay());
      } else {
        g = g + p * options_.weight_decay();
      }
    }
    Tensor& m = exp_avg_[i];
    Tensor& v = exp_avg_sq_[i];
    // The state starts at zero (zeros_like of a lazy parameter is lazy).
    if (!m.defined()) {
      m = zeros_like(p);
      v = zeros_like(p);
    }
    m = m * b1 + g * (1 - b1);
    v = v * b2 + g * g * (1 - b2);
    const Tensor denom = (v / correction2).sqrt() + options_.eps();
    p.sub_(m / denom * (lr / correction1));
  }
}

}  // namespace lz::optim
