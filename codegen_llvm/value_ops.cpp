#include "codegen_llvm/value_ops.h"

#include <cmath>
#include <limits>

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>

namespace lz::codegen_llvm {

using ir::ReduceOp;
using ir::ScalarOp;
using llvm::Value;

namespace {

[[noreturn]] void unsupported(std::string what) { throw UnsupportedKernel{std::move(what)}; }

std::string op_name(ScalarOp op) { return std::string(ir::to_string(op)); }

}  // namespace

llvm::Type* compute_type(llvm::LLVMContext& c, ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return llvm::Type::getInt1Ty(c);
    case ScalarType::Byte: case ScalarType::Char: return llvm::Type::getInt8Ty(c);
    case ScalarType::Short: return llvm::Type::getInt16Ty(c);
    case ScalarType::Int: return llvm::Type::getInt32Ty(c);
    case ScalarType::Long: return llvm::Type::getInt64Ty(c);
    case ScalarType::Half: case ScalarType::BFloat16: case ScalarType::Float: return llvm::Type::getFloatTy(c);
    case ScalarType::Double: return llvm::Type::getDoubleTy(c);
    default: break;
  }
  unsupported("dtype " + std::string(to_string(t)));
}

llvm::Type* memory_type(llvm::LLVMContext& c, ScalarType t) {
  switch (t) {
    case ScalarType::Bool: return llvm::Type::getInt8Ty(c);
    case ScalarType::Half: return llvm::Type::getHalfTy(c);
    case ScalarType::BFloat16: return llvm::Type::getInt16Ty(c);  // converted by bit arithmetic
    default: return compute_type(c, t);
  }
}

llvm::Type* ValueOps::type(ScalarType t) const {
  llvm::Type* s = compute_type(b_.getContext(), t);
  return width_ == 1 ? s : llvm::FixedVectorType::get(s, width_);
}

Value* ValueOps::splat(Value* scalar) const {
  return width_ == 1 ? scalar : b_.CreateVectorSplat(width_, scalar);
}

Value* ValueOps::fconst(llvm::Type* like, double value) const { return llvm::ConstantFP::get(like, value); }
Value* ValueOps::iconst(llvm::Type* like, uint64_t value) const { return llvm::ConstantInt::get(like, value); }

Value* ValueOps::constant_of(double value, ScalarType t) const {
  llvm::Type* ty = type(t);
  if (is_floating_point(t)) {
    if (t == ScalarType::Double) return fconst(ty, value);
    return round_to(fconst(ty, static_cast<float>(value)), t);
  }
  return iconst(ty, static_cast<uint64_t>(static_cast<int64_t>(value)));
}

Value* ValueOps::constant(const ir::Expr& e) const {
  llvm::Type* ty = type(e.dtype);
  if (is_floating_point(e.dtype)) {
    if (e.dtype == ScalarType::Double) return fconst(ty, e.constant);
    return round_to(fconst(ty, static_cast<float>(e.constant)), e.dtype);
  }
  if (e.dtype == ScalarType::Bool) return iconst(ty, e.iconstant != 0);
  return iconst(ty, static_cast<uint64_t>(e.iconstant));
}

// float16 rounding through LLVM's half conversions; bfloat16 with the
// integer round-to-nearest-even of core/half.h (NaN stays a quiet NaN).
Value* ValueOps::round_to(Value* v, ScalarType t) const {
  if (t == ScalarType::Half) {
    llvm::Type* h = llvm::Type::getHalfTy(b_.getContext());
    if (width_ > 1) h = llvm::FixedVectorType::get(h, width_);
    return b_.CreateFPExt(b_.CreateFPTrunc(v, h), v->getType());
  }
  if (t == ScalarType::BFloat16) return from_memory(to_memory(v, t), t);
  return v;
}

