// emit_math: picks the float32 emitter (vector_math_exp_log.cpp,
// vector_math_trig.cpp, vector_math_pow_atan2.cpp) or the float64 libm
// path, and emits sqrt/rsqrt directly.
#include "codegen_llvm/vector_math.h"

#include <llvm/ADT/StringMap.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/Host.h>

#include "codegen_llvm/vector_math_ir.h"
#include "core/error.h"

namespace lz::codegen_llvm {
namespace {

using llvm::Value;
using vmir::Ir;

const char* libm_name(MathFn fn) {
  switch (fn) {
    case MathFn::Exp: return "exp";
    case MathFn::Exp2: return "exp2";
    case MathFn::Expm1: return "expm1";
    case MathFn::Log: return "log";
    case MathFn::Log2: return "log2";
    case MathFn::Log1p: return "log1p";
    case MathFn::Sin: return "sin";
    case MathFn::Cos: return "cos";
    case MathFn::Tan: return "tan";
    case MathFn::Tanh: return "tanh";
    case MathFn::Erf: return "erf";
    case MathFn::Pow: return "pow";
    case MathFn::Atan2: return "atan2";
    default: return nullptr;
  }
}

// One libm call per lane: double f(double[, double]) declared in the module
// (the JIT resolves it from the process).
Value* call_libm(llvm::IRBuilderBase& b, const char* name, Value* x, Value* y) {
  llvm::Module* m = b.GetInsertBlock()->getModule();
  llvm::Type* d = b.getDoubleTy();
  std::vector<llvm::Type*> params(y ? 2 : 1, d);
  llvm::FunctionCallee f = m->getOrInsertFunction(name, llvm::FunctionType::get(d, params, false));
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(x->getType());
  if (!vt) return y ? b.CreateCall(f, {x, y}) : b.CreateCall(f, {x});
  Value* out = llvm::UndefValue::get(vt);
  for (unsigned i = 0; i < vt->getNumElements(); ++i) {
    Value* xi = b.CreateExtractElement(x, i);
    Value* r = y ? b.CreateCall(f, {xi, b.CreateExtractElement(y, i)}) : b.CreateCall(f, {xi});
    out = b.CreateInsertElement(out, r, i);
  }
  return out;
}

Value* emit_f64(Ir& ir, MathFn fn, Value* x, Value* y) {
  switch (fn) {
    case MathFn::Sqrt: return ir.sqrt(x);
    case MathFn::Rsqrt: return ir.div(1.0, ir.sqrt(x));
    case MathFn::Sigmoid: return ir.div(1.0, ir.add(call_libm(ir.b, "exp", ir.neg(x), nullptr), 1.0));
    default: return call_libm(ir.b, libm_name(fn), x, y);
  }
}

Value* emit_f32(Ir& ir, MathFn fn, Value* x, Value* y, MathMode mode) {
  using namespace vmir;
  switch (fn) {
    case MathFn::Exp: return exp_f32(ir, x, mode);
    case MathFn::Exp2: return exp2_f32(ir, x, mode);
    case MathFn::Expm1: return expm1_f32(ir, x);
    case MathFn::Log: return log_f32(ir, x);
    case MathFn::Log2: return log2_f32(ir, x);
    case MathFn::Log1p: return log1p_f32(ir, x);
    case MathFn::Sqrt: return ir.sqrt(x);  // correctly rounded
    case MathFn::Rsqrt:
      // Precise: 1/sqrt in double, rounded to float once (the eager
      // rsqrt's result); Fast: the same in float (two roundings, < 1 ulp).
      // IEEE gives the special cases: ±0 -> ±inf, inf -> 0, x < 0 -> NaN.
      if (mode == MathMode::Fast) return ir.div(1.0, ir.sqrt(x));
      return ir.to_f32(ir.div(1.0, ir.sqrt(ir.to_f64(x))));
    case MathFn::Sin: return sin_f32(ir, x, mode);
    case MathFn::Cos: return cos_f32(ir, x, mode);
    case MathFn::Tan: return tan_f32(ir, x, mode);
    case MathFn::Tanh: return tanh_f32(ir, x, mode);
    case MathFn::Sigmoid: return sigmoid_f32(ir, x, mode);
    case MathFn::Erf: return erf_f32(ir, x, mode);
    case MathFn::Pow: return pow_f32(ir, x, y, mode);
    case MathFn::Atan2: return atan2_f32(ir, x, y, mode);
  }
  LZ_INTERNAL_ASSERT(false, "emit_math: unknown MathFn ", static_cast<int>(fn));
  return nullptr;
}

}  // namespace

namespace vmir {

Value* Ir::lookup16(const float (&table)[16], Value* k, llvm::Type* fty) const {
  if (zmm_floats(fty)) {
    return b.CreateIntrinsic(llvm::Intrinsic::x86_avx512_permvar_sf_512, {},
                             {llvm::ConstantDataVector::get(b.getContext(), llvm::ArrayRef<float>(table)), k});
  }
  llvm::Module& m = *b.GetInsertBlock()->getModule();
  llvm::Constant* data = llvm::ConstantDataArray::get(b.getContext(), llvm::ArrayRef<float>(table));
  auto* global = new llvm::GlobalVariable(m, data->getType(), true, llvm::GlobalValue::PrivateLinkage, data, "lz_table");
  global->setUnnamedAddr(llvm::GlobalValue::UnnamedAddr::Global);
  Value* at = b.CreateInBoundsGEP(data->getType(), global, {b.getInt32(0), and_(k, ki(k, 15))});
  if (!fty->isVectorTy()) return b.CreateLoad(fty, at);
  return b.CreateMaskedGather(fty, at, llvm::Align(4));
}

}  // namespace vmir

bool zmm_floats(llvm::Type* t) {
  // The JIT compiles for this host's features (jit_engine.cpp).
  static const bool avx512 = [] {
    llvm::StringMap<bool> features;
    return llvm::sys::getHostCPUFeatures(features) && features.lookup("avx512f");
  }();
  auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t);
  return avx512 && vt != nullptr && vt->getNumElements() == 16 && vt->getElementType()->isFloatTy();
}

Value* emit_math(llvm::IRBuilderBase& b, MathFn fn, Value* x, Value* y, MathMode mode) {
  const bool binary = fn == MathFn::Pow || fn == MathFn::Atan2;
  llvm::Type* elem = x->getType()->getScalarType();
  LZ_INTERNAL_ASSERT(binary == (y != nullptr) && (!y || y->getType() == x->getType()),
                     "emit_math: y is required for pow/atan2 only, of x's type");
  LZ_INTERNAL_ASSERT(elem->isFloatTy() || elem->isDoubleTy(), "emit_math: x must be float or double");
  // The reductions rely on exact IEEE rounding: no reassociation, no
  // "no NaNs" assumptions from the caller's flags.
  llvm::IRBuilderBase::FastMathFlagGuard guard(b);
  b.clearFastMathFlags();
  Ir ir(b);
  return elem->isDoubleTy() ? emit_f64(ir, fn, x, y) : emit_f32(ir, fn, x, y, mode);
}

}  // namespace lz::codegen_llvm
