// Meta functions of the neural-network operators (softmax, normalisations,
// dropout, negative log-likelihood): result sizes, dtypes, and every check
// with PyTorch's rules and messages.
#pragma once

#include <optional>
#include <string_view>

#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::meta {

// softmax.int / log_softmax.int: self's shape; the result dtype is `dtype`
// when given (self is converted first), else self's, and must be floating.
TensorMeta softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);
TensorMeta log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype);

// The number of rows (M) and the row length (N, the product of
// normalized_shape) of a normalisation; ShapeError unless input ends with
// normalized_shape and weight/bias (when given) have exactly that shape.
struct NormRows {
  int64_t rows;
  int64_t row_size;
};
NormRows check_norm_shapes(std::string_view op, const Tensor& input, IntArrayRef normalized_shape,
                           const std::optional<Tensor>& weight, const std::optional<Tensor>& bias);

TensorMeta layer_norm(const Tensor& input, IntArrayRef normalized_shape,
                      const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                      double eps, bool cudnn_enable);
TensorMeta rms_norm(const Tensor& input, IntArrayRef normalized_shape,
                    const std::optional<Tensor>& weight, std::optional<double> eps);

// ValueError unless 0 <= p <= 1.
void check_dropout_probability(std::string_view op, double p);
// (output: input's meta, mask: bool of the same shape); floating inputs only.
MetaList native_dropout(const Tensor& input, double p, std::optional<bool> train);

// ValueError unless reduction is 0 (none), 1 (mean) or 2 (sum).
void check_reduction(std::string_view op, int64_t reduction);
// nll_loss_forward: self [C] with a 0-dim target or [N, C] with target [N];
// (output: [N] for reduction none on 2-D input, else 0-dim; total_weight: 0-dim).
MetaList nll_loss_forward(const Tensor& self, const Tensor& target,
                          const std::optional<Tensor>& weight, int64_t reduction,
                          int64_t ignore_index);

}  // namespace lz::meta
