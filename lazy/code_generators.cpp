#include "lazy/code_generators.h"

#include <mutex>

#include "codegen_cuda/cuda_code_generators.h"
#include "codegen_interp/interp_code_generator.h"
#include "codegen_interp/kernel_interpreter.h"
#include "codegen_llvm/compile_queue.h"
#include "codegen_llvm/jit_engine.h"
#include "codegen_llvm/llvm_code_generator.h"
#include "lazy/config.h"

namespace lz::lazy {

namespace {

void register_builtin_code_generators() {
  static std::once_flag once;
  std::call_once(once, [] {
    codegen_llvm::register_code_generator();  // first: the CPU's default
    codegen_interp::register_code_generator();
    codegen_cuda::register_code_generators();
  });
}

std::string_view cpu_generator_name(Settings::Codegen c) {
  switch (c) {
    case Settings::Codegen::Llvm: return "llvm";
    case Settings::Codegen::Interpreter: return "interp";
    case Settings::Codegen::CudaEmulator: return "cuda-emu";
  }
  return {};
}

}  // namespace

const ir::CodeGenerator& code_generator_for(Device device) {
  register_builtin_code_generators();
  if (device.is_cpu()) return ir::code_generator(DeviceType::CPU, cpu_generator_name(detail::codegen()));
  return ir::code_generator(device.type());
}

const ir::CodeGenerator& code_generator_named(DeviceType type, std::string_view name) {
  register_builtin_code_generators();
  return ir::code_generator(type, name);
}

void wait_for_background_compiles() { codegen_llvm::wait_for_compiles(); }

int64_t background_compiles_pending() { return codegen_llvm::compiles_pending(); }

JitCounts jit_counts() {
  const codegen_llvm::JitStats s = codegen_llvm::JitEngine::current_stats();
  return JitCounts{s.compiled, s.disk_hits, s.compile_ms, s.load_ms};
}

void interpret(const ir::Kernel& k, const ir::KernelLaunch& launch) { codegen_interp::run_kernel(k, launch); }

ir::CodegenSettings codegen_settings() {
  ir::CodegenSettings s;
  s.fast_math = detail::fast_math();
  s.jit_threshold = detail::jit_threshold();
  s.compile_in_background = detail::compile_in_background();
  s.cuda_archs = detail::cuda_archs();
  return s;
}

}  // namespace lz::lazy
