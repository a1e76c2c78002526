// What lz-dump shows: a graph read from its IR text form (the form
// print_graph writes and LZ_DUMP dumps), compiled by the pipeline
// (lazy/compile.h) as materialisation would, and described section by
// section. The tool itself only parses its command line and writes files.
#pragma once

#include <string>
#include <string_view>

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
};

struct Explanation {
  std::string text;  // the sections, with "=== name ===" headers when more than one
  std::string dot;   // with print.dot or want_dot
};

// Throws lz::ValueError when the text does not parse (naming the line), the
// graph returns nothing or breaks an IR invariant, or the pass spec is bad.
Explanation explain_graph(std::string_view ir_text, const ExplainOptions& options);

}  // namespace lz::lazy
