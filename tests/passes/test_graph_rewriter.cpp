// GraphRewriter and copy_cone: inputs keep their indices and data, the
// scalar and generator pools keep their indices, copied nodes keep their
// hashes, pooled arguments are re-added, origins follow the values, and
// copy_cone numbers a cone by its structure alone.
#include <catch2/catch.hpp>

#include "core/dispatcher.h"
#include "core/factories.h"
#include "ir/verifier.h"
#include "passes/graph_rewriter.h"
#include "tests/passes/pass_test_util.h"

using namespace lz;
using namespace lz::passes;
using namespace lz::passes::testing;
using ir::ValueId;

namespace {

// Inputs interleaved with nodes, three scalars of which one node uses the
// last, two generators, pooled lists and a string.
constexpr std::string_view kMixed = R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[4, 8] = exp(%0)
  %2 : f32[8] = input 1
  %3 : f32[4, 8] = add.Tensor(%1, %2, alpha=$2)
  %4 : f32[32] = view(%3, size=[32])
  %5 : f32[4, 8] = gelu(%1, approximate="tanh")
  %6 : f32[4, 8] = randn(size=[4, 8], generator=$g1, dtype=None, layout=None, device=None, pin_memory=None)
  %7 : f32[4, 8] = input 2
  %8 : f64[4] = sum.dim_IntList(%5, dim=[1], keepdim=false, dtype=f64)
  return %4, %8, %6
}
scalars {
  $0 = 2.5 : double
  $1 = 7 : int
  $2 = 1 : int
}
generators { $g0, $g1 }
)";

// Copies every node of `p` through a GraphRewriter.
Program copy_all(const Program& p) {
  GraphRewriter rw(p);
  for (ir::NodeId n = 0; n < p.graph.num_nodes(); ++n) {
    if (!p.graph.node(n).is_input()) rw.copy_node(n);
  }
  return std::move(rw).finish(p.outputs);
}

}  // namespace

TEST_CASE("graph rewriter: inputs first, in input order, with their wrapped-number marks", "[passes]") {
  // A trace's inputs may follow nodes; the copy numbers them as the trace does.
  ir::Graph g;
  const TensorMeta type{SizeVec{2}, kFloat, Device(DeviceType::CPU)};
  const ValueId x = g.add_input(type);
  ir::Arg self;
  self.kind = ir::ArgKind::Tensor;
  (void)g.add_node(Dispatcher::singleton().find_or_throw("exp").entry(), std::span<const ir::Arg>(&self, 1),
                   std::span<const ValueId>(&x, 1), std::span<const TensorMeta>(&type, 1));
  (void)g.add_input(TensorMeta{SizeVec{}, kDouble, Device(DeviceType::CPU)}, /*wrapped_number=*/true);
  Program traced;
  traced.graph = std::move(g);
  const Program copy = copy_all(traced);
  REQUIRE(copy.graph.num_inputs() == 2);
  for (uint32_t k = 0; k < 2; ++k) {
    CHECK(copy.graph.producer(copy.graph.input_value(k)).wrapped_number == (k == 1));
    CHECK(copy.graph.input_value(k) == k);
  }
  CHECK(copy.origin == std::vector<ValueId>{0, 2, 1});

  const Program src = program_of(kMixed);
  const Program all = copy_all(src);
  CHECK(printed(all) == R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[8] = input 1
  %2 : f32[4, 8] = input 2
  %3 : f32[4, 8] = exp(%0)
  %4 : f32[4, 8] = add.Tensor(%3, %1, alpha=$2)
  %5 : f32[32] = view(%4, size=[32])
  %6 : f32[4, 8] = gelu(%3, approximate="tanh")
  %7 : f32[4, 8] = randn(size=[4, 8], generator=$g1, dtype=None, layout=None, device=None, pin_memory=None)
  %8 : f64[4] = sum.dim_IntList(%6, dim=[1], keepdim=false, dtype=f64)
  return %5, %8, %7
}
scalars {
  $0 = 2.5 : double
  $1 = 7 : int
  $2 = 1 : int
}
generators { $g0, $g1 }
)");
  ir::verify_graph(all.graph, all.outputs);
  // Origin: each new value names the source value it copies.
  CHECK(all.origin == std::vector<ValueId>{0, 2, 7, 1, 3, 4, 5, 6, 8});
  for (uint32_t k = 0; k < 3; ++k) {
    CHECK(all.graph.value(all.graph.input_value(k)).type == src.graph.value(src.graph.input_value(k)).type);
  }
}

TEST_CASE("graph rewriter: pools keep their indices, copied nodes their hashes", "[passes]") {
  const Program src = program_of(kMixed);
  const Program all = copy_all(src);
  REQUIRE(all.graph.num_scalars() == 3);
  for (uint32_t k = 0; k < 3; ++k) {
    CHECK(all.graph.scalar(k).kind() == src.graph.scalar(k).kind());
    CHECK(all.graph.scalar(k).to_double() == src.graph.scalar(k).to_double());
  }
  CHECK(all.graph.num_generators() == 2);
  // Every copied value hashes as its source value, so the program does too.
  for (ValueId v = 0; v < all.graph.num_values(); ++v) {
    CHECK(all.graph.value(v).hash == src.graph.value(all.origin[v]).hash);
  }
  CHECK(all.graph.hash_of(all.outputs) == src.graph.hash_of(src.outputs));
}

