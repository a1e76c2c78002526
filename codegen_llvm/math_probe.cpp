// The math probe: the code generator's JIT (codegen_llvm/jit_engine.h)
// compiling
//   for (i = 0; i + W <= n; i += W) out[i:W] = fn(x[i:W], y[i:W]);  // <W x T>
//   for (; i < n; ++i) out[i] = fn(x[i], y[i]);                      // scalar
// for the host CPU at O3.
#include "codegen_llvm/math_probe.h"

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>

#include "codegen_llvm/jit_engine.h"

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace lz::codegen_llvm {
namespace {

// Emits one loop: `w` lanes per iteration starting at `i0`, up to the last
// full vector; returns the index after it.
llvm::Value* emit_loop(llvm::IRBuilder<>& b, llvm::Function* f, MathFn fn, MathMode mode, llvm::Type* elem,
                       unsigned w, llvm::Value* i0, const char* name) {
  auto args = f->arg_begin();
  llvm::Value *x = &*args++, *y = &*args++, *out = &*args++, *n = &*args;
  const bool binary = fn == MathFn::Pow || fn == MathFn::Atan2;
  llvm::Type* vt = w == 1 ? elem : llvm::FixedVectorType::get(elem, w);
  llvm::Type* i64 = b.getInt64Ty();
  llvm::Value* last = b.CreateSub(n, llvm::ConstantInt::get(i64, w - 1));  // i < last <=> i + w <= n

  llvm::BasicBlock* pre = b.GetInsertBlock();
  llvm::BasicBlock* head = llvm::BasicBlock::Create(b.getContext(), std::string(name) + ".head", f);
  llvm::BasicBlock* body = llvm::BasicBlock::Create(b.getContext(), std::string(name) + ".body", f);
  llvm::BasicBlock* exit = llvm::BasicBlock::Create(b.getContext(), std::string(name) + ".exit", f);
  b.CreateBr(head);
  b.SetInsertPoint(head);
  llvm::PHINode* i = b.CreatePHI(i64, 2);
  i->addIncoming(i0, pre);
  b.CreateCondBr(b.CreateICmpSLT(i, last), body, exit);

  b.SetInsertPoint(body);
  const llvm::Align align(elem->getPrimitiveSizeInBits() / 8);
  auto load = [&](llvm::Value* base) {
    return b.CreateAlignedLoad(vt, b.CreateBitCast(b.CreateGEP(elem, base, i), vt->getPointerTo()), align);
  };
  llvm::Value* r = emit_math(b, fn, load(x), binary ? load(y) : nullptr, mode);
  b.CreateAlignedStore(r, b.CreateBitCast(b.CreateGEP(elem, out, i), vt->getPointerTo()), align);
  i->addIncoming(b.CreateAdd(i, llvm::ConstantInt::get(i64, w)), b.GetInsertBlock());
  b.CreateBr(head);

  b.SetInsertPoint(exit);
  return i;
}

void* compile(MathFn fn, MathMode mode, int width, bool f64) {
  if (width < 1) throw std::invalid_argument("math probe: width must be >= 1");
  const std::string name = std::string("lz_math_probe_") + math_fn_name(fn) + (mode == MathMode::Fast ? "_fast_" : "_precise_") +
                           std::to_string(width) + (f64 ? "_f64" : "_f32");
  const JitEngine::Result r = JitEngine::instance().get(name, {name}, [&](llvm::LLVMContext& ctx) {
    auto m = std::make_unique<llvm::Module>(name, ctx);
    llvm::IRBuilder<> b(ctx);
    llvm::Type* elem = f64 ? b.getDoubleTy() : b.getFloatTy();
    llvm::Type* ptr = elem->getPointerTo();
    auto* fty = llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr, ptr, b.getInt64Ty()}, false);
    auto* f = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, name, *m);
    for (unsigned a = 0; a < 3; ++a) f->addParamAttr(a, llvm::Attribute::NoAlias);
    b.SetInsertPoint(llvm::BasicBlock::Create(ctx, "entry", f));
    llvm::Value* i = b.getInt64(0);
    if (width > 1) i = emit_loop(b, f, fn, mode, elem, static_cast<unsigned>(width), i, "vec");
    emit_loop(b, f, fn, mode, elem, 1, i, "rem");
    b.CreateRetVoid();
    return m;
  });
  // Probes are compiled once per function and width, and kept.
  static std::mutex mu;
  static std::vector<std::shared_ptr<const void>> kept;
  std::lock_guard<std::mutex> lock(mu);
  kept.push_back(r.code);
  return r.addresses.front();
}

}  // namespace

FloatMathLoop compile_math_probe_f32(MathFn fn, MathMode mode, int width) {
  return reinterpret_cast<FloatMathLoop>(compile(fn, mode, width, false));
}

DoubleMathLoop compile_math_probe_f64(MathFn fn, MathMode mode, int width) {
  return reinterpret_cast<DoubleMathLoop>(compile(fn, mode, width, true));
}

const char* math_fn_name(MathFn fn) {
  static constexpr const char* kNames[] = {"exp", "exp2", "expm1", "log",  "log2", "log1p",   "sqrt", "rsqrt",
                                           "sin", "cos",  "tan",   "tanh", "sigmoid", "erf", "pow",  "atan2"};
  const auto i = static_cast<size_t>(fn);
  return i < std::size(kNames) ? kNames[i] : "?";
}

}  // namespace lz::codegen_llvm
