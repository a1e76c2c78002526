// The math probe: a tiny standalone LLJIT (not the code generator's JIT)
// compiling
//   for (i = 0; i + W <= n; i += W) out[i:W] = fn(x[i:W], y[i:W]);  // <W x T>
//   for (; i < n; ++i) out[i] = fn(x[i], y[i]);                      // scalar
// for the host CPU at O3. Each compiled loop keeps its LLJIT alive until the
// process exits.
#include "codegen_llvm/math_probe.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/ExecutionEngine/Orc/ThreadSafeModule.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Target/TargetMachine.h>

#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

namespace lz::codegen_llvm {
namespace {

std::string message(llvm::Error e) { return llvm::toString(std::move(e)); }

template <class T>
T unwrap(llvm::Expected<T> v, const char* what) {
  if (!v) throw std::runtime_error(std::string("math probe: ") + what + ": " + message(v.takeError()));
  return std::move(*v);
}

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

void optimize(llvm::Module& m, llvm::TargetMachine* tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O3).run(m, mam);
}

void* compile(MathFn fn, MathMode mode, int width, bool f64) {
  static std::once_flag init;
  std::call_once(init, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  if (width < 1) throw std::invalid_argument("math probe: width must be >= 1");

  auto jtmb = unwrap(llvm::orc::JITTargetMachineBuilder::detectHost(), "detect host");
  jtmb.setCPU(llvm::sys::getHostCPUName().str());
  llvm::StringMap<bool> features;
  std::vector<std::string> enabled;
  if (llvm::sys::getHostCPUFeatures(features))
    for (const auto& f : features) enabled.push_back((f.second ? "+" : "-") + f.first().str());
  jtmb.addFeatures(enabled);
  jtmb.setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
  auto tm = unwrap(jtmb.createTargetMachine(), "target machine");

  auto ctx = std::make_unique<llvm::LLVMContext>();
  auto m = std::make_unique<llvm::Module>("math_probe", *ctx);
  m->setDataLayout(tm->createDataLayout());
  m->setTargetTriple(tm->getTargetTriple().str());
  llvm::IRBuilder<> b(*ctx);
  llvm::Type* elem = f64 ? b.getDoubleTy() : b.getFloatTy();
  llvm::Type* ptr = elem->getPointerTo();
  auto* fty = llvm::FunctionType::get(b.getVoidTy(), {ptr, ptr, ptr, b.getInt64Ty()}, false);
  auto* f = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, "math_probe", *m);
  for (unsigned a = 0; a < 3; ++a) f->addParamAttr(a, llvm::Attribute::NoAlias);
  b.SetInsertPoint(llvm::BasicBlock::Create(*ctx, "entry", f));
  llvm::Value* i = b.getInt64(0);
  if (width > 1) i = emit_loop(b, f, fn, mode, elem, static_cast<unsigned>(width), i, "vec");
  emit_loop(b, f, fn, mode, elem, 1, i, "rem");
  b.CreateRetVoid();
  if (llvm::verifyModule(*m, &llvm::errs())) throw std::logic_error("math probe: invalid IR");
  optimize(*m, tm.get());

  auto jit = unwrap(llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(jtmb)).create(), "LLJIT");
  // libm for the float64 functions.
  jit->getMainJITDylib().addGenerator(unwrap(
      llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(jit->getDataLayout().getGlobalPrefix()),
      "process symbols"));
  if (auto e = jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(m), std::move(ctx))))
    throw std::runtime_error("math probe: add module: " + message(std::move(e)));
  auto sym = unwrap(jit->lookup("math_probe"), "lookup");
#if LLVM_VERSION_MAJOR >= 15
  void* addr = sym.toPtr<void*>();
#else
  void* addr = reinterpret_cast<void*>(static_cast<uintptr_t>(sym.getAddress()));
#endif
  static std::mutex mu;
  static std::vector<std::unique_ptr<llvm::orc::LLJIT>> alive;  // compiled code lives as long as the process
  std::lock_guard<std::mutex> lock(mu);
  alive.push_back(std::move(jit));
  return addr;
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
