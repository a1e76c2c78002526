// lz-dump: reads a graph in the IR text form (ir/printer.h), compiles it the
// way materialisation would, and prints what happened: the IR after each
// pass, the final IR, the fusion plan, each kernel's IR and generated code,
// step and pass statistics and a Graphviz DOT picture (lazy/explain.h
// describes; this file is the command line).
//
// Exit codes: 0 ok, 2 bad arguments or input (never a crash on bad input).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <string_view>

#include <lazuli/lazuli.h>

#include "lazy/explain.h"

namespace {

constexpr std::string_view kUsage =
    R"(usage: lz-dump [options] INPUT.ir

Reads a graph in Lazuli's IR text form (INPUT "-" reads stdin), runs the
compile pipeline on it (passes, fusion planning, lowering, code
generation), and prints the result.

options:
  --passes=SPEC     comma-separated pass pipeline (dce, cse, fold, simplify,
                    views, default); "none" runs no pass. Default: "default".
  --no-fusion       plan every node as an eager step (as LZ_NO_FUSION does)
  --print=LIST      what to print, comma-separated, in this order:
                      passes   the IR after each pass
                      ir       the final IR
                      plan     the fusion plan
                      kernels  each kernel's IR
                      llvm     each kernel's optimised LLVM IR (the
                               unit-stride variant), or why it cannot compile
                      cuda     each kernel's generated CUDA C++ (the
                               shared prelude once, then the kernels)
                      stats    each compile step's time (lazy/compile.h),
                               then per-pass name, time, changed, node counts
                      dot      Graphviz DOT of the program and its plan
                    or "all" (all but llvm and cuda) or "none". Default: ir,plan.
  -o FILE           write the printed output to FILE instead of stdout
  --dot=FILE.dot    also write DOT to FILE.dot and, if Graphviz's `dot` is on
                    PATH, render it to FILE.svg next to it
  -h, --help        show this help

exit status: 0 on success, 2 on bad arguments or input.
)";

using Sections = lz::lazy::ExplainSections;

struct Options {
  std::string passes = "default";
  bool fuse = true;
  Sections print;
  std::string output;    // empty: stdout
  std::string dot_file;  // empty: none
  std::string input;
};

// A bad command line or input: reported on stderr, exit status 2.
struct UsageError {
  std::string message;
};

Sections parse_sections(std::string_view list) {
  Sections s;
  s.ir = s.plan = false;
  size_t pos = 0;
  while (pos <= list.size()) {
    const size_t comma = std::min(list.find(',', pos), list.size());
    const std::string_view item = list.substr(pos, comma - pos);
    if (item == "passes") s.passes = true;
    else if (item == "ir") s.ir = true;
    else if (item == "plan") s.plan = true;
    else if (item == "kernels") s.kernels = true;
    else if (item == "llvm") s.llvm = true;
    else if (item == "cuda") s.cuda = true;
    else if (item == "stats") s.stats = true;
    else if (item == "dot") s.dot = true;
    else if (item == "all") s = {true, true, true, true, false, false, true, true};  // llvm, cuda: on request only
    else if (item == "none" || item.empty()) {
    } else {
      throw UsageError{"--print: unknown item '" + std::string(item) +
                       "' (known: passes, ir, plan, kernels, llvm, cuda, stats, dot, all, none)"};
    }
    pos = comma + 1;
  }
  return s;
}

