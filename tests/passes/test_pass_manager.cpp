// The pass manager: pipelines by name, statistics and timing per pass,
// verification after each pass (a broken pass is named in the
// InternalError), the dump hook, and the default pipeline end to end.
#include <catch2/catch.hpp>

#include <thread>

#include "core/dispatcher.h"
#include "core/error.h"
#include "passes/canonicalize.h"
#include "passes/graph_rewriter.h"
#include "tests/passes/pass_test_util.h"

using namespace lz;
using namespace lz::passes;
using namespace lz::passes::testing;

namespace {

constexpr std::string_view kSmall = R"(graph {
  %0 : f32[4] = input 0
  %1 : f32[4] = exp(%0)
  %2 : f32[4] = exp(%0)
  %3 : f32[4] = neg(%0)
  %4 : f32[4] = mul.Tensor(%1, %2)
  return %4
}
)";

// A pass that appends an exp node without arguments: the verifier rejects it.
class BrokenPass final : public Pass {
 public:
  std::string_view name() const override { return "broken"; }
  bool run(Program& p) override {
    const TensorMeta type{SizeVec{4}, kFloat, Device(DeviceType::CPU)};
    p.graph.add_node(Dispatcher::singleton().find_or_throw("exp").entry(), {}, {},
                     std::span<const TensorMeta>(&type, 1));
    p.origin.push_back(ir::kNone);
    return true;
  }
};

// A pass that forgets the origin of the value it adds.
class OriginlessPass final : public Pass {
 public:
  std::string_view name() const override { return "originless"; }
  bool run(Program& p) override {
    p.graph.add_input(TensorMeta{SizeVec{1}, kFloat, Device(DeviceType::CPU)});
    return true;
  }
};

// A pass that misuses the rewriter: an output it never copied.
class UnmappedOutputPass final : public Pass {
 public:
  std::string_view name() const override { return "unmapped"; }
  bool run(Program& p) override {
    GraphRewriter rw(p);
    p = std::move(rw).finish(p.outputs);
    return true;
  }
};

// A pass that takes a while and changes nothing.
class SlowPass final : public Pass {
 public:
  std::string_view name() const override { return "slow"; }
  bool run(Program&) override {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    return false;
  }
};