Value* ValueOps::from_memory(Value* v, ScalarType t) const {
  switch (t) {
    case ScalarType::Bool: return b_.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
    case ScalarType::Half: return b_.CreateFPExt(v, type(ScalarType::Float));
    case ScalarType::BFloat16: {
      llvm::Type* i32 = type(ScalarType::Int);
      return b_.CreateBitCast(b_.CreateShl(b_.CreateZExt(v, i32), 16), type(ScalarType::Float));
    }
    default: return v;
  }
}

Value* ValueOps::to_memory(Value* v, ScalarType t) const {
  llvm::LLVMContext& c = b_.getContext();
  auto mem = [&](ScalarType s) {
    llvm::Type* m = memory_type(c, s);
    return width_ == 1 ? m : llvm::FixedVectorType::get(m, width_);
  };
  switch (t) {
    case ScalarType::Bool: return b_.CreateZExt(v, mem(t));
    case ScalarType::Half: return b_.CreateFPTrunc(v, mem(t));
    case ScalarType::BFloat16: {
      llvm::Type* i32 = type(ScalarType::Int);
      Value* u = b_.CreateBitCast(v, i32);
      Value* nan = b_.CreateICmpUGT(b_.CreateAnd(u, iconst(i32, 0x7fffffffu)), iconst(i32, 0x7f800000u));
      Value* lsb = b_.CreateAnd(b_.CreateLShr(u, 16), iconst(i32, 1));
      Value* rounded = b_.CreateLShr(b_.CreateAdd(u, b_.CreateAdd(lsb, iconst(i32, 0x7fffu))), 16);
      Value* quiet = b_.CreateOr(b_.CreateLShr(u, 16), iconst(i32, 0x40u));
      return b_.CreateTrunc(b_.CreateSelect(nan, quiet, rounded), mem(t));
    }
    default: return v;
  }
}

Value* ValueOps::truth(Value* v, ScalarType t) const {
  if (t == ScalarType::Bool) return v;
  if (is_floating_point(t)) return b_.CreateFCmpUNE(v, llvm::Constant::getNullValue(v->getType()));
  return b_.CreateICmpNE(v, llvm::Constant::getNullValue(v->getType()));
}

// x86's cvtt* result for NaN and out-of-range values ("integer
// indefinite"), made explicit: LLVM's fptosi is poison there.
Value* ValueOps::float_to_int(Value* v, ScalarType to) const {
  llvm::Type* d = type(ScalarType::Double);
  Value* x = v->getType()->getScalarType()->isDoubleTy() ? v : b_.CreateFPExt(v, d);
  if (to == ScalarType::Long) {
    llvm::Type* i64 = type(ScalarType::Long);
    Value* in = b_.CreateAnd(b_.CreateFCmpOGE(x, fconst(d, -9223372036854775808.0)),
                             b_.CreateFCmpOLT(x, fconst(d, 9223372036854775808.0)));
    Value* safe = b_.CreateSelect(in, x, fconst(d, 0));
    return b_.CreateSelect(in, b_.CreateFPToSI(safe, i64), iconst(i64, uint64_t{1} << 63));
  }
  llvm::Type* i32 = type(ScalarType::Int);
  Value* in = b_.CreateAnd(b_.CreateFCmpOGT(x, fconst(d, -2147483649.0)), b_.CreateFCmpOLT(x, fconst(d, 2147483648.0)));
  Value* safe = b_.CreateSelect(in, x, fconst(d, 0));
  Value* i = b_.CreateSelect(in, b_.CreateFPToSI(safe, i32), iconst(i32, 0x80000000u));
  return to == ScalarType::Int ? i : b_.CreateTrunc(i, type(to));
}

