// Neural-network operators users call directly (softmax, normalisations,
// linear, dropout, losses): libtorch's names (torch::softmax, torch::layer_norm, ...).
#pragma once

#include <optional>
#include <string_view>
#include <tuple>

#include "core/tensor.h"

namespace lz {

// softmax / log_softmax along `dim`; with `dtype`, self is converted to it
// first (integer inputs need a floating dtype). Numerically stable (the row
// maximum is subtracted), float accumulation for float16/bfloat16.
Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor& softmax_out(Tensor& out, const Tensor& self, int64_t dim,
                    std::optional<ScalarType> dtype = std::nullopt);
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor& log_softmax_out(Tensor& out, const Tensor& self, int64_t dim,
                        std::optional<ScalarType> dtype = std::nullopt);

// Normalises over the trailing dims given by normalized_shape (input must end
// with them): (x - mean) / sqrt(var + eps) * weight + bias, biased variance.
Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                  const std::optional<Tensor>& weight = std::nullopt,
                  const std::optional<Tensor>& bias = std::nullopt, double eps = 1e-05,
                  bool cudnn_enable = true);
// x / sqrt(mean(x^2) + eps) * weight over the trailing dims; eps defaults to
// the machine epsilon of the computation type (float32 for 16-bit inputs).
Tensor rms_norm(const Tensor& input, IntArrayRef normalized_shape,
                const std::optional<Tensor>& weight = std::nullopt,
                std::optional<double> eps = std::nullopt);

// Zeroes each element with probability p (drawn from the default generator,
// so lz::manual_seed makes it reproducible) and scales the kept ones by
// 1 / (1 - p). train == false (or p == 0) returns input itself; p outside
// [0, 1] is a ValueError. Floating dtypes only when it draws.
Tensor dropout(const Tensor& input, double p, bool train);
Tensor& dropout_(Tensor& self, double p, bool train);
// (output, bool mask of the kept elements); train == false keeps everything.
std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p, std::optional<bool> train);

// input @ weight.t() + bias, weight [out_features, in_features].
Tensor linear(const Tensor& input, const Tensor& weight,
              const std::optional<Tensor>& bias = std::nullopt);
Tensor& linear_out(Tensor& out, const Tensor& input, const Tensor& weight,
                   const std::optional<Tensor>& bias = std::nullopt);

// Activations (floating dtypes), as torch.nn.functional's.
// x for x > 0, else negative_slope * x.
Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope = 0.01);
// scale * x for x > 0, else scale * alpha * (exp(input_scale * x) - 1).
Tensor elu(const Tensor& self, const Scalar& alpha = 1, const Scalar& scale = 1,
           const Scalar& input_scale = 1);
// log(1 + exp(beta * x)) / beta; x itself where beta * x > threshold.
Tensor softplus(const Tensor& self, const Scalar& beta = 1, const Scalar& threshold = 20);
// x clamped to [min_val, max_val].
Tensor hardtanh(const Tensor& self, const Scalar& min_val = -1, const Scalar& max_val = 1);

// Rows of weight [num_embeddings, D] picked by integer indices of any shape:
// indices.sizes() + [D]. The gradient skips rows equal to padding_idx (when
// it is not -1); scale_grad_by_freq and sparse are not supported (ValueError).
Tensor embedding(const Tensor& weight, const Tensor& indices, int64_t padding_idx = -1,
                 bool scale_grad_by_freq = false, bool sparse = false);

// Loss reductions (at::Reduction): the int `reduction` arguments take these.
namespace Reduction {
enum Reduction : int64_t { None = 0, Mean = 1, Sum = 2 };
}  // namespace Reduction

// Negative log-likelihood of class indices: self [C] (target 0-dim) or
// [N, C] (target [N], int64 or uint8); targets equal to ignore_index count
// for nothing; Mean divides by the total weight of the other targets.
Tensor nll_loss(const Tensor& self, const Tensor& target,
                const std::optional<Tensor>& weight = std::nullopt,
                int64_t reduction = Reduction::Mean, int64_t ignore_index = -100);
// Any number of dims: self [N, C, d1, ...] with target [N, d1, ...].
Tensor nll_loss_nd(const Tensor& self, const Tensor& target,
                   const std::optional<Tensor>& weight = std::nullopt,
                   int64_t reduction = Reduction::Mean, int64_t ignore_index = -100);
// (loss, total weight of the targets not ignored).
std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                            const std::optional<Tensor>& weight,
                                            int64_t reduction, int64_t ignore_index);

// Mean squared error: (self - target)^2, the two broadcast together
// (floating dtypes), then reduced: Mean (a 0-dim mean), Sum or None.
Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean);
// Mean absolute error |self - target|, reduced the same way.
Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean);
// Huber-like: 0.5 * d^2 / beta where |d| < beta, else |d| - 0.5 * beta
// (d = self - target; beta 0 is l1_loss, a negative beta a ValueError).
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean,
                      double beta = 1.0);
// -w * (t * log(p) + (1 - t) * log(1 - p)) of probabilities self and targets
// of self's shape; each log is clamped at -100, as in PyTorch.
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target,
                            const std::optional<Tensor>& weight = std::nullopt,
                            int64_t reduction = Reduction::Mean);
// The same of sigmoid(self), computed from the logits without overflow;
// pos_weight scales the positive term (broadcast along the last dim).
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target,
                                        const std::optional<Tensor>& weight = std::nullopt,
                                        const std::optional<Tensor>& pos_weight = std::nullopt,
                                        int64_t reduction = Reduction::Mean);

// Cross entropy of class scores self ([C], [N, C] or [N, C, d1, ...]) against
// class indices (int64 target without the class dim) or class probabilities
// (floating target of self's shape): log_softmax over the class dim, then
// nll_loss (with label smoothing mixed in when label_smoothing > 0).
Tensor cross_entropy_loss(const Tensor& self, const Tensor& target,
                          const std::optional<Tensor>& weight = std::nullopt,
                          int64_t reduction = Reduction::Mean, int64_t ignore_index = -100,
                          double label_smoothing = 0.0);
// torch.nn.functional.cross_entropy: reduction "mean", "sum" or "none"
// (ValueError otherwise), or a Reduction value.
Tensor cross_entropy(const Tensor& input, const Tensor& target,
                     const std::optional<Tensor>& weight = std::nullopt,
                     std::string_view reduction = "mean", int64_t ignore_index = -100,
                     double label_smoothing = 0.0);
Tensor cross_entropy(const Tensor& input, const Tensor& target, const std::optional<Tensor>& weight,
                     Reduction::Reduction reduction, int64_t ignore_index = -100,
                     double label_smoothing = 0.0);

}  // namespace lz
