// LZ_DUMP=<dir> (or Settings::dump_dir): every graph the executable cache
// compiles is written to <dir>/graph_<hash>/:
//   00_traced.ir, 01_<pass>.ir, ...   the IR before and after each pass
//   plan.txt                          the fusion groups with their kernel IR
//   kernel_<k>.kir                    each kernel's IR
//   kernel_<k>.ll                     its optimised LLVM IR (LLVM code generator)
//   graph.dot (and graph.svg when graphviz's dot is installed)
//   summary.txt                       nodes, groups, kernels, eager steps and
//                                     why each was not fused, pass timings
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "passes/fusion_plan.h"
#include "passes/pass_manager.h"
#include "passes/program.h"

namespace lz::lazy {

class GraphDump {
 public:
  // Does nothing when `dir` is empty.
  GraphDump(const std::string& dir, uint64_t graph_hash);

  void program(std::string_view name, const passes::Program& p) const;
  void plan(const passes::Program& p, const passes::FusionPlan& plan, std::span<const passes::PassStat> stats) const;
  // The generated code of kernel k (numbered as in plan()); `ext` names the language.
  void kernel_code(size_t k, std::string_view ext, std::string_view code) const;
  bool enabled() const { return !dir_.empty(); }

 private:
  void write(std::string_view file, std::string_view text) const;
  std::string dir_;
};

}  // namespace lz::lazy
