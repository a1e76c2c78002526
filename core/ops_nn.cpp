// Call sites of the neural-network operators (schemas and kernels: eager_kernels/).
#include "core/ops_nn.h"

#include "core/error.h"
#include "core/op_call.h"

namespace lz {

using OptTensor = std::optional<Tensor>;
using SoftmaxSig = Tensor(const Tensor&, int64_t, std::optional<ScalarType>);
using SoftmaxOutSig = Tensor(const Tensor&, int64_t, std::optional<ScalarType>, const Tensor&);
using LossSig = Tensor(const Tensor&, const Tensor&, const OptTensor&, int64_t, int64_t);

Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return LZ_OP("softmax.int", SoftmaxSig).call(self, dim, dtype);
}
Tensor& softmax_out(Tensor& out, const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  LZ_OP("softmax.int_out", SoftmaxOutSig).call(self, dim, dtype, out);
  return out;
}
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  return LZ_OP("log_softmax.int", SoftmaxSig).call(self, dim, dtype);
}
Tensor& log_softmax_out(Tensor& out, const Tensor& self, int64_t dim,
                        std::optional<ScalarType> dtype) {
  LZ_OP("log_softmax.int_out", SoftmaxOutSig).call(self, dim, dtype, out);
  return out;
}

Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const OptTensor& weight,
                  const OptTensor& bias, double eps, bool cudnn_enable) {
  return LZ_OP("layer_norm",
               Tensor(const Tensor&, IntArrayRef, const OptTensor&, const OptTensor&, double, bool))
      .call(input, normalized_shape, weight, bias, eps, cudnn_enable);
}
Tensor rms_norm(const Tensor& input, IntArrayRef normalized_shape, const OptTensor& weight,
                std::optional<double> eps) {
  return LZ_OP("rms_norm",
               Tensor(const Tensor&, IntArrayRef, const OptTensor&, std::optional<double>))
      .call(input, normalized_shape, weight, eps);
}

Tensor dropout(const Tensor& input, double p, bool train) {
  return LZ_OP("dropout", Tensor(const Tensor&, double, bool)).call(input, p, train);
}
Tensor& dropout_(Tensor& self, double p, bool train) {
  LZ_OP("dropout_", Tensor(const Tensor&, double, bool)).call(self, p, train);
  return self;
}
std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p, std::optional<bool> train) {
  return LZ_OP("native_dropout", std::tuple<Tensor, Tensor>(const Tensor&, double, std::optional<bool>))
      .call(input, p, train);
}

Tensor linear(const Tensor& input, const Tensor& weight, const OptTensor& bias) {
  return LZ_OP("linear", Tensor(const Tensor&, const Tensor&, const OptTensor&)).call(input, weight, bias);
}
Tensor& linear_out(Tensor& out, const Tensor& input, const Tensor& weight, const OptTensor& bias) {
  LZ_OP("linear.out", Tensor(const Tensor&, const Tensor&, const OptTensor&, const Tensor&))
      .call(input, weight, bias, out);
  return out;
}

Tensor nll_loss(const Tensor& self, const Tensor& target, const OptTensor& weight, int64_t reduction,
                int64_t ignore_index) {
  return LZ_OP("nll_loss", LossSig).call(self, target, weight, reduction, ignore_index);
}
Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const OptTensor& weight,
                   int64_t reduction, int64_t ignore_index) {
  return LZ_OP("nll_loss_nd", LossSig).call(self, target, weight, reduction, ignore_index);
}
std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                            const OptTensor& weight, int64_t reduction,
                                            int64_t ignore_index) {
  return LZ_OP("nll_loss_forward", std::tuple<Tensor, Tensor>(const Tensor&, const Tensor&,
                                                              const OptTensor&, int64_t, int64_t))
      .call(self, target, weight, reduction, ignore_index);
}

Tensor cross_entropy_loss(const Tensor& self, const Tensor& target, const OptTensor& weight,
                          int64_t reduction, int64_t ignore_index, double label_smoothing) {
  return LZ_OP("cross_entropy_loss",
               Tensor(const Tensor&, const Tensor&, const OptTensor&, int64_t, int64_t, double))
      .call(self, target, weight, reduction, ignore_index, label_smoothing);
}

Tensor cross_entropy(const Tensor& input, const Tensor& target, const OptTensor& weight,
                     std::string_view reduction, int64_t ignore_index, double label_smoothing) {
  Reduction::Reduction r = Reduction::Mean;
  if (reduction == "none") {
    r = Reduction::None;
  } else if (reduction == "sum") {
    r = Reduction::Sum;
  } else {
    LZ_CHECK(reduction == "mean", ValueError, "[cross_entropy] reduction: \"", reduction,
             "\" is not a valid value for reduction (expected \"mean\", \"sum\" or \"none\")");
  }
  return cross_entropy_loss(input, target, weight, r, ignore_index, label_smoothing);
}
Tensor cross_entropy(const Tensor& input, const Tensor& target, const OptTensor& weight,
                     Reduction::Reduction reduction, int64_t ignore_index, double label_smoothing) {
  return cross_entropy_loss(input, target, weight, reduction, ignore_index, label_smoothing);
}

}  // namespace lz