Value* ValueOps::convert(Value* v, ScalarType from, ScalarType to) const {
  if (from == to) return v;
  const bool ff = is_floating_point(from), tf = is_floating_point(to);
  if (to == ScalarType::Bool) return truth(v, from);
  if (ff && tf) {
    if (to == ScalarType::Double) return b_.CreateFPExt(v, type(to));
    Value* f = from == ScalarType::Double ? b_.CreateFPTrunc(v, type(ScalarType::Float)) : v;
    return round_to(f, to);
  }
  if (ff) return float_to_int(v, to);
  const bool is_unsigned = from == ScalarType::Bool || from == ScalarType::Byte;
  if (to == ScalarType::Double) return is_unsigned ? b_.CreateUIToFP(v, type(to)) : b_.CreateSIToFP(v, type(to));
  if (tf) {  // one rounding to float, then to the 16-bit precision
    Value* f = is_unsigned ? b_.CreateUIToFP(v, type(ScalarType::Float)) : b_.CreateSIToFP(v, type(ScalarType::Float));
    return round_to(f, to);
  }
  return is_unsigned ? b_.CreateZExtOrTrunc(v, type(to)) : b_.CreateSExtOrTrunc(v, type(to));
}

Value* ValueOps::float_unary(ScalarOp op, Value* x) const {
  llvm::Type* ty = x->getType();
  auto intrinsic = [&](llvm::Intrinsic::ID id) { return b_.CreateUnaryIntrinsic(id, x); };
  auto math = [&](MathFn fn) {
    Value* v = emit_math(b_, fn, x, nullptr, mode_);
    if (v == nullptr) unsupported(op_name(op) + ": no vector math for this type");
    return v;
  };
  switch (op) {
    case ScalarOp::Neg: return b_.CreateFNeg(x);
    case ScalarOp::Abs: return intrinsic(llvm::Intrinsic::fabs);
    case ScalarOp::Sign: {
      Value* one = fconst(ty, 1), *zero = fconst(ty, 0);
      return b_.CreateFSub(b_.CreateSelect(b_.CreateFCmpOGT(x, zero), one, zero),
                           b_.CreateSelect(b_.CreateFCmpOLT(x, zero), one, zero));
    }
    case ScalarOp::Reciprocal: return b_.CreateFDiv(fconst(ty, 1), x);
    case ScalarOp::Square: return b_.CreateFMul(x, x);
    case ScalarOp::Exp: return math(MathFn::Exp);
    case ScalarOp::Exp2: return math(MathFn::Exp2);
    case ScalarOp::Expm1: return math(MathFn::Expm1);
    case ScalarOp::Log: return math(MathFn::Log);
    case ScalarOp::Log2: return math(MathFn::Log2);
    case ScalarOp::Log1p: return math(MathFn::Log1p);
    case ScalarOp::Sqrt: return math(MathFn::Sqrt);
    case ScalarOp::Rsqrt: return math(MathFn::Rsqrt);
    case ScalarOp::Sin: return math(MathFn::Sin);
    case ScalarOp::Cos: return math(MathFn::Cos);
    case ScalarOp::Tan: return math(MathFn::Tan);
    case ScalarOp::Tanh: return math(MathFn::Tanh);
    case ScalarOp::Sigmoid: return math(MathFn::Sigmoid);
    case ScalarOp::Erf: return math(MathFn::Erf);
    case ScalarOp::Floor: return intrinsic(llvm::Intrinsic::floor);
    case ScalarOp::Ceil: return intrinsic(llvm::Intrinsic::ceil);
    case ScalarOp::Round: return intrinsic(llvm::Intrinsic::roundeven);
    case ScalarOp::Trunc: return intrinsic(llvm::Intrinsic::trunc);
    default: break;
  }
  unsupported(op_name(op) + " on a floating value");
}

Value* ValueOps::int_unary(ScalarOp op, Value* x, ScalarType t) const {
  llvm::Type* ty = x->getType();
  Value* zero = llvm::Constant::getNullValue(ty);
  const bool is_unsigned = t == ScalarType::Byte || t == ScalarType::Bool;
  switch (op) {
    case ScalarOp::Neg: return b_.CreateSub(zero, x);
    case ScalarOp::Abs: return is_unsigned ? x : b_.CreateSelect(b_.CreateICmpSLT(x, zero), b_.CreateSub(zero, x), x);
    case ScalarOp::Sign: {
      if (is_unsigned) return b_.CreateZExt(b_.CreateICmpNE(x, zero), ty);
      return b_.CreateSub(b_.CreateZExt(b_.CreateICmpSGT(x, zero), ty), b_.CreateZExt(b_.CreateICmpSLT(x, zero), ty));
    }
    case ScalarOp::Square: return b_.CreateMul(x, x);
    case ScalarOp::Floor: case ScalarOp::Ceil: case ScalarOp::Round: case ScalarOp::Trunc: return x;
    case ScalarOp::BitwiseNot: return b_.CreateNot(x);
    default: break;
  }
  unsupported(op_name(op) + " on an integer value");
}

