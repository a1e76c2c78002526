#include "autograd/nn_layers.h"

#include <cmath>

#include "core/factories.h"
#include "core/ops_nn.h"
#include "core/ops_shape.h"
#include "core/ops_views.h"
#include "core/shape.h"

namespace lz::nn {

namespace {

Tensor uniform(IntArrayRef sizes, double bound, ScalarType dtype) {
  return (rand(sizes, TensorOptions(dtype)) * 2.0 - 1.0) * bound;
}

}  // namespace

Linear::Linear(int64_t in_features, int64_t out_features, bool bias, ScalarType dtype)
    : weight(register_parameter("weight", uniform({out_features, in_features},
                                                   1.0 / std::sqrt(static_cast<double>(in_features)), dtype))),
      bias(bias ? &register_parameter("bias", uniform({out_features}, 1.0 / std::sqrt(static_cast<double>(in_features)),
                                                       dtype))
                : nullptr) {}

Tensor Linear::forward(const Tensor& input) {
  return linear(input, weight, bias != nullptr ? std::optional<Tensor>(*bias) : std::nullopt);
}

Embedding::Embedding(int64_t num_embeddings, int64_t embedding_dim, ScalarType dtype)
    : weight(register_parameter("weight", randn({num_embeddings, embedding_dim}, TensorOptions(dtype)))) {}

Tensor Embedding::forward(const Tensor& indices) { return embedding(weight, indices); }

LayerNorm::LayerNorm(std::vector<int64_t> normalized_shape, double eps, bool elementwise_affine, ScalarType dtype)
    : shape_(std::move(normalized_shape)), eps_(eps) {
  if (elementwise_affine) {
    weight_ = &register_parameter("weight", ones(shape_, TensorOptions(dtype)));
    bias_ = &register_parameter("bias", zeros(shape_, TensorOptions(dtype)));
  }
}

Tensor LayerNorm::forward(const Tensor& input) {
  auto opt = [](Tensor* t) { return t != nullptr ? std::optional<Tensor>(*t) : std::nullopt; };
  return layer_norm(input, shape_, opt(weight_), opt(bias_), eps_);
}

RMSNorm::RMSNorm(std::vector<int64_t> normalized_shape, std::optional<double> eps, ScalarType dtype)
    : shape_(std::move(normalized_shape)),
      eps_(eps),
      weight_(register_parameter("weight", ones(shape_, TensorOptions(dtype)))) {}

Tensor RMSNorm::forward(const Tensor& input) { return rms_norm(input, shape_, weight_, eps_); }

Tensor Dropout::forward(const Tensor& input) { return dropout(input, p_, is_training()); }

Sequential::Sequential(std::initializer_list<std::shared_ptr<Module>> modules) : modules_(modules) {
  for (size_t i = 0; i < modules_.size(); ++i) register_module(std::to_string(i), modules_[i]);
}

Tensor Sequential::forward(const Tensor& input) {
  Tensor x = input;
  for (const auto& m : modules_) x = m->forward(x);
  return x;
}

}  // namespace lz::nn
