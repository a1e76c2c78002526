// The graph text form: golden printing, parse/print round trips (hashes
// included), defaults for arguments left out, and parse errors that name
// the line and what was expected.
#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <limits>
#include <sstream>

#include "ir/parser.h"
#include "ir/printer.h"
#include "ir/verifier.h"
#include "tests/ir/graph_builders.h"

using namespace lz;
using namespace lz::ir;
using namespace lz::ir::testing;

namespace {

constexpr std::string_view kSampleText = R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[8] = input 1
  %2 : f32[4, 8] = add.Tensor(%0, %1, alpha=$0)
  %3 : f32[4], %4 : i64[4] = max.dim(%2, dim=1, keepdim=false)
  %5 : f32[2, 16] = view(%2, size=[2, 16])
  %6 : f32[2, 16], %7 : b8[2, 16] = native_dropout(%5, p=0.1, train=true) {generator=$g0}
  %8 : f32[4, 16] = cat([%5, %6], dim=0)
  %9 : f64[4] = sum.dim_IntList(%8, dim=[1], keepdim=false, dtype=f64)
  %10 : f32[4, 8] = clamp.Tensor(%2, None, %0)
  return %9, %3, %10
}
scalars {
  $0 = 1 : int
}
generators { $g0 }
)";

// Checks print(parse(text)) == text and returns the parsed graph.
ParsedGraph round_trip(std::string_view text) {
  ParsedGraph parsed = parse_graph(text);
  CHECK(print_graph(parsed.graph, parsed.outputs) == text);
  verify_graph(parsed.graph, parsed.outputs);
  return parsed;
}

std::string printed_body(std::string_view node_lines) {
  return print_graph(parse_graph("graph {\n  %0 : f32[4, 8] = input 0\n" + std::string(node_lines) + "}\n").graph);
}

}  // namespace

TEST_CASE("graph text: printing is stable and readable", "[ir]") {
  Graph g;
  const std::vector<ValueId> outputs = build_sample(g);
  CHECK(print_graph(g, outputs) == kSampleText);
  CHECK(print_graph(g, outputs) == print_graph(g, outputs));
  CHECK(print_node(g, 3) == "%3 : f32[4], %4 : i64[4] = max.dim(%2, dim=1, keepdim=false)");
  CHECK(print_type(type(kBFloat16, {}, Device(DeviceType::CUDA, 2))) == "bf16[]@cuda:2");
  CHECK(dtype_short_name(kHalf) == "f16");
  CHECK(dtype_short_name(kByte) == "u8");
  CHECK(dtype_short_name(kInt) == "i32");
  CHECK(dtype_short_name(ScalarType::Undefined) == "?");
  std::ostringstream os;
  os << g;
  CHECK(os.str() == print_graph(g));
  CHECK(os.str().find("return") == std::string::npos);
}

TEST_CASE("graph text: the sample round-trips with the same hash", "[ir]") {
  Graph g;
  const std::vector<ValueId> outputs = build_sample(g);
  const ParsedGraph parsed = round_trip(print_graph(g, outputs));
  CHECK(parsed.outputs == outputs);
  CHECK(parsed.graph.hash_of(parsed.outputs) == g.hash_of(outputs));
  CHECK(parsed.graph.num_inputs() == 2);
  CHECK(parsed.graph.scalar(0).to_long() == 1);
  CHECK(parsed.graph.num_generators() == 1);
}