Value* ValueOps::unary(ScalarOp op, Value* x, ScalarType operand, ScalarType result) const {
  switch (op) {
    case ScalarOp::Cast: return convert(x, operand, result);
    case ScalarOp::LogicalNot: return b_.CreateNot(truth(x, operand));
    case ScalarOp::IsNan:
      if (!is_floating_point(operand)) return llvm::Constant::getNullValue(type(ScalarType::Bool));
      return b_.CreateFCmpUNO(x, x);
    case ScalarOp::IsInf:
      if (!is_floating_point(operand)) return llvm::Constant::getNullValue(type(ScalarType::Bool));
      return b_.CreateFCmpOEQ(b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, x),
                              fconst(x->getType(), std::numeric_limits<double>::infinity()));
    default: break;
  }
  if (is_floating_point(operand)) return round_to(float_unary(op, x), result);
  return int_unary(op, x, operand);
}

Value* ValueOps::float_binary(ScalarOp op, Value* a, Value* b) const {
  llvm::Type* ty = a->getType();
  auto nan_either = [&] { return b_.CreateFCmpUNO(a, b); };
  switch (op) {
    case ScalarOp::Add: return b_.CreateFAdd(a, b);
    case ScalarOp::Sub: return b_.CreateFSub(a, b);
    case ScalarOp::Mul: return b_.CreateFMul(a, b);
    case ScalarOp::Div: return b_.CreateFDiv(a, b);
    case ScalarOp::TruncDiv: return b_.CreateUnaryIntrinsic(llvm::Intrinsic::trunc, b_.CreateFDiv(a, b));
    case ScalarOp::Remainder: {  // Python's a % b: the sign of b
      Value* mod = b_.CreateFRem(a, b);
      Value* zero = fconst(ty, 0);
      Value* fix = b_.CreateAnd(b_.CreateFCmpUNE(mod, zero),
                                b_.CreateXor(b_.CreateFCmpOLT(b, zero), b_.CreateFCmpOLT(mod, zero)));
      return b_.CreateSelect(fix, b_.CreateFAdd(mod, b), mod);
    }
    case ScalarOp::Fmod: return b_.CreateFRem(a, b);  // C's fmod: the sign of a
    case ScalarOp::FloorDiv: {  // core/scalar_math.h div_floor_float, branch-free
      Value* zero = fconst(ty, 0), *one = fconst(ty, 1), *half = fconst(ty, 0.5);
      Value* quotient = b_.CreateFDiv(a, b);
      Value* mod = b_.CreateFRem(a, b);
      Value* div = b_.CreateFDiv(b_.CreateFSub(a, mod), b);
      Value* fix = b_.CreateAnd(b_.CreateFCmpUNE(mod, zero),
                                b_.CreateXor(b_.CreateFCmpOLT(b, zero), b_.CreateFCmpOLT(mod, zero)));
      div = b_.CreateSelect(fix, b_.CreateFSub(div, one), div);
      Value* floor = b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, div);
      floor = b_.CreateSelect(b_.CreateFCmpOGT(b_.CreateFSub(div, floor), half), b_.CreateFAdd(floor, one), floor);
      Value* signed_zero = b_.CreateBinaryIntrinsic(llvm::Intrinsic::copysign, zero, quotient);
      Value* r = b_.CreateSelect(b_.CreateFCmpOEQ(div, zero), signed_zero, floor);
      return b_.CreateSelect(b_.CreateFCmpOEQ(b, zero), quotient, r);
    }
    case ScalarOp::Pow: case ScalarOp::Atan2: {
      Value* v = emit_math(b_, op == ScalarOp::Pow ? MathFn::Pow : MathFn::Atan2, a, b, mode_);
      if (v == nullptr) unsupported(op_name(op) + ": no vector math for this type");
      return v;
    }
    case ScalarOp::Maximum:
      return b_.CreateSelect(nan_either(), b_.CreateFAdd(a, b), b_.CreateSelect(b_.CreateFCmpOGT(a, b), a, b));
    case ScalarOp::Minimum:
      return b_.CreateSelect(nan_either(), b_.CreateFAdd(a, b), b_.CreateSelect(b_.CreateFCmpOLT(a, b), a, b));
    default: break;
  }
  unsupported(op_name(op) + " on floating values");
}

