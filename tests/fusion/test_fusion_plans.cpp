// Fusion plans of hand-written IR: what fuses, what stays eager and why,
// how views fold into accesses, and the cases fusion must refuse.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "ir/parser.h"
#include "passes/buffer_plan.h"
#include "passes/fusion.h"
#include "passes/graph_rewriter.h"
#include "passes/lower_group.h"

namespace {

using lz::passes::FusionPlan;

struct Planned {
  lz::passes::Program program;
  FusionPlan plan;
};

Planned plan_of(const std::string& text) {
  lz::ir::ParsedGraph parsed = lz::ir::parse_graph(text);
  Planned p;
  p.program = lz::passes::copy_cone(parsed.graph, parsed.outputs);
  p.plan = lz::passes::plan_fusion(p.program);
  lz::passes::lower_groups(p.program.graph, p.plan);
  return p;
}

std::string group_kinds(const FusionPlan& plan) {
  std::string out;
  for (const auto& g : plan.groups) out += g.is_kernel() ? "K" : "E";
  return out;
}

const std::string kScalarOne = "scalars {\n  $0 = 1 : int\n}\n";

TEST_CASE("fusion plan: a reduction over a leading dim fuses its consumers", "[fusion]") {
  const Planned p = plan_of(R"(graph {
  %0 : f32[6, 8] = input 0
  %1 : f32[8] = sum.dim_IntList(%0, dim=[0], keepdim=false, dtype=None)
  %2 : f32[8] = exp(%1)
  return %2
})");
  CHECK(group_kinds(p.plan) == "K");
  const auto& k = p.plan.groups[0].kernel;
  CHECK(k.reduce_axes == 1);
  REQUIRE(k.stores.size() == 1);
  CHECK(k.stores[0].reduced);
  // The reduced output [8] is aligned to the domain [6, 8] by an unsqueeze.
  CHECK(lz::ir::print_kernel(k).find("unsqueeze(0)") != std::string::npos);
}

TEST_CASE("fusion plan: a kernel never runs both before and after an eager step", "[fusion]") {
  const Planned p = plan_of(R"(graph {
  %0 : f32[4, 4] = input 0
  %1 : f32[4, 4] = exp(%0)
  %2 : f32[4, 4] = mm(%1, %0)
  %3 : f32[4, 4] = add.Tensor(%1, %2, alpha=$0)
  return %3
}
)" + kScalarOne);
  CHECK(group_kinds(p.plan) == "KEK");
  CHECK(p.plan.groups[1].reason == "no lowering for mm");
  // exp is stored for mm and for the second kernel.
  CHECK(p.plan.groups[0].outputs.size() == 1);
}

TEST_CASE("fusion plan: views fold into the loads of the kernel", "[fusion]") {
  const Planned p = plan_of(R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[8, 4] = input 1
  %2 : f32[4, 8] = exp(%0)
  %3 : f32[8, 4] = permute(%2, dims=[1, 0])
  %4 : f32[8, 4] = add.Tensor(%3, %1, alpha=$0)
  return %4
}
)" + kScalarOne);
  CHECK(group_kinds(p.plan) == "K");
  const std::string kernel = lz::ir::print_kernel(p.plan.groups[0].kernel);
  INFO(kernel);
  CHECK(kernel.find("permute(1, 0)") != std::string::npos);
  CHECK(p.plan.groups[0].kernel.stores.size() == 1);
}

TEST_CASE("fusion plan: a view an eager step needs is an eager view step", "[fusion]") {
  const Planned p = plan_of(R"(graph {
  %0 : f32[4, 4] = input 0
  %1 : f32[4, 4] = permute(%0, dims=[1, 0])
  %2 : f32[4, 4] = mm(%1, %0)
  return %2
})");
  CHECK(group_kinds(p.plan) == "EE");
  CHECK(p.plan.groups[0].reason.find("view") != std::string::npos);
}

