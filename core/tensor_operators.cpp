// The arithmetic, bitwise and comparison operators of Tensor (a + b, a == 1):
// each is one public operator function.
#include "core/empty_tensor.h"
#include "core/ops_binary.h"
#include "core/ops_unary.h"
#include "core/tensor.h"

namespace lz {

Tensor operator-(const Tensor& self) { return lz::neg(self); }
Tensor operator~(const Tensor& self) { return lz::bitwise_not(self); }
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