// Integer division by zero yields 0 and division by -1 negates (the IR's
// definitions; LLVM's sdiv is undefined for both, so the divisor is made
// safe first).
// a / d rounded toward zero (or down, `floor`) for a divisor d that is
// neither 0 nor -1. x86 has no vector integer division: LLVM would split a
// vector into one idiv per lane (~15-40 cycles each). Quotients of operands
// below 2^53 in magnitude are exact in double arithmetic instead: the
// rounding error of x/d is under |x/d| 2^-53 < 1/|d|, the least distance of
// a quotient that is not an integer from one, so it never rounds across
// one. 8- to 32-bit lanes always fit; int64 vectors whose lanes all fit take
// that path, the others the per-lane one.
Value* ValueOps::quotient(Value* a, Value* d, ScalarType t, bool floor) const {
  llvm::Type* ty = a->getType();
  const bool is_unsigned = t == ScalarType::Byte || t == ScalarType::Bool;
  auto per_lane = [&]() -> Value* {
    if (is_unsigned) return b_.CreateUDiv(a, d);
    Value* q = b_.CreateSDiv(a, d);
    if (!floor) return q;
    Value* zero = llvm::Constant::getNullValue(ty);
    Value* r = b_.CreateSRem(a, d);
    Value* fix = b_.CreateAnd(b_.CreateICmpNE(r, zero), b_.CreateXor(b_.CreateICmpSLT(r, zero), b_.CreateICmpSLT(d, zero)));
    return b_.CreateSelect(fix, b_.CreateSub(q, iconst(ty, 1)), q);
  };
  if (width_ == 1) return per_lane();
  auto in_double = [&]() -> Value* {
    llvm::Type* dty = llvm::FixedVectorType::get(b_.getDoubleTy(), width_);
    auto widen = [&](Value* v) { return is_unsigned ? b_.CreateUIToFP(v, dty) : b_.CreateSIToFP(v, dty); };
    Value* q = b_.CreateFDiv(widen(a), widen(d));
    if (floor) q = b_.CreateUnaryIntrinsic(llvm::Intrinsic::floor, q);
    return is_unsigned ? b_.CreateFPToUI(q, ty) : b_.CreateFPToSI(q, ty);
  };
  if (ty->getScalarSizeInBits() < 64) return in_double();
  auto fits = [&](Value* v) {  // -2^53 <= v < 2^53
    return b_.CreateICmpULT(b_.CreateAdd(v, iconst(ty, uint64_t{1} << 53)), iconst(ty, uint64_t{1} << 54));
  };
  llvm::Function* f = b_.GetInsertBlock()->getParent();
  auto* fast = llvm::BasicBlock::Create(b_.getContext(), "div.double", f);
  auto* slow = llvm::BasicBlock::Create(b_.getContext(), "div.lanes", f);
  auto* join = llvm::BasicBlock::Create(b_.getContext(), "div.join", f);
  b_.CreateCondBr(b_.CreateAndReduce(b_.CreateAnd(fits(a), fits(d))), fast, slow);
  b_.SetInsertPoint(fast);
  Value* q_fast = in_double();
  b_.CreateBr(join);
  b_.SetInsertPoint(slow);
  Value* q_slow = per_lane();
  b_.CreateBr(join);
  b_.SetInsertPoint(join);
  llvm::PHINode* q = b_.CreatePHI(ty, 2);
  q->addIncoming(q_fast, fast);
  q->addIncoming(q_slow, slow);
  return q;
}

