// float32 pow and atan2 as IR (the eager kernels have no vectorised form of
// these). Both work in double inside the IR and round once to float, so
// they need no fitted coefficients: plain series whose truncation error is
// far below a float ulp.
//
// pow(x, y) = 2^(y log2|x|), then the sign and special cases of std::pow.
//   log2: |x| = 2^e m, m in [sqrt(1/2), sqrt(2)), s = (m-1)/(m+1),
//         ln m = 2 atanh s = 2 (s + s^3/3 + s^5/5 + ...), |s| <= 0.1716.
//   exp2: w = n + f, |f| <= 1/2, 2^f = e^(f ln2) by its Taylor series, 2^n
//         from the exponent bits; the double result is rounded to float once
//         (which also gives the float overflow, subnormals and underflow).
// Precise keeps terms to a truncation error < 2^-40 relative; a y log2|x|
// at most ~150 in magnitude (beyond, the float result is 0 or inf) keeps
// the result's error ~2^-45 relative: 0.5 ulp plus nothing measurable.
//
// atan2(num, den): t = min(|num|, |den|) / max(...) in [0, 1]; above
// tan(pi/8), atan t = pi/4 + atan((t-1)/(t+1)), so the series argument u
// has |u| <= 0.4143; atan u = u - u^3/3 + u^5/5 - ...; then the octant and
// quadrant, and the sign of num.
#include "codegen_llvm/vector_math_ir.h"

#include <vector>

