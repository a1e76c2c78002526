// PyTorch's formulas for the element-wise operations whose result depends on
// more than IEEE arithmetic: integer powers and floating floor division and
// remainder. Shared by the eager kernels and the kernel IR interpreter, so
// fused and eager results match bit for bit.
#pragma once

#include <cmath>
#include <cstdint>

namespace lz {

// Integer a ** b, wrapping on overflow: negative exponents give 1 / a ** |b|
// truncated (0 unless |a| == 1).
inline int64_t pow_int(int64_t a, int64_t b) {
  if (b < 0) {
    if (a == 1) return 1;
    if (a == -1) return (b & 1) ? -1 : 1;
    return 0;
  }
  uint64_t result = 1, base = static_cast<uint64_t>(a);
  for (uint64_t e = static_cast<uint64_t>(b); e != 0; e >>= 1) {
    if (e & 1) result *= base;
    base *= base;
  }
  return static_cast<int64_t>(result);
}

// Floor division in the compute type C (float for float32).
template <class C>
inline C div_floor_float(C a, C b) {
  if (b == 0) return a / b;  // IEEE: +-inf or NaN
  const C mod = std::fmod(a, b);
  C div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= C(1);
  if (div == 0) return std::copysign(C(0), a / b);
  C floordiv = std::floor(div);
  if (div - floordiv > C(0.5)) floordiv += C(1);
  return floordiv;
}

// C's integer a % b (the sign of a), 0 where C leaves it undefined: b == 0
// (the eager kernel raises first) and b == -1 (INT64_MIN % -1 overflows).
inline int64_t fmod_int(int64_t a, int64_t b) { return (b == 0 || b == -1) ? 0 : a % b; }

// Python's a % b: the result has the sign of b.
template <class C>
inline C remainder_float(C a, C b) {
  C mod = std::fmod(a, b);
  if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;
  return mod;
}

}  // namespace lz
