// float32 sin, cos and tan as IR, as the eager kernels compute them
// (eager_kernels/cpu/vec_math.h, rem_pio2): the argument is reduced in
// double, x = q pi/2 + y with |y| <= pi/4, by a three-part Cody-Waite for
// |x| < 2^27 and a branch-free Payne-Hanek (96 bits of 2/pi, 64-bit integer
// lanes) above; the polynomials run in double and round once to float.
// Fast mode leaves the Payne-Hanek part out: exact-enough reduction below
// 2^27 only (beyond, sin and cos give some value in [-1, 1] and tan some
// value, possibly ±inf; inf and NaN still give NaN).
#include "codegen_llvm/vector_math_ir.h"

namespace lz::codegen_llvm::vmir {
namespace {

struct Reduced {
  Value* y;  // double, |y| <= pi/4 (a little more)
  Value* q;  // i64, quadrant (only its low two bits matter)
};

// |x| >= 2^27: x = m 2^k (m < 2^24, k >= 5). x 2/pi mod 4 only needs the bits
// of 2/pi from 2^-(k-1) on: take 96 of them (three 32-bit windows of the
// table below, shifted by p mod 32) and keep the top 64 bits of m * W mod
// 2^96 (2 bits of quadrant, 62 of fraction).
Reduced payne_hanek(Ir& ir, Value* x) {
  auto& b = ir.b;
  Value* ix = b.CreateAnd(ir.bits(x), ir.ki(ir.bits(x), 0x7fffffff));
  Value* k = b.CreateSub(b.CreateLShr(ix, ir.ki(ix, 23)), ir.ki(ix, 150));
  Value* p = b.CreateSub(k, ir.ki(k, 2));  // index of the first bit of 2/pi needed
  p = b.CreateSelect(b.CreateICmpSLT(p, ir.ki(p, 0)), ir.ki(p, 0), p);
  p = b.CreateSelect(b.CreateICmpSGT(p, ir.ki(p, 102)), ir.ki(p, 102), p);
  Value* j = b.CreateLShr(p, ir.ki(p, 5));
  llvm::Type* i64 = ir.i64_like(x);
  Value* s = b.CreateZExt(b.CreateAnd(p, ir.ki(p, 31)), i64);
  // 2/pi in 64-bit windows of its 32-bit words: kPair[i] = word i, word i+1.
  static constexpr uint64_t kPair[6] = {0xa2f9836e4e441529ull, 0x4e441529fc2757d1ull, 0xfc2757d1f534ddc0ull,
                                        0xf534ddc0db629599ull, 0xdb6295993c439041ull, 0x3c439041fe5163abull};
  auto window = [&](int first) {  // kPair[first + j] for j in [0, 3]
    Value* w = ir.ki(s, static_cast<int64_t>(kPair[first + 3]));
    for (int i = 2; i >= 0; --i)
      w = b.CreateSelect(b.CreateICmpEQ(j, ir.ki(j, i)), ir.ki(s, static_cast<int64_t>(kPair[first + i])), w);
    return b.CreateLShr(b.CreateShl(w, s), ir.ki(s, 32));
  };
  Value* w0 = window(0);
  Value* w1 = window(1);
  Value* w2 = window(2);
  Value* m = b.CreateZExt(b.CreateOr(b.CreateAnd(ix, ir.ki(ix, 0x007fffff)), ir.ki(ix, 0x00800000)), i64);
  Value* top = b.CreateAdd(b.CreateAdd(b.CreateShl(b.CreateMul(m, w0), ir.ki(m, 32)), b.CreateMul(m, w1)),
                           b.CreateLShr(b.CreateMul(m, w2), ir.ki(m, 32)));
  Value* ql = b.CreateLShr(b.CreateAdd(top, ir.ki(top, int64_t{1} << 61)), ir.ki(top, 62));
  Value* frac = b.CreateShl(top, ir.ki(top, 2));  // signed, units of 2^-64 quadrants
  llvm::Type* i32 = ir.i32_like(x);
  llvm::Type* f64 = ir.f64_like(x);
  Value* hi = ir.sitofp(b.CreateTrunc(b.CreateAShr(frac, ir.ki(frac, 32)), i32), f64);
  Value* lo32 = b.CreateTrunc(frac, i32);
  Value* lo = ir.sitofp(b.CreateLShr(lo32, ir.ki(lo32, 1)), f64);
  Value* f = ir.add(ir.mul(hi, 0x1p-32), ir.mul(lo, 0x1p-63));
  Value* y_abs = ir.mul(f, 1.57079632679489661923);
  Value* neg = ir.lt(x, 0.0);
  return Reduced{ir.sel(neg, ir.neg(y_abs), y_abs), b.CreateSelect(neg, b.CreateNeg(ql), ql)};
}

Reduced rem_pio2(Ir& ir, Value* x, MathMode mode) {
  Value* xd = ir.to_f64(x);
  // |x| < 2^27: n has at most 27 bits, so n*P1 and n*P2 are exact; the low
  // bits of t are n.
  Value* t = ir.add(ir.mul(xd, 0.63661977236758134308), 6755399441055744.0);
  Value* fn = ir.sub(t, 6755399441055744.0);
  Value* qm = ir.bits(t);
  Value* ym = ir.sub(xd, ir.mul(fn, 1.57079631090164184570e+00));
  ym = ir.sub(ir.sub(ym, ir.mul(fn, 1.58932547122958567e-08)), ir.mul(fn, 6.12323399573676604e-17));
  // Fast: no Payne-Hanek. Beyond 2^27 ym is inaccurate, and beyond ~2^52
  // no longer small; replacing |ym| >= 1 by 0 keeps sin and cos in [-1, 1].
  if (mode == MathMode::Fast) return Reduced{ir.sel(ir.lt(ir.fabs(ym), 1.0), ym, 0.0), qm};
  const Reduced big = payne_hanek(ir, x);
  Value* large = ir.ge(ir.fabs(x), 134217728.0f);
  return Reduced{ir.sel(large, big.y, ym), ir.b.CreateSelect(large, big.q, qm)};
}

Value* sin_poly(Ir& ir, Value* y, Value* z) {
  Value* h = ir.horner(z, {-2.48051454067474308e-08, 2.75559856252008628e-06, -1.98412668994373974e-04,
                           8.33333333106115945e-03, -1.66666666666638569e-01});
  return ir.add(y, ir.mul(ir.mul(y, z), h));
}
Value* cos_poly(Ir& ir, Value* z) {
  Value* h = ir.horner(z, {2.07002494675627717e-09, -2.75563659022590209e-07, 2.48015851984412175e-05,
                           -1.38888888872644250e-03, 4.16666666666646590e-02});
  return ir.add(ir.sub(1.0, ir.mul(z, 0.5)), ir.mul(ir.mul(z, z), h));
}

// NaN for ±inf and NaN, else r.
Value* trig_specials(Ir& ir, Value* x, Value* r) { return ir.sel(ir.le(ir.fabs(x), 3.40282347e+38f), r, kNaN); }

// c ? -v : v for the i64 bit 0 of c.
Value* negate_if(Ir& ir, Value* c, Value* v) { return ir.sel(ir.bit0(c), ir.neg(v), v); }

}  // namespace

Value* sin_f32(Ir& ir, Value* x, MathMode mode) {
  const Reduced red = rem_pio2(ir, x, mode);
  Value* z = ir.mul(red.y, red.y);
  Value* v = ir.sel(ir.bit0(red.q), cos_poly(ir, z), sin_poly(ir, red.y, z));
  Value* q2 = ir.b.CreateAShr(red.q, ir.ki(red.q, 1));
  Value* res = ir.to_f32(negate_if(ir, q2, v));
  return ir.sel(ir.eq(x, 0.0), x, trig_specials(ir, x, res));  // keeps -0
}

Value* cos_f32(Ir& ir, Value* x, MathMode mode) {
  const Reduced red = rem_pio2(ir, x, mode);
  Value* z = ir.mul(red.y, red.y);
  Value* v = ir.sel(ir.bit0(red.q), sin_poly(ir, red.y, z), cos_poly(ir, z));
  Value* q2 = ir.b.CreateAShr(ir.b.CreateAdd(red.q, ir.ki(red.q, 1)), ir.ki(red.q, 1));
  return trig_specials(ir, x, ir.to_f32(negate_if(ir, q2, v)));
}

Value* tan_f32(Ir& ir, Value* x, MathMode mode) {
  const Reduced red = rem_pio2(ir, x, mode);
  Value* z = ir.mul(red.y, red.y);
  Value* s = sin_poly(ir, red.y, z);
  Value* c = cos_poly(ir, z);
  Value* odd = ir.bit0(red.q);
  Value* res = ir.to_f32(ir.div(ir.sel(odd, ir.neg(c), s), ir.sel(odd, s, c)));
  return ir.sel(ir.eq(x, 0.0), x, trig_specials(ir, x, res));
}

}  // namespace lz::codegen_llvm::vmir