Value* ValueOps::int_binary(ScalarOp op, Value* a, Value* b, ScalarType t) const {
  llvm::Type* ty = a->getType();
  const bool is_unsigned = t == ScalarType::Byte || t == ScalarType::Bool;
  Value* zero = llvm::Constant::getNullValue(ty);
  Value* one = iconst(ty, 1);
  // Division by 0 gives 0 (eager raises before a kernel could run) and by -1
  // the negation (INT_MIN / -1 would trap): the quotient sees 1 instead.
  Value* by_zero = b_.CreateICmpEQ(b, zero);
  Value* by_minus_one = is_unsigned ? llvm::ConstantInt::getFalse(b_.getContext())
                                    : b_.CreateICmpEQ(b, llvm::Constant::getAllOnesValue(ty));
  if (width_ > 1 && is_unsigned) by_minus_one = splat(by_minus_one);
  auto safe = [&] { return b_.CreateSelect(b_.CreateOr(by_zero, by_minus_one), one, b); };
  auto division = [&](bool floor) {
    Value* q = quotient(a, safe(), t, floor);
    return b_.CreateSelect(by_zero, zero, b_.CreateSelect(by_minus_one, b_.CreateSub(zero, a), q));
  };
  // a - q b with q rounded down (remainder: the divisor's sign) or toward zero (fmod: the dividend's).
  auto modulo = [&](bool floor) {
    Value* d = safe();
    Value* r = b_.CreateSub(a, b_.CreateMul(quotient(a, d, t, floor), d));
    return b_.CreateSelect(b_.CreateOr(by_zero, by_minus_one), zero, r);
  };
  switch (op) {
    case ScalarOp::Add: return b_.CreateAdd(a, b);
    case ScalarOp::Sub: return b_.CreateSub(a, b);
    case ScalarOp::Mul: return b_.CreateMul(a, b);
    case ScalarOp::Div: case ScalarOp::TruncDiv: return division(false);
    case ScalarOp::FloorDiv: return division(!is_unsigned);
    case ScalarOp::Remainder: return modulo(!is_unsigned);
    case ScalarOp::Fmod: return modulo(false);
    case ScalarOp::Maximum:
      return b_.CreateBinaryIntrinsic(is_unsigned ? llvm::Intrinsic::umax : llvm::Intrinsic::smax, a, b);
    case ScalarOp::Minimum:
      return b_.CreateBinaryIntrinsic(is_unsigned ? llvm::Intrinsic::umin : llvm::Intrinsic::smin, a, b);
    case ScalarOp::BitwiseAnd: return b_.CreateAnd(a, b);
    case ScalarOp::BitwiseOr: return b_.CreateOr(a, b);
    case ScalarOp::BitwiseXor: return b_.CreateXor(a, b);
    default: break;
  }
  unsupported(op_name(op) + " on integer values");
}

Value* ValueOps::compare(ScalarOp op, Value* a, Value* b, ScalarType t) const {
  if (is_floating_point(t)) {
    switch (op) {
      case ScalarOp::Eq: return b_.CreateFCmpOEQ(a, b);
      case ScalarOp::Ne: return b_.CreateFCmpUNE(a, b);
      case ScalarOp::Lt: return b_.CreateFCmpOLT(a, b);
      case ScalarOp::Le: return b_.CreateFCmpOLE(a, b);
      case ScalarOp::Gt: return b_.CreateFCmpOGT(a, b);
      default: return b_.CreateFCmpOGE(a, b);
    }
  }
  const bool u = t == ScalarType::Byte || t == ScalarType::Bool;
  switch (op) {
    case ScalarOp::Eq: return b_.CreateICmpEQ(a, b);
    case ScalarOp::Ne: return b_.CreateICmpNE(a, b);
    case ScalarOp::Lt: return u ? b_.CreateICmpULT(a, b) : b_.CreateICmpSLT(a, b);
    case ScalarOp::Le: return u ? b_.CreateICmpULE(a, b) : b_.CreateICmpSLE(a, b);
    case ScalarOp::Gt: return u ? b_.CreateICmpUGT(a, b) : b_.CreateICmpSGT(a, b);
    default: return u ? b_.CreateICmpUGE(a, b) : b_.CreateICmpSGE(a, b);
  }
}