TEST_CASE("fusion plan: a reduced value without kept dims is not broadcast against the wrong axis", "[fusion]") {
  // [4] + [4, 4] broadcasts along the last dim, not along the reduced one:
  // the add cannot read the row sum at its own row.
  const Planned p = plan_of(R"(graph {
  %0 : f32[4, 4] = input 0
  %1 : f32[4] = sum.dim_IntList(%0, dim=[1], keepdim=false, dtype=None)
  %2 : f32[4, 4] = add.Tensor(%0, %1, alpha=$0)
  return %2
}
)" + kScalarOne);
  CHECK(group_kinds(p.plan) == "KK");
}

TEST_CASE("fusion plan: a reduction keeping the last dim takes no full-domain consumer", "[fusion]") {
  // x - x.mean(0, keepdim) runs as a column reduction and a pointwise
  // kernel; over the last dim (a row reduction) the same graph is one kernel.
  const std::string columns = R"(graph {
  %0 : f32[6, 8] = input 0
  %1 : f32[1, 8] = sum.dim_IntList(%0, dim=[0], keepdim=true, dtype=None)
  %2 : f32[6, 8] = sub.Tensor(%0, %1, alpha=$0)
  return %2
}
)" + kScalarOne;
  CHECK(group_kinds(plan_of(columns).plan) == "KK");
  const std::string rows = R"(graph {
  %0 : f32[6, 8] = input 0
  %1 : f32[6, 1] = sum.dim_IntList(%0, dim=[1], keepdim=true, dtype=None)
  %2 : f32[6, 8] = sub.Tensor(%0, %1, alpha=$0)
  return %2
}
)" + kScalarOne;
  CHECK(group_kinds(plan_of(rows).plan) == "K");
}

TEST_CASE("fusion plan: a concatenation of equal parts is stored by the kernel computing them", "[fusion]") {
  // Two independent kernels over [4, 3] and the cat of their values: one
  // kernel storing each part through its chunk of the output.
  const Planned p = plan_of(R"(graph {
  %0 : f32[4, 3] = input 0
  %1 : f32[4, 3] = exp(%0)
  %2 : f32[4, 3] = sin(%0)
  %3 : f32[4, 6] = cat([%1, %2], dim=-1)
  return %3
})");
  REQUIRE(group_kinds(p.plan) == "K");
  const auto& k = p.plan.groups[0].kernel;
  CHECK(k.stores.size() == 2);
  const std::string text = lz::ir::print_kernel(k);
  CHECK(text.find("out0 (f32, rank 2): chunk(1, 2, 0)") != std::string::npos);
  CHECK(text.find("out0 (f32, rank 2): chunk(1, 2, 1)") != std::string::npos);
  // The parts' sizes are checked when the executable is reused.
  CHECK(p.plan.groups[0].sibling_domains.size() == 2);
  // stack stores each part at its index of the new dim.
  const Planned stacked = plan_of(R"(graph {
  %0 : f32[4, 3] = input 0
  %1 : f32[4, 3] = exp(%0)
  %2 : f32[4, 3] = input 1
  %3 : f32[4, 2, 3] = stack([%1, %2], dim=1)
  return %3
})");
  REQUIRE(group_kinds(stacked.plan) == "K");
  const std::string stacked_text = lz::ir::print_kernel(stacked.plan.groups[0].kernel);
  CHECK(stacked_text.find("select(1, 0)") != std::string::npos);
  CHECK(stacked_text.find("select(1, 1)") != std::string::npos);
}

