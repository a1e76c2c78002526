// CPU kernels of the neural-network operators: softmax and log_softmax,
// layer_norm and rms_norm (rows in parallel, a few vectorised passes over
// each cache-resident row, float accumulation for the 16-bit dtypes),
// native_dropout (Philox, independent of the thread count) and the
// negative log-likelihood loss that cross_entropy reduces to.
#pragma once

#include <optional>
#include <tuple>

#include "core/tensor.h"

namespace lz::cpu {

// Structured impls (out is allocated/checked from the meta).
void softmax_impl(const Tensor& out, const Tensor& self, int64_t dim,
                  std::optional<ScalarType> dtype);
void log_softmax_impl(const Tensor& out, const Tensor& self, int64_t dim,
                      std::optional<ScalarType> dtype);
void layer_norm_impl(const Tensor& out, const Tensor& input, IntArrayRef normalized_shape,
                     const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                     double eps, bool cudnn_enable);
void rms_norm_impl(const Tensor& out, const Tensor& input, IntArrayRef normalized_shape,
                   const std::optional<Tensor>& weight, std::optional<double> eps);

// Plain kernels (they run their meta checks first).
std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p, std::optional<bool> train);
std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                            const std::optional<Tensor>& weight, int64_t reduction,
                                            int64_t ignore_index);

}  // namespace lz::cpu
