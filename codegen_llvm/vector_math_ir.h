// Internal to the vector math emitters (vector_math*.cpp): a thin helper
// over IRBuilderBase that makes the emitted float code read like the C++ of
// eager_kernels/cpu/vec_math.h. Every constant takes the type (and vector
// width) of the value it is combined with, so one emitter serves float,
// double and every width. Includes LLVM headers: not for use outside
// codegen_llvm.
#pragma once

#include <llvm/IR/IRBuilder.h>

#include <cstdint>
#include <initializer_list>

#include "codegen_llvm/vector_math.h"

namespace lz::codegen_llvm::vmir {

// The special values the functions return (a select's constant is a double
// converted to the vector's element type).
inline constexpr double kInf = __builtin_inf();
inline constexpr double kNaN = __builtin_nan("");

using llvm::Value;

class Ir {
 public:
  explicit Ir(llvm::IRBuilderBase& b) : b(b) {}
  llvm::IRBuilderBase& b;

  // Types with the lane count of `like`.
  llvm::Type* with_elem(Value* like, llvm::Type* elem) const { return like->getType()->getWithNewType(elem); }
  llvm::Type* f32_like(Value* v) const { return with_elem(v, b.getFloatTy()); }
  llvm::Type* f64_like(Value* v) const { return with_elem(v, b.getDoubleTy()); }
  llvm::Type* i32_like(Value* v) const { return with_elem(v, b.getInt32Ty()); }
  llvm::Type* i64_like(Value* v) const { return with_elem(v, b.getInt64Ty()); }
  llvm::Type* int_like(Value* v) const {  // the integer type of v's float bits
    return with_elem(v, b.getIntNTy(v->getType()->getScalarSizeInBits()));
  }

  // Constants shaped like `like` (float constants are exact: pass float
  // literals for float code).
  Value* k(Value* like, double c) const { return llvm::ConstantFP::get(like->getType(), c); }
  Value* ki(Value* like, int64_t c) const { return llvm::ConstantInt::get(like->getType(), static_cast<uint64_t>(c), true); }

  // Float arithmetic (no fast-math flags: exact IEEE semantics).
  Value* add(Value* a, Value* c) const { return b.CreateFAdd(a, c); }
  Value* sub(Value* a, Value* c) const { return b.CreateFSub(a, c); }
  Value* mul(Value* a, Value* c) const { return b.CreateFMul(a, c); }
  Value* div(Value* a, Value* c) const { return b.CreateFDiv(a, c); }
  Value* neg(Value* a) const { return b.CreateFNeg(a); }
  Value* add(Value* a, double c) const { return add(a, k(a, c)); }
  Value* sub(Value* a, double c) const { return sub(a, k(a, c)); }
  Value* sub(double c, Value* a) const { return sub(k(a, c), a); }
  Value* mul(Value* a, double c) const { return mul(a, k(a, c)); }
  Value* div(double c, Value* a) const { return div(k(a, c), a); }
  // a*b + c, fused where the target has FMA (as GCC contracts the eager code).
  Value* fma(Value* a, Value* m, Value* c) const {
    return b.CreateIntrinsic(llvm::Intrinsic::fmuladd, {a->getType()}, {a, m, c});
  }
  // Horner's rule, coefficients from the highest degree down.
  Value* horner(Value* x, std::initializer_list<double> cs) const {
    auto it = cs.begin();
    Value* acc = k(x, *it++);
    for (; it != cs.end(); ++it) acc = fma(acc, x, k(x, *it));
    return acc;
  }

  // table[k & 15] per lane (k: i32 lanes), as floats of type fty: one
  // vpermps for 16 floats with AVX-512 (it reads only bits 0-3), else loads
  // from a constant array (a gather for vectors).
  Value* lookup16(const float (&table)[16], Value* k, llvm::Type* fty) const;

  Value* fabs(Value* x) const { return b.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x); }
  Value* floor(Value* x) const { return b.CreateUnaryIntrinsic(llvm::Intrinsic::floor, x); }
  Value* sqrt(Value* x) const { return b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, x); }
  Value* copysign(Value* mag, Value* sign) const {
    return b.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, mag, sign);
  }

  // Ordered comparisons (false for NaN), like C++'s <, >, ==; ne is C++'s
  // != (true for NaN).
  Value* lt(Value* a, double c) const { return b.CreateFCmpOLT(a, k(a, c)); }
  Value* le(Value* a, double c) const { return b.CreateFCmpOLE(a, k(a, c)); }
  Value* gt(Value* a, double c) const { return b.CreateFCmpOGT(a, k(a, c)); }
  Value* ge(Value* a, double c) const { return b.CreateFCmpOGE(a, k(a, c)); }
  Value* eq(Value* a, double c) const { return b.CreateFCmpOEQ(a, k(a, c)); }
  Value* gt(Value* a, Value* c) const { return b.CreateFCmpOGT(a, c); }
  Value* eq(Value* a, Value* c) const { return b.CreateFCmpOEQ(a, c); }
  Value* isnan(Value* a) const { return b.CreateFCmpUNO(a, a); }
  Value* sel(Value* c, Value* a, Value* e) const { return b.CreateSelect(c, a, e); }
  Value* sel(Value* c, double a, Value* e) const { return b.CreateSelect(c, k(e, a), e); }
  Value* sel(Value* c, Value* a, double e) const { return b.CreateSelect(c, a, k(a, e)); }
  Value* and_(Value* a, Value* c) const { return b.CreateAnd(a, c); }
  Value* or_(Value* a, Value* c) const { return b.CreateOr(a, c); }

  // Bits and conversions.
  Value* bits(Value* x) const { return b.CreateBitCast(x, int_like(x)); }
  Value* from_bits(Value* u, llvm::Type* fty) const { return b.CreateBitCast(u, fty); }
  Value* signbit(Value* x) const { return b.CreateICmpSLT(bits(x), ki(bits(x), 0)); }
  Value* to_f64(Value* x) const { return b.CreateFPExt(x, f64_like(x)); }
  Value* to_f32(Value* x) const { return b.CreateFPTrunc(x, f32_like(x)); }
  Value* sitofp(Value* i, llvm::Type* fty) const { return b.CreateSIToFP(i, fty); }
  // Bit 0 of an integer as an i1 condition.
  Value* bit0(Value* i) const { return b.CreateICmpNE(b.CreateAnd(i, ki(i, 1)), ki(i, 0)); }
};

// The float32 emitters (x of float or <N x float> type).
Value* exp_f32(Ir& ir, Value* x, MathMode mode);
Value* exp2_f32(Ir& ir, Value* x, MathMode mode);
Value* expm1_f32(Ir& ir, Value* x);
Value* log_f32(Ir& ir, Value* x);
Value* log2_f32(Ir& ir, Value* x);
Value* log1p_f32(Ir& ir, Value* x);
Value* tanh_f32(Ir& ir, Value* x, MathMode mode);
Value* sigmoid_f32(Ir& ir, Value* x, MathMode mode);
Value* erf_f32(Ir& ir, Value* x, MathMode mode);
Value* sin_f32(Ir& ir, Value* x, MathMode mode);
Value* cos_f32(Ir& ir, Value* x, MathMode mode);
Value* tan_f32(Ir& ir, Value* x, MathMode mode);
Value* pow_f32(Ir& ir, Value* x, Value* y, MathMode mode);
Value* atan2_f32(Ir& ir, Value* num, Value* den, MathMode mode);  // atan2(num, den)

}  // namespace lz::codegen_llvm::vmir
