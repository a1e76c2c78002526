// Tensor methods and operator overloads of the unary operators.
#include "core/ops_unary.h"
#include "core/tensor.h"

namespace lz {

Tensor Tensor::neg() const { return lz::neg(*this); }
Tensor& Tensor::neg_() { return lz::neg_(*this); }
Tensor Tensor::abs() const { return lz::abs(*this); }
Tensor& Tensor::abs_() { return lz::abs_(*this); }
Tensor Tensor::sign() const { return lz::sign(*this); }
Tensor& Tensor::sign_() { return lz::sign_(*this); }
Tensor Tensor::square() const { return lz::square(*this); }
Tensor& Tensor::square_() { return lz::square_(*this); }
Tensor Tensor::reciprocal() const { return lz::reciprocal(*this); }
Tensor& Tensor::reciprocal_() { return lz::reciprocal_(*this); }
Tensor Tensor::exp() const { return lz::exp(*this); }
Tensor& Tensor::exp_() { return lz::exp_(*this); }
Tensor Tensor::exp2() const { return lz::exp2(*this); }
Tensor& Tensor::exp2_() { return lz::exp2_(*this); }
Tensor Tensor::expm1() const { return lz::expm1(*this); }
Tensor& Tensor::expm1_() { return lz::expm1_(*this); }
Tensor Tensor::log() const { return lz::log(*this); }
Tensor& Tensor::log_() { return lz::log_(*this); }
Tensor Tensor::log2() const { return lz::log2(*this); }
Tensor& Tensor::log2_() { return lz::log2_(*this); }
Tensor Tensor::log1p() const { return lz::log1p(*this); }
Tensor& Tensor::log1p_() { return lz::log1p_(*this); }
Tensor Tensor::sqrt() const { return lz::sqrt(*this); }
Tensor& Tensor::sqrt_() { return lz::sqrt_(*this); }
Tensor Tensor::rsqrt() const { return lz::rsqrt(*this); }
Tensor& Tensor::rsqrt_() { return lz::rsqrt_(*this); }
Tensor Tensor::sin() const { return lz::sin(*this); }
Tensor& Tensor::sin_() { return lz::sin_(*this); }
Tensor Tensor::cos() const { return lz::cos(*this); }
Tensor& Tensor::cos_() { return lz::cos_(*this); }
Tensor Tensor::tan() const { return lz::tan(*this); }
Tensor& Tensor::tan_() { return lz::tan_(*this); }
Tensor Tensor::tanh() const { return lz::tanh(*this); }
Tensor& Tensor::tanh_() { return lz::tanh_(*this); }
Tensor Tensor::sigmoid() const { return lz::sigmoid(*this); }
Tensor& Tensor::sigmoid_() { return lz::sigmoid_(*this); }
Tensor Tensor::relu() const { return lz::relu(*this); }
Tensor& Tensor::relu_() { return lz::relu_(*this); }
Tensor Tensor::erf() const { return lz::erf(*this); }
Tensor& Tensor::erf_() { return lz::erf_(*this); }
Tensor Tensor::floor() const { return lz::floor(*this); }
Tensor& Tensor::floor_() { return lz::floor_(*this); }
Tensor Tensor::ceil() const { return lz::ceil(*this); }
Tensor& Tensor::ceil_() { return lz::ceil_(*this); }
Tensor Tensor::round() const { return lz::round(*this); }
Tensor& Tensor::round_() { return lz::round_(*this); }
Tensor Tensor::trunc() const { return lz::trunc(*this); }
Tensor& Tensor::trunc_() { return lz::trunc_(*this); }
Tensor Tensor::logical_not() const { return lz::logical_not(*this); }
Tensor& Tensor::logical_not_() { return lz::logical_not_(*this); }
Tensor Tensor::bitwise_not() const { return lz::bitwise_not(*this); }
Tensor& Tensor::bitwise_not_() { return lz::bitwise_not_(*this); }
Tensor Tensor::isnan() const { return lz::isnan(*this); }
Tensor Tensor::isinf() const { return lz::isinf(*this); }

Tensor operator-(const Tensor& self) { return lz::neg(self); }
Tensor operator~(const Tensor& self) { return lz::bitwise_not(self); }

}  // namespace lz
