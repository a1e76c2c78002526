// LZ_DUMP=<dir> (or Settings::dump_dir): every graph the executable cache
// compiles is written to <dir>/graph_<hash>/, one file per compile step
// (lazy/compile.h), numbered and named after it:
//   1_copy_cone.ir                     the traced cone
//   2_canonicalise_<nn>_<pass>.ir      the IR after each pass
//   3_plan_fusion.txt                  the planner's decisions, one per line
//   4_lower.txt                        the fusion groups with their kernel IR
//   5_generate_code_kernel_<k>.kir     each kernel the executable runs, its IR
//   5_generate_code_kernel_<k>.ll      and its optimised LLVM IR (or .cu: CUDA)
//   6_plan_buffers.txt                 releases and in-place outputs per group
//   7_assemble.txt                     the executable's plan (fallbacks split)
//   summary.txt                        nodes, groups, kernels, eager steps and
//                                      why each was not fused, step and pass times
//   graph.dot (and graph.svg when graphviz's dot is installed)
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "lazy/compile.h"

namespace lz::lazy {

class GraphDump final : public CompileObserver {
 public:
  // Does nothing when `dir` is empty.
  GraphDump(const std::string& dir, uint64_t graph_hash);
  bool enabled() const { return !dir_.empty(); }

  void after_pass(std::string_view pass, const passes::Program& p) override;
  void after_step(CompileStep step, const Compilation& c) override;

 private:
  // Writes <dir>/<n>_<step><suffix>.
  void write(CompileStep step, std::string_view suffix, std::string_view text) const;
  void write(std::string_view file, std::string_view text) const;
  void summary(const Compilation& c) const;
  std::string dir_;
  int passes_ = 0;
};

}  // namespace lz::lazy
