// Branch-free float32 math for the element-wise CPU kernels. Every function
// is a short sequence of multiplies, adds, integer bit operations and
// bitwise selects of already computed values, with no libm call and no
// data-dependent branch, so the per-ISA contiguous loops of loops.h inline
// and auto-vectorise it (16 lanes with AVX-512). Special values (±0, ±inf,
// NaN, subnormals, overflow and underflow) are handled by clamping and
// selects, not by branches.
//
// Method: Cody-Waite range reduction plus minimax polynomials, whose
// coefficients were fitted (Chebyshev, in high precision) for these
// reduced ranges and rounded to float. sin/cos/tan reduce in double (a
// three-part Cody-Waite for |x| < 2^27, a branch-free Payne-Hanek with 96
// bits of 2/pi above) and evaluate their polynomials in double.
//
// Accuracy (max error in float32 ulps against a correctly rounded float64
// reference, measured by tests/eager/test_vec_math.cpp over sweeps that
// include ±0, ±inf, NaN, subnormals and the overflow/underflow thresholds;
// "FMA" is the AVX-512 clone, where GCC contracts a*b+c, "no FMA" the
// baseline): see the table in test_vec_math.cpp; every function listed there
// stays within 2 ulp (exp, log, tanh, sigmoid, erf within the tested bound).
//
// Results are deterministic for a given ISA (no dependence on threads or on
// alignment); they can differ by an ulp between the FMA and non-FMA clones.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace lz::cpu::vm {

