// Tensor methods and operator overloads of the binary operators.
#include "core/empty_tensor.h"
#include "core/op_call.h"
#include "core/ops_binary.h"
#include "core/tensor.h"

namespace lz {

Tensor Tensor::add(const Tensor& other, const Scalar& alpha) const { return lz::add(*this, other, alpha); }
Tensor Tensor::add(const Scalar& other, const Scalar& alpha) const { return lz::add(*this, other, alpha); }
Tensor Tensor::sub(const Tensor& other, const Scalar& alpha) const { return lz::sub(*this, other, alpha); }
Tensor Tensor::sub(const Scalar& other, const Scalar& alpha) const { return lz::sub(*this, other, alpha); }
Tensor Tensor::mul(const Tensor& other) const { return lz::mul(*this, other); }
Tensor Tensor::mul(const Scalar& other) const { return lz::mul(*this, other); }
Tensor Tensor::div(const Tensor& other) const { return lz::div(*this, other); }
Tensor Tensor::div(const Scalar& other) const { return lz::div(*this, other); }

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
#undef LZ_INPLACE_BINARY


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

}  // namespace lz