Value* ValueOps::binary(ScalarOp op, Value* a, Value* b, ScalarType operand, ScalarType result) const {
  switch (op) {
    case ScalarOp::Eq: case ScalarOp::Ne: case ScalarOp::Lt: case ScalarOp::Le: case ScalarOp::Gt: case ScalarOp::Ge:
      return compare(op, a, b, operand);
    case ScalarOp::LogicalAnd: return b_.CreateAnd(truth(a, operand), truth(b, operand));
    case ScalarOp::LogicalOr: return b_.CreateOr(truth(a, operand), truth(b, operand));
    case ScalarOp::LogicalXor: return b_.CreateXor(truth(a, operand), truth(b, operand));
    default: break;
  }
  if (is_floating_point(operand)) return round_to(float_binary(op, a, b), result);
  return int_binary(op, a, b, operand);
}

Value* ValueOps::div_by_invariant(Value* a, Value* b, ScalarType result) const {
  llvm::Type* ty = a->getType();
  const bool f64 = ty->getScalarType()->isDoubleTy();
  const double tiny = f64 ? 0x1p-1000 : 0x1p-100, huge = f64 ? 0x1p1000 : 0x1p100;
  const double up = f64 ? 0x1p512 : 0x1p64, down = f64 ? 0x1p-512 : 0x1p-64;
  Value* mag = b_.CreateUnaryIntrinsic(llvm::Intrinsic::fabs, b);
  // Invariant: the scale keeping 1/(b*s) a normal number.
  Value* scale = b_.CreateSelect(b_.CreateFCmpOLT(mag, fconst(ty, tiny)), fconst(ty, up),
                                 b_.CreateSelect(b_.CreateFCmpOGT(mag, fconst(ty, huge)), fconst(ty, down), fconst(ty, 1)));
  Value* bs = b_.CreateFMul(b, scale);
  Value* r = b_.CreateFDiv(fconst(ty, 1), bs);
  Value* as = b_.CreateFMul(a, scale);
  Value* q = b_.CreateFMul(as, r);
  Value* residual = b_.CreateIntrinsic(llvm::Intrinsic::fmuladd, {ty}, {b_.CreateFNeg(q), bs, as});
  // The correction is a sum, which turns -0 into +0: the quotient keeps q's
  // sign (that of a / b; hardswish's -0 for x <= -3 as eager).
  Value* refined = b_.CreateBinaryIntrinsic(
      llvm::Intrinsic::copysign, b_.CreateIntrinsic(llvm::Intrinsic::fmuladd, {ty}, {residual, r, q}), q);
  // b = 0 or inf, or a = inf: the residual is NaN, q is already IEEE's
  // answer. Where refined is NaN, q is taken: with AVX-512, one vfixupimmps
  // (QNaN and SNaN classes keep q, all others give refined) instead of two
  // compares and a blend in the store loop of every softmax.
  if (zmm_floats(ty)) {
    Value* table = llvm::ConstantInt::get(llvm::FixedVectorType::get(b_.getInt32Ty(), 16), 0x11111100);
    return round_to(b_.CreateIntrinsic(llvm::Intrinsic::x86_avx512_mask_fixupimm_ps_512, {},
                                       {q, refined, table, b_.getInt32(0), b_.getInt16(-1), b_.getInt32(4)}),
                    result);
  }
  Value* lost = b_.CreateAnd(b_.CreateFCmpUNO(refined, refined), b_.CreateFCmpORD(q, q));
  return round_to(b_.CreateSelect(lost, q, refined), result);
}