TEST_CASE("graph text: a wrapped number input round-trips and hashes apart from a 0-dim tensor", "[ir]") {
  const auto scaled = [](bool wrapped) {
    Graph g;
    const ValueId x = g.add_input(type(kFloat, {4}));
    const ValueId s = g.add_input(type(kDouble, {}), wrapped);
    const ValueId out = node(g, "mul.Tensor", {tensor_arg(0), tensor_arg(1)}, {x, s}, {type(kFloat, {4})});
    return std::pair{print_graph(g, std::vector<ValueId>{out}), g.hash_of(std::vector<ValueId>{out})};
  };
  const auto [wrapped_text, wrapped_hash] = scaled(true);
  const auto [tensor_text, tensor_hash] = scaled(false);
  CHECK(wrapped_hash != tensor_hash);
  CHECK(wrapped_text.find("= input 1 {wrapped_number}") != std::string::npos);
  CHECK(tensor_text.find("{wrapped_number}") == std::string::npos);
  const ParsedGraph parsed = round_trip(wrapped_text);
  CHECK(parsed.graph.producer(parsed.graph.input_value(1)).wrapped_number);
  CHECK_FALSE(parsed.graph.producer(parsed.graph.input_value(0)).wrapped_number);
  CHECK(parsed.graph.hash_of(parsed.outputs) == wrapped_hash);
  CHECK_THROWS_WITH(parse_graph("graph {\n  %0 : f64[] = input 0 {wrapped}\n  return %0\n}\n"),
                    Catch::Contains("expected 'wrapped_number' after '{'"));
  const ParsedGraph not_0dim = parse_graph("graph {\n  %0 : f64[2] = input 0 {wrapped_number}\n  return %0\n}\n");
  CHECK_THROWS_WITH(verify_graph(not_0dim.graph, not_0dim.outputs),
                    Catch::Contains("a wrapped number input is not 0-dim"));
}

TEST_CASE("graph text: every argument kind round-trips exactly", "[ir]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const double weights[] = {0.1, -0.0, 1e300, 5e-324, inf, -inf, nan, 1.0 / 3};
  const std::string name = "say \"hi\"\n\tback\\slash \x01 caf\xc3\xa9";

  Graph g;
  const ValueId x = g.add_input(type(kFloat, {3}, Device(DeviceType::CUDA, 0)));
  const ValueId y = g.add_input(type(kLong, {2, 0}));
  const ValueId z = g.add_input(type(kBool, {}));
  const int64_t optional_operands[] = {1, -1, 2};
  const int64_t mask[] = {1, 0, 1};
  const Arg args[] = {
      tensor_arg(0),
      g.int_list_arg(optional_operands, ArgKind::OptTensorList),
      tensor_list_arg(3, 2),
      g.double_list_arg(weights),
      g.int_list_arg(mask, ArgKind::BoolList),
      g.string_arg(name),
      dtype_arg(kBFloat16),
      make_arg(ArgKind::Device, static_cast<int64_t>(DeviceType::CUDA), 1),
      make_arg(ArgKind::Layout, static_cast<int64_t>(Layout::Strided)),
      make_arg(ArgKind::MemoryFormat, static_cast<int64_t>(MemoryFormat::Preserve)),
      g.generator_arg(),
      g.scalar_arg(Scalar(std::numeric_limits<int64_t>::min())),
      g.scalar_arg(Scalar(0.1)),
      g.scalar_arg(Scalar(true)),
      none_arg(),
      double_arg(-2.5e-8),
      none_arg(),
  };
  const ValueId operands[] = {x, y, z, x, z};
  const TensorMeta result[] = {type(kHalf, {3}, Device(DeviceType::CUDA, 0))};
  const ValueId out = g.add_node(everything_op(), args, operands, result, g.add_generator());
  const ValueId a = g.add_input(type(kDouble, {4}));
  const ValueId pieces = node(g, "split.Tensor", {tensor_arg(0), int_arg(3), int_arg(0)}, {a},
                              {type(kDouble, {3}), type(kDouble, {1})});
  node(g, "split_with_sizes", {tensor_arg(0), g.int_list_arg({}), int_arg(-1)}, {a}, {});
  const ValueId outputs[] = {out, pieces + 1, out};

  const std::string text = print_graph(g, outputs);
  CHECK(text == R"(graph {
  %0 : f32[3]@cuda:0 = input 0
  %1 : i64[2, 0] = input 1
  %2 : b8[] = input 2
  %3 : f16[3]@cuda:0 = ir_test::everything(%0, [%1, None, %2], [%0, %2], None, weights=[0.1, -0, 1e+300, 5e-324, inf, -inf, nan, 0.3333333333333333], mask=[true, false, true], name="say \"hi\"\n\tback\\slash \x01 caf)"
                "\xc3\xa9"
                R"(", dtype=bf16, device=cuda:1, layout=strided, memory_format=preserve_format, generator=$g0, a=$0, b=$1, c=$2, maybe=None, x=-2.5e-08) {generator=$g1}
  %4 : f64[4] = input 3
  %5 : f64[3], %6 : f64[1] = split.Tensor(%4, split_size=3, dim=0)
  () = split_with_sizes(%4, split_sizes=[], dim=-1)
  return %3, %6, %3
}
scalars {
  $0 = -9223372036854775808 : int
  $1 = 0.1 : double
  $2 = true : bool
}
generators { $g0, $g1 }
)");

  const ParsedGraph parsed = round_trip(text);
  CHECK(parsed.graph.hash_of(parsed.outputs) == g.hash_of(outputs));
  const Node& every = parsed.graph.node(3);
  const auto parsed_args = parsed.graph.args(every);
  const auto parsed_weights = parsed.graph.double_pool(parsed_args[3]);
  REQUIRE(parsed_weights.size() == std::size(weights));
  for (size_t k = 0; k < parsed_weights.size(); ++k) {
    CHECK(std::bit_cast<uint64_t>(parsed_weights[k]) == std::bit_cast<uint64_t>(weights[k]));
  }
  CHECK(parsed.graph.string_at(parsed_args[5]) == name);
  CHECK(parsed_args[7].i == static_cast<int64_t>(DeviceType::CUDA));
  CHECK(parsed_args[7].index == 1);
  CHECK(parsed.graph.scalar(0).to_long() == std::numeric_limits<int64_t>::min());
  CHECK(parsed.graph.scalar(1).to_double() == 0.1);
  CHECK(parsed.graph.scalar(2).is_bool());
  CHECK(every.implicit_generator == 1);
  CHECK(parsed.graph.value(3).type.device == Device(DeviceType::CUDA, 0));
  CHECK(parsed.graph.node(6).num_outputs == 0);
}