TEST_CASE("graph rewriter: replacements take the replaced value's origin", "[passes]") {
  // The source is itself a rewritten program: its origin is not the identity.
  Program src = program_of(R"(graph {
  %0 : f32[4] = input 0
  %1 : f32[4] = neg(%0)
  %2 : f32[4] = neg(%1)
  %3 : f32[4] = exp(%2)
  return %3
}
)");
  src.origin = {10, 11, 12, 13};
  GraphRewriter rw(src);
  // neg(neg(x)) -> x: %2 is replaced by the input, which keeps its origin.
  rw.copy_node(1);
  rw.replace(2, rw.mapped(0));
  // exp is rebuilt as a new node (origin kNone) that then replaces %3.
  const ir::Arg self = [] {
    ir::Arg a;
    a.kind = ir::ArgKind::Tensor;
    return a;
  }();
  const ValueId operand = rw.mapped(2);
  const TensorMeta type = src.graph.value(3).type;
  const ValueId fresh = rw.add_node(Dispatcher::singleton().find_or_throw("exp").entry(),
                                    std::span<const ir::Arg>(&self, 1), std::span<const ValueId>(&operand, 1),
                                    std::span<const TensorMeta>(&type, 1));
  const ValueId orphan = rw.add_node(Dispatcher::singleton().find_or_throw("exp").entry(),
                                     std::span<const ir::Arg>(&self, 1), std::span<const ValueId>(&operand, 1),
                                     std::span<const TensorMeta>(&type, 1));
  rw.replace(3, fresh);
  const Program out = std::move(rw).finish(src.outputs);
  CHECK(printed(out) == R"(graph {
  %0 : f32[4] = input 0
  %1 : f32[4] = neg(%0)
  %2 : f32[4] = exp(%0)
  %3 : f32[4] = exp(%0)
  return %2
}
)");
  CHECK(fresh == 2);
  CHECK(orphan == 3);
  CHECK(out.origin == std::vector<ValueId>{10, 11, 13, ir::kNone});
}

TEST_CASE("copy_cone: post order from the outputs, numbered by structure", "[passes]") {
  // The cone of %4 (neg and exp of %0, then add), with a dead mul; the
  // second graph defines the same cone in another order.
  const Program a = program_of(R"(graph {
  %0 : f32[4] = input 0
  %1 : f32[4] = exp(%0)
  %2 : f32[4] = neg(%0)
  %3 : f32[4] = input 1
  %4 : f32[4] = add.Tensor(%2, %1, alpha=$0)
  %5 : f32[4] = mul.Tensor(%1, %3)
  return %4
}
scalars {
  $0 = 1 : int
}
)");
  const Program b = program_of(R"(graph {
  %0 : f32[4] = input 0
  %1 : f32[4] = input 1
  %2 : f32[4] = neg(%0)
  %3 : f32[4] = mul.Tensor(%0, %1)
  %4 : f32[4] = exp(%0)
  %5 : f32[4] = add.Tensor(%2, %4, alpha=$0)
  return %5
}
scalars {
  $0 = 1 : int
}
)");
  const std::string expected = R"(graph {
  %0 : f32[4] = input 0
  %1 : f32[4] = input 1
  %2 : f32[4] = neg(%0)
  %3 : f32[4] = exp(%0)
  %4 : f32[4] = add.Tensor(%2, %3, alpha=$0)
  return %4
}
scalars {
  $0 = 1 : int
}
)";
  const Program ca = copy_cone(a.graph, a.outputs);
  const Program cb = copy_cone(b.graph, b.outputs);
  CHECK(printed(ca) == expected);
  CHECK(printed(cb) == expected);
  CHECK(ca.origin == std::vector<ValueId>{0, 3, 2, 1, 4});
  CHECK(cb.origin == std::vector<ValueId>{0, 1, 2, 4, 5});
  CHECK(ca.graph.hash_of(ca.outputs) == a.graph.hash_of(a.outputs));
}

TEST_CASE("copy_cone: outputs in order, shared nodes once, multi-result nodes", "[passes]") {
  const Program p = program_of(R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[4], %2 : i64[4] = max.dim(%0, dim=1, keepdim=false)
  %3 : f32[4, 8] = exp(%0)
  %4 : f32[4] = neg(%1)
  %5 : f32[4, 8] = sigmoid(%3)
  return %5, %4, %2, %3
}
)");
  const Program c = copy_cone(p.graph, p.outputs);
  CHECK(printed(c) == R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[4, 8] = exp(%0)
  %2 : f32[4, 8] = sigmoid(%1)
  %3 : f32[4], %4 : i64[4] = max.dim(%0, dim=1, keepdim=false)
  %5 : f32[4] = neg(%3)
  return %2, %5, %4, %1
}
)");
  CHECK(c.origin == std::vector<ValueId>{0, 3, 5, 1, 2, 4});
  // An output that is an input copies nothing but the inputs.
  const ValueId input_only[] = {0};
  CHECK(copy_cone(p.graph, input_only).graph.num_nodes() == 1);
}

TEST_CASE("copy_cone: a chain of 100000 nodes needs no recursion", "[passes]") {
  ir::Graph g;
  const TensorMeta type{SizeVec{4}, kFloat, Device(DeviceType::CPU)};
  ValueId v = g.add_input(type);
  const OperatorEntry& neg = Dispatcher::singleton().find_or_throw("neg").entry();
  ir::Arg self;
  self.kind = ir::ArgKind::Tensor;
  for (int k = 0; k < 100000; ++k) {
    v = g.add_node(neg, std::span<const ir::Arg>(&self, 1), std::span<const ValueId>(&v, 1),
                   std::span<const TensorMeta>(&type, 1));
  }
  const ValueId outputs[] = {v};
  const Program c = copy_cone(g, outputs);
  CHECK(c.graph.num_nodes() == 100001);
  CHECK(c.outputs == std::vector<ValueId>{100000});
  CHECK(c.graph.hash_of(c.outputs) == g.hash_of(outputs));
}
