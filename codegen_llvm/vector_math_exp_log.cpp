// float32 exponentials, logarithms and the functions built on them (tanh,
// sigmoid, erf) as IR: the algorithms and coefficients of the eager kernels
// (eager_kernels/cpu/vec_math.h), step for step, so that compiled and eager
// results agree to an ulp. Comments there explain each step; here only
// what differs (the Fast variants, and tanh: a table method that needs a
// vector permute the auto-vectorised eager code cannot use).
#include <llvm/IR/IntrinsicsX86.h>

#include "codegen_llvm/vector_math_ir.h"

namespace lz::codegen_llvm::vmir {
namespace {

// 2^n for an i32 n in [-126, 127], built from its bits.
Value* pow2i(Ir& ir, Value* n, llvm::Type* fty) {
  return ir.from_bits(ir.b.CreateShl(ir.b.CreateAdd(n, ir.ki(n, 127)), ir.ki(n, 23)), fty);
}

// 2^n * v for n in [-252, 254], rounding once (subnormal results included);
// nf is n as a float. 16 floats with AVX-512: one vscalefps, which rounds
// the same way (the two multiplies and their exponent arithmetic measured
// ~15% of softmax) and takes nf as it is.
Value* scale(Ir& ir, Value* v, Value* n, Value* nf) {
  if (zmm_floats(v->getType())) {
    return ir.b.CreateIntrinsic(llvm::Intrinsic::x86_avx512_mask_scalef_ps_512, {},
                                {v, nf, v, ir.b.getInt16(-1), ir.b.getInt32(4)});
  }
  Value* n1 = ir.b.CreateAShr(n, ir.ki(n, 1));
  Value* n2 = ir.b.CreateSub(n, n1);
  return ir.mul(ir.mul(v, pow2i(ir, n1, v->getType())), pow2i(ir, n2, v->getType()));
}

// Fast: 2^n v by adding n to v's exponent field, for results in the
// normal range: x > hi gives inf, x < lo gives 0 (no subnormal results),
// NaN stays NaN; no clamping needed (out-of-range lanes are replaced).
Value* scale_fast(Ir& ir, Value* x, Value* v, Value* n, float hi, float lo) {
  Value* u = ir.b.CreateAdd(ir.bits(v), ir.b.CreateShl(n, ir.ki(n, 23)));
  Value* r = ir.from_bits(u, x->getType());
  r = ir.sel(ir.gt(x, hi), kInf, r);
  r = ir.sel(ir.lt(x, lo), 0.0, r);
  return ir.sel(ir.isnan(x), x, r);
}

// expm1(r) for |r| <= ln(2)/2: r + r^2 Q(r).
Value* expm1_reduced(Ir& ir, Value* r) {
  Value* q = ir.horner(r, {1.989299199e-04f, 1.393545186e-03f, 8.333308622e-03f, 4.166644812e-02f,
                           1.666666716e-01f, 5.000000000e-01f});
  return ir.fma(ir.mul(r, r), q, r);
}

// x = n ln2 + r (Cody-Waite, ln2 in two parts): returns r, sets the i32 n
// and nf, n as a float.
Value* reduce_ln2(Ir& ir, Value* x, Value*& n, Value*& nf) {
  Value* t = ir.fma(x, ir.k(x, 1.44269504088896341f), ir.k(x, 12582912.0f));
  nf = ir.sub(t, 12582912.0f);
  n = ir.b.CreateSub(ir.bits(t), ir.ki(ir.bits(t), 0x4b400000));
  Value* r = ir.fma(nf, ir.k(x, -0.693359375f), x);
  return ir.fma(nf, ir.k(x, 2.12194440e-4f), r);
}

Value* clamp(Ir& ir, Value* x, double lo, double hi) {  // NaN passes through
  Value* c = ir.sel(ir.gt(x, hi), hi, x);
  return ir.sel(ir.lt(c, lo), lo, c);
}

// x = 2^e * (1 + f) with 1 + f in [sqrt(1/2), sqrt(2)) for finite x > 0
// (subnormals included), z = f^2, and the polynomial r of log(1 + f) =
// f - z/2 + f * z * r(f): the reduction ln and log2 share.
struct LogParts {
  Value *e, *f, *z, *r;
};

LogParts log_parts(Ir& ir, Value* x) {
  llvm::Type* fty = x->getType();
  Value* sub = ir.lt(x, 1.17549435e-38f);
  Value* xs = ir.sel(sub, ir.mul(x, 8388608.0f), x);
  Value* t = ir.b.CreateSub(ir.bits(xs), ir.ki(ir.bits(xs), 0x3f3504f3));
  Value* e = ir.sub(ir.sitofp(ir.b.CreateAShr(t, ir.ki(t, 23)), fty), ir.sel(sub, ir.k(x, 23.0f), 0.0f));
  Value* m = ir.b.CreateAdd(ir.b.CreateAnd(t, ir.ki(t, 0x007fffff)), ir.ki(t, 0x3f3504f3));
  Value* f = ir.sub(ir.from_bits(m, fty), 1.0f);
  Value* z = ir.mul(f, f);
  Value* r = ir.horner(f, {6.980702281e-02f, -1.149454638e-01f, 1.168907136e-01f, -1.242403761e-01f,
                           1.424855143e-01f, -1.666785032e-01f, 2.000073045e-01f, -2.499999702e-01f,
                           3.333333135e-01f});
  return {e, f, z, r};
}

// ln(x) + c for finite x > 0 (subnormals included) and a small c.
Value* log_finite(Ir& ir, Value* x, Value* c) {
  const auto [e, f, z, r] = log_parts(ir, x);
  Value* y = ir.mul(ir.mul(f, z), r);
  y = ir.add(y, ir.add(ir.mul(e, -2.12194440e-4f), c));
  y = ir.sub(y, ir.mul(z, 0.5f));
  return ir.add(ir.add(f, y), ir.mul(e, 0.693359375f));
}

// log(±0) = -inf, log(x < 0) = NaN, log(inf) = inf, NaN stays NaN.
Value* log_specials(Ir& ir, Value* x, Value* r) {
  r = ir.sel(ir.eq(x, kInf), kInf, r);
  r = ir.sel(ir.eq(x, 0.0), -kInf, r);
  r = ir.sel(ir.lt(x, 0.0), kNaN, r);
  return ir.sel(ir.isnan(x), x, r);
}

// e^(hi + lo) as s1 s2 (t + err): t = 1 + p rounded, err its rounding error.
struct ExpSplit {
  Value *s1, *s2, *t, *err;
  Value* value(Ir& ir) const { return ir.mul(ir.mul(t, s1), s2); }
  Value* error(Ir& ir) const { return ir.mul(ir.mul(err, s1), s2); }
};
ExpSplit exp_split(Ir& ir, Value* hi, Value* lo) {
  Value* xc = clamp(ir, hi, -104.0f, 88.8f);
  Value *n, *nf;
  Value* r = ir.add(reduce_ln2(ir, xc, n, nf), ir.sel(ir.eq(xc, hi), lo, 0.0));
  Value* p = expm1_reduced(ir, r);
  Value* t = ir.add(p, 1.0f);
  Value* n1 = ir.b.CreateAShr(n, ir.ki(n, 1));
  return ExpSplit{pow2i(ir, n1, hi->getType()), pow2i(ir, ir.b.CreateSub(n, n1), hi->getType()), t,
                  ir.add(ir.sub(1.0f, t), p)};
}

// sigmoid(x) = q + c (c the carried rounding errors of e^-|x| and 1 + e^-|x|).
void sigmoid_parts(Ir& ir, Value* hi, Value* lo, Value*& q, Value*& c) {
  Value* pos = ir.ge(hi, 0.0);
  const ExpSplit e = exp_split(ir, ir.sel(pos, ir.neg(hi), hi), ir.sel(pos, ir.neg(lo), lo));
  Value* e_hi = e.value(ir);
  Value* e_lo = e.error(ir);
  Value* d = ir.add(e_hi, 1.0f);
  Value* d_lo = ir.add(ir.add(ir.sub(1.0f, d), e_hi), e_lo);
  Value* num = ir.sel(pos, ir.k(hi, 1.0f), e_hi);
  Value* num_lo = ir.sel(pos, ir.k(hi, 0.0f), e_lo);
  q = ir.div(num, d);
  c = ir.div(ir.sub(num_lo, ir.mul(q, d_lo)), d);
}

// erf(x)/x - 1 for z = x^2 in [0, 1].
Value* erf_q(Ir& ir, Value* z) {
  return ir.horner(z, {7.875874871e-05f, -8.016864303e-04f, 5.189087242e-03f, -2.685421146e-02f,
                       1.128359437e-01f, -3.761262596e-01f, 1.283791661e-01f});
}

// K(u) of erfc(a) = e^-a^2 u K(u), u = 1/(1 + a/2).
Value* erfc_k(Ir& ir, Value* u) {
  return ir.horner(u, {-8.172309399e-02f, 2.632528245e-01f, -2.629637718e-01f, 3.569922596e-02f,
                       -2.932625078e-02f, 8.786203712e-02f, 1.759131849e-01f, 2.468526661e-01f,
                       2.820943892e-01f, 2.820948064e-01f});
}

}  // namespace

Value* exp_f32(Ir& ir, Value* x, MathMode mode) {
  if (mode == MathMode::Fast) {
    Value *n, *nf;
    Value* r = reduce_ln2(ir, x, n, nf);
    // ln(FLT_MAX) and ln(FLT_MIN) rounded inwards.
    return scale_fast(ir, x, ir.add(expm1_reduced(ir, r), 1.0f), n, 88.72283f, -87.33654f);
  }
  Value* xc = clamp(ir, x, -104.0f, 88.8f);
  Value *n, *nf;
  Value* r = reduce_ln2(ir, xc, n, nf);
  return scale(ir, ir.add(expm1_reduced(ir, r), 1.0f), n, nf);
}

Value* exp2_f32(Ir& ir, Value* x, MathMode mode) {
  const bool fast = mode == MathMode::Fast;
  Value* xc = fast ? x : clamp(ir, x, -151.0f, 129.0f);
  Value* t = ir.add(xc, 12582912.0f);
  Value* nf = ir.sub(t, 12582912.0f);
  Value* n = ir.b.CreateSub(ir.bits(t), ir.ki(ir.bits(t), 0x4b400000));
  Value* f = ir.sub(xc, nf);
  Value* p = ir.horner(f, {1.529912697e-05f, 1.546378917e-04f, 1.333349734e-03f, 9.618050419e-03f,
                           5.550410971e-02f, 2.402265072e-01f, 6.931471825e-01f});
  Value* v = ir.add(ir.mul(f, p), 1.0f);
  if (fast) return scale_fast(ir, x, v, n, 127.99999f, -126.0f);
  return scale(ir, v, n, nf);
}

Value* expm1_f32(Ir& ir, Value* x) {
  Value* xc = clamp(ir, x, -30.0f, 88.8f);
  Value *n, *nf;
  Value* r = reduce_ln2(ir, xc, n, nf);
  Value* p = expm1_reduced(ir, r);
  Value* over = ir.b.CreateICmpSGT(n, ir.ki(n, 127));
  Value* s = pow2i(ir, ir.b.CreateSelect(over, ir.ki(n, 127), n), x->getType());
  Value* normal = ir.add(ir.mul(s, p), ir.sub(s, 1.0f));
  Value* top = ir.mul(ir.mul(s, ir.add(p, 1.0f)), 2.0f);  // n == 128: the -1 is below an ulp
  return ir.sel(ir.eq(x, 0.0), x, ir.sel(over, top, normal));  // keeps -0
}

Value* log_f32(Ir& ir, Value* x) { return log_specials(ir, x, log_finite(ir, x, ir.k(x, 0.0f))); }

Value* log2_f32(Ir& ir, Value* x) {
  const auto [e, f, z, r] = log_parts(ir, x);
  Value* y = ir.sub(ir.mul(ir.mul(f, z), r), ir.mul(z, 0.5f));
  const float hi = 1.44269502162933349609f, lo = 1.92596299112661746887e-8f;
  Value* res = ir.add(e, ir.add(ir.mul(f, hi), ir.add(ir.mul(f, lo), ir.mul(y, hi + lo))));
  return log_specials(ir, x, res);
}

Value* log1p_f32(Ir& ir, Value* x) {
  Value* u = ir.add(x, 1.0f);
  Value* c = ir.div(ir.sub(x, ir.sub(u, 1.0f)), u);  // the rounding error of 1 + x, to first order
  c = ir.sel(ir.or_(ir.eq(u, kInf), ir.eq(u, 0.0)), 0.0, c);
  Value* res = log_specials(ir, u, log_finite(ir, u, c));
  return ir.sel(ir.eq(x, 0.0), x, res);  // keeps -0
}

// tanh by the addition formula around 16 centres C_k (k = round(|x|/0.6),
// |x| clamped to 9.2, where tanh rounds to 1): with r = |x| - C_k (exact)
// and t = tanh(r) = r + r^3 p(r^2),
//   tanh(|x|) = T_k + t / (A_k + B_k t),  T_k = tanh(C_k),
//   A_k = 1/(1 - T_k^2), B_k = T_k/(1 - T_k^2),
// and the sign of x ORed in. Each C_k is a float whose tanh is within 0.01
// ulp of a float, so T_k needs no low part; bucket 0 (T = -0, A = 1, B = 0)
// gives t itself, so small and subnormal x stay exact and -0 keeps its sign.
// 18 instructions with AVX-512 (four table lookups are one vpermps each)
// against ~40 for 1 - 2/(e^2|x| + 1); max error 1.26 ulp, at |x| = 0.888
// (bucket 1, where the correction is 30-50% of the result). A NaN passes
// the clamp and every step. Fast = Precise.
constexpr float kTanhC[16] = {0.0f,          4.499995112e-01f, 1.199999332e+00f, 1.799998283e+00f,
                              2.400000811e+00f, 3.000002861e+00f, 3.599991560e+00f, 4.199974060e+00f,
                              4.800097942e+00f, 5.400350571e+00f, 6.000398636e+00f, 6.600771427e+00f,
                              7.192120075e+00f, 7.768459797e+00f, 8.317766190e+00f, 8.664340019e+00f};
constexpr float kTanhT[16] = {-0.0f,         4.218986034e-01f, 8.336544037e-01f, 9.468058348e-01f,
                              9.836748838e-01f, 9.950547814e-01f, 9.985079169e-01f, 9.995503426e-01f,
                              9.998645782e-01f, 9.999592304e-01f, 9.999877214e-01f, 9.999963045e-01f,
                              9.999988675e-01f, 9.999996424e-01f, 9.999998808e-01f, 9.999999404e-01f};
constexpr float kTanhA[16] = {1.0f,          1.216542721e+00f, 3.278470039e+00f, 9.656357765e+00f,
                              3.087971115e+01f, 1.013583984e+02f, 3.353522339e+02f, 1.112209106e+03f,
                              3.692418457e+03f, 1.226429590e+04f, 4.072165234e+04f, 1.353003281e+05f,
                              4.415060000e+05f, 1.398101250e+06f, 4.194304500e+06f, 8.388613000e+06f};
constexpr float kTanhB[16] = {0.0f,          5.132576823e-01f, 2.733110905e+00f, 9.142696381e+00f,
                              3.037559700e+01f, 1.008571548e+02f, 3.348518372e+02f, 1.111708984e+03f,
                              3.691918457e+03f, 1.226379590e+04f, 4.072115234e+04f, 1.352998281e+05f,
                              4.415055000e+05f, 1.398100750e+06f, 4.194304000e+06f, 8.388612000e+06f};

Value* tanh_f32(Ir& ir, Value* x, MathMode) {
  Value* a = ir.fabs(x);
  a = ir.sel(ir.gt(a, 9.19999981f), ir.k(x, 9.19999981f), a);  // NaN passes
  // k = round(|x| / 0.6) in the low mantissa bits (the lookups use bits 0-3).
  Value* k = ir.bits(ir.fma(a, ir.k(x, 1.66666663f), ir.k(x, 12582912.0f)));
  Value* r = ir.sub(a, ir.lookup16(kTanhC, k, x->getType()));
  Value* z = ir.mul(r, r);
  Value* t = ir.fma(ir.mul(r, z), ir.horner(z, {1.794597507e-02f, -5.331604183e-02f, 1.332896203e-01f, -3.333324194e-01f}), r);
  Value* den = ir.fma(ir.lookup16(kTanhB, k, x->getType()), t, ir.lookup16(kTanhA, k, x->getType()));
  Value* y = ir.add(ir.lookup16(kTanhT, k, x->getType()), ir.div(t, den));
  Value* sign = ir.and_(ir.bits(x), ir.ki(ir.bits(x), static_cast<int64_t>(0x80000000u)));
  return ir.from_bits(ir.or_(ir.bits(y), sign), x->getType());
}

Value* sigmoid_f32(Ir& ir, Value* x, MathMode mode) {
  if (mode == MathMode::Fast) {
    // 1/(1 + e^-x): e^-x = inf gives 0, e^-x = 0 gives 1, NaN stays NaN.
    return ir.div(1.0f, ir.add(exp_f32(ir, ir.neg(x), MathMode::Fast), 1.0f));
  }
  Value *q, *c;
  sigmoid_parts(ir, x, ir.k(x, 0.0f), q, c);
  return ir.add(q, c);
}

Value* erf_f32(Ir& ir, Value* x, MathMode mode) {
  Value* a = ir.fabs(x);
  Value* small = ir.add(x, ir.mul(x, erf_q(ir, ir.mul(x, x))));
  Value* erfc;
  if (mode == MathMode::Fast) {
    // All in float: e^-a^2 loses ~a^2 2^-24 relatively, far below an ulp of
    // 1 - erfc (erfc <= 0.16 here).
    Value* u = ir.div(1.0f, ir.add(ir.mul(a, 0.5f), 1.0f));
    erfc = ir.mul(exp_f32(ir, ir.neg(ir.mul(a, a)), MathMode::Fast), ir.mul(u, erfc_k(ir, u)));
  } else {
    // The eager erfc_large's steps in float, exact where it uses double (its
    // double divisions and conversions made gelu 3x the cost of gelu_tanh):
    // a^2 = hi + lo by FMA, 1 + a/2 = d + d_lo (Fast2Sum, larger term first)
    // and u = 1/(1 + a/2) as u + u_lo (the FMA residual), since u K(u) is
    // about 2/a + 1 times as sensitive to a relative error in u as to one in
    // K. a is capped at 16 (erfc(16) is 0 in float) so that u stays finite.
    Value* a2_hi = ir.mul(a, a);
    Value* a2_lo = ir.fma(a, a, ir.neg(a2_hi));
    Value* h = ir.mul(ir.sel(ir.gt(a, 16.0), 16.0, a), 0.5);  // NaN passes
    Value* h_larger = ir.gt(h, 1.0f);
    Value* larger = ir.sel(h_larger, h, 1.0);
    Value* smaller = ir.sel(h_larger, 1.0, h);
    Value* d = ir.add(larger, smaller);
    Value* d_lo = ir.add(ir.sub(larger, d), smaller);
    Value* u = ir.div(1.0, d);
    Value* u_lo = ir.mul(u, ir.sub(ir.fma(ir.neg(u), d, ir.k(u, 1.0)), ir.mul(u, d_lo)));
    Value* k = erfc_k(ir, u);
    Value* e = exp_split(ir, ir.neg(a2_hi), ir.neg(a2_lo)).value(ir);
    erfc = ir.mul(e, ir.fma(u, k, ir.mul(u_lo, k)));
  }
  Value* large = ir.copysign(ir.sub(1.0f, erfc), x);
  return ir.sel(ir.lt(a, 1.0f), small, large);
}

}  // namespace lz::codegen_llvm::vmir