TEST_CASE("fusion plan: a concatenation's consumers run elsewhere, unequal parts in pieces", "[fusion]") {
  // The consumer runs over the output's shape: a kernel of its own.
  const Planned consumer = plan_of(R"(graph {
  %0 : f32[4, 3] = input 0
  %1 : f32[4, 3] = exp(%0)
  %2 : f32[8, 3] = cat([%1, %0], dim=0)
  %3 : f32[8, 3] = neg(%2)
  return %3
})");
  CHECK(group_kinds(consumer.plan) == "KK");
  // Parts of different sizes: one kernel over the output, each part in its
  // piece, the producer only the cat reads computed there.
  const Planned unequal = plan_of(R"(graph {
  %0 : f32[4, 3] = input 0
  %1 : f32[4, 5] = input 1
  %2 : f32[4, 3] = exp(%0)
  %3 : f32[4, 8] = cat([%2, %1], dim=1)
  return %3
})");
  REQUIRE(group_kinds(unequal.plan) == "K");
  bool logged = false;
  for (const std::string& d : unequal.plan.decisions) logged = logged || d.find("in its piece of %3") != std::string::npos;
  CHECK(logged);
  const std::string text = lz::ir::print_kernel(unequal.plan.groups[0].kernel);
  CHECK(text.find("piece1 = axis 1 from 0 + s") != std::string::npos);
  CHECK(text.find("placed(piece0)") != std::string::npos);
  // A padding: its input in a piece of each padded dim, the value elsewhere.
  const Planned padded = plan_of(R"(graph {
  %0 : f32[4, 3] = input 0
  %1 : f32[4, 3] = exp(%0)
  %2 : f32[5, 6] = constant_pad_nd(%1, pad=[1, 2, 0, 1])
  return %2
})");
  REQUIRE(group_kinds(padded.plan) == "K");
  const std::string pad_text = lz::ir::print_kernel(padded.plan.groups[0].kernel);
  CHECK(pad_text.find("piece0 = axis 1 from 1, size of s") != std::string::npos);
  CHECK(pad_text.find("piece1 = axis 0 from 0, size of s") != std::string::npos);
  CHECK(pad_text.find("placed(piece0), placed(piece1)") != std::string::npos);
}

TEST_CASE("fusion plan: consumers of several kernels merge them into one multi-output kernel", "[fusion]") {
  const Planned p = plan_of(R"(graph {
  %0 : f32[16] = input 0
  %1 : f32[16] = input 1
  %2 : f32[16] = exp(%0)
  %3 : f32[16] = sin(%1)
  %4 : f32[16] = mul.Tensor(%2, %3)
  return %2, %3, %4
})");
  CHECK(group_kinds(p.plan) == "K");
  CHECK(p.plan.groups[0].kernel.stores.size() == 3);
}

TEST_CASE("fusion plan: independent element-wise kernels over one domain merge", "[fusion]") {
  // Two parameters' updates of the same shape: one kernel, two stores.
  const Planned p = plan_of(R"(graph {
  %0 : f32[8, 4] = input 0
  %1 : f32[8, 4] = input 1
  %2 : f32[8, 4] = input 2
  %3 : f32[8, 4] = input 3
  %4 : f32[8, 4] = mul.Tensor(%0, %1)
  %5 : f32[8, 4] = mul.Tensor(%2, %3)
  return %4, %5
})");
  CHECK(group_kinds(p.plan) == "K");
  CHECK(p.plan.groups[0].kernel.stores.size() == 2);
  bool logged = false;
  for (const std::string& d : p.plan.decisions) logged = logged || d.find("independent, same domain [8, 4]") != std::string::npos;
  CHECK(logged);
}

TEST_CASE("fusion plan: kernels of other shapes or with reductions do not merge as siblings", "[fusion]") {
  const Planned shapes = plan_of(R"(graph {
  %0 : f32[8, 4] = input 0
  %1 : f32[4, 8] = input 1
  %2 : f32[8, 4] = exp(%0)
  %3 : f32[4, 8] = exp(%1)
  return %2, %3
})");
  CHECK(group_kinds(shapes.plan) == "KK");
  const Planned reductions = plan_of(R"(graph {
  %0 : f32[8, 4] = input 0
  %1 : f32[8, 4] = input 1
  %2 : f32[8] = sum.dim_IntList(%0, dim=[1], keepdim=false, dtype=None)
  %3 : f32[8] = sum.dim_IntList(%1, dim=[1], keepdim=false, dtype=None)
  return %2, %3
})");
  CHECK(group_kinds(reductions.plan) == "KK");
}

