#include "codegen_llvm/llvm_code_generator.h"

#include <atomic>
#include <cstdio>
#include <exception>
#include <mutex>
#include <random>
#include <vector>

#include "codegen_llvm/compile_queue.h"
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

class LlvmCode final : public ir::CompiledCode, public std::enable_shared_from_this<LlvmCode> {
 public:
  LlvmCode(const ir::Kernel& k, const ir::CodegenSettings& s)
      : kernel_(k, options_of(s)), threshold_(s.jit_threshold), background_(s.compile_in_background) {}

  ir::Launched launch(const ir::KernelLaunch& launch, std::string* failure) const override {
    if (!kernel_.worth_compiling(launch, threshold_)) return ir::Launched::Interpret;
    try {
      // A box of a kernel with pieces (lazy/launch_pieces.h) asked ready()
      // first: it waits now, as the other boxes may have run compiled.
      if (!background_ || launch.wait_for_code || !launch.in_piece.empty()) {
        kernel_.run(launch);
        return ir::Launched::Ran;
      }
      CompiledKernel::VariantKey missing;
      if (kernel_.run_if_compiled(launch, &missing)) return ir::Launched::Ran;
      // A warm process's code comes from the disk cache at once.
      if (kernel_.load_cached_variant(missing)) {
        kernel_.run(launch);
        return ir::Launched::Ran;
      }
      compile_later(std::move(missing));
      return ir::Launched::Compiling;
    } catch (const CompileFailure& f) {
      *failure = f.reason;
      return ir::Launched::Interpret;
    }
  }
  bool ready(const ir::KernelLaunch& launch) const override {
    if (!background_ || launch.wait_for_code || !kernel_.worth_compiling(launch, threshold_, /*count=*/false)) {
      return true;
    }
    try {
      CompiledKernel::VariantKey missing;
      if (kernel_.has_code_for(launch, &missing) || kernel_.load_cached_variant(missing)) return true;
      compile_later(std::move(missing));
      return false;
    } catch (const CompileFailure&) {
      return true;  // the launch reports it
    }
  }
  std::string_view language() const override { return "ll"; }
  std::string text() const override { return kernel_.llvm_ir(); }

 private:
  // Queues variant `key`'s compile once; the job holds this code alive.
  void compile_later(CompiledKernel::VariantKey key) const {
    {
      std::lock_guard<std::mutex> lock(mu_);
      for (const CompiledKernel::VariantKey& k : queued_) {
        if (k == key) return;
      }
      queued_.push_back(key);
    }
    codegen_llvm::compile_later([self = shared_from_this(), key = std::move(key)] {
      try {
        self->kernel_.compile_variant(key);
      } catch (...) {
        // A CompileFailure is remembered by the kernel: the next launch of
        // this variant reports it. Anything else: it is queued again.
      }
      std::lock_guard<std::mutex> lock(self->mu_);
      std::erase(self->queued_, key);
    });
  }

  CompiledKernel kernel_;
  int64_t threshold_;
  bool background_;
  mutable std::mutex mu_;
  mutable std::vector<CompiledKernel::VariantKey> queued_;  // compiles queued, not finished
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
