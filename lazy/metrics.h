// Counters of the lazy layer: what was traced, what ran, what fell back to
// eager, why work was synchronised, how the executable cache fared. Read as
// a struct (lz::lazy::metrics()) or as a printed report.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>

#include "core/lazy_hooks.h"

namespace lz::lazy {

// Counts by name (heterogeneous lookup: counting does not allocate).
using CountMap = std::map<std::string, uint64_t, std::less<>>;

struct LazyMetrics {
  uint64_t ops_traced = 0;           // operator calls recorded as graph nodes
  uint64_t graphs_materialized = 0;  // executables run
  // Materialisations in which computing some value raised: they were run
  // again step by step, so only the values the failure reaches carry it.
  uint64_t graphs_failed = 0;
  uint64_t nodes_freed = 0;          // graph nodes dropped when traces were cleared
  // Live values a materialisation left pending because recomputing them
  // when read is cheap (lazy/carry_over.h): temporaries no one reads.
  uint64_t values_left_pending = 0;
  uint64_t cache_hits = 0;
  uint64_t cache_misses = 0;
  uint64_t cache_evictions = 0;
  uint64_t cache_size = 0;       // executables cached now
  uint64_t bytes_allocated = 0;  // by executable steps (their non-view results)
  uint64_t eager_steps_total = 0;
  uint64_t kernels_compiled = 0;  // fused kernels planned by cache misses
  uint64_t kernels_launched = 0;  // fused kernels run
  // Kernels run as a matrix product's epilogue, on each finished block of
  // the product (passes/product_epilogue.h); counted in kernels_launched too.
  uint64_t product_epilogues = 0;
  // Kernels planned as an epilogue that ran after their product after all:
  // operands the packed GEMM does not take at run time (no AVX-512, sizes
  // changed since planning).
  uint64_t product_epilogues_declined = 0;
  // The LLVM code generator: kernel variants compiled (emit + IR passes + machine
  // code) and loaded from the on-disk cache, and the time spent on both.
  uint64_t jit_compiled = 0;
  // Launches of compilable kernels run through the interpreter instead
  // (small and not yet hot: LZ_JIT_THRESHOLD).
  uint64_t kernels_interpreted = 0;
  // Kernel launches whose code was still compiling in the background
  // (Settings::compile_in_background): a large one ran as the kernel's
  // eager steps (eager_steps_while_compiling counts them), a small one
  // through the interpreter (kernels_interpreted counts it too).
  uint64_t launches_while_compiling = 0;
  uint64_t eager_steps_while_compiling = 0;
  // Kernels compiling in the background now.
  uint64_t jit_compiles_pending = 0;
  uint64_t jit_disk_hits = 0;
  double jit_compile_ms = 0;
  double jit_load_ms = 0;
  // Kernels the code generator could not compile, by reason (they ran as
  // eager steps, or through the interpreter when a variant failed at run time).
  CountMap codegen_failures;
  // Nodes compiled as eager steps instead of kernels, by "op: reason".
  CountMap not_fused;
  // Steps of executables that ran an operator's eager kernel, per operator.
  CountMap eager_steps;
  // Calls that could not be traced and ran eagerly at once, per operator.
  CountMap eager_fallbacks;
  // Materialisations by cause (to_eager, item, print, ...).
  CountMap syncs;
  // Executable cache misses by reason ("new graph", "input 2: layout", ...).
  CountMap cache_miss_reasons;
  // With LZ_PROFILE_STEPS: milliseconds in executable steps, per operator
  // for eager steps and under kFusedKernels for the kernels.
  std::map<std::string, double, std::less<>> step_ms;
  // Milliseconds cache misses spent in each step of the compile pipeline
  // (lazy/compile.h names them: copy_cone, canonicalise, plan_fusion, ...).
  std::map<std::string, double, std::less<>> compile_ms;
  static constexpr std::string_view kFusedKernels = "fused kernels";
  // step_ms's key for the matrix products (mm, bmm, addmm) together: the
  // floor under a training step.
  static constexpr std::string_view kMatrixProducts = "matrix products";

  // A readable multi-line report of the non-zero counters.
  std::string report() const;
};

// m[key], or 0 when the key was never counted.
inline uint64_t count_of(const CountMap& m, std::string_view key) {
  auto it = m.find(key);
  return it == m.end() ? 0 : it->second;
}

// A snapshot of the process-wide counters.
LazyMetrics metrics();
void reset_metrics();

namespace detail {
void count_traced();
void count_sync(SyncCause cause);
void count_fallback(std::string_view op);
void count_cache(bool hit, std::string_view miss_reason = {});
void count_eviction(uint64_t cache_size);
// A trace cleared after running `graphs` (0 or 1) executables.
void count_run(uint64_t graphs, uint64_t nodes_freed, uint64_t bytes_allocated, uint64_t left_pending);
void count_failed_run();
// One executable run's eager steps: (operator, steps) pairs.
void count_steps(std::span<const std::pair<std::string_view, uint64_t>> per_op);
void count_kernels(uint64_t launched);
void count_product_epilogue(bool ran);
// One profiled run's step times: (operator or kFusedKernels, ms) pairs.
void count_step_ms(std::span<const std::pair<std::string_view, double>> per_step);
void count_compile(uint64_t kernels, std::span<const std::string> not_fused);
void count_compile_ms(std::span<const std::pair<std::string_view, double>> per_step);
void count_codegen_failure(const std::string& reason);
void count_interpreted();
// A launch that ran as `eager_steps` eager steps (0: interpreted) while its code compiled.
void count_run_while_compiling(uint64_t eager_steps);
void set_cache_size(uint64_t size);
}  // namespace detail

}  // namespace lz::lazy