TEST_CASE("graph text: arguments left out take their schema defaults", "[ir]") {
  CHECK(printed_body("  %1 : f32[4, 8] = add.Tensor(%0, %0)\n") ==
        "graph {\n  %0 : f32[4, 8] = input 0\n  %1 : f32[4, 8] = add.Tensor(%0, %0, alpha=$0)\n}\n"
        "scalars {\n  $0 = 1 : int\n}\n");
  // A literal where a Scalar goes becomes a runtime scalar of its own kind.
  CHECK(printed_body("  %1 : f32[4, 8] = add.Tensor(%0, %0, alpha=2.5)\n").find("$0 = 2.5 : double") !=
        std::string::npos);
  CHECK(printed_body("  %1 : f32[4], %2 : i64[4] = max.dim(%0, dim=1)\n").find("max.dim(%0, dim=1, keepdim=false)") !=
        std::string::npos);
  CHECK(printed_body("  %1 : f32[4, 8] = gelu(%0)\n").find(R"(gelu(%0, approximate="none"))") != std::string::npos);
  CHECK(printed_body("  %1 : f32[4, 8] = contiguous(%0)\n").find("contiguous(%0, memory_format=contiguous_format)") !=
        std::string::npos);
  CHECK(printed_body("  %1 : f32[] = amax(%0)\n").find("amax(%0, dim=[], keepdim=false)") != std::string::npos);
  CHECK(printed_body("  %1 : f32[4, 8] = clamp.Tensor(%0)\n").find("clamp.Tensor(%0, None, None)") !=
        std::string::npos);
  CHECK(printed_body("  %1 : f32[8] = sum.dim_IntList(%0, dim=[0])\n")
            .find("sum.dim_IntList(%0, dim=[0], keepdim=false, dtype=None)") != std::string::npos);
  // Blank lines and a return with nothing after it are fine.
  const ParsedGraph empty = parse_graph("\n\ngraph {\n\n  return\n}\n\n");
  CHECK(empty.graph.num_nodes() == 0);
  CHECK(empty.outputs.empty());
}