std::string error_of(std::string_view spec) {
  try {
    (void)make_pipeline(spec);
  } catch (const ValueError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("pass manager: pipelines by name", "[passes]") {
  CHECK(make_pipeline("dce,cse").pass_names() == std::vector<std::string_view>{"dce", "cse"});
  CHECK(make_pipeline(" views , fold ").pass_names() == std::vector<std::string_view>{"views", "fold"});
  CHECK(default_pipeline_spec() == "simplify,views,fold,cse,dce");
  CHECK(make_pipeline("default").pass_names() ==
        std::vector<std::string_view>{"simplify", "views", "fold", "cse", "dce"});
  CHECK(make_pipeline("dce,default").pass_names().size() == 6);
  CHECK(make_pipeline("").pass_names().empty());
  for (const std::string_view name : {"dce", "cse", "fold", "simplify", "views"}) {
    CHECK(make_pass(name)->name() == name);
  }
}

TEST_CASE("pass manager: unknown or empty pass names are ValueErrors", "[passes]") {
  CHECK(error_of("dce,inline") ==
        "unknown graph pass 'inline'; known passes: dce, cse, fold, simplify, views (or 'default' in a pipeline)");
  CHECK(error_of("dce,,cse") == "pass pipeline 'dce,,cse': empty pass name");
  CHECK(error_of("DCE").find("unknown graph pass 'DCE'") == 0);
  CHECK_THROWS_AS(make_pass("nope"), ValueError);
}

TEST_CASE("pass manager: statistics per pass", "[passes]") {
  Program p = program_of(kSmall);
  PassManager pm = make_pipeline("cse,dce");
  pm.add(std::make_unique<SlowPass>());
  pm.run(p);
  const auto& stats = pm.stats();
  REQUIRE(stats.size() == 3);
  CHECK(stats[0].name == "cse");
  CHECK(stats[0].changed);
  CHECK(stats[0].nodes_before == 5);
  CHECK(stats[0].nodes_after == 4);
  CHECK(stats[1].name == "dce");
  CHECK(stats[1].changed);
  CHECK(stats[1].nodes_before == 4);
  CHECK(stats[1].nodes_after == 3);
  CHECK(stats[2].name == "slow");
  CHECK_FALSE(stats[2].changed);
  CHECK(stats[2].time >= std::chrono::milliseconds(5));
  // A second run starts the statistics afresh; nothing is left to do.
  pm.run(p);
  REQUIRE(pm.stats().size() == 3);
  CHECK_FALSE(pm.stats()[0].changed);
  CHECK_FALSE(pm.stats()[1].changed);
}

TEST_CASE("pass manager: a pass that breaks the graph is named", "[passes]") {
  Program p = program_of(kSmall);
  PassManager pm = make_pipeline("cse");
  pm.add(std::make_unique<BrokenPass>());
  std::string message;
  try {
    pm.run(p);
  } catch (const InternalError& e) {
    message = e.what();
  }
  CHECK(message.find("pass 'broken' produced an invalid graph: ") == 0);
  CHECK(message.find("verify_graph: node 4 `%4 : f32[4] = exp()`") != std::string::npos);

  // Without verification the broken graph goes through.
  Program q = program_of(kSmall);
  PassManager unchecked;
  unchecked.add(std::make_unique<BrokenPass>());
  unchecked.set_verify(false);
  CHECK_NOTHROW(unchecked.run(q));

  Program r = program_of(kSmall);
  PassManager originless;
  originless.add(std::make_unique<OriginlessPass>());
  Program u = program_of(kSmall);
  PassManager unmapped;
  unmapped.add(std::make_unique<UnmappedOutputPass>());
  std::string failure;
  try {
    unmapped.run(u);
  } catch (const InternalError& e) {
    failure = e.what();
  }
  CHECK(failure.find("pass 'unmapped' failed: ") == 0);
  CHECK(failure.find("GraphRewriter::finish: output %4 was not copied") != std::string::npos);

  CHECK_THROWS_WITH(originless.run(r),
                    "pass 'originless' produced an origin of 5 entries for 6 values");
}

TEST_CASE("pass manager: the dump hook sees the program after each pass", "[passes]") {
  Program p = program_of(kSmall);
  PassManager pm = make_pipeline("cse,dce");
  std::vector<std::pair<std::string, size_t>> seen;
  pm.set_dump_hook([&](std::string_view pass, const Program& after) {
    seen.emplace_back(std::string(pass), after.graph.num_nodes());
  });
  pm.run(p);
  CHECK(seen == std::vector<std::pair<std::string, size_t>>{{"cse", 4}, {"dce", 3}});
}

TEST_CASE("pass manager: the default pipeline canonicalises and is idempotent", "[passes]") {
  // -(-(x^T)^T) * ones([1, 1]) computed twice, plus a dead random draw.
  constexpr std::string_view text = R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[8, 4] = transpose.int(%0, dim0=0, dim1=1)
  %2 : f32[4, 8] = t(%1)
  %3 : f32[4, 8] = neg(%2)
  %4 : f32[4, 8] = neg(%3)
  %5 : f32[1, 1] = ones(size=[1, 1])
  %6 : f32[4, 8] = mul.Tensor(%4, %5)
  %7 : f32[4, 8] = exp(%6)
  %8 : f32[4, 8] = exp(%0)
  %9 : f32[4, 8] = randn(size=[4, 8]) {generator=$g0}
  %10 : f32[4, 8] = add.Tensor(%7, %8, alpha=$0)
  return %10
}
scalars {
  $0 = 1 : int
}
generators { $g0 }
)";
  Program p = program_of(text);
  PassManager pm = make_pipeline("default");
  pm.run(p);
  CHECK(printed(p) == R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[4, 8] = exp(%0)
  %2 : f32[4, 8] = add.Tensor(%1, %1, alpha=$0)
  return %2
}
scalars {
  $0 = 1 : int
}
generators { $g0 }
)");
  CHECK(p.origin == std::vector<ir::ValueId>{0, 7, 10});
  pm.run(p);
  for (const PassStat& s : pm.stats()) CHECK_FALSE(s.changed);
}