namespace detail {

inline uint32_t bits(float x) { return std::bit_cast<uint32_t>(x); }
inline float from_bits(uint32_t u) { return std::bit_cast<float>(u); }
inline uint64_t bits(double x) { return std::bit_cast<uint64_t>(x); }

inline constexpr float kInf = std::numeric_limits<float>::infinity();
inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

inline float abs(float x) { return from_bits(bits(x) & 0x7fffffffu); }
// c ? a : b as a bitwise blend. Both values are computed unconditionally,
// so GCC never moves a (possibly trapping) float operation into a branch;
// a plain `?:` on floats stops the vectoriser on ISAs without masked
// arithmetic (everything before AVX-512).
inline float sel(bool c, float a, float b) {
  const uint32_t m = 0u - static_cast<uint32_t>(c);
  return from_bits((bits(a) & m) | (bits(b) & ~m));
}
inline double sel(bool c, double a, double b) {
  const uint64_t m = 0u - static_cast<uint64_t>(c);
  return std::bit_cast<double>((bits(a) & m) | (bits(b) & ~m));
}
// The same with an integer condition (bit 0 of `c`), kept in 64 bits.
inline double sel_bit(int64_t c, double a, double b) {
  const uint64_t m = 0u - (static_cast<uint64_t>(c) & 1u);
  return std::bit_cast<double>((bits(a) & m) | (bits(b) & ~m));
}

// |mag| with the sign of `sign`.
inline float copysign(float mag, float sign) {
  return from_bits((bits(mag) & 0x7fffffffu) | (bits(sign) & 0x80000000u));
}

// 2^n for n in [-126, 127], built from its bits.
inline float pow2i(int32_t n) { return from_bits((static_cast<uint32_t>(n) + 127u) << 23); }

// Horner's rule, coefficients from the highest degree down.
template <class T>
inline T horner(T, T a) {
  return a;
}
template <class T, class... Rest>
inline T horner(T x, T a, T b, Rest... rest) {
  return horner(x, a * x + b, rest...);
}

// expm1(r) for |r| <= ln(2)/2 (a little more): r + r^2 Q(r).
inline float expm1_reduced(float r) {
  const float q = horner(r, 1.989299199e-04f, 1.393545186e-03f, 8.333308622e-03f, 4.166644812e-02f,
                         1.666666716e-01f, 5.000000000e-01f);
  return r + (r * r) * q;
}

// x = n ln2 + r with |r| <= ln(2)/2, for |x| < 2^21: returns r, sets n.
// The rounding constant 1.5*2^23 rounds x/ln2 to an integer in the float
// adder; ln2 is split so that n * kLn2Hi is exact (9 + 8 bits).
inline float reduce_ln2(float x, int32_t& n) {
  const float t = x * 1.44269504088896341f + 12582912.0f;
  const float nf = t - 12582912.0f;
  n = static_cast<int32_t>(bits(t) - 0x4b400000u);
  const float r = x - nf * 0.693359375f;
  return r - nf * -2.12194440e-4f;
}

// 2^n * v for n in [-252, 254] and v in [0.5, 2], rounding once.
inline float scale(float v, int32_t n) {
  const int32_t n1 = n >> 1;
  return (v * pow2i(n1)) * pow2i(n - n1);
}

// ln(x) + c for finite x > 0 and a small c (no special cases).
inline float log_finite(float x, float c = 0.0f) {
  const bool sub = x < 1.17549435e-38f;
  const float xs = sel(sub, x * 8388608.0f, x);
  // m in [sqrt(1/2), sqrt(2)), x = 2^e m.
  const uint32_t t = bits(xs) - 0x3f3504f3u;
  const float e = static_cast<float>(static_cast<int32_t>(t) >> 23) - sel(sub, 23.0f, 0.0f);
  const float f = from_bits((t & 0x007fffffu) + 0x3f3504f3u) - 1.0f;
  const float z = f * f;
  const float r = horner(f, 6.980702281e-02f, -1.149454638e-01f, 1.168907136e-01f, -1.242403761e-01f,
                         1.424855143e-01f, -1.666785032e-01f, 2.000073045e-01f, -2.499999702e-01f,
                         3.333333135e-01f);
  float y = f * z * r;
  y = y + (e * -2.12194440e-4f + c);
  y = y - 0.5f * z;
  return (f + y) + e * 0.693359375f;
}

// The special cases of log-like functions: log(±0) = -inf, log(x<0) = NaN,
// log(inf) = inf, NaN stays NaN.
inline float log_specials(float x, float r) {
  r = sel(x == kInf, kInf, r);
  r = sel(x == 0.0f, -kInf, r);
  r = sel(x < 0.0f, kNaN, r);
  return sel(x != x, x, r);
}

// e^(hi + lo) for |lo| <= ulp(hi)/2, as s1 s2 (t + err): t = 1 + p rounded,
// err its rounding error (exact), s1 s2 = 2^n. The product rounds once.
struct ExpSplit {
  float s1, s2, t, err;
  float value() const { return (t * s1) * s2; }
  float error() const { return (err * s1) * s2; }
};
inline ExpSplit exp_split(float hi, float lo) {
  float xc = sel(hi > 88.8f, 88.8f, hi);
  xc = sel(xc < -104.0f, -104.0f, xc);
  int32_t n;
  const float r = reduce_ln2(xc, n) + sel(xc == hi, lo, 0.0f);  // no tail once clamped
  const float p = expm1_reduced(r);
  const float t = 1.0f + p;
  const int32_t n1 = n >> 1;
  return ExpSplit{pow2i(n1), pow2i(n - n1), t, (1.0f - t) + p};
}

// a^2 = hi + lo exactly (through double: 24 x 24 bits fit in 53).
inline void square_split(double a, float& hi, float& lo) {
  const double sq = a * a;
  hi = static_cast<float>(sq);
  lo = static_cast<float>(sq - static_cast<double>(hi));
}

// erfc(a) for a >= 1 (and +inf), given a^2 = a2_hi + a2_lo:
// e^-a^2 u K(u) with u = 1/(1 + a/2).
inline float erfc_large(float a, float a2_hi, float a2_lo);

// sigmoid(x) for x = hi + lo as q + c, c a small correction: the rounding
// errors of e^-|x| and of 1 + e^-|x| are carried into c.
inline void sigmoid_parts(float hi, float lo, float& q, float& c) {
  const bool pos = hi >= 0.0f;
  const ExpSplit e = exp_split(sel(pos, -hi, hi), sel(pos, -lo, lo));
  const float e_hi = e.value(), e_lo = e.error();
  const float d = 1.0f + e_hi;
  const float d_lo = ((1.0f - d) + e_hi) + e_lo;  // exact: 1 >= e_hi
  const float num = sel(pos, 1.0f, e_hi);           // NaN takes e_hi, which is NaN
  const float num_lo = sel(pos, 0.0f, e_lo);
  q = num / d;
  c = (num_lo - q * d_lo) / d;
}

}  // namespace detail

// ---- Exponentials and logarithms -------------------------------------------

inline float exp(float x) {
  // Clamp (NaN passes through both compares) so that n stays in [-150, 128]:
  // e^88.8 overflows to inf and e^-104 rounds to 0 after the scaling.
  float xc = detail::sel(x > 88.8f, 88.8f, x);
  xc = detail::sel(xc < -104.0f, -104.0f, xc);
  int32_t n;
  const float r = detail::reduce_ln2(xc, n);
  return detail::scale(1.0f + detail::expm1_reduced(r), n);
}

