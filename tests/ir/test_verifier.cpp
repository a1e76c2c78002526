// verify_graph: accepts the graphs the builders and the parser make, and
// rejects each broken invariant with an InternalError quoting the node.
#include <catch2/catch.hpp>

#include "ir/parser.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "tests/ir/graph_builders.h"

using namespace lz;
using namespace lz::ir;
using namespace lz::ir::testing;

namespace {

// The message verify_graph throws for `g`, or "" if it passes.
std::string verify_message(const Graph& g, std::span<const ValueId> outputs = {}) {
  try {
    verify_graph(g, outputs);
  } catch (const InternalError& e) {
    return e.what();
  }
  return "";
}

// A graph with one f32[4] input, ready for one more node.
Graph with_input() {
  Graph g;
  g.add_input(type(kFloat, {4}));
  return g;
}

// Tests corrupt a graph they own the way a buggy pass could.
template <class T>
T& mutable_ref(const T& x) {
  return const_cast<T&>(x);
}

}  // namespace

TEST_CASE("verifier: accepts well-formed graphs", "[ir]") {
  Graph empty;
  CHECK(verify_message(empty) == "");

  Graph g;
  const std::vector<ValueId> outputs = build_sample(g);
  CHECK(verify_message(g, outputs) == "");

  // Any number of results for an operator returning Tensor[].
  Graph chunks = with_input();
  node(chunks, "chunk", {tensor_arg(0), int_arg(3), int_arg(0)}, {0},
       {type(kFloat, {2}), type(kFloat, {1}), type(kFloat, {1})});
  CHECK(verify_message(chunks) == "");

  const ParsedGraph parsed = parse_graph(print_graph(g, outputs));
  CHECK(verify_message(parsed.graph, parsed.outputs) == "");
}

TEST_CASE("verifier: rejects arguments that do not match the schema", "[ir]") {
  Graph g = with_input();
  node(g, "exp", {}, {0}, {type(kFloat, {4})});
  CHECK(verify_message(g) == "verify_graph: node 1 `%1 : f32[4] = exp()`: 0 arguments, but exp takes 1");

  Graph wrong_kind = with_input();
  node(wrong_kind, "exp", {int_arg(3)}, {0}, {type(kFloat, {4})});
  CHECK(verify_message(wrong_kind) ==
        "verify_graph: node 1 `%1 : f32[4] = exp(3)`: argument 'self' (Tensor) is stored as int, expected tensor");

  Graph none = with_input();
  node(none, "exp", {none_arg()}, {0}, {type(kFloat, {4})});
  CHECK(verify_message(none) == "verify_graph: node 1 `%1 : f32[4] = exp(None)`: argument 'self' is None but not optional");

  Graph bad_bool = with_input();
  node(bad_bool, "max.dim", {tensor_arg(0), int_arg(0), make_arg(ArgKind::Bool, 2)}, {0},
       {type(kFloat, {}), type(kLong, {})});
  CHECK(verify_message(bad_bool) ==
        "verify_graph: node 1 `%1 : f32[], %2 : i64[] = max.dim(%0, dim=0, keepdim=?2)`: argument 'keepdim': bool payload 2");

  Graph bad_dtype = with_input();
  const int64_t dims[] = {0};
  node(bad_dtype, "sum.dim_IntList", {tensor_arg(0), bad_dtype.int_list_arg(dims), bool_arg(false), dtype_arg(ScalarType(42))},
       {0}, {type(kFloat, {})});
  CHECK_THAT(verify_message(bad_dtype), Catch::EndsWith("dtype=?)`: argument 'dtype': invalid dtype 42"));
}

TEST_CASE("verifier: rejects runtime parameters outside their pools", "[ir]") {
  Graph scalar = with_input();
  node(scalar, "add.Tensor", {tensor_arg(0), tensor_arg(0), make_arg(ArgKind::Scalar, 1, 5)}, {0}, {type(kFloat, {4})});
  CHECK(verify_message(scalar) ==
        "verify_graph: node 1 `%1 : f32[4] = add.Tensor(%0, %0, alpha=$5)`: argument 'alpha': scalar $5 is not in the "
        "pool (0 scalars)");

  Graph kind = with_input();
  Arg alpha = kind.scalar_arg(Scalar(1));
  alpha.i = static_cast<int64_t>(Scalar::Kind::Double);
  node(kind, "add.Tensor", {tensor_arg(0), tensor_arg(0), alpha}, {0}, {type(kFloat, {4})});
  CHECK_THAT(verify_message(kind), Catch::EndsWith("argument 'alpha': scalar $0 recorded with another kind"));

  const auto randn_with = [](Arg generator, Arg device) {
    Graph g;
    node(g, "randn", {g.int_list_arg({4}), generator, none_arg(), none_arg(), device, none_arg()}, {},
         {type(kFloat, {4})});
    return verify_message(g);
  };
  CHECK(randn_with(make_arg(ArgKind::Generator, 0, 2), none_arg()) ==
        "verify_graph: node 0 `%0 : f32[4] = randn(size=[4], generator=$g2, dtype=None, layout=None, device=None, "
        "pin_memory=None)`: argument 'generator': generator $g2 is not in the pool (0 generators)");
  CHECK_THAT(randn_with(none_arg(), make_arg(ArgKind::Device, static_cast<int64_t>(DeviceType::CPU), 3)),
             Catch::EndsWith("argument 'device': invalid device (type 0, index 3)"));

  Graph implicit = with_input();
  node(implicit, "native_dropout", {tensor_arg(0), double_arg(0.5), bool_arg(true)}, {0},
       {type(kFloat, {4}), type(kBool, {4})}, 3);
  CHECK(verify_message(implicit) ==
        "verify_graph: node 1 `%1 : f32[4], %2 : b8[4] = native_dropout(%0, p=0.5, train=true) {generator=$g3}`: "
        "implicit generator $g3 is not in the pool (0 generators)");
}