TEST_CASE("graph text: bad input raises ValueError naming the line", "[ir]") {
  const std::string head = "graph {\n  %0 : f32[4] = input 0\n";
  const auto with_line = [&](std::string_view line) { return head + "  " + std::string(line) + "\n}\n"; };
  struct Case {
    std::string text;
    std::string message;
  };
  const Case cases[] = {
      {"", "line 1: expected 'graph {', got an empty text"},
      {"grph {\n}\n", "line 1: expected 'graph {', got 'grph'"},
      {head, "line 3: expected '}' closing the graph block"},
      {with_line("%1 : f32[4] = no_such_op(%0)"), "line 3: unknown operator 'no_such_op'"},
      {with_line("%1 : f32[], %2 : i64[] = max.dim(%0, dim=0, keepdims=false)"),
       "line 3: max.dim has no argument 'keepdims' (its arguments: self, dim, keepdim)"},
      {with_line("%1 : f32[], %2 : i64[] = max.dim(%0, dim=1.5)"),
       "line 3: argument 'dim' of max.dim expects int, got '1.5'"},
      {with_line("%1 : f32[], %2 : i64[] = max.dim(%0, dim=None)"),
       "line 3: argument 'dim' of max.dim expects int, got 'None'"},
      {with_line("%1 : f32[], %2 : i64[] = max.dim(%0)"),
       "line 3: missing argument 'dim' of max.dim (it has no default)"},
      {with_line("%1 : f32[], %2 : i64[] = max.dim(%0, dim=0, dim=0)"), "line 3: argument 'dim' is given twice"},
      {with_line("%1 : f32[4] = view(%0, size=4)"), "line 3: argument 'size' of view expects int[], got '4'"},
      {with_line("%1 : f32[4] = view(%0, size=[4, x])"), "line 3: argument 'size' of view expects int[], got 'x'"},
      {with_line("%1 : f32[4] = exp(%5)"), "line 3: %5 is used before it is defined"},
      {with_line("%1 : f32[4] = exp(%1)"), "line 3: %1 is used before it is defined"},
      {with_line("%2 : f32[4] = exp(%0)"), "line 3: result %2 should be %1 (values are numbered in order of definition)"},
      {with_line("%1 : f32[4] = exp(%0"), "line 3: expected ')' or ',' after an argument, got the end of the line"},
      {with_line("%1 : f32[4] = exp(%0) extra"), "line 3: expected the end of the line, got 'extra'"},
      {with_line("%1 : f32[4] = exp(self=%0)"), "line 3: argument 'self' of exp is a Tensor: write it positionally"},
      {with_line("%1 : f32[4] = exp(%0, %0)"), "line 3: too many Tensor arguments for exp"},
      {with_line("%1 : f31[4] = exp(%0)"), "line 3: unknown dtype 'f31'"},
      {with_line("%1 : f32[-1] = exp(%0)"), "line 3: expected a size >= 0, got '-1'"},
      {with_line("%1 : f32[4]@tpu = exp(%0)"), "line 3: unknown device 'tpu'"},
      {with_line("%1 : f32[4] exp(%0)"), "line 3: expected '=' after the results, got 'exp'"},
      {with_line("%1 = exp(%0)"), "line 3: expected ':' after the result id, got '='"},
      {with_line("%1 : f32[4] = input 0"), "line 3: expected input 1 (inputs are numbered in order)"},
      {with_line("%1 : f32[4] = add.Tensor(%0, %0, alpha=$3)"), "line 3: scalar $3 is not in the scalars block"},
      {with_line("%1 : f32[4] = gelu(%0, approximate=\"tanh)"), "line 3: unterminated string literal"},
      {with_line("%1 : f32[4] = gelu(%0, approximate=\"\\q\")"), "line 3: unknown escape in a string literal"},
      {with_line("%1 : f32[4] = gelu(%0, approximate=tanh)"), "line 3: argument 'approximate' of gelu expects str, got 'tanh'"},
      {with_line("%1 : f32[4] = max.dim(%0, dim=0, keepdim=false)"), "line 3: max.dim returns 2 values, but the line names 1"},
      {with_line("%1 : b8[] = equal(%0, %0)"), "line 3: equal returns bool, which cannot be a graph value"},
      {with_line("%1 : f32[4] = exp(%0) {gen=$g0}"), "line 3: expected 'generator' after '{', got 'gen'"},
      {with_line("%1 : f32[4], %2 : b8[4] = native_dropout(%0, p=0.5, train=true) {generator=$g0}"),
       "line 3: generator $g0 is not in the generators line"},
      {with_line("%99999999999 : f32[4] = exp(%0)"), "line 3: expected a number (below 2^32) after '%'"},
      {with_line("%1 : f32[4] = exp(%0) # comment"), "line 3: unexpected character '#'"},
      {with_line("return %7"), "line 3: return of %7, which is not defined"},
      {head + "  return %0\n  %1 : f32[4] = exp(%0)\n}\n", "line 4: nothing may follow the return line"},
      {head + "}\nhello\n", "line 4: expected 'scalars {', 'generators { ... }' or the end of the text, got 'hello'"},
      {head + "}\nscalars {\n  $1 = 2 : int\n}\n", "line 5: expected $0 (scalars are listed in order), got $1"},
      {head + "}\nscalars {\n  $0 = 1.5 : int\n}\n", "line 5: expected a value of kind int, got '1.5'"},
      {head + "}\nscalars {\n  $0 = 1 : float\n}\n", "line 5: expected a scalar kind (bool, int or double), got 'float'"},
      {head + "}\nscalars {\n  $0 = 1 : int\n", "line 6: expected '}' closing the scalars block"},
      {head + "}\ngenerators { $g1 }\n", "line 4: expected $g0 (generators are listed in order), got $g1"},
      {head + "}\ngenerators { $g0 }\nscalars {\n}\n", "line 5: expected 'scalars {', 'generators { ... }'"},
  };
  for (const Case& c : cases) {
    INFO(c.text);
    CHECK_THROWS_AS(parse_graph(c.text), ValueError);
    CHECK_THROWS_WITH(parse_graph(c.text), Catch::StartsWith("parse_graph: ") && Catch::Contains(c.message));
  }
}