inline float exp2(float x) {
  float xc = detail::sel(x > 129.0f, 129.0f, x);
  xc = detail::sel(xc < -151.0f, -151.0f, xc);
  const float t = xc + 12582912.0f;
  const float nf = t - 12582912.0f;
  const int32_t n = static_cast<int32_t>(detail::bits(t) - 0x4b400000u);
  const float f = xc - nf;  // exact, |f| <= 1/2
  const float p = detail::horner(f, 1.529912697e-05f, 1.546378917e-04f, 1.333349734e-03f,
                                 9.618050419e-03f, 5.550410971e-02f, 2.402265072e-01f, 6.931471825e-01f);
  return detail::scale(1.0f + f * p, n);
}

inline float expm1(float x) {
  // Below -30 the result is -1 in float; above 88.8 it overflows.
  float xc = detail::sel(x > 88.8f, 88.8f, x);
  xc = detail::sel(xc < -30.0f, -30.0f, xc);
  int32_t n;
  const float r = detail::reduce_ln2(xc, n);
  const float p = detail::expm1_reduced(r);
  // e^x - 1 = 2^n p + (2^n - 1): both terms exact but for the final add.
  const int32_t nc = n > 127 ? 127 : n;
  const float s = detail::pow2i(nc);
  const float normal = s * p + (s - 1.0f);
  const float top = (s * (p + 1.0f)) * 2.0f;  // n == 128: the -1 is below an ulp
  const float res = detail::sel(n > 127, top, normal);
  return detail::sel(x == 0.0f, x, res);  // keeps -0
}

inline float log(float x) { return detail::log_specials(x, detail::log_finite(x)); }

inline float log2(float x) {
  const bool sub = x < 1.17549435e-38f;
  const float xs = detail::sel(sub, x * 8388608.0f, x);
  const uint32_t t = detail::bits(xs) - 0x3f3504f3u;
  const float e = static_cast<float>(static_cast<int32_t>(t) >> 23) - detail::sel(sub, 23.0f, 0.0f);
  const float f = detail::from_bits((t & 0x007fffffu) + 0x3f3504f3u) - 1.0f;
  const float z = f * f;
  const float r = detail::horner(f, 6.980702281e-02f, -1.149454638e-01f, 1.168907136e-01f,
                                 -1.242403761e-01f, 1.424855143e-01f, -1.666785032e-01f,
                                 2.000073045e-01f, -2.499999702e-01f, 3.333333135e-01f);
  // ln(m) = f + y, y small; log2(x) = e + f log2(e) + y log2(e), with
  // log2(e) split so that f * kHi carries most of the product.
  const float y = f * z * r - 0.5f * z;
  const float hi = 1.44269502162933349609f, lo = 1.92596299112661746887e-8f;
  const float res = e + (f * hi + (f * lo + y * (hi + lo)));
  return detail::log_specials(x, res);
}

inline float log1p(float x) {
  const float u = 1.0f + x;
  // log(u) misses the rounding error of 1 + x; add it back to first order.
  float c = (x - (u - 1.0f)) / u;
  c = detail::sel(u == detail::kInf || u == 0.0f, 0.0f, c);
  const float res = detail::log_specials(u, detail::log_finite(u, c));
  return detail::sel(x == 0.0f, x, res);  // keeps -0
}

// ---- Hyperbolic and activation functions -----------------------------------

// tanh(|x|) with the sign of x: below 0.5625 an odd polynomial, above
// 1 - 2/(e^2|x| + 1), whose error in e^2|x| is damped by 2/(e + 1) <= 0.49.
// 2|x| is clamped to 18.5 (tanh rounds to 1 from |x| = 9.01 on), so 2^n
// (n <= 27) is added straight into the exponent field. A NaN fails the
// `>=` and takes the polynomial, which keeps it.
inline float tanh(float x) {
  const float a = detail::abs(x);
  const float z = a * a;
  const float small = a + a * z *
                              detail::horner(z, 2.487614751e-03f, -8.499247953e-03f, 2.181190252e-02f,
                                             -5.396406353e-02f, 1.333332211e-01f, -3.333333433e-01f);
  int32_t n;
  const float r = detail::reduce_ln2(detail::sel(a > 9.25f, 18.5f, a + a), n);
  const float e = detail::from_bits(detail::bits(1.0f + detail::expm1_reduced(r)) + (static_cast<uint32_t>(n) << 23));
  const float large = 1.0f - 2.0f / (e + 1.0f);
  return detail::copysign(detail::sel(a >= 0.5625f, large, small), x);
}

