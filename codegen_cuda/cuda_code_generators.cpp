#include "codegen_cuda/cuda_code_generators.h"

#include <map>
#include <mutex>

#include "codegen_cuda/cuda_prelude.h"
#include "codegen_cuda/cuda_source.h"
#include "codegen_cuda/device_kernel.h"
#include "codegen_cuda/emulated_kernel.h"
#include "core/object_file_cache.h"
#include "ir/code_generator.h"

namespace lz::codegen_cuda {

namespace {

// A kernel compiled from generated CUDA C++, for a device or the emulator;
// `Run` starts one launch of it.
template <class Kernel, void (Kernel::*Run)(const ir::KernelLaunch&) const>
class CudaCode final : public ir::CompiledCode {
 public:
  explicit CudaCode(std::shared_ptr<const Kernel> kernel) : kernel_(std::move(kernel)) {}
  ir::Launched launch(const ir::KernelLaunch& launch, std::string* /*failure*/) const override {
    (kernel_.get()->*Run)(launch);
    return ir::Launched::Ran;
  }
  std::string_view language() const override { return "cu"; }
  std::string text() const override { return kernel_->source().code; }

 private:
  std::shared_ptr<const Kernel> kernel_;
};
using DeviceCode = CudaCode<DeviceKernel, &DeviceKernel::launch>;
using EmulatedCode = CudaCode<EmulatedKernel, &EmulatedKernel::run>;

class NvrtcGenerator final : public ir::CodeGenerator {
 public:
  std::shared_ptr<const ir::CompiledCode> compile(const ir::Kernel& k, int device_index,
                                                  const ir::CodegenSettings& /*settings*/) const override {
    return std::make_shared<const DeviceCode>(DeviceKernel::get(k, device_index, DeviceKernelOptions()));
  }

  // The generated CUDA C++, its shared prelude apart.
  ir::GeneratedSource source(const ir::Kernel& k, const ir::CodegenSettings& /*settings*/) const override {
    const CudaSource src = generate_cuda_source(k);
    const std::string_view prelude = cuda_prelude();
    std::string_view own = std::string_view(src.code).substr(prelude.size());
    if (!own.empty() && own.front() == '\n') own.remove_prefix(1);
    return {std::string(prelude), std::string(own), src.row_kernel ? "one block per row" : "grid-stride"};
  }
};

// Each kernel is compiled for the emulator once per process (by its source's
// entry name, a content hash) and kept on disk beside the LLVM kernel cache.
class EmulatorGenerator final : public ir::CodeGenerator {
 public:
  std::shared_ptr<const ir::CompiledCode> compile(const ir::Kernel& k, int /*device_index*/,
                                                  const ir::CodegenSettings& settings) const override {
    const std::string entry = generate_cuda_source(k).entry;  // NotImplementedError: not expressible
    std::lock_guard<std::mutex> lock(mutex_);
    std::shared_ptr<const EmulatedKernel>& slot = kernels_[entry];
    if (!slot) {
      EmulatorOptions options;
      options.cache_dir = ObjectFileCache::default_dir() + "-cuda-emu";
      options.nvrtc_archs = settings.cuda_archs;
      slot = EmulatedKernel::compile(k, options);
    }
    return std::make_shared<const EmulatedCode>(slot);
  }

 private:
  mutable std::mutex mutex_;
  mutable std::map<std::string, std::shared_ptr<const EmulatedKernel>> kernels_;
};

}  // namespace

void register_code_generators() {
  ir::register_code_generator(DeviceType::CUDA, "nvrtc", std::make_unique<NvrtcGenerator>());
  ir::register_code_generator(DeviceType::CPU, "cuda-emu", std::make_unique<EmulatorGenerator>());
}

}  // namespace lz::codegen_cuda
