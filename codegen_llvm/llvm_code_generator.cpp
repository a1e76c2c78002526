#include "codegen_llvm/llvm_code_generator.h"

#include <atomic>
#include <cstdio>
#include <exception>
#include <random>

#include "codegen_llvm/compiled_kernel.h"
#include "codegen_llvm/jit_engine.h"
#include "codegen_llvm/kernel_emitter.h"
#include "core/error.h"
#include "ir/code_generator.h"
#include "ir/printer.h"

namespace lz::codegen_llvm {

namespace {

CodegenOptions options_of(const ir::CodegenSettings& s) {
  CodegenOptions o;
  o.math = s.fast_math ? MathMode::Fast : MathMode::Precise;
  return o;
}

class LlvmCode final : public ir::CompiledCode {
 public:
  LlvmCode(const ir::Kernel& k, const ir::CodegenSettings& s) : kernel_(k, options_of(s)), threshold_(s.jit_threshold) {}

  bool launch(const ir::KernelLaunch& launch, std::string* failure) const override {
    if (!kernel_.worth_compiling(launch, threshold_)) return false;
    try {
      kernel_.run(launch);
      return true;
    } catch (const CompileFailure& f) {
      *failure = f.reason;
      return false;
    }
  }
  std::string_view language() const override { return "ll"; }
  std::string text() const override { return kernel_.llvm_ir(); }

 private:
  CompiledKernel kernel_;
  int64_t threshold_;
};

class LlvmGenerator final : public ir::CodeGenerator {
 public:
  std::shared_ptr<const ir::CompiledCode> compile(const ir::Kernel& k, int /*device_index*/,
                                                  const ir::CodegenSettings& settings) const override {
    try {
      return std::make_shared<const LlvmCode>(k, settings);
    } catch (const CompileFailure& f) {
      throw NotImplementedError(f.reason);
    }
  }

  // The optimised LLVM IR of the unit-stride variant.
  ir::GeneratedSource source(const ir::Kernel& k, const ir::CodegenSettings& settings) const override {
    try {
      return {"", CompiledKernel(k, options_of(settings)).llvm_ir(), ""};
    } catch (const CompileFailure& f) {
      throw NotImplementedError(f.reason);
    }
  }

  // The unit-stride variant, as CompiledKernel compiles it at a first
  // launch, under a key and symbols made of a per-process random number and
  // a counter.
  ir::ColdCompile compile_cold(const ir::Kernel& k, const ir::CodegenSettings& settings) const override {
    static std::atomic<uint64_t> serial{0};
    static const uint64_t process = (uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
    JitEngine& jit = JitEngine::instance();
    VariantSpec spec;
    spec.classes.assign(k.accesses.size(), StrideClass::Unit);
    spec.vector_bits = jit.vector_bits();
    spec.math = options_of(settings).math;
    const std::string prefix = "lzcold_" + std::to_string(serial.fetch_add(1));
    char nonce[24];
    std::snprintf(nonce, sizeof nonce, "%016llx", static_cast<unsigned long long>(process));
    const std::string key = ir::print_kernel(k) + "|classes unit|" + (settings.fast_math ? "fast" : "precise") +
                            "|cold " + nonce + " " + prefix;
    ir::ColdCompile r;
    const JitStats before = jit.stats();
    try {
      // The code is released again when `got` goes.
      const JitEngine::Result got = jit.get(key, {prefix + "_run"}, kernel_emit_fn(k, spec, prefix));
      r.ms = got.ms;
    } catch (const CompileFailure& f) {
      r.failure = f.reason;
      return r;
    } catch (const std::exception&) {
      throw;
    } catch (...) {
      // The emitter's own error type, UnsupportedKernel (the pipeline's
      // check emitted this kernel already, so only a variant-specific limit
      // lands here).
      r.failure = "the code generator cannot emit the unit-stride variant";
      return r;
    }
    const JitStats after = jit.stats();
    r.optimize_ms = after.optimize_ms - before.optimize_ms;
    r.codegen_ms = after.codegen_ms - before.codegen_ms;
    return r;
  }
};

}  // namespace

void register_code_generator() {
  ir::register_code_generator(DeviceType::CPU, "llvm", std::make_unique<LlvmGenerator>());
}

}  // namespace lz::codegen_llvm
