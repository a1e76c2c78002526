// verify_graph: checks the invariants every producer of a Graph (the lazy
// tracer, the parser, passes) must keep. A failure is a bug in Lazuli, so it
// throws lz::InternalError whose message quotes the broken node's printed line:
//   verify_graph: node 2 `%2 : f32[4] = exp(%0)`: operand %7 is used before it is defined
//
// Checked, in this order for each node:
//  - numbering: node k's results are the next values in order; each result
//    names node k as producer with the right output_index, and its hash is
//    value_hash(node hash, output index, type).
//  - result types: a real dtype (not Undefined), sizes >= 0, a valid device.
//  - inputs: no operator, no arguments or operands, one result, and the
//    graph's input list points back at it.
//  - operators: registered; as many Args as schema arguments; each Arg's
//    kind is expected_arg_kind(argument type), or None for an optional one;
//    Tensor/TensorList/OptTensorList operand indices within the operand list;
//    scalar and generator indices within their pools (and a Scalar Arg
//    records its scalar's kind); Bool, BoolList, dtype, device, layout and
//    memory-format payloads are valid enum values.
//  - operands (SSA): every operand is a value defined by an earlier node.
//  - results: as many as the schema returns, all Tensors; an operator that
//    returns one Tensor[] may have any number.
//  - implicit_generator: kNone or within the generator pool.
// Finally every id in `outputs` must be a value of the graph.
//
// Not checked: node hashes (they are recomputed only by add_node), and the
// range of int/double/string pool slices (Graph does not expose the pools'
// sizes); OptTensorList entries are read, so their slice must be in range.
// Shapes are not re-inferred: meta functions need tensors, not types.
#pragma once

#include <optional>
#include <span>

#include "core/function_schema.h"
#include "ir/graph.h"

namespace lz::ir {

void verify_graph(const Graph& g, std::span<const ValueId> outputs = {});

// How a present argument of schema type `type` is stored in a node (an
// absent optional one is ArgKind::None): Tensor -> Tensor, Tensor[] ->
// TensorList, Tensor?[] -> OptTensorList, int[] -> IntList, float -> Double,
// ... nullopt for types a graph cannot hold (Scalar[], str[], Generator[]).
std::optional<ArgKind> expected_arg_kind(const SchemaType& type);

}  // namespace lz::ir
