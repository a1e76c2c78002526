// Which code generator compiles a kernel (ir/code_generator.h): on the CPU
// the one LZ_CODEGEN names (llvm, interp, cuda-emu), on another device its
// type's default. The built-in generators are registered here, on first
// use: the backends are static libraries, whose self-registering objects
// the linker would drop, so registration is explicit and this file is the
// only one that names the backends (as LLVM's InitializeAllTargets does).
#pragma once

#include <cstdint>
#include <string_view>

#include "core/device.h"
#include "ir/code_generator.h"

namespace lz::lazy {

const ir::CodeGenerator& code_generator_for(Device device);
// The generator registered as `name` for `type` (its default for an empty
// name), whatever LZ_CODEGEN says: for tools that show one backend's code.
const ir::CodeGenerator& code_generator_named(DeviceType type, std::string_view name = {});

// The lazy settings a code generator is told.
ir::CodegenSettings codegen_settings();

// Blocks until the kernels compiling in the background are in (lz::lazy::wait_for_compiles).
void wait_for_background_compiles();
// Compiles queued or running on the background thread.
int64_t background_compiles_pending();

// The CPU JIT's counts for the process (zeros before its first kernel;
// asking does not start it), for the metrics.
struct JitCounts {
  int64_t compiled = 0;   // kernel variants compiled
  int64_t disk_hits = 0;  // read from the disk cache
  double compile_ms = 0;
  double load_ms = 0;
};
JitCounts jit_counts();

// Runs `launch` through the reference interpreter: what a launch a
// generator declines (or that waits for its code) falls back to.
void interpret(const ir::Kernel& k, const ir::KernelLaunch& launch);

}  // namespace lz::lazy
