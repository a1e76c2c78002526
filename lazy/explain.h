// What lz-dump shows: a graph read from its IR text form (the form
// print_graph writes and LZ_DUMP dumps), compiled by the pipeline
// (lazy/compile.h) as materialisation would, and described section by
// section. The tool itself only parses its command line and writes files.
// The same description as data (each step's time, fresh kernel compiles,
// the executable cache's key) is what bench_compile measures the compile
// path with, through the public API and this header only.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lz::ir {
struct ParsedGraph;
}

namespace lz::lazy {

// Which sections to describe, in the order they are printed.
struct ExplainSections {
  bool passes = false;   // the IR before and after each pass
  bool ir = true;        // the canonicalised IR
  bool plan = true;      // the lowered fusion plan
  bool kernels = false;  // each kernel's IR
  bool llvm = false;     // each kernel's optimised LLVM IR (unit-stride variant)
  bool cuda = false;     // each kernel's generated CUDA C++, the prelude once
  bool stats = false;    // each compile step's time, then each pass's
  bool dot = false;      // Graphviz DOT of the program and its plan
  int count() const { return passes + ir + plan + kernels + llvm + cuda + stats + dot; }
};

struct ExplainOptions {
  std::string passes = "default";  // the pass pipeline spec; "none": no pass
  bool fuse = true;                // false: every node an eager step (LZ_NO_FUSION)
  ExplainSections print;
  bool want_dot = false;  // fill Explanation::dot even when print.dot is off
  // Compile every CPU kernel of the plan (as code generation left it)
  // through the CPU's default code generator (LLVM) as its first launch
  // would: the variant with every access unit-stride, the settings' math
  // mode (ir::CodeGenerator::compile_cold). The pipeline's generate_code step
  // only checks that a kernel can be emitted; machine code is made at a
  // kernel's first launch. Each compile has fresh symbols
  // and a fresh key, so neither the JIT's memory nor its disk cache answers;
  // its object is still stored in the disk cache unless that is off
  // (LZ_KERNEL_CACHE=0, which a caller compiling again and again wants).
  // Fills Explanation::kernel_compiles.
  bool compile_kernels = false;
};

// One step of the compile pipeline (lazy/compile.h names them) and its wall time.
struct StepTime {
  std::string step;
  double ms = 0;
};

// One kernel compiled for ExplainOptions::compile_kernels.
struct KernelCompile {
  std::string kernel;      // its name
  double ms = 0;           // all of it: emission, IR pipeline, machine code, linking
  double optimize_ms = 0;  // of which the IR pass pipeline
  double codegen_ms = 0;   // of which machine code generation
  std::string failure;     // why it did not compile (the times are 0 then)
};

struct Explanation {
  std::string text;  // the sections, with "=== name ===" headers when more than one
  std::string dot;   // with print.dot or want_dot
  std::vector<StepTime> steps;                 // every compile step, in pipeline order
  std::vector<KernelCompile> kernel_compiles;  // with compile_kernels, in plan order
};

// A graph read from its IR text once and checked, to be explained or
// measured more than once (explain_graph(text) reads the text every call).
class IrGraph {
 public:
  // Throws lz::ValueError when the text does not parse (naming the line), or
  // the graph returns nothing or breaks an IR invariant.
  explicit IrGraph(std::string_view ir_text);
  IrGraph(IrGraph&&) noexcept;
  IrGraph& operator=(IrGraph&&) noexcept;
  ~IrGraph();

  // The executable cache's key of the graph: the structural hash of its
  // outputs' cone, as materialising the trace it was dumped from looks it up.
  uint64_t cache_key() const;

 private:
  friend Explanation explain_graph(const IrGraph& graph, const ExplainOptions& options);
  std::unique_ptr<ir::ParsedGraph> parsed_;
};

// Throws lz::ValueError when the pass spec is bad (and for the text, as
// IrGraph does).
Explanation explain_graph(const IrGraph& graph, const ExplainOptions& options);
Explanation explain_graph(std::string_view ir_text, const ExplainOptions& options);

}  // namespace lz::lazy