// 1 / (1 + e^-x) as num / (1 + e^-|x|) (num = 1 or e^-|x|): the
// exponential never overflows.
inline float sigmoid(float x) {
  float q, c;
  detail::sigmoid_parts(x, 0.0f, q, c);
  return q + c;
}

// x sigmoid(x), as PyTorch (silu(-inf) is NaN there too).
inline float silu(float x) {
  float q, c;
  detail::sigmoid_parts(x, 0.0f, q, c);
  const float xq = x * q;
  return detail::sel(c == 0.0f, xq, xq + x * c);  // silu(inf) = inf, silu(-0) = -0
}

namespace detail {
// erf(x)/x - 1 for z = x^2 in [0, 1].
inline float erf_q(float z) {
  return horner(z, 7.875874871e-05f, -8.016864303e-04f, 5.189087242e-03f, -2.685421146e-02f,
                1.128359437e-01f, -3.761262596e-01f, 1.283791661e-01f);
}
}  // namespace detail

inline float erf(float x) {
  const float a = detail::abs(x);
  const float z = x * x;
  // erf(x) = x + x Q(x^2) (Q = erf(x)/x - 1, small: no rounding of a value near 1).
  const float small = x + x * detail::erf_q(z);
  float a2_hi, a2_lo;
  detail::square_split(a, a2_hi, a2_lo);
  const float large = detail::copysign(1.0f - detail::erfc_large(a, a2_hi, a2_lo), x);
  return detail::sel(a < 1.0f, small, large);
}

inline float detail::erfc_large(float a, float a2_hi, float a2_lo) {
  // u is formed in double: u K(u) is about 2/a + 1 times as sensitive to a
  // relative error in u as to one in K.
  const double ud = 1.0 / (1.0 + 0.5 * static_cast<double>(a));
  const float u = static_cast<float>(ud);
  const float k = horner(u, -8.172309399e-02f, 2.632528245e-01f, -2.629637718e-01f, 3.569922596e-02f,
                         -2.932625078e-02f, 8.786203712e-02f, 1.759131849e-01f, 2.468526661e-01f,
                         2.820943892e-01f, 2.820948064e-01f);
  return exp_split(-a2_hi, -a2_lo).value() * static_cast<float>(ud * static_cast<double>(k));
}

// x/2 (1 + erf(x/sqrt(2))). For x/sqrt(2) <= -1 the factor is erfc(|t|),
// computed directly instead of 1 + erf (which cancels).
// t = x/sqrt(2) and t^2 are formed in double, so the deep negative tail
// (erfc of up to ~10) keeps float accuracy.
inline float gelu(float x) {
  const double td = static_cast<double>(x) * 0.70710678118654752440;
  const float t = static_cast<float>(td);
  const float a = detail::abs(t);
  // 1 + erf(t) for |t| < 1 (in double: it cancels down to 0.16 for t near -1).
  const double small = (1.0 + td) + td * static_cast<double>(detail::erf_q(t * t));
  float a2_hi, a2_lo;
  detail::square_split(td, a2_hi, a2_lo);
  const float e = detail::erfc_large(a, a2_hi, a2_lo);
  const double large = static_cast<double>(detail::sel(t > 0.0f, 2.0f - e, e));
  return static_cast<float>((0.5 * static_cast<double>(x)) * detail::sel(a < 1.0f, small, large));
}

// x/2 (1 + tanh(u)), u = sqrt(2/pi) (x + 0.044715 x^3), computed as the
// identical x sigmoid(2u) (no cancellation for negative x).
// 2u is formed in double and passed on as hi + lo, so that e^-2|u| keeps
// float accuracy in the tails.
inline float gelu_tanh(float x) {
  const double xd = x;
  const double u2 = 1.59576912160573071176 * (xd + 0.044715 * (xd * xd * xd));
  const float hi = static_cast<float>(u2);
  const float lo = static_cast<float>(u2 - static_cast<double>(hi));
  float q, c;
  detail::sigmoid_parts(hi, lo, q, c);
  const float xq = x * q;
  return detail::sel(c == 0.0f, xq, xq + x * c);
}

// ---- Trigonometric functions ------------------------------------------------

