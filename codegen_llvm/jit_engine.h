// The process's LLVM JIT: one ORC LLJIT for the host CPU that compiled
// kernel objects are linked into. A module is optimised (a pass pipeline
// for the emitter's loops, the host's CPU and features), compiled to an
// object file, stored in the on-disk
// cache and linked; a later request for the same key (in this process:
// memory; in another: disk) skips all of that. Linked code lives while a
// caller holds its Result::code: a process that compiles kernels for hours
// (graphs evicted from the executable cache) keeps its memory and its
// mappings bounded. LLVM stays out of this header.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace lz::codegen_llvm {

struct JitStats {
  int64_t compiled = 0;        // modules optimised and compiled
  int64_t disk_hits = 0;       // objects read from the on-disk cache
  int64_t memory_hits = 0;     // keys already linked in this process
  int64_t unlinked = 0;        // objects whose code was released (no holder left)
  int64_t failures = 0;        // emission or compilation errors
  double compile_ms = 0;       // total time compiling (emission + IR pipeline + machine code)
  double optimize_ms = 0;      // of which the IR pass pipeline
  double codegen_ms = 0;       // of which machine code generation
  double load_ms = 0;          // total time linking cached objects
};

// Thrown when a kernel cannot be compiled; the message says why.
struct CompileFailure {
  std::string reason;
};

class JitEngine {
 public:
  static JitEngine& instance();
  // Whether instance() has been made, by any thread. Making it maps much of
  // LLVM into the process (about 1 ms with LLVM's pages in the page cache,
  // up to ~50 ms without): a launch that would only look in the caches
  // leaves that to the compile thread while the engine has not started.
  static bool started();

  // The host the code is generated for ("skylake-avx512", and its features).
  const std::string& cpu() const;
  const std::string& features() const;
  unsigned vector_bits() const;  // widest vector registers the host has (LZ_VECTOR_BITS overrides)

  // The addresses of `symbols` from the object built by `emit` for `key`.
  // `key` must identify the code completely (the caller includes the kernel,
  // the variant, the math mode; the engine adds LLVM's version and the host).
  // Thread-safe; throws CompileFailure.
  struct Result {
    std::vector<void*> addresses;  // per symbol; nullptr when absent
    // The linked code: the addresses stay valid while this is held (every
    // caller with the same key shares it); the code is unlinked after the
    // last holder lets go.
    std::shared_ptr<const void> code;
    double ms = 0;          // time this call spent (compile or load)
    bool compiled = false;  // false: from memory or disk
  };
  using EmitFn = std::function<std::unique_ptr<llvm::Module>(llvm::LLVMContext&)>;
  Result get(const std::string& key, const std::vector<std::string>& symbols, const EmitFn& emit);
  // get() when memory or the disk cache has the code (a millisecond at
  // most); nullopt where it would have to compile.
  std::optional<Result> find(const std::string& key, const std::vector<std::string>& symbols);

  // The optimised LLVM IR of `emit`'s module, for dumps and tests.
  std::string optimized_ir(const EmitFn& emit);

  JitStats stats() const;
  // stats() of the engine, or zeros when no kernel was compiled yet (does
  // not start LLVM).
  static JitStats current_stats();
  // On-disk cache: LZ_KERNEL_CACHE=0 disables it; LZ_CACHE_DIR moves it.
  void set_disk_cache(bool enabled, const std::string& dir = "");

  ~JitEngine();

 private:
  JitEngine();
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace lz::codegen_llvm
