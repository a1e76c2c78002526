// lz::nn::functional (libtorch's torch::nn::functional, usually `namespace F
// = lz::nn::functional;`): the neural-network functions with libtorch's
// options objects, e.g. F::softmax(x, F::SoftmaxFuncOptions(1)) or
// F::mse_loss(a, b, F::MSELossFuncOptions().reduction(lz::kSum)). Each is
// one call of the operator of the same name (core/ops_nn.h); the options
// only carry its arguments.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/ops_nn.h"
#include "core/ops_shape.h"
#include "core/ops_unary.h"
#include "core/tensor.h"

namespace lz {

// libtorch's reduction names for the options' reduction(...).
inline constexpr Reduction::Reduction kNone = Reduction::None;
inline constexpr Reduction::Reduction kMean = Reduction::Mean;
inline constexpr Reduction::Reduction kSum = Reduction::Sum;

namespace nn::functional {

// An option: a chainable setter and a getter of the same name (TORCH_ARG).
#define LZ_FUNC_ARG(T, name, ...)                 \
 public:                                          \
  auto& name(T value) {                           \
    name##_ = std::move(value);                   \
    return *this;                                 \
  }                                               \
  const T& name() const { return name##_; }       \
                                                  \
 private:                                         \
  T name##_ __VA_OPT__(= __VA_ARGS__);

// ---- Activations -----------------------------------------------------------------

// inplace writes the input, as libtorch's.
struct ReLUFuncOptions {
  LZ_FUNC_ARG(bool, inplace, false)
};
inline Tensor relu(Tensor input, const ReLUFuncOptions& options = {}) {
  return options.inplace() ? relu_(input) : lz::relu(input);
}

struct GELUFuncOptions {
  LZ_FUNC_ARG(std::string, approximate, "none")
};
inline Tensor gelu(const Tensor& input, const GELUFuncOptions& options = {}) {
  return lz::gelu(input, options.approximate());
}

inline Tensor silu(const Tensor& input) { return lz::silu(input); }
inline Tensor sigmoid(const Tensor& input) { return lz::sigmoid(input); }
inline Tensor tanh(const Tensor& input) { return lz::tanh(input); }

struct LeakyReLUFuncOptions {
  LZ_FUNC_ARG(double, negative_slope, 0.01)
};
inline Tensor leaky_relu(const Tensor& input, const LeakyReLUFuncOptions& options = {}) {
  return lz::leaky_relu(input, options.negative_slope());
}

struct ELUFuncOptions {
  LZ_FUNC_ARG(double, alpha, 1.0)
};
inline Tensor elu(const Tensor& input, const ELUFuncOptions& options = {}) { return lz::elu(input, options.alpha()); }

struct SoftplusFuncOptions {
  LZ_FUNC_ARG(double, beta, 1.0)
  LZ_FUNC_ARG(double, threshold, 20.0)
};
inline Tensor softplus(const Tensor& input, const SoftplusFuncOptions& options = {}) {
  return lz::softplus(input, options.beta(), options.threshold());
}

struct HardtanhFuncOptions {
  LZ_FUNC_ARG(double, min_val, -1.0)
  LZ_FUNC_ARG(double, max_val, 1.0)
};
inline Tensor hardtanh(const Tensor& input, const HardtanhFuncOptions& options = {}) {
  return lz::hardtanh(input, options.min_val(), options.max_val());
}

// ---- Softmax, normalisation, dropout, linear, embedding ----------------------------

// dim has no default, as in libtorch: SoftmaxFuncOptions(1).
struct SoftmaxFuncOptions {
  explicit SoftmaxFuncOptions(int64_t dim) : dim_(dim) {}
  LZ_FUNC_ARG(int64_t, dim)
  LZ_FUNC_ARG(std::optional<ScalarType>, dtype, std::nullopt)
};
inline Tensor softmax(const Tensor& input, const SoftmaxFuncOptions& options) {
  return lz::softmax(input, options.dim(), options.dtype());
}

struct LogSoftmaxFuncOptions {
  explicit LogSoftmaxFuncOptions(int64_t dim) : dim_(dim) {}
  LZ_FUNC_ARG(int64_t, dim)
  LZ_FUNC_ARG(std::optional<ScalarType>, dtype, std::nullopt)
};
inline Tensor log_softmax(const Tensor& input, const LogSoftmaxFuncOptions& options) {
  return lz::log_softmax(input, options.dim(), options.dtype());
}

struct LayerNormFuncOptions {
  explicit LayerNormFuncOptions(std::vector<int64_t> normalized_shape)
      : normalized_shape_(std::move(normalized_shape)) {}
  LZ_FUNC_ARG(std::vector<int64_t>, normalized_shape)
  LZ_FUNC_ARG(std::optional<Tensor>, weight, std::nullopt)
  LZ_FUNC_ARG(std::optional<Tensor>, bias, std::nullopt)
  LZ_FUNC_ARG(double, eps, 1e-5)
};
inline Tensor layer_norm(const Tensor& input, const LayerNormFuncOptions& options) {
  return lz::layer_norm(input, options.normalized_shape(), options.weight(), options.bias(), options.eps());
}

struct DropoutFuncOptions {
  LZ_FUNC_ARG(double, p, 0.5)
  LZ_FUNC_ARG(bool, training, true)
  LZ_FUNC_ARG(bool, inplace, false)
};
inline Tensor dropout(Tensor input, const DropoutFuncOptions& options = {}) {
  return options.inplace() ? dropout_(input, options.p(), options.training())
                           : lz::dropout(input, options.p(), options.training());
}

inline Tensor linear(const Tensor& input, const Tensor& weight, const std::optional<Tensor>& bias = std::nullopt) {
  return lz::linear(input, weight, bias);
}

struct EmbeddingFuncOptions {
  LZ_FUNC_ARG(std::optional<int64_t>, padding_idx, std::nullopt)
};
// padding_idx may be negative (counted from the end), as in libtorch.
inline Tensor embedding(const Tensor& input, const Tensor& weight, const EmbeddingFuncOptions& options = {}) {
  int64_t padding_idx = options.padding_idx().value_or(-1);
  if (options.padding_idx() && padding_idx < 0) padding_idx += weight.size(0);
  return lz::embedding(weight, input, padding_idx);
}

struct PadFuncOptions {
  explicit PadFuncOptions(std::vector<int64_t> pad) : pad_(std::move(pad)) {}
  LZ_FUNC_ARG(std::vector<int64_t>, pad)
  LZ_FUNC_ARG(double, value, 0.0)
};
inline Tensor pad(const Tensor& input, const PadFuncOptions& options) {
  return lz::pad(input, options.pad(), "constant", options.value());
}

// ---- Losses (reduction: lz::kMean by default, lz::kSum, lz::kNone) -------------------

struct MSELossFuncOptions {
  LZ_FUNC_ARG(Reduction::Reduction, reduction, kMean)
};
inline Tensor mse_loss(const Tensor& input, const Tensor& target, const MSELossFuncOptions& options = {}) {
  return lz::mse_loss(input, target, options.reduction());
}

struct L1LossFuncOptions {
  LZ_FUNC_ARG(Reduction::Reduction, reduction, kMean)
};
inline Tensor l1_loss(const Tensor& input, const Tensor& target, const L1LossFuncOptions& options = {}) {
  return lz::l1_loss(input, target, options.reduction());
}

struct SmoothL1LossFuncOptions {
  LZ_FUNC_ARG(Reduction::Reduction, reduction, kMean)
  LZ_FUNC_ARG(double, beta, 1.0)
};
inline Tensor smooth_l1_loss(const Tensor& input, const Tensor& target,
                             const SmoothL1LossFuncOptions& options = {}) {
  return lz::smooth_l1_loss(input, target, options.reduction(), options.beta());
}

struct BinaryCrossEntropyFuncOptions {
  LZ_FUNC_ARG(std::optional<Tensor>, weight, std::nullopt)
  LZ_FUNC_ARG(Reduction::Reduction, reduction, kMean)
};
inline Tensor binary_cross_entropy(const Tensor& input, const Tensor& target,
                                   const BinaryCrossEntropyFuncOptions& options = {}) {
  return lz::binary_cross_entropy(input, target, options.weight(), options.reduction());
}

struct BinaryCrossEntropyWithLogitsFuncOptions {
  LZ_FUNC_ARG(std::optional<Tensor>, weight, std::nullopt)
  LZ_FUNC_ARG(std::optional<Tensor>, pos_weight, std::nullopt)
  LZ_FUNC_ARG(Reduction::Reduction, reduction, kMean)
};
inline Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                               const BinaryCrossEntropyWithLogitsFuncOptions& options = {}) {
  return lz::binary_cross_entropy_with_logits(input, target, options.weight(), options.pos_weight(),
                                              options.reduction());
}

struct NLLLossFuncOptions {
  LZ_FUNC_ARG(std::optional<Tensor>, weight, std::nullopt)
  LZ_FUNC_ARG(int64_t, ignore_index, -100)
  LZ_FUNC_ARG(Reduction::Reduction, reduction, kMean)
};
inline Tensor nll_loss(const Tensor& input, const Tensor& target, const NLLLossFuncOptions& options = {}) {
  return lz::nll_loss_nd(input, target, options.weight(), options.reduction(), options.ignore_index());
}

struct CrossEntropyFuncOptions {
  LZ_FUNC_ARG(std::optional<Tensor>, weight, std::nullopt)
  LZ_FUNC_ARG(int64_t, ignore_index, -100)
  LZ_FUNC_ARG(Reduction::Reduction, reduction, kMean)
  LZ_FUNC_ARG(double, label_smoothing, 0.0)
};
inline Tensor cross_entropy(const Tensor& input, const Tensor& target, const CrossEntropyFuncOptions& options = {}) {
  return lz::cross_entropy_loss(input, target, options.weight(), options.reduction(), options.ignore_index(),
                                options.label_smoothing());
}

#undef LZ_FUNC_ARG

}  // namespace nn::functional
}  // namespace lz