Value* ValueOps::identity(ReduceOp op, ScalarType t) const {
  llvm::Type* ty = type(t);
  const bool fp = is_floating_point(t);
  const double inf = std::numeric_limits<double>::infinity();
  switch (op) {
    case ReduceOp::Sum: case ReduceOp::Any: return llvm::Constant::getNullValue(ty);
    case ReduceOp::Prod: case ReduceOp::All: return fp ? fconst(ty, 1) : iconst(ty, 1);
    case ReduceOp::Max:
      if (fp) return fconst(ty, -inf);
      return t == ScalarType::Bool || t == ScalarType::Byte ? llvm::Constant::getNullValue(ty)
                                                             : llvm::ConstantInt::get(ty, llvm::APInt::getSignedMinValue(ty->getScalarSizeInBits()));
    case ReduceOp::Min:
      if (fp) return fconst(ty, inf);
      return t == ScalarType::Bool || t == ScalarType::Byte ? llvm::Constant::getAllOnesValue(ty)
                                                             : llvm::ConstantInt::get(ty, llvm::APInt::getSignedMaxValue(ty->getScalarSizeInBits()));
  }
  return nullptr;
}

Value* ValueOps::combine(ReduceOp op, Value* acc, Value* v, ScalarType t) const {
  const bool fp = is_floating_point(t);
  switch (op) {
    case ReduceOp::Sum: return fp ? b_.CreateFAdd(acc, v) : b_.CreateAdd(acc, v);
    case ReduceOp::Prod: return fp ? b_.CreateFMul(acc, v) : b_.CreateMul(acc, v);
    case ReduceOp::Max: return fp ? float_binary(ScalarOp::Maximum, acc, v) : int_binary(ScalarOp::Maximum, acc, v, t);
    case ReduceOp::Min: return fp ? float_binary(ScalarOp::Minimum, acc, v) : int_binary(ScalarOp::Minimum, acc, v, t);
    case ReduceOp::All: return b_.CreateAnd(acc, v);
    case ReduceOp::Any: return b_.CreateOr(acc, v);
  }
  return nullptr;
}

// Halves combined pairwise: a fixed tree, so the result does not depend on
// anything but the values.
Value* ValueOps::horizontal(ReduceOp op, Value* vec, ScalarType t) const {
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(vec->getType());
  if (vt == nullptr) return vec;
  unsigned n = vt->getNumElements();
  // A float max/min: the tree compares without NaN checks and one test of
  // all lanes picks NaN, instead of a NaN select at every level (a serial
  // chain at the end of every row of a softmax).
  Value* any_nan = nullptr;
  if (is_floating_point(t) && (op == ReduceOp::Max || op == ReduceOp::Min)) {
    any_nan = b_.CreateOrReduce(b_.CreateFCmpUNO(vec, vec));
  }
  while (n > 1) {
    const unsigned half = n / 2;
    llvm::SmallVector<int, 32> lo, hi;
    for (unsigned i = 0; i < half; ++i) {
      lo.push_back(static_cast<int>(i));
      hi.push_back(static_cast<int>(i + half));
    }
    Value* a = b_.CreateShuffleVector(vec, lo);
    Value* b = b_.CreateShuffleVector(vec, hi);
    if (any_nan != nullptr) {
      vec = b_.CreateSelect(op == ReduceOp::Max ? b_.CreateFCmpOGT(a, b) : b_.CreateFCmpOLT(a, b), a, b);
    } else {
      vec = ValueOps(b_, half, mode_).combine(op, a, b, t);
    }
    n = half;
  }
  Value* r = b_.CreateExtractElement(vec, uint64_t{0});
  if (any_nan == nullptr) return r;
  return b_.CreateSelect(any_nan, llvm::ConstantFP::getNaN(r->getType()), r);
}

}  // namespace lz::codegen_llvm