namespace detail {

// x = q pi/2 + y with |y| <= pi/4 (a little more), y in double.
struct Reduced {
  double y;
  int64_t q;
};

inline Reduced rem_pio2(float x) {
  const double xd = x;
  // |x| < 2^27: Cody-Waite in three parts (25 + 25 + 53 bits of pi/2); n
  // has at most 27 bits, so n*P1 and n*P2 are exact.
  const double t = xd * 0.63661977236758134308 + 6755399441055744.0;
  const double fn = t - 6755399441055744.0;
  const int64_t qm = static_cast<int64_t>(bits(t));  // low bits: n mod 2^32
  const double ym = ((xd - fn * 1.57079631090164184570e+00) - fn * 1.58932547122958567e-08) -
                    fn * 6.12323399573676604e-17;

  // Larger |x| = m 2^k (m < 2^24, k >= 5): x 2/pi mod 4 only depends on
  // the bits of 2/pi from 2^-(k-1) on. Take 96 of them (W), form the top 64
  // bits of m*W mod 2^96: 2 bits of quadrant, 62 of fraction.
  const uint32_t ix = bits(x) & 0x7fffffffu;
  const int32_t k = static_cast<int32_t>(ix >> 23) - 150;
  int32_t p = k - 2;  // index of the first bit of 2/pi needed
  p = p < 0 ? 0 : p;
  p = p > 102 ? 102 : p;
  const int32_t j = p >> 5;
  const uint64_t s = static_cast<uint64_t>(p & 31);
  // 2/pi as 64-bit windows of 32-bit words: kPair[i] = word i, word i+1.
  constexpr uint64_t P0 = 0xa2f9836e4e441529ull, P1 = 0x4e441529fc2757d1ull,
                     P2 = 0xfc2757d1f534ddc0ull, P3 = 0xf534ddc0db629599ull,
                     P4 = 0xdb6295993c439041ull, P5 = 0x3c439041fe5163abull;
  const uint64_t A = j == 0 ? P0 : j == 1 ? P1 : j == 2 ? P2 : P3;
  const uint64_t B = j == 0 ? P1 : j == 1 ? P2 : j == 2 ? P3 : P4;
  const uint64_t C = j == 0 ? P2 : j == 1 ? P3 : j == 2 ? P4 : P5;
  const uint64_t w0 = (A << s) >> 32, w1 = (B << s) >> 32, w2 = (C << s) >> 32;
  const uint64_t m = (ix & 0x007fffffu) | 0x00800000u;
  const uint64_t top = ((m * w0) << 32) + m * w1 + ((m * w2) >> 32);
  const int64_t ql = static_cast<int64_t>((top + (uint64_t{1} << 61)) >> 62);
  const int64_t frac = static_cast<int64_t>(top << 2);  // signed, units of 2^-64 quadrants
  const double f = static_cast<double>(static_cast<int32_t>(frac >> 32)) * 0x1p-32 +
                   static_cast<double>(static_cast<int32_t>(static_cast<uint32_t>(frac) >> 1)) * 0x1p-63;
  const double yl_abs = f * 1.57079632679489661923;
  const bool neg = x < 0.0f;
  const double yl = sel(neg, -yl_abs, yl_abs);
  const uint64_t mneg = 0u - static_cast<uint64_t>(neg);
  const int64_t ql_signed = static_cast<int64_t>((static_cast<uint64_t>(-ql) & mneg) | (static_cast<uint64_t>(ql) & ~mneg));

  const bool large = abs(x) >= 134217728.0f;
  const uint64_t mlarge = 0u - static_cast<uint64_t>(large);
  return Reduced{sel(large, yl, ym),
                 static_cast<int64_t>((static_cast<uint64_t>(ql_signed) & mlarge) | (static_cast<uint64_t>(qm) & ~mlarge))};
}

inline double sin_poly(double y, double z) {
  return y + y * z *
                 horner(z, -2.48051454067474308e-08, 2.75559856252008628e-06, -1.98412668994373974e-04,
                        8.33333333106115945e-03, -1.66666666666638569e-01);
}
inline double cos_poly(double z) {
  return (1.0 - 0.5 * z) + z * z *
                               horner(z, 2.07002494675627717e-09, -2.75563659022590209e-07,
                                      2.48015851984412175e-05, -1.38888888872644250e-03,
                                      4.16666666666646590e-02);
}

// NaN for ±inf and NaN, else r.
inline float trig_specials(float x, float r) { return sel(abs(x) <= 3.40282347e+38f, r, kNaN); }

}  // namespace detail

