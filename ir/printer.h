// The text form of a Graph: one node per line, in node order, stable enough
// for golden tests and read back by parse_graph (ir/parser.h).
//
//   graph {
//     %0 : f32[4, 8] = input 0
//     %1 : f32[8]@cuda:0 = input 1
//     %2 : f32[4, 8] = add.Tensor(%0, %1, alpha=$0)
//     %3 : f32[4], %4 : i64[4] = max.dim(%2, dim=1, keepdim=false)
//     %5 : f32[4, 8], %6 : b8[4, 8] = native_dropout(%2, p=0.5, train=true) {generator=$g0}
//     return %3, %5
//   }
//   scalars {
//     $0 = 1 : int
//   }
//   generators { $g0 }
//
// - Result types: dtype short name, sizes, and "@device" unless on the CPU.
//   Short names: b8 u8 i32 i64 f16 bf16 f32 f64 (dtype_short_name).
// - Tensor, Tensor?, Tensor[] and Tensor?[] arguments come first, positionally,
//   in schema order (%id, None, [%1, %2], [%1, None]); every other argument
//   follows as name=value in schema order, all of them, defaults included.
// - Values: ints in decimal; floats in the shortest text that reads back
//   bit-exactly (0.1, 1e-05, inf, nan); true/false; None; lists [..]; strings
//   "..." with \\ \" \n \t \r \xHH escapes; dtypes by short name; devices cpu,
//   cuda:N; layouts strided; memory formats contiguous_format, preserve_format.
// - Runtime parameters print by pool index: scalars $k (their values and
//   kinds in the trailing scalars block), generators $gk (state not printed).
//   A node's implicit generator is a trailing {generator=$gk}.
// - A node with no results prints "() = op(...)". The return line, the
//   scalars block and the generators line appear only when non-empty.
//
// The printer never throws on a malformed graph (the verifier quotes the
// broken node's line): bad operand indices, dtypes, enum payloads and values
// print as "?". List and string pool slices are read as recorded (Graph does
// not expose the pools' sizes), so those must be in range.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>

#include "ir/graph.h"

namespace lz::ir {

// The whole graph, with a return line for `outputs` when given.
std::string print_graph(const Graph& g, std::span<const ValueId> outputs = {});

// One node's line, without indentation or newline: "%2 : f32[4] = exp(%1)".
std::string print_node(const Graph& g, NodeId id);

// "f32[4, 8]", "i64[]", "f32[2]@cuda:1".
std::string print_type(const TensorMeta& type);

// "f32", "bf16", "b8", ...; "?" for a value that is not a dtype.
std::string_view dtype_short_name(ScalarType t);

// Appends `d` in the shortest text that reads back to the same bits (inf,
// -inf, nan as words): the graph's and the kernel IR's float values.
void print_double(std::string& out, double d);

std::ostream& operator<<(std::ostream& os, const Graph& g);

}  // namespace lz::ir
