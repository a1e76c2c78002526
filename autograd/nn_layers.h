// Building blocks of lz::nn (libtorch's modules of the same names):
// Linear, Embedding, LayerNorm, RMSNorm, Dropout, activations as modules, Sequential.
// Each forward is one or a few lz operators, so modules trace lazily.
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>

#include "autograd/nn_module.h"

namespace lz::nn {

// input @ weight.t() + bias; weight [out, in] and bias drawn uniformly from
// ±1/sqrt(in) (libtorch's default initialisation).
class Linear : public Module {
 public:
  Linear(int64_t in_features, int64_t out_features, bool bias = true, ScalarType dtype = ScalarType::Float);
  Tensor forward(const Tensor& input) override;
  Tensor& weight;
  Tensor* bias;  // null without bias
};

// A lookup table: row indices[...] of weight [num_embeddings, dim] (drawn
// from N(0, 1), as libtorch), so the result has indices' shape plus dim.
// Its gradient adds each looked-up row's gradient back (index_add).
class Embedding : public Module {
 public:
  Embedding(int64_t num_embeddings, int64_t embedding_dim, ScalarType dtype = ScalarType::Float);
  Tensor forward(const Tensor& indices) override;
  Tensor& weight;
};

// Normalises over the trailing `normalized_shape` dims; learnable weight (1)
// and bias (0) when elementwise_affine.
class LayerNorm : public Module {
 public:
  LayerNorm(std::vector<int64_t> normalized_shape, double eps = 1e-5, bool elementwise_affine = true,
            ScalarType dtype = ScalarType::Float);
  Tensor forward(const Tensor& input) override;

 private:
  std::vector<int64_t> shape_;
  double eps_;
  Tensor* weight_ = nullptr;
  Tensor* bias_ = nullptr;
};

// x / sqrt(mean(x^2) + eps) * weight over the trailing dims.
class RMSNorm : public Module {
 public:
  RMSNorm(std::vector<int64_t> normalized_shape, std::optional<double> eps = std::nullopt,
          ScalarType dtype = ScalarType::Float);
  Tensor forward(const Tensor& input) override;

 private:
  std::vector<int64_t> shape_;
  std::optional<double> eps_;
  Tensor& weight_;
};

// Zeroes elements with probability p while training; the identity in eval().
class Dropout : public Module {
 public:
  explicit Dropout(double p = 0.5) : p_(p) {}
  Tensor forward(const Tensor& input) override;

 private:
  double p_;
};

// An activation (or any tensor function) as a module: Functional(lz::relu).
class Functional : public Module {
 public:
  explicit Functional(std::function<Tensor(const Tensor&)> fn) : fn_(std::move(fn)) {}
  Tensor forward(const Tensor& input) override { return fn_(input); }

 private:
  std::function<Tensor(const Tensor&)> fn_;
};

// Runs its modules in order; their parameters are named "0.weight", "1.bias", ...
class Sequential : public Module {
 public:
  Sequential(std::initializer_list<std::shared_ptr<Module>> modules);
  Tensor forward(const Tensor& input) override;

 private:
  std::vector<std::shared_ptr<Module>> modules_;
};

}  // namespace lz::nn