TEST_CASE("graph text: mangled text is rejected or parses to a valid graph, never crashes", "[ir]") {
  everything_op();
  const std::string originals[] = {std::string(kSampleText), R"(graph {
  %0 : f32[3]@cuda:0 = input 0
  %1 : f32[3] = ir_test::everything(%0, [%0, None], [%0], None, weights=[0.1, -inf], mask=[true], name="a\x01", dtype=bf16, device=cuda:1, layout=strided, memory_format=preserve_format, generator=$g0, a=$0, b=$0, c=$0, maybe=3, x=1e-05)
  return %1
}
scalars {
  $0 = 0.5 : double
}
generators { $g0 }
)"};
  for (const std::string& original : originals) REQUIRE_NOTHROW(parse_graph(original));

  const std::string_view alphabet = " %$g[](){},=:@\"\\-+.0123456789aexNone\n";
  uint64_t state = 0x9E3779B97F4A7C15ull;
  const auto random = [&](uint64_t bound) {  // xorshift64: the same edits every run
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return static_cast<size_t>(state % bound);
  };
  int parsed_ok = 0;
  for (int iteration = 0; iteration < 4000; ++iteration) {
    std::string text = originals[iteration % 2];
    for (size_t edits = 1 + random(3); edits > 0 && !text.empty(); --edits) {
      const size_t at = random(text.size());
      switch (random(4)) {
        case 0: text.erase(at, 1 + random(4)); break;
        case 1: text.insert(at, 1, alphabet[random(alphabet.size())]); break;
        case 2: text[at] = alphabet[random(alphabet.size())]; break;
        default: text.resize(at); break;
      }
    }
    INFO(text);
    try {
      const ParsedGraph parsed = parse_graph(text);
      ++parsed_ok;
      const std::string printed = print_graph(parsed.graph, parsed.outputs);
      REQUIRE_NOTHROW(verify_graph(parsed.graph, parsed.outputs));
      REQUIRE(print_graph(parse_graph(printed).graph, parsed.outputs) == printed);
    } catch (const ValueError& e) {
      REQUIRE_THAT(e.what(), Catch::StartsWith("parse_graph: line "));
    }
  }
  CHECK(parsed_ok > 0);  // some edits (a digit in a size, a blank) keep the text valid
}
