// A kernel compiled to native code: the public face of the LLVM code
// generator for the executor. Construction checks that every operation
// can be emitted (and throws CompileFailure naming the first that cannot);
// run() binds a launch, picks (or compiles, once) the variant for the
// accesses' stride classes along the innermost walked axis, and splits the
// work over the thread pool. Results do not depend on the thread count.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "codegen_llvm/jit_engine.h"
#include "codegen_llvm/kernel_abi.h"
#include "codegen_llvm/vector_math.h"
#include "ir/kernel_ir.h"
#include "ir/kernel_launch.h"

namespace lz::codegen_llvm {

struct CodegenOptions {
  MathMode math = MathMode::Precise;
};

class CompiledKernel {
 public:
  // Throws CompileFailure (codegen_llvm/jit_engine.h) when `k` has an
  // operation the generator cannot emit.
  explicit CompiledKernel(const ir::Kernel& k, CodegenOptions options = {});
  ~CompiledKernel();

  // Runs the kernel with the semantics of ir/kernel_ir.h. Compiling a new
  // variant can throw CompileFailure; a gathered index out of range throws
  // IndexError after the kernel ran (the caller's reference run names it).
  void run(const ir::KernelLaunch& launch) const;

  // The variant a launch runs: its accesses' stride classes along the
  // vector axis and its kind.
  struct VariantKey {
    std::vector<StrideClass> classes;
    bool streaming = false, cache_stages = false, split = false, columns = false;
    std::vector<bool> transposed;  // tiled variants: per access
    std::vector<bool> in_piece;
    bool operator==(const VariantKey&) const = default;
  };
  // run() when `launch`'s variant is compiled already; otherwise returns
  // false without running anything and sets *missing to that variant
  // (compile it with compile_variant, on any thread). Throws the
  // CompileFailure of a variant that failed to compile before.
  bool run_if_compiled(const ir::KernelLaunch& launch, VariantKey* missing) const;
  // run_if_compiled without running: whether `launch`'s variant is compiled.
  bool has_code_for(const ir::KernelLaunch& launch, VariantKey* missing) const;
  // Compiles (or finds in a cache) variant `key`; thread-safe, and other
  // launches of this kernel run meanwhile. Throws CompileFailure (and
  // remembers it for run_if_compiled).
  void compile_variant(const VariantKey& key) const;
  // compile_variant when memory or the disk cache has the code (no
  // compile: a millisecond at most); false otherwise, and while the JIT has
  // not started (JitEngine::started: starting it is the compile thread's job).
  bool load_cached_variant(const VariantKey& key) const;

  // Tiered compilation: whether `launch` should run compiled code now. A
  // launch over many points always should (compiling pays for itself at
  // once); a small one only from the kernel's `threshold`-th launch on, or
  // when a variant exists already, so one-off small graphs do not pay a
  // compile (the caller interprets them instead). Counts the launch
  // unless `count` is false.
  bool worth_compiling(const ir::KernelLaunch& launch, int64_t threshold, bool count = true) const;

  const ir::Kernel& kernel() const { return k_; }
  double compile_ms() const;     // spent compiling (or loading) this kernel's variants
  size_t num_variants() const;
  // Per compiled variant, in order: the access classes along its vector
  // axis, one digit each (0 broadcast, 1 unit, 2 strided), and its kind
  // ("classes 12|columns|streaming").
  std::vector<std::string> variant_specs() const;
  // The optimised LLVM IR of the variant with every access unit-stride (for dumps).
  std::string llvm_ir() const;

 private:
  struct Variant;
  struct VariantCode;
  VariantCode code_of(const VariantKey& key) const;
  void add_variant(const VariantKey& key, std::string spec_text, const JitEngine::Result& r) const;
  struct Failed {
    VariantKey key;
    std::string reason;
  };
  const Variant* find_variant(const VariantKey& key) const;  // nullptr: not compiled (throws a remembered failure)
  const Variant& variant(const VariantKey& key) const;      // compiled on first use
  // run() without the gathered-index check: sets *fault when an index was
  // out of range. With `missing`, runs only a variant compiled already
  // (else sets *missing and returns false); `only_check`: runs nothing.
  bool run_bound(const ir::KernelLaunch& launch, int64_t* fault, VariantKey* missing, bool only_check = false) const;
  bool use_streaming(const ir::KernelLaunch& launch, const std::vector<StrideClass>& classes, int64_t points) const;
  bool use_column_streaming(const ir::KernelLaunch& launch, const std::vector<StrideClass>& classes, int64_t points,
                            int64_t band, int64_t segment) const;

  ir::Kernel k_;
  CodegenOptions options_;
  std::string text_;  // print_kernel(k_): the kernel's identity in cache keys
  bool splittable_ = false;
  int64_t cache_bytes_per_point_ = 0;  // kept stage values (0: none)
  mutable std::mutex mu_;
  mutable std::vector<std::unique_ptr<Variant>> variants_;
  mutable std::vector<Failed> failed_;
  mutable double compile_ms_ = 0;
  mutable std::atomic<int64_t> launches_{0};
};

}  // namespace lz::codegen_llvm