TEST_CASE("fusion plan: a kernel that reads its sibling through an eager step stays apart", "[fusion]") {
  const Planned p = plan_of(R"(graph {
  %0 : f32[4, 4] = input 0
  %1 : f32[4, 4] = input 1
  %2 : f32[4, 4] = exp(%0)
  %3 : f32[4, 4] = mm(%2, %1)
  %4 : f32[4, 4] = sin(%3)
  return %2, %4
})");
  CHECK(group_kinds(p.plan) == "KEK");
}

TEST_CASE("fusion plan: random operators and operators without lowering stay eager", "[fusion]") {
  const Planned p = plan_of(R"(graph {
  %0 : f32[4, 4] = input 0
  %1 : f32[4, 4], %2 : b8[4, 4] = native_dropout(%0, p=0.5, train=true)
  %3 : f32[4, 4] = exp(%1)
  return %3
})");
  CHECK(group_kinds(p.plan) == "EK");
  CHECK(p.plan.groups[0].reason.find("random") != std::string::npos);
}

TEST_CASE("buffer plan: intermediates are released after their last reader and outputs take over inputs", "[fusion]") {
  const Planned p = plan_of(R"(graph {
  %0 : f32[4, 4] = input 0
  %1 : f32[4, 4] = exp(%0)
  %2 : f32[4, 4] = mm(%1, %1)
  %3 : f32[4, 4] = sin(%2)
  return %3
})");
  REQUIRE(group_kinds(p.plan) == "KEK");
  const lz::passes::BufferPlan buffers = lz::passes::plan_buffers(p.program, p.plan);
  REQUIRE(buffers.release_after.size() == 3);
  // The graph input (the user's tensor) and the output are never released.
  CHECK(buffers.release_after[0].empty());
  CHECK(buffers.release_after[1] == std::vector<lz::ir::ValueId>{1});
  CHECK(buffers.release_after[2] == std::vector<lz::ir::ValueId>{2});
  // exp reads the user's input, which it may not write; sin reads mm's
  // result last, point for point, so it may write into it.
  CHECK(buffers.reuse[0] == std::vector<int32_t>{-1, -1});
  CHECK(buffers.reuse[1].empty());
  const lz::passes::FusionGroup& sin = p.plan.groups[2];
  REQUIRE(sin.buffer_values.size() == 2);
  const size_t out = sin.kernel.buffers[0].output ? 0 : 1;
  std::vector<int32_t> expected(2, -1);
  expected[out] = static_cast<int32_t>(1 - out);
  CHECK(buffers.reuse[2] == expected);
  CHECK(lz::passes::print_buffer_plan(p.plan, buffers).find("group 1 eager\n  release after: %1\n") !=
        std::string::npos);
}

TEST_CASE("fusion plan: with fusion off every node is an eager step", "[fusion]") {
  lz::ir::ParsedGraph parsed = lz::ir::parse_graph(R"(graph {
  %0 : f32[4] = input 0
  %1 : f32[4] = exp(%0)
  %2 : f32[4] = sin(%1)
  return %2
})");
  const lz::passes::Program program = lz::passes::copy_cone(parsed.graph, parsed.outputs);
  const FusionPlan plan = lz::passes::plan_fusion(program, {false});
  CHECK(group_kinds(plan) == "EE");
  CHECK(plan.groups[0].reason == "fusion is off");
}

}  // namespace

namespace {

TEST_CASE("fusion plan: a cheap broadcast producer is recomputed, an expensive one stored", "[fusion]") {
  const auto plan_with = [](const std::string& op) {
    return plan_of(R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[8] = input 1
  %2 : f32[8] = )" + op + R"((%1)
  %3 : f32[4, 8] = add.Tensor(%0, %2, alpha=$0)
  return %3
}
)" + kScalarOne);
  };
  CHECK(group_kinds(plan_with("neg").plan) == "K");
  const Planned expensive = plan_with("exp");
  CHECK(group_kinds(expensive.plan) == "KK");
  bool said = false;
  for (const std::string& d : expensive.plan.decisions) said |= d.find("stored, not recomputed") != std::string::npos;
  CHECK(said);
}

