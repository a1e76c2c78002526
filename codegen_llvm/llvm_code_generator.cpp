#include "codegen_llvm/llvm_code_generator.h"

#include "codegen_llvm/compiled_kernel.h"
#include "codegen_llvm/jit_engine.h"
#include "core/error.h"
#include "ir/code_generator.h"

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
};

}  // namespace

void register_code_generator() {
  ir::register_code_generator(DeviceType::CPU, "llvm", std::make_unique<LlvmGenerator>());
}

}  // namespace lz::codegen_llvm
