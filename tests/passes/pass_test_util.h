// Shorthands for the pass tests: a Program from graph text (origin[v] == v,
// as for a trace), and running a pipeline over text to compare the printed
// result with an expected text.
#pragma once

#include <numeric>
#include <string>
#include <string_view>

#include "ir/parser.h"
#include "ir/printer.h"
#include "passes/pass_manager.h"
#include "passes/program.h"

namespace lz::passes::testing {

inline Program program_of(std::string_view text) {
  ir::ParsedGraph parsed = ir::parse_graph(text);
  Program p;
  p.origin.resize(parsed.graph.num_values());
  std::iota(p.origin.begin(), p.origin.end(), ir::ValueId{0});
  p.graph = std::move(parsed.graph);
  p.outputs = std::move(parsed.outputs);
  return p;
}

inline std::string printed(const Program& p) { return ir::print_graph(p.graph, p.outputs); }

// The printed program after running pipeline `spec` over `text`.
inline std::string run_passes(std::string_view spec, std::string_view text) {
  Program p = program_of(text);
  PassManager pm = make_pipeline(spec);
  pm.run(p);
  return printed(p);
}

// Whether pipeline `spec` leaves `text` exactly as it is (and says so).
inline bool unchanged_by(std::string_view spec, std::string_view text) {
  Program p = program_of(text);
  const std::string before = printed(p);
  PassManager pm = make_pipeline(spec);
  pm.run(p);
  for (const PassStat& s : pm.stats()) {
    if (s.changed) return false;
  }
  return printed(p) == before;
}

}  // namespace lz::passes::testing