// Returns false when --help was asked for.
bool parse_args(int argc, char** argv, Options& o) {
  bool have_input = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view a = argv[i];
    auto value_of = [&](std::string_view flag) -> std::string {
      if (a.size() > flag.size() && a.substr(0, flag.size()) == flag && a[flag.size()] == '=') {
        return std::string(a.substr(flag.size() + 1));
      }
      if (i + 1 >= argc) throw UsageError{std::string(flag) + " needs a value"};
      return argv[++i];
    };
    auto is_flag = [&](std::string_view flag) {
      return a == flag || (a.size() > flag.size() && a.substr(0, flag.size() + 1) == std::string(flag) + "=");
    };
    if (a == "-h" || a == "--help") return false;
    if (a == "--no-fusion") {
      o.fuse = false;
    } else if (is_flag("--passes")) {
      o.passes = value_of("--passes");
    } else if (is_flag("--print")) {
      o.print = parse_sections(value_of("--print"));
    } else if (is_flag("--dot")) {
      o.dot_file = value_of("--dot");
      if (o.dot_file.empty()) throw UsageError{"--dot needs a file name"};
    } else if (a == "-o" || is_flag("--output")) {
      o.output = value_of(a == "-o" ? "-o" : "--output");
      if (o.output.empty()) throw UsageError{"-o needs a file name"};
    } else if (a.size() > 1 && a[0] == '-') {
      throw UsageError{"unknown option '" + std::string(a) + "'"};
    } else {
      if (have_input) throw UsageError{"more than one input file ('" + o.input + "', '" + std::string(a) + "')"};
      o.input = std::string(a);
      have_input = true;
    }
  }
  if (!have_input) throw UsageError{"no input file (use - for stdin)"};
  return true;
}

std::string read_input(const std::string& path) {
  if (path == "-") return std::string(std::istreambuf_iterator<char>(std::cin), {});
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError{"cannot open '" + path + "'"};
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_file(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary);
  out << text;
  if (!out) throw UsageError{"cannot write '" + path + "'"};
}

// Quotes `s` for /bin/sh (single quotes; embedded ones closed and escaped).
std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Renders `dot_file` to SVG with Graphviz when it is installed; a missing
// Graphviz is reported, not an error (the .dot file is the result).
void render_svg(const std::string& dot_file) {
  std::string svg = dot_file;
  const size_t slash = svg.find_last_of('/');
  const size_t dot = svg.find_last_of('.');
  if (dot != std::string::npos && (slash == std::string::npos || dot > slash)) svg.resize(dot);
  svg += ".svg";
  if (std::system("command -v dot >/dev/null 2>&1") != 0) {
    std::cerr << "lz-dump: wrote " << dot_file << "; Graphviz 'dot' not found on PATH, no SVG rendered\n";
    return;
  }
  const std::string cmd = "dot -Tsvg " + shell_quote(dot_file) + " -o " + shell_quote(svg);
  if (std::system(cmd.c_str()) != 0) {
    std::cerr << "lz-dump: wrote " << dot_file << "; 'dot' failed to render " << svg << "\n";
    return;
  }
  std::cerr << "lz-dump: wrote " << dot_file << " and " << svg << "\n";
}

int run(const Options& o) {
  const std::string text = read_input(o.input);
  const std::string source = o.input == "-" ? "<stdin>" : o.input;
  lz::lazy::ExplainOptions options;
  options.passes = o.passes;
  options.fuse = o.fuse;
  options.print = o.print;
  options.want_dot = !o.dot_file.empty();
  lz::lazy::Explanation explained;
  try {
    explained = lz::lazy::explain_graph(text, options);
  } catch (const lz::Error& e) {
    throw UsageError{source + ": " + e.what()};
  }
  if (o.output.empty()) {
    std::cout << explained.text << std::flush;
  } else {
    write_file(o.output, explained.text);
  }
  if (!o.dot_file.empty()) {
    write_file(o.dot_file, explained.dot);
    render_svg(o.dot_file);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    Options o;
    if (!parse_args(argc, argv, o)) {
      std::cout << kUsage;
      return 0;
    }
    return run(o);
  } catch (const UsageError& e) {
    std::cerr << "lz-dump: " << e.message << "\n";
    if (e.message.find("option") != std::string::npos || e.message.find("input file") != std::string::npos) {
      std::cerr << "run 'lz-dump --help' for usage\n";
    }
    return 2;
  } catch (const std::exception& e) {
    // ValueError from a bad --passes spec, or an error inside the pipeline.
    std::cerr << "lz-dump: " << e.what() << "\n";
    return 2;
  }
}