namespace lz::codegen_llvm::vmir {
namespace {

// Horner over a coefficient list built at run time (highest degree first).
Value* horner_v(Ir& ir, Value* x, const std::vector<double>& cs) {
  Value* acc = ir.k(x, cs[0]);
  for (size_t i = 1; i < cs.size(); ++i) acc = ir.fma(acc, x, ir.k(x, cs[i]));
  return acc;
}

// log2(a) for a double a = |float| (never subnormal in double), with 0 ->
// -inf, inf -> inf, NaN -> NaN.
Value* log2_double(Ir& ir, Value* a, int terms) {
  auto& b = ir.b;
  llvm::Type* f64 = a->getType();
  const int64_t kSqrtHalfBits = 0x3fe6a09e667f3bcdll;
  Value* t = b.CreateSub(ir.bits(a), ir.ki(ir.bits(a), kSqrtHalfBits));
  Value* e = ir.sitofp(b.CreateAShr(t, ir.ki(t, 52)), f64);
  Value* mbits = b.CreateAdd(b.CreateAnd(t, ir.ki(t, 0x000fffffffffffffll)), ir.ki(t, kSqrtHalfBits));
  Value* f = ir.sub(ir.from_bits(mbits, f64), 1.0);  // exact
  Value* s = ir.div(f, ir.add(f, 2.0));
  Value* s2 = ir.mul(s, s);
  // ln m = 2s + 2s s2 (1/3 + s2/5 + s2^2/7 + ...)
  std::vector<double> cs;
  for (int k = terms; k >= 1; --k) cs.push_back(1.0 / (2 * k + 1));
  Value* two_s = ir.mul(s, 2.0);
  Value* ln_m = ir.add(two_s, ir.mul(ir.mul(two_s, s2), horner_v(ir, s2, cs)));
  Value* l = ir.add(e, ir.mul(ln_m, 1.44269504088896340736));
  l = ir.sel(ir.eq(a, 0.0), -kInf, l);
  l = ir.sel(ir.eq(a, kInf), kInf, l);
  return ir.sel(ir.isnan(a), a, l);
}

// 2^w for a double w, valid for |w| <= 300 after clamping (inf -> 2^±300).
Value* exp2_double(Ir& ir, Value* w, int terms) {
  auto& b = ir.b;
  Value* wc = ir.sel(ir.gt(w, 300.0), 300.0, w);
  wc = ir.sel(ir.lt(wc, -300.0), -300.0, wc);
  // Rounding constant 1.5 * 2^52: the low bits of t are n.
  Value* t = ir.add(wc, 6755399441055744.0);
  Value* n = b.CreateSub(ir.bits(t), ir.ki(ir.bits(t), 0x4338000000000000ll));
  Value* f = ir.sub(wc, ir.sub(t, 6755399441055744.0));  // exact, |f| <= 1/2
  Value* g = ir.mul(f, 0.69314718055994530942);
  std::vector<double> cs;
  double fact = 1;
  for (int k = 1; k <= terms; ++k) fact *= k;
  for (int k = terms; k >= 0; --k) {
    cs.push_back(1.0 / fact);
    fact /= k > 0 ? k : 1;
  }
  Value* p = horner_v(ir, g, cs);
  Value* scale = ir.from_bits(b.CreateShl(b.CreateAdd(n, ir.ki(n, 1023)), ir.ki(n, 52)), w->getType());
  return ir.mul(p, scale);
}

}  // namespace

Value* pow_f32(Ir& ir, Value* x, Value* y, MathMode mode) {
  auto& b = ir.b;
  const bool fast = mode == MathMode::Fast;
  // Terms for a relative truncation error < 2^-40 (Precise) or < 2^-30 (Fast).
  Value* l = log2_double(ir, ir.to_f64(ir.fabs(x)), fast ? 5 : 7);
  Value* r = ir.to_f32(exp2_double(ir, ir.mul(ir.to_f64(y), l), fast ? 8 : 10));

  // y an integer (finite), and odd (all floats >= 2^24 are even).
  Value* ay = ir.fabs(y);
  Value* y_int = ir.and_(ir.eq(ir.floor(y), y), ir.lt(ay, kInf));
  Value* y_small = ir.lt(ay, 16777216.0f);
  Value* yi = b.CreateFPToSI(ir.sel(y_small, y, 0.0f), ir.i32_like(y));
  Value* y_odd = ir.and_(ir.and_(y_int, y_small), ir.bit0(yi));

  // Negative x (-0 and -inf included) with an odd y: the result is negative.
  r = ir.sel(ir.and_(ir.signbit(x), y_odd), ir.neg(r), r);
  // Finite x < 0 with a finite non-integer y: NaN.
  Value* x_neg_finite = ir.and_(ir.lt(x, 0.0), ir.gt(x, -kInf));
  Value* y_frac = ir.and_(ir.lt(ay, kInf), b.CreateNot(y_int));
  r = ir.sel(ir.and_(x_neg_finite, y_frac), kNaN, r);
  // (±1)^±inf = 1 (y log2|x| is 0 * inf there), 1^y = 1 and x^±0 = 1, NaNs included.
  r = ir.sel(ir.and_(ir.eq(ir.fabs(x), 1.0), ir.eq(ay, kInf)), 1.0, r);
  r = ir.sel(ir.eq(x, 1.0), 1.0, r);
  return ir.sel(ir.eq(y, 0.0), 1.0, r);
}

Value* atan2_f32(Ir& ir, Value* num, Value* den, MathMode mode) {
  Value* yd = ir.to_f64(num);
  Value* xd = ir.to_f64(den);
  Value* ay = ir.fabs(yd);
  Value* ax = ir.fabs(xd);
  Value* steep = ir.gt(ay, ax);  // the angle from the x axis is above pi/4
  Value* t = ir.div(ir.sel(steep, ax, ay), ir.sel(steep, ay, ax));
  t = ir.sel(ir.eq(ir.sel(steep, ay, ax), 0.0), 0.0, t);                // atan2(±0, ±0)
  t = ir.sel(ir.and_(ir.eq(ax, kInf), ir.eq(ay, kInf)), 1.0, t);       // atan2(±inf, ±inf)
  Value* big = ir.gt(t, 0.41421356237309504880);
  Value* u = ir.sel(big, ir.div(ir.sub(t, 1.0), ir.add(t, 1.0)), t);
  Value* z = ir.mul(u, u);
  // atan u = u + u z P(z), P = -1/3 + z/5 - z^2/7 ...; terms up to u^(2n+1)
  // with n = 12 (truncation < 2^-37 relative) or 8 (< 2^-27).
  const int n = mode == MathMode::Fast ? 8 : 12;
  std::vector<double> cs;
  for (int k = n; k >= 1; --k) cs.push_back((k % 2 ? -1.0 : 1.0) / (2 * k + 1));
  Value* at = ir.add(u, ir.mul(ir.mul(u, z), horner_v(ir, z, cs)));
  at = ir.add(ir.sel(big, ir.k(at, 0.78539816339744830962), 0.0), at);
  Value* theta = ir.sel(steep, ir.sub(1.57079632679489661923, at), at);
  theta = ir.sel(ir.signbit(xd), ir.sub(3.14159265358979323846, theta), theta);
  Value* r = ir.copysign(ir.to_f32(theta), num);
  return ir.sel(ir.or_(ir.isnan(num), ir.isnan(den)), kNaN, r);
}

}  // namespace lz::codegen_llvm::vmir
