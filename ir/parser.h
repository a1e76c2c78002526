// parse_graph: reads the text form that print_graph writes (ir/printer.h)
// back into a Graph, for golden tests and hand-written graphs.
//
// Round trip: for a graph g and outputs o, with p = parse_graph(print_graph(g, o)),
//   print_graph(p.graph, p.outputs) == print_graph(g, o)
//   p.graph.hash_of(p.outputs) == g.hash_of(o)
//
// - Inputs are created without data. Operators are looked up by full name among
//   the registered ones (core/operator_info.h); each node's Args are rebuilt from the operator's schema
//   (the kind from expected_arg_kind in ir/verifier.h; None for an absent
//   optional argument).
// - Value ids must be the ones the graph assigns: consecutive, in order of
//   definition; an operand must be defined on an earlier line.
// - The scalars block fills the scalar pool in order ($k must be the k-th
//   entry); a literal number where a Scalar is expected (alpha=2) adds a new
//   runtime scalar. The generators line fills the generator pool with fresh
//   generators (make_generator(0)): their state is not in the text.
// - Arguments left out take their schema default; a left-out argument
//   without a default is an error (as in PyTorch, even when optional).
//
// Errors throw lz::ValueError naming the line ("parse_graph: line 3: ...")
// and what was expected. Blank lines are ignored; nothing may follow the
// final block.
#pragma once

#include <string_view>
#include <vector>

#include "ir/graph.h"

namespace lz::ir {

struct ParsedGraph {
  Graph graph;
  std::vector<ValueId> outputs;  // the return line's values, in order
};

ParsedGraph parse_graph(std::string_view text);

}  // namespace lz::ir
