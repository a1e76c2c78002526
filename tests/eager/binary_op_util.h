// Shared by the binary-operator tests: the four ops as values, their
// in-place/out= spellings, and a float64/int64 reference per element.
#pragma once

#include "test_util.h"

namespace binary_test {

using namespace lz;

enum class Op { Add, Sub, Mul, Div };

inline const char* name_of(Op op) {
  switch (op) {
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Mul: return "mul";
    case Op::Div: return "div";
  }
  return "?";
}

inline Tensor apply(Op op, const Tensor& a, const Tensor& b) {
  switch (op) {
    case Op::Add: return lz::add(a, b);
    case Op::Sub: return lz::sub(a, b);
    case Op::Mul: return lz::mul(a, b);
    case Op::Div: return lz::div(a, b);
  }
  return {};
}

inline Tensor& apply_out(Op op, Tensor& out, const Tensor& a, const Tensor& b) {
  switch (op) {
    case Op::Add: return lz::add_out(out, a, b);
    case Op::Sub: return lz::sub_out(out, a, b);
    case Op::Mul: return lz::mul_out(out, a, b);
    case Op::Div: return lz::div_out(out, a, b);
  }
  return out;
}

inline Tensor& apply_(Op op, Tensor& a, const Tensor& b) {
  switch (op) {
    case Op::Add: return a.add_(b);
    case Op::Sub: return a.sub_(b);
    case Op::Mul: return a.mul_(b);
    case Op::Div: return a.div_(b);
  }
  return a;
}

// The float64 reference of one element, with the result dtype's semantics:
// bool add/mul are or/and; integers compute in int64 and wrap on the store.
inline double reference(Op op, ScalarType result, double x, double y) {
  if (result == kBool) {
    if (op == Op::Add) return (x != 0 || y != 0) ? 1 : 0;
    if (op == Op::Mul) return (x != 0 && y != 0) ? 1 : 0;
  }
  if (lzt::is_int(result)) {
    const int64_t a = static_cast<int64_t>(x), b = static_cast<int64_t>(y);
    int64_t r = 0;
    switch (op) {
      case Op::Add: r = a + b; break;
      case Op::Sub: r = a - b; break;
      case Op::Mul: r = a * b; break;
      case Op::Div: break;
    }
    return lzt::round_to(result, static_cast<double>(r));
  }
  switch (op) {
    case Op::Add: return x + y;
    case Op::Sub: return x - y;
    case Op::Mul: return x * y;
    case Op::Div: return x / y;
  }
  return 0;
}

inline ScalarType expected_result_dtype(Op op, ScalarType t) {
  if (op == Op::Div && !lzt::is_float(t)) return kFloat32;
  return t;
}

}  // namespace binary_test
