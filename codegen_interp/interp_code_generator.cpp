#include "codegen_interp/interp_code_generator.h"

#include "codegen_interp/kernel_interpreter.h"
#include "ir/code_generator.h"

namespace lz::codegen_interp {

namespace {

class InterpretedCode final : public ir::CompiledCode {
 public:
  explicit InterpretedCode(const ir::Kernel& k) : kernel_(k) {}
  ir::Launched launch(const ir::KernelLaunch& launch, std::string* /*failure*/) const override {
    run_kernel(kernel_, launch);
    return ir::Launched::Ran;
  }
  std::string_view language() const override { return {}; }
  std::string text() const override { return {}; }

 private:
  ir::Kernel kernel_;
};

class InterpGenerator final : public ir::CodeGenerator {
 public:
  std::shared_ptr<const ir::CompiledCode> compile(const ir::Kernel& k, int /*device_index*/,
                                                  const ir::CodegenSettings& /*settings*/) const override {
    return std::make_shared<const InterpretedCode>(k);
  }
};

}  // namespace

void register_code_generator() {
  ir::register_code_generator(DeviceType::CPU, "interp", std::make_unique<InterpGenerator>());
}

}  // namespace lz::codegen_interp
