// Graphviz DOT output of a program and, optionally, its fusion plan, for
// LZ_DUMP and lz-dump ("dot -Tsvg prog.dot -o prog.svg").
//
// - One DOT node per graph node, named n<NodeId>, labelled "%id op" and its
//   result type(s); edges run operand -> user (one per distinct operand).
// - Fill colour by kind: graph inputs, views (Tag::View), reductions
//   (Tag::Reduction), pointwise (Tag::Pointwise), anything else.
// - Program outputs have a double border.
// - With a plan: each kernel group is a "subgraph cluster_<group>" labelled
//   with its kernel name; eager groups' nodes are filled red with the reason
//   in their label and tooltip; edges between different groups (tensors that
//   are materialised) are drawn bold.
#pragma once

#include <string>
#include <string_view>

#include "passes/fusion_plan.h"
#include "passes/program.h"

namespace lz::passes {

std::string to_dot(const Program& p, const FusionPlan* plan = nullptr);

// `s` as the body of a DOT double-quoted string: quotes and backslashes
// escaped, newlines as "\n", other control characters dropped.
std::string dot_escape(std::string_view s);

}  // namespace lz::passes
