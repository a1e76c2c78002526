// Tensor methods and operator overloads of the binary and ternary operators.
#include "core/empty_tensor.h"
#include "core/op_call.h"
#include "core/ops_binary.h"
#include "core/tensor.h"

namespace lz {

namespace {
using OptStr = std::optional<std::string_view>;
using OptScalar = std::optional<Scalar>;
using OptTensor = std::optional<Tensor>;
}  // namespace

Tensor Tensor::add(const Tensor& other, const Scalar& alpha) const { return lz::add(*this, other, alpha); }
Tensor Tensor::add(const Scalar& other, const Scalar& alpha) const { return lz::add(*this, other, alpha); }
Tensor Tensor::sub(const Tensor& other, const Scalar& alpha) const { return lz::sub(*this, other, alpha); }
Tensor Tensor::sub(const Scalar& other, const Scalar& alpha) const { return lz::sub(*this, other, alpha); }
Tensor Tensor::mul(const Tensor& other) const { return lz::mul(*this, other); }
Tensor Tensor::mul(const Scalar& other) const { return lz::mul(*this, other); }
Tensor Tensor::div(const Tensor& other) const { return lz::div(*this, other); }
Tensor Tensor::div(const Scalar& other) const { return lz::div(*this, other); }
Tensor Tensor::div(const Tensor& other, OptStr rounding_mode) const {
  return lz::div(*this, other, rounding_mode);
}
Tensor& Tensor::div_(const Tensor& other, OptStr rounding_mode) {
  LZ_OP("div_.Tensor_mode", Tensor(const Tensor&, const Tensor&, OptStr)).call(*this, other, rounding_mode);
  return *this;
}

#define LZ_INPLACE_ALPHA(name)                                                               \
  Tensor& Tensor::name##_(const Tensor& other, const Scalar& alpha) {                        \
    LZ_OP(#name "_.Tensor", Tensor(const Tensor&, const Tensor&, const Scalar&))             \
        .call(*this, other, alpha);                                                          \
    return *this;                                                                            \
  }                                                                                          \
  Tensor& Tensor::name##_(const Scalar& other, const Scalar& alpha) {                        \
    LZ_OP(#name "_.Scalar", Tensor(const Tensor&, const Scalar&, const Scalar&))             \
        .call(*this, other, alpha);                                                          \
    return *this;                                                                            \
  }
LZ_INPLACE_ALPHA(add)
LZ_INPLACE_ALPHA(sub)
#undef LZ_INPLACE_ALPHA

// In-place methods with .Tensor and .Scalar overloads.
#define LZ_INPLACE_BINARY(name)                                                              \
  Tensor& Tensor::name##_(const Tensor& other) {                                             \
    LZ_OP(#name "_.Tensor", Tensor(const Tensor&, const Tensor&)).call(*this, other);        \
    return *this;                                                                            \
  }                                                                                          \
  Tensor& Tensor::name##_(const Scalar& other) {                                             \
    LZ_OP(#name "_.Scalar", Tensor(const Tensor&, const Scalar&)).call(*this, other);        \
    return *this;                                                                            \
  }
LZ_INPLACE_BINARY(mul)
LZ_INPLACE_BINARY(div)
LZ_INPLACE_BINARY(pow)
LZ_INPLACE_BINARY(remainder)
#undef LZ_INPLACE_BINARY

Tensor Tensor::pow(const Tensor& exponent) const { return lz::pow(*this, exponent); }
Tensor Tensor::pow(const Scalar& exponent) const { return lz::pow(*this, exponent); }
Tensor Tensor::maximum(const Tensor& other) const { return lz::maximum(*this, other); }
Tensor Tensor::minimum(const Tensor& other) const { return lz::minimum(*this, other); }
Tensor Tensor::remainder(const Tensor& other) const { return lz::remainder(*this, other); }
Tensor Tensor::remainder(const Scalar& other) const { return lz::remainder(*this, other); }
Tensor Tensor::atan2(const Tensor& other) const { return lz::atan2(*this, other); }
Tensor& Tensor::atan2_(const Tensor& other) {
  LZ_OP("atan2_", Tensor(const Tensor&, const Tensor&)).call(*this, other);
  return *this;
}

Tensor Tensor::clamp(const OptScalar& min, const OptScalar& max) const { return lz::clamp(*this, min, max); }
Tensor Tensor::clamp(const OptTensor& min, const OptTensor& max) const { return lz::clamp(*this, min, max); }
Tensor& Tensor::clamp_(const OptScalar& min, const OptScalar& max) { return lz::clamp_(*this, min, max); }
Tensor Tensor::clamp_min(const Scalar& min) const { return lz::clamp_min(*this, min); }
Tensor Tensor::clamp_max(const Scalar& max) const { return lz::clamp_max(*this, max); }

Tensor Tensor::lerp(const Tensor& end, const Scalar& weight) const { return lz::lerp(*this, end, weight); }
Tensor Tensor::lerp(const Tensor& end, const Tensor& weight) const { return lz::lerp(*this, end, weight); }
Tensor& Tensor::lerp_(const Tensor& end, const Scalar& weight) {
  LZ_OP("lerp_.Scalar", Tensor(const Tensor&, const Tensor&, const Scalar&)).call(*this, end, weight);
  return *this;
}

#define LZ_ADDC_METHODS(name)                                                                \
  Tensor Tensor::name(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) const { \
    return lz::name(*this, tensor1, tensor2, value);                                         \
  }                                                                                          \
  Tensor& Tensor::name##_(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) { \
    LZ_OP(#name "_", Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&))     \
        .call(*this, tensor1, tensor2, value);                                               \
    return *this;                                                                            \
  }
LZ_ADDC_METHODS(addcmul)
LZ_ADDC_METHODS(addcdiv)
#undef LZ_ADDC_METHODS

Tensor Tensor::where(const Tensor& condition, const Tensor& other) const {
  return lz::where(condition, *this, other);
}

Tensor Tensor::masked_fill(const Tensor& mask, const Scalar& value) const {
  return lz::masked_fill(*this, mask, value);
}
Tensor Tensor::masked_fill(const Tensor& mask, const Tensor& value) const {
  return lz::masked_fill(*this, mask, value);
}
Tensor& Tensor::masked_fill_(const Tensor& mask, const Scalar& value) {
  LZ_OP("masked_fill_.Scalar", Tensor(const Tensor&, const Tensor&, const Scalar&)).call(*this, mask, value);
  return *this;
}
Tensor& Tensor::masked_fill_(const Tensor& mask, const Tensor& value) {
  LZ_OP("masked_fill_.Tensor", Tensor(const Tensor&, const Tensor&, const Tensor&)).call(*this, mask, value);
  return *this;
}

// ---- Comparison and logic ------------------------------------------------------

#define LZ_COMPARISON_METHODS(name)                                                          \
  Tensor Tensor::name(const Tensor& other) const { return lz::name(*this, other); }          \
  Tensor Tensor::name(const Scalar& other) const { return lz::name(*this, other); }
LZ_COMPARISON_METHODS(eq)
LZ_COMPARISON_METHODS(ne)
LZ_COMPARISON_METHODS(lt)
LZ_COMPARISON_METHODS(le)
LZ_COMPARISON_METHODS(gt)
LZ_COMPARISON_METHODS(ge)
#undef LZ_COMPARISON_METHODS

Tensor Tensor::logical_and(const Tensor& other) const { return lz::logical_and(*this, other); }
Tensor Tensor::logical_or(const Tensor& other) const { return lz::logical_or(*this, other); }
Tensor Tensor::logical_xor(const Tensor& other) const { return lz::logical_xor(*this, other); }

#define LZ_BITWISE_METHODS(name)                                                             \
  Tensor Tensor::name(const Tensor& other) const { return lz::name(*this, other); }          \
  Tensor& Tensor::name##_(const Tensor& other) {                                             \
    LZ_OP(#name "_.Tensor", Tensor(const Tensor&, const Tensor&)).call(*this, other);        \
    return *this;                                                                            \
  }
LZ_BITWISE_METHODS(bitwise_and)
LZ_BITWISE_METHODS(bitwise_or)
LZ_BITWISE_METHODS(bitwise_xor)
#undef LZ_BITWISE_METHODS

// ---- Operator overloads ----------------------------------------------------------

Tensor operator+(const Tensor& a, const Tensor& b) { return lz::add(a, b); }
Tensor operator+(const Tensor& a, const Scalar& b) { return lz::add(a, b); }
Tensor operator+(const Scalar& a, const Tensor& b) { return lz::add(b, a); }
Tensor operator-(const Tensor& a, const Tensor& b) { return lz::sub(a, b); }
Tensor operator-(const Tensor& a, const Scalar& b) { return lz::sub(a, b); }
Tensor operator-(const Scalar& a, const Tensor& b) { return lz::sub(wrapped_scalar_tensor(a), b); }
Tensor operator*(const Tensor& a, const Tensor& b) { return lz::mul(a, b); }
Tensor operator*(const Tensor& a, const Scalar& b) { return lz::mul(a, b); }
Tensor operator*(const Scalar& a, const Tensor& b) { return lz::mul(b, a); }
Tensor operator/(const Tensor& a, const Tensor& b) { return lz::div(a, b); }
Tensor operator/(const Tensor& a, const Scalar& b) { return lz::div(a, b); }
Tensor operator/(const Scalar& a, const Tensor& b) { return lz::div(wrapped_scalar_tensor(a), b); }
Tensor operator%(const Tensor& a, const Tensor& b) { return lz::remainder(a, b); }
Tensor operator%(const Tensor& a, const Scalar& b) { return lz::remainder(a, b); }
Tensor operator&(const Tensor& a, const Tensor& b) { return lz::bitwise_and(a, b); }
Tensor operator|(const Tensor& a, const Tensor& b) { return lz::bitwise_or(a, b); }
Tensor operator^(const Tensor& a, const Tensor& b) { return lz::bitwise_xor(a, b); }
Tensor operator==(const Tensor& a, const Tensor& b) { return lz::eq(a, b); }
Tensor operator==(const Tensor& a, const Scalar& b) { return lz::eq(a, b); }
Tensor operator!=(const Tensor& a, const Tensor& b) { return lz::ne(a, b); }
Tensor operator!=(const Tensor& a, const Scalar& b) { return lz::ne(a, b); }
Tensor operator<(const Tensor& a, const Tensor& b) { return lz::lt(a, b); }
Tensor operator<(const Tensor& a, const Scalar& b) { return lz::lt(a, b); }
Tensor operator<=(const Tensor& a, const Tensor& b) { return lz::le(a, b); }
Tensor operator<=(const Tensor& a, const Scalar& b) { return lz::le(a, b); }
Tensor operator>(const Tensor& a, const Tensor& b) { return lz::gt(a, b); }
Tensor operator>(const Tensor& a, const Scalar& b) { return lz::gt(a, b); }
Tensor operator>=(const Tensor& a, const Tensor& b) { return lz::ge(a, b); }
Tensor operator>=(const Tensor& a, const Scalar& b) { return lz::ge(a, b); }

}  // namespace lz
