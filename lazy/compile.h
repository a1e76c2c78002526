// The compile pipeline: how a traced graph becomes an executable. compile()
// runs these steps in order, one line each:
//   copy_cone      the cone of the outputs, copied out of the trace
//   canonicalise   the pass pipeline (passes/pass_manager.h)
//   plan_fusion    the partition into kernel and eager groups (passes/fusion.h)
//   lower          each kernel group to kernel IR (passes/lower_group.h)
//   generate_code  each kernel compiled for its device (lazy/kernel_launch.h);
//                  a kernel the code generator cannot emit becomes eager steps
//   plan_buffers   when each intermediate is released and which outputs take
//                  over an input's memory (passes/buffer_plan.h)
//   assemble       the executable: steps, slots, size sources (lazy/executable.h)
// Code generation comes before buffer planning because its fallback changes
// the groups, and so which group reads a value last.
//
// The step names are what everything reporting on the pipeline uses: LZ_DUMP's
// file names (lazy/graph_dump.h), LZ_DEBUG=3's timing line,
// LazyMetrics::compile_ms and lz-dump --print=stats.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ir/graph.h"
#include "lazy/executable.h"
#include "lazy/kernel_launch.h"
#include "passes/buffer_plan.h"
#include "passes/fusion_plan.h"
#include "passes/pass_manager.h"
#include "passes/program.h"

namespace lz::lazy {

enum class CompileStep : uint8_t { CopyCone, Canonicalise, PlanFusion, Lower, GenerateCode, PlanBuffers, Assemble };
inline constexpr size_t kNumCompileSteps = 7;
std::string_view step_name(CompileStep step);

// How a graph is compiled. The defaults come from settings(); the reference
// plan runs the traced nodes as they are, each through its eager kernel (no
// passes, no fusion): what a failing graph is re-run with to find which
// values the failure reaches, and what LZ_CHECK_EAGER compares against.
struct CompileOptions {
  std::string pipeline;  // the pass pipeline spec (passes/pass_manager.h)
  bool fusion = true;
  static CompileOptions from_settings();
  static CompileOptions reference();
};

// What the steps made, as far as they have run.
struct Compilation {
  passes::Program program;  // copied, then canonicalised in place
  // The copied cone's operators and wiring (Executable::skeleton_hash) and
  // its text when it is small enough to explain a cache miss with.
  uint64_t skeleton_hash = 0;
  std::string traced_text;
  std::vector<passes::PassStat> pass_stats;  // canonicalise's passes
  passes::FusionPlan plan;                   // partitioned, lowered, then fallbacks split
  std::vector<KernelCode> code;              // per plan group (empty for eager groups)
  passes::BufferPlan buffers;
  std::array<double, kNumCompileSteps> ms{};  // each step's wall time
};

// Watches a compile: after_pass after each canonicalisation pass,
// after_step when a step is done (the compilation so far).
class CompileObserver {
 public:
  virtual ~CompileObserver() = default;
  virtual void after_pass(std::string_view /*pass*/, const passes::Program& /*p*/) {}
  virtual void after_step(CompileStep /*step*/, const Compilation& /*c*/) {}
};

// A compile's step times and its canonicalisation passes' statistics as
// aligned tables (LZ_DUMP's summary.txt, lz-dump --print=stats).
std::string step_time_table(const std::array<double, kNumCompileSteps>& ms);
std::string pass_stat_table(const std::vector<passes::PassStat>& stats);

// Compiles the executable computing `outputs` (in that order) of `trace`
// for the input layouts of `data` (what the trace's inputs are bound to;
// empty for a graph read from text). Besides `observer`, the settings'
// LZ_DUMP and LZ_DEBUG and the metrics report on every compile.
std::unique_ptr<Executable> compile(const ir::Graph& trace, const GraphData& data,
                                    std::span<const ir::ValueId> outputs,
                                    const CompileOptions& options = CompileOptions::from_settings(),
                                    CompileObserver* observer = nullptr);

}  // namespace lz::lazy