TEST_CASE("fusion plan: a producer read through two views is not recomputed when expensive", "[fusion]") {
  const Planned p = plan_of(R"(graph {
  %0 : f32[4, 4] = input 0
  %1 : f32[4, 4] = exp(%0)
  %2 : f32[4, 4] = permute(%1, dims=[1, 0])
  %3 : f32[4, 4] = add.Tensor(%1, %2, alpha=$0)
  return %3
}
)" + kScalarOne);
  CHECK(group_kinds(p.plan) == "KK");
}

}  // namespace

// A pointwise kernel over a 16-bit product's result runs on the product's
// finished blocks (passes/product_epilogue.h): marked in the plan, with a
// decision line; kernels that cannot run block by block are not, and say why.
namespace {

// %4 = %0 @ %1 of `dtype` and the nodes `tail` over %4 (and the inputs %2, %3).
Planned product_then(const std::string& dtype, const std::string& tail, const std::string& returned) {
  const std::string t = dtype;
  return plan_of("graph {\n  %0 : " + t + "[8, 32] = input 0\n  %1 : " + t + "[32, 8] = input 1\n  %2 : " + t +
                 "[8] = input 2\n  %3 : " + t + "[2, 8, 8] = input 3\n  %4 : " + t + "[8, 8] = mm(%0, %1)\n" + tail +
                 "  return " + returned + "\n}\n" + kScalarOne);
}

bool decided(const FusionPlan& plan, const std::string& text) {
  bool found = false;
  for (const std::string& d : plan.decisions) found = found || d.find(text) != std::string::npos;
  return found;
}

}  // namespace

TEST_CASE("fusion plan: a product's pointwise kernel is its epilogue", "[fusion]") {
  const std::string gelu = "  %5 : T[8, 8] = add.Tensor(%4, %2, alpha=$0)\n  %6 : T[8, 8] = gelu(%5, approximate=\"none\")\n";
  for (const std::string dtype : {"bf16", "f16", "f32"}) {
    INFO(dtype);
    std::string tail = gelu;
    for (size_t at; (at = tail.find("T[")) != std::string::npos;) tail.replace(at, 1, dtype);
    const Planned p = product_then(dtype, tail, "%6");
    REQUIRE(group_kinds(p.plan) == "EK");
    CHECK(p.plan.groups[1].product_epilogue);
    CHECK(decided(p.plan, "(mm): run on each finished block of the product"));
    CHECK(lz::passes::print_plan(p.program.graph, p.plan).find("epilogue of group 0's product") != std::string::npos);
  }
}

TEST_CASE("fusion plan: a kernel that cannot run on a product's blocks is not its epilogue", "[fusion]") {
  struct Case {
    std::string tail, returned, why;
  };
  const std::vector<Case> cases{
      // The product read transposed: a block's points are not the kernel's.
      {"  %5 : bf16[8, 8] = permute(%4, dims=[1, 0])\n  %6 : bf16[8, 8] = exp(%5)\n", "%6",
       "it reads the product through a view"},
      // A row reduction needs whole rows.
      {"  %5 : bf16[8, 8] = exp(%4)\n  %6 : bf16[8] = sum.dim_IntList(%5, dim=[1], keepdim=false, dtype=None)\n",
       "%6", "it reduces"},
      // A domain larger than the product (broadcast against [2, 8, 8]).
      {"  %5 : bf16[2, 8, 8] = add.Tensor(%3, %4, alpha=$0)\n", "%5", "its domain is not the product's result"},
  };
  for (const Case& c : cases) {
    INFO(c.tail);
    const Planned p = product_then("bf16", c.tail, c.returned);
    REQUIRE(p.plan.groups.size() == 2);
    CHECK_FALSE(p.plan.groups[1].product_epilogue);
    CHECK(decided(p.plan, "(mm): " + c.why));
  }
}
