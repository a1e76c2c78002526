// A Program: a graph and the values it must compute, in order. Passes take
// and return programs. A rewritten program keeps its source's graph inputs
// (same indices, same data), runtime scalar pool and generator pool, so an
// executable planned from it runs with the traced graph it came from.
#pragma once

#include <vector>

#include "ir/graph.h"

namespace lz::passes {

struct Program {
  ir::Graph graph;
  std::vector<ir::ValueId> outputs;
  // For every value of `graph`, the value of the *source* program it stands
  // for (same dtype and sizes): the executor reads run-time sizes through
  // it. A program copied from a trace starts with origin[v] == v; a pass
  // that replaces a value gives the replacement the replaced value's
  // origin. kNone for values no source value matches.
  std::vector<ir::ValueId> origin;
};

}  // namespace lz::passes
