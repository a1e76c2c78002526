// Code generation behind one interface. A code generator compiles a
// kernel-IR kernel (ir/kernel_ir.h) for one device; the compiled code runs a
// launch of it (ir/kernel_launch.h: bound buffers, sizes and scalars).
// Backends register their generators per device type and name, the way
// LLVM's targets register (lazy/code_generators.cpp registers the built-in
// ones, the only place that names them); the executor asks for the
// generator of a device and never names a backend. A new backend is a
// folder with a CodeGenerator and one registration line.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/device.h"
#include "ir/kernel_ir.h"
#include "ir/kernel_launch.h"

namespace lz::ir {

// What every generator may be told, read from the lazy settings when a
// kernel is compiled (a change recompiles: lazy/config.cpp).
struct CodegenSettings {
  bool fast_math = false;  // approximate transcendental functions
  // CPU JIT: a small kernel runs interpreted until its launch number
  // `jit_threshold` (compiling it would cost more than it saves).
  int64_t jit_threshold = 2;
  // CPU JIT: a launch whose code is not compiled yet starts its compile on
  // the background thread and does not wait for it (Launched::Compiling).
  bool compile_in_background = true;
  // CUDA emulator: NVRTC also compiles each kernel for these architectures,
  // so a kernel the GPU compiler would reject fails on a machine without one.
  std::vector<std::string> cuda_archs;
};

// What became of a launch given to compiled code.
enum class Launched : uint8_t {
  Ran,        // it ran (on a device: is queued on the device's stream)
  Interpret,  // declined: the caller runs the reference interpreter (a small
              // launch not yet worth compiling; with *failure set, a
              // variant that failed to compile)
  Compiling,  // nothing ran: its code compiles in the background; the
              // caller computes the kernel's values another way this time
};

// A kernel compiled for one device.
class CompiledCode {
 public:
  virtual ~CompiledCode() = default;
  virtual Launched launch(const KernelLaunch& launch, std::string* failure) const = 0;
  // Whether launch(`launch`) would run now, without waiting for code (or
  // would decline it); when not, the code starts getting ready in the
  // background. The boxes of a launch with pieces (which must all run one
  // way) ask this first. Thread-safe.
  virtual bool ready(const KernelLaunch& /*launch*/) const { return true; }
  // The generated code for dumps: its file extension ("ll", "cu"; empty
  // when there is no text) and the text.
  virtual std::string_view language() const = 0;
  virtual std::string text() const = 0;
};

// The code a generator makes of a kernel, as text for a reader (lz-dump
// --print=llvm|cuda), made without a device.
struct GeneratedSource {
  std::string prelude;  // text every kernel's code starts with (shown once), or empty
  std::string text;     // the kernel's own code, after the prelude
  std::string summary;  // a few words on its shape ("one block per row"), or empty
};

// One compile of a kernel to machine code that no cache answered, timed.
struct ColdCompile {
  double ms = 0;           // all of it
  double optimize_ms = 0;  // of which the optimisation pipeline
  double codegen_ms = 0;   // of which machine code generation
  std::string failure;     // why it did not compile (the times are 0 then)
};

class CodeGenerator {
 public:
  virtual ~CodeGenerator() = default;
  // `k` compiled for device `device_index` of the generator's device type.
  // Throws NotImplementedError, naming what it cannot express, when it
  // cannot generate `k` (the caller runs the kernel's nodes as eager steps).
  virtual std::shared_ptr<const CompiledCode> compile(const Kernel& k, int device_index,
                                                      const CodegenSettings& settings) const = 0;
  // The code `k` becomes, without compiling it to machine code.
  // NotImplementedError when the generator cannot generate `k` or shows no text.
  virtual GeneratedSource source(const Kernel& k, const CodegenSettings& settings) const;
  // `k` compiled to machine code now, under names and a key no compile had
  // before, so that no cache answers (what a kernel's first launch costs
  // cold). NotImplementedError when the generator does not compile ahead.
  virtual ColdCompile compile_cold(const Kernel& k, const CodegenSettings& settings) const;
};

// Registers `generator` as `name` for devices of `type`; the first one
// registered for a type is its default. Re-registering a name replaces it.
void register_code_generator(DeviceType type, std::string_view name, std::unique_ptr<CodeGenerator> generator);
// The generator registered as `name` for `type` (the default for an empty
// name); NotImplementedError listing the registered ones when there is none.
const CodeGenerator& code_generator(DeviceType type, std::string_view name = {});
// The names registered for `type`, default first.
std::vector<std::string> code_generator_names(DeviceType type);

}  // namespace lz::ir
