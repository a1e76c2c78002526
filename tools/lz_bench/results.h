// What lz-bench measured: one WorkloadResult per workload of
// shared/bench/workloads.md, gathered into a RunReport that report.h prints
// as a table, JSON and an SVG chart. Plain data, no Lazuli types.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lz::bench_runner {

struct WorkloadResult {
  std::string id;           // "W1"
  std::string name;         // "gelu_tanh"
  std::string sizes;        // "x: 16M elements"
  bool bandwidth_bound = true;  // false for W6 (matmul) and W8 (latency): % of bandwidth is shown but not a target
  // Medians over the repetitions, in milliseconds. first_ms: the first lazy
  // call (trace + plan + run, its kernels compiling in the background) in
  // a fresh executable cache; first_while_compiling: its kernel launches
  // that ran as eager steps or interpreted because their code was not in yet.
  double eager_ms = 0, lazy_ms = 0, first_ms = 0;
  int64_t first_while_compiling = 0;
  double speedup = 0;  // eager_ms / lazy_ms
  // Bytes the computation must move (inputs read once, outputs written once).
  double bytes = 0;
  // The STREAM-style copy bandwidth measured right next to this workload,
  // and the workload's effective bandwidth (bytes / time) against it.
  double bandwidth_gbps = 0;
  double gbps = 0, pct_of_bandwidth = 0;              // lazy
  double eager_gbps = 0, eager_pct_of_bandwidth = 0;  // eager
  // Per steady-state lazy run (cache hit): fused kernels launched and
  // operators run through their eager kernels; over the whole workload:
  // executable cache hits and misses, LLVM compile time.
  int64_t kernels = 0, eager_steps = 0;
  int64_t cache_hits = 0, cache_misses = 0;
  double compile_ms = 0;
  // Lazy against eager: the largest absolute and relative differences, the
  // tolerance applied and whether every element was within it.
  double max_abs_err = 0, max_rel_err = 0;
  double atol = 0, rtol = 0;
  bool ok = true;
  // W8 only: tracing cost per recorded operator and the per-run overhead
  // of a cache hit (trace + lookup + launch, minus the kernels), in ns.
  std::optional<double> ns_per_traced_op, cache_hit_overhead_ns;
  // Training steps (W10, W11), from the median of the profiled lazy runs
  // (LZ_PROFILE_STEPS): its time, the milliseconds its executable spent in
  // matrix products (mm, bmm, addmm: the floor) and in all its steps; the
  // rest of profiled_ms is tracing and looking up the executable.
  std::optional<double> profiled_ms, matmul_ms, steps_ms;
  // The costliest of the other steps (at most three, costliest first): the
  // operator's name, or "fused kernels" for the kernels together, and ms.
  std::vector<std::pair<std::string, double>> top_other_steps_ms;
};

struct RunReport {
  std::string device = "cpu";  // "cpu" or "cuda:0"
  std::string dtype = "f32";   // "f32" or "bf16"
  int threads = 1;
  int repetitions = 0;
  bool quick = false;
  // Measured at start-up on all threads (GB/s, bytes read + written).
  double startup_copy_gbps = 0, startup_triad_gbps = 0;
  std::vector<WorkloadResult> workloads;

  bool all_ok() const {
    for (const WorkloadResult& w : workloads) {
      if (!w.ok) return false;
    }
    return true;
  }
};

}  // namespace lz::bench_runner
