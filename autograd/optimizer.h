// lz::optim: SGD (momentum, dampening, nesterov, weight decay), Adam and
// AdamW, with libtorch's names. A step updates parameters in place under
// NoGradGuard with lz operators, so for lazy parameters the update traces
// into the same graph as the forward and backward, and its state
// (momentum, moments) stays lazy. Hyper-parameters are C++ numbers the
// trace records as runtime scalars: changing the learning rate between
// steps does not recompile.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "core/tensor.h"

namespace lz::optim {

// A chainable option of an options struct: `opts.lr(0.1)` sets it, `opts.lr()` reads it.
#define LZ_OPTION(Self, type, name) \
  Self& name(type value) {          \
    name##_ = value;                \
    return *this;                   \
  }                                 \
  type name() const { return name##_; }

class Optimizer {
 public:
  explicit Optimizer(std::vector<Tensor> parameters);
  virtual ~Optimizer() = default;
  virtual void step() = 0;
  // Drops every parameter's gradient (libtorch's set_to_none default).
  void zero_grad();
  const std::vector<Tensor>& parameters() const { return parameters_; }

 protected:
  std::vector<Tensor> parameters_;
};

struct SGDOptions {
  explicit SGDOptions(double lr) : lr_(lr) {}
  LZ_OPTION(SGDOptions, double, lr)
  LZ_OPTION(SGDOptions, double, momentum)
  LZ_OPTION(SGDOptions, double, dampening)
  LZ_OPTION(SGDOptions, double, weight_decay)
  LZ_OPTION(SGDOptions, bool, nesterov)
 private:
  double lr_;
  double momentum_ = 0;
  double dampening_ = 0;
  double weight_decay_ = 0;
  bool nesterov_ = false;
};

class SGD : public Optimizer {
 public:
  SGD(std::vector<Tensor> parameters, SGDOptions options);
  void step() override;
  SGDOptions& options() { return options_; }

 private:
  SGDOptions options_;
  std::vector<Tensor> momentum_buffers_;
};

struct AdamOptions {
  explicit AdamOptions(double lr = 1e-3) : lr_(lr) {}
  LZ_OPTION(AdamOptions, double, lr)
  LZ_OPTION(AdamOptions, double, eps)
  LZ_OPTION(AdamOptions, double, weight_decay)
  AdamOptions& betas(std::pair<double, double> value) {
    betas_ = value;
    return *this;
  }
  std::pair<double, double> betas() const { return betas_; }

 private:
  double lr_;
  std::pair<double, double> betas_{0.9, 0.999};
  double eps_ = 1e-8;
  double weight_decay_ = 0;
};

// Adam: weight decay is added to the gradient (L2). AdamW decouples it:
// the parameter shrinks by lr * weight_decay before the Adam update.
class Adam : public Optimizer {
 public:
  Adam(std::vector<Tensor> parameters, AdamOptions options = AdamOptions());
  void step() override;
  AdamOptions& options() { return options_; }

 protected:
  Adam(std::vector<Tensor> parameters, AdamOptions options, bool decoupled_weight_decay);

 private:
  AdamOptions options_;
  bool decoupled_;
  int64_t steps_ = 0;
  std::vector<Tensor> exp_avg_, exp_avg_sq_;
};

// AdamOptions with weight_decay 1e-2 by default, as torch.optim.AdamW.
struct AdamWOptions : AdamOptions {
  explicit AdamWOptions(double lr = 1e-3) : AdamOptions(lr) { weight_decay(1e-2); }
};

class AdamW : public Adam {
 public:
  AdamW(std::vector<Tensor> parameters, AdamWOptions options = AdamWOptions())
      : Adam(std::move(parameters), options, /*decoupled_weight_decay=*/true) {}
};

#undef LZ_OPTION

}  // namespace lz::optim