TEST_CASE("verifier: rejects operands used before they are defined or out of range", "[ir]") {
  // Operands no argument refers to are not hashed, so add_node accepts them.
  Graph later = with_input();
  node(later, "exp", {tensor_arg(0)}, {0, 1}, {type(kFloat, {4})});
  CHECK(verify_message(later) == "verify_graph: node 1 `%1 : f32[4] = exp(%0)`: operand %1 is used before it is defined");

  Graph missing = with_input();
  node(missing, "exp", {tensor_arg(0)}, {0, 99}, {type(kFloat, {4})});
  CHECK_THAT(verify_message(missing), Catch::EndsWith("operand %99 is used before it is defined"));

  Graph out_of_range = with_input();
  node(out_of_range, "exp", {tensor_arg(0)}, {0}, {type(kFloat, {4})});
  mutable_ref(out_of_range.node(1)).operands.clear();
  CHECK(verify_message(out_of_range) ==
        "verify_graph: node 1 `%1 : f32[4] = exp(%?)`: argument 'self': operand index 0 out of range");

  Graph list = with_input();
  node(list, "cat", {tensor_list_arg(0, 2), int_arg(0)}, {0, 0}, {type(kFloat, {8})});
  mutable_ref(list.node(1)).operands.pop_back();
  CHECK_THAT(verify_message(list), Catch::EndsWith("argument 'tensors': operands [0, 2) out of range"));
}

TEST_CASE("verifier: rejects result counts and types the schema does not allow", "[ir]") {
  Graph one = with_input();
  node(one, "max.dim", {tensor_arg(0), int_arg(0), bool_arg(false)}, {0}, {type(kFloat, {})});
  CHECK_THAT(verify_message(one), Catch::EndsWith("`: 1 results, but max.dim returns 2"));

  Graph two = with_input();
  node(two, "exp", {tensor_arg(0)}, {0}, {type(kFloat, {4}), type(kFloat, {4})});
  CHECK_THAT(verify_message(two), Catch::EndsWith("`: 2 results, but exp returns 1"));

  Graph boolean = with_input();
  node(boolean, "equal", {tensor_arg(0), tensor_arg(0)}, {0}, {type(kBool, {})});
  CHECK_THAT(verify_message(boolean), Catch::EndsWith("`: equal returns bool, which is not a graph value"));

  Graph dtype = with_input();
  node(dtype, "exp", {tensor_arg(0)}, {0}, {type(ScalarType::Undefined, {4})});
  CHECK(verify_message(dtype) == "verify_graph: node 1 `%1 : ?[4] = exp(%0)`: %1 has an invalid dtype (" +
                                     std::to_string(static_cast<int>(ScalarType::Undefined)) + ")");

  Graph size = with_input();
  node(size, "exp", {tensor_arg(0)}, {0}, {type(kFloat, {2, -1})});
  CHECK_THAT(verify_message(size), Catch::EndsWith("`: %1 has a negative size"));
}

TEST_CASE("verifier: rejects inconsistent values, inputs and outputs", "[ir]") {
  Graph g;
  const std::vector<ValueId> outputs = build_sample(g);
  mutable_ref(g.value(4)).output_index = 0;
  CHECK_THAT(verify_message(g), Catch::StartsWith("verify_graph: node 3 `%3 : f32[4], %4 : i64[4] = max.dim(") &&
                                    Catch::EndsWith("`: %4 names node 3 output 0 as its producer"));

  Graph producer;
  build_sample(producer);
  mutable_ref(producer.value(2)).node = 0;
  CHECK_THAT(verify_message(producer), Catch::EndsWith("%2 names node 0 output 0 as its producer"));

  Graph retyped;
  build_sample(retyped);
  mutable_ref(retyped.value(2)).type.dtype = kDouble;
  CHECK_THAT(verify_message(retyped), Catch::EndsWith("%2 has a hash that does not follow from its node and type"));

  Graph input;
  build_sample(input);
  mutable_ref(input.node(1)).input_index = 0;
  CHECK(verify_message(input) ==
        "verify_graph: node 1 `%1 : f32[8] = input 0`: input 0 is not in the graph's input list at that position");

  Graph fine;
  build_sample(fine);
  const ValueId bad_outputs[] = {9, 99};
  CHECK(verify_message(fine, bad_outputs) == "verify_graph: output %99 is not a value of the graph (it has 11)");
  CHECK_THROWS_AS(verify_graph(fine, bad_outputs), InternalError);
}