inline float sin(float x) {
  const detail::Reduced red = detail::rem_pio2(x);
  const double z = red.y * red.y;
  const double s = detail::sin_poly(red.y, z), c = detail::cos_poly(z);
  const double v = detail::sel_bit(red.q, c, s);
  const float res = static_cast<float>(detail::sel_bit(red.q >> 1, -v, v));
  return detail::sel(x == 0.0f, x, detail::trig_specials(x, res));
}

inline float cos(float x) {
  const detail::Reduced red = detail::rem_pio2(x);
  const double z = red.y * red.y;
  const double s = detail::sin_poly(red.y, z), c = detail::cos_poly(z);
  const double v = detail::sel_bit(red.q, s, c);
  return detail::trig_specials(x, static_cast<float>(detail::sel_bit((red.q + 1) >> 1, -v, v)));
}

inline float tan(float x) {
  const detail::Reduced red = detail::rem_pio2(x);
  const double z = red.y * red.y;
  const double s = detail::sin_poly(red.y, z), c = detail::cos_poly(z);
  const double num = detail::sel_bit(red.q, -c, s), den = detail::sel_bit(red.q, s, c);
  const float res = static_cast<float>(num / den);
  return detail::sel(x == 0.0f, x, detail::trig_specials(x, res));
}

// ---- Square roots ----------------------------------------------------------
// Newton's iteration for 1/sqrt in double from a bit-trick first guess
// (relative error 3.5e-2 -> 1.8e-3 -> 5e-6 -> 4e-11 -> ~1e-16), then a
// residual correction for sqrt. The double result is within ~2^-52 of the
// exact value, and a float square root is never closer than ~2^-49 to a
// rounding boundary, so rounding it to float gives the correctly rounded
// result (std::sqrt would be, too, but GCC does not vectorise it unless
// errno is off).

namespace detail {
inline double rsqrt_newton(double x) {
  double y = std::bit_cast<double>(0x5fe6eb50c7b537a9ull - (bits(x) >> 1));
  const double hx = 0.5 * x;
  y = y * (1.5 - hx * y * y);
  y = y * (1.5 - hx * y * y);
  y = y * (1.5 - hx * y * y);
  y = y * (1.5 - hx * y * y);
  return y;
}
}  // namespace detail

inline float sqrt(float x) {
  const double xd = x;
  const double y = detail::rsqrt_newton(xd);
  double s = xd * y;
  s = s + (0.5 * y) * (xd - s * s);
  float r = static_cast<float>(s);
  r = detail::sel(x == detail::kInf, detail::kInf, r);
  r = detail::sel(x < 0.0f, detail::kNaN, r);
  r = detail::sel(x != x, x, r);
  return detail::sel(x == 0.0f, x, r);  // sqrt(-0) = -0
}

// 1/sqrt(x), rounded once.
inline float rsqrt(float x) {
  const double xd = x;
  double y = detail::rsqrt_newton(xd);
  y = y + (0.5 * y) * (1.0 - xd * y * y);
  float r = static_cast<float>(y);
  r = detail::sel(x == detail::kInf, 0.0f, r);
  r = detail::sel(x < 0.0f, detail::kNaN, r);
  r = detail::sel(x != x, x, r);
  return detail::sel(x == 0.0f, detail::copysign(detail::kInf, x), r);  // 1/±0 = ±inf
}

// ---- Rounding (float and double) ---------------------------------------------
// Adding and subtracting 2^(digits-1) rounds to an integer in the current
// (nearest-even) mode; |x| at or above it is already an integer (or inf/NaN).

template <class T>
inline T round_half_even(T x) {
  constexpr T big = T(1) / std::numeric_limits<T>::epsilon();
  const T a = std::fabs(x);
  const T r = (a + big) - big;
  return std::copysign(detail::sel(a < big, r, a), x);
}

template <class T>
inline T floor(T x) {
  const T r = round_half_even(x);
  return detail::sel(r > x, r - T(1), r);
}

template <class T>
inline T ceil(T x) {
  const T r = round_half_even(x);
  return std::copysign(detail::sel(r < x, r + T(1), r), x);  // ceil(-0.5) is -0
}

template <class T>
inline T trunc(T x) {
  const T a = std::fabs(x);
  const T r = round_half_even(a);
  return std::copysign(detail::sel(r > a, r - T(1), r), x);
}

}  // namespace lz::cpu::vm
