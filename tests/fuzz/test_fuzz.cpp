// The differential fuzzer in the test suite: a short fixed-seed run over
// the LLVM, interpreter and no-fusion modes (and a few programs under the
// CUDA emulator), every program a past run found (tests/fuzz/regressions/),
// and the fuzzer's own parts (text form, minimiser). The long run is
// the "Differential fuzzing" command of docs/fuzzing-and-sanitizers.md.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "core/local_dispatch_key_set.h"
#include "core/op_id.h"

#include "tests/fuzz/fuzz_generator.h"
#include "tests/fuzz/fuzz_minimise.h"
#include "tests/fuzz/fuzz_ops.h"
#include "tests/fuzz/fuzz_runner.h"
#include "tests/op_table/operator_coverage.h"

namespace {

using namespace lzf;

const std::vector<Mode> kCpuModes = {Mode::Interp, Mode::Llvm, Mode::NoFusion};

// Checks seeds [first, first + n): a failure shows the minimised program.
// Returns how many steps raised (alike in every mode).
int check_seeds(uint64_t first, int n, const std::vector<Mode>& modes, const GeneratorOptions& options = {}) {
  int errors_agreed = 0;
  for (uint64_t seed = first; seed < first + static_cast<uint64_t>(n); ++seed) {
    const Program p = generate_program(seed, options);
    const std::string failure = check_program(p, modes);
    if (!failure.empty()) {
      const Program small = minimise(p, [&](const Program& c) { return check_program(c, modes); });
      FAIL_CHECK("seed " << seed << ": " << failure << "\nminimised:\n" << to_text(small) << "lazy IR:\n"
                         << trace_text(small));
    }
    for (const std::string& e : run_program(p, Mode::Eager).errors) errors_agreed += !e.empty();
  }
  return errors_agreed;
}

TEST_CASE("differential fuzzing: 300 programs agree eagerly, interpreted, compiled and unfused", "[fuzz]") {
  // The generator keeps some failing steps: error paths are compared too.
  CHECK(check_seeds(1, 300, kCpuModes) > 0);
}

TEST_CASE("differential fuzzing: long programs with many materialisations", "[fuzz]") {
  GeneratorOptions o;
  o.max_ops = 30;
  o.syncs = 0.3;
  o.eager_inputs = 0.3;
  CHECK(check_seeds(100000, 60, kCpuModes, o) > 0);
}

TEST_CASE("differential fuzzing: programs under the CUDA emulator", "[fuzz][cuda_emu]") {
  GeneratorOptions o;
  o.max_ops = 5;
  o.large_inputs = 0;
  check_seeds(200000, 12, {Mode::CudaEmu}, o);  // fails (FAIL_CHECK) on a disagreement
  SUCCEED("12 programs agree under the CUDA emulator");
}

TEST_CASE("differential fuzzing: every regression program agrees", "[fuzz]") {
  int programs = 0;
  for (const auto& entry : std::filesystem::directory_iterator(LZ_FUZZ_REGRESSIONS_DIR)) {
    if (entry.path().extension() != ".txt") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    const Program p = parse_program(text.str());
    INFO(entry.path().filename().string() << "\n" << to_text(p));
    CHECK(check_program(p, kCpuModes) == "");
    ++programs;
  }
  CHECK(programs >= 2);
}

TEST_CASE("differential fuzzing: replays run the executables the first run cached", "[fuzz]") {
  const Program p = parse_program(
      "%0 = input f32[5,3] contiguous seed=3 lazy\n%1 = mul.scalar %0 value=1.25\n%2 = exp %1\n"
      "%3 = sum %2 ints=[1] value=0\n%4 = input f32[5,3] transposed seed=4 eager\n%5 = add_ %4 %1\n");
  lz::lazy::reset_metrics();
  CHECK(check_program(p, {Mode::Llvm}, 2) == "");
  const lz::lazy::LazyMetrics m = lz::lazy::metrics();
  CHECK(m.cache_hits >= 2);  // each replay's graph
  CHECK(m.cache_misses >= 1);
}

TEST_CASE("differential fuzzing: programs write through dropped views, to_eager() results and special values",
          "[fuzz]") {
  // The patterns that once hid lazy-mode bugs (a write through a view of a
  // to_lazy() tensor dropped before the base was read was lost) are drawn.
  std::map<std::string, int> seen;
  for (uint64_t seed = 1; seed <= 600; ++seed) {
    const Program p = generate_program(seed);
    for (size_t i = 0; i < p.steps.size(); ++i) {
      const Step& s = p.steps[i];
      if (s.kind == Step::Kind::Drop) ++seen["drop"];
      if (s.kind == Step::Kind::Input && s.special) ++seen["special"];
      if (s.kind == Step::Kind::Input && s.layout == Layout::Offset) ++seen["offset"];
      if (s.kind != Step::Kind::Op) continue;
      ++seen[s.op];
      const FuzzOp* op = find_fuzz_op(s.op);
      const Step& first = p.steps[s.args.at(0)];
      // An in-place write into a view (whose operand is itself a view op's result).
      if (op->inplace && first.kind == Step::Kind::Op && find_fuzz_op(first.op)->numerics == Numerics::Exact &&
          first.args.size() == 1) {
        ++seen["write into a unary result"];
      }
    }
  }
  for (const char* what : {"drop", "special", "offset", "to_eager", "index_select.any", "pow.scalar",
                           "write into a unary result"}) {
    INFO(what << " drawn " << seen[what] << " times");
    CHECK(seen[what] > 5);
  }
}

TEST_CASE("fuzz programs: the text form reads back to the same program", "[fuzz]") {
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    const std::string text = to_text(generate_program(seed));
    INFO("seed " << seed << "\n" << text);
    CHECK(to_text(parse_program(text)) == text);
  }
}

TEST_CASE("fuzz programs: a malformed line is a ValueError naming it", "[fuzz]") {
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"%0 = input f32[2] contiguous seed=1 lazy\n%1 = add %0 %5\n", "line 2"},
      {"%0 = input f99[2] contiguous seed=1 lazy\n", "unknown dtype \"f99\""},
      {"%0 = input f32[2] diagonal seed=1 lazy\n", "unknown layout"},
      {"%1 = input f32[2] contiguous seed=1 lazy\n", "this step defines %0"},
      {"%0 = input f32[2,x] contiguous seed=1 lazy\n", "is not an integer"},
      {"sync %0\n", "used before it is defined"},
      {"%0 = input f32[2] contiguous seed=1 lazy\n%1 = neg %0 bogus\n", "unexpected \"bogus\""},
  };
  for (const auto& [text, message] : bad) {
    INFO(text);
    CHECK_THROWS_AS(parse_program(text), lz::ValueError);
    CHECK_THROWS_WITH(parse_program(text), Catch::Contains(message));
  }
  // An unknown operator parses (the catalogue may grow) but does not run.
  const Program p = parse_program("%0 = input f32[2] contiguous seed=1 lazy\n%1 = frobnicate %0\n");
  CHECK(run_program(p, Mode::Eager).errors[1].find("unknown operator \"frobnicate\"") != std::string::npos);
}

TEST_CASE("fuzz minimiser: cuts a failing program down to what fails", "[fuzz]") {
  // A stand-in failure: "any program that takes exp of a float32 value fails".
  const FailureCheck exp_fails = [](const Program& p) -> std::string {
    for (const Step& s : p.steps) {
      if (s.kind == Step::Kind::Op && s.op == "exp") return "fake: value: exp";
    }
    return "";
  };
  int minimised = 0;
  for (uint64_t seed = 1; seed <= 400 && minimised < 5; ++seed) {
    const Program p = generate_program(seed);
    if (exp_fails(p).empty() || p.steps.size() < 6) continue;
    const Program small = minimise(p, exp_fails);
    INFO("seed " << seed << "\n" << to_text(p) << "-> \n" << to_text(small));
    CHECK(!exp_fails(small).empty());
    CHECK(small.steps.size() <= 2);  // the input and exp (operands bypassed)
    ++minimised;
  }
  CHECK(minimised == 5);
  // drop_steps takes the users of a dropped step with it, and renumbers.
  const Program p = parse_program(
      "%0 = input f32[2] contiguous seed=1 lazy\n%1 = neg %0\n%2 = exp %1\n%3 = abs %0\nsync %3\n");
  CHECK(to_text(drop_steps(p, {false, true, false, false, false})) ==
        "%0 = input f32[2] contiguous seed=1 lazy\n%1 = abs %0\nsync %1\n");
}

TEST_CASE("fuzz comparison: exact values must match exactly, rounded ones within their bound", "[fuzz]") {
  const Program p = parse_program(
      "%0 = input f32[4] contiguous seed=3 lazy\n%1 = add %0 %0\n%2 = exp %0\n");
  const Outcome ref = run_program(p, Mode::Eager);
  CHECK(compare_outcomes(p, ref, run_program(p, Mode::Llvm)) == "");
  // One ulp off in an exact value is a disagreement; a few ulps in exp are not.
  Outcome off = run_program(p, Mode::Eager);
  off.values[1] = off.values[1].clone();
  float* x = static_cast<float*>(off.values[1].data_ptr());
  x[0] = std::nextafter(x[0], 1e9f);
  CHECK_THAT(compare_outcomes(p, ref, off), Catch::StartsWith("value: step %1 = add"));
  off = run_program(p, Mode::Eager);
  off.values[2] = off.values[2].clone();
  float* y = static_cast<float*>(off.values[2].data_ptr());
  y[0] = std::nextafter(std::nextafter(y[0], 1e9f), 1e9f);
  CHECK(compare_outcomes(p, ref, off) == "");
  y[0] *= 1.01f;
  CHECK_THAT(compare_outcomes(p, ref, off), Catch::StartsWith("value: step %2 = exp"));
  // Errors must agree in type and message.
  off = run_program(p, Mode::Eager);
  off.errors[2] = "ValueError: something else";
  CHECK_THAT(compare_outcomes(p, ref, off), Catch::StartsWith("error: step %2"));
}

}  // namespace

// Completeness: the fuzzer's programs reach every operator core/operators.def
// declares, or the operator is listed with the reason it is not fuzzed. An
// operator added to the list fails this until the fuzzer draws it (an entry
// in fuzz_ops.cpp) or says why not.
namespace {

const std::map<lz::OpId, std::string>& not_fuzzed() {
  using lz::OpId;
  const std::string number = "returns a C++ number (a sync): programs sync through to_eager steps";
  const std::string random = "random: values differ between a program and its replays (the lazy op table checks "
                             "that lazy draws equal eager draws under one seed)";
  const std::string factory = "a factory: its values depend on no tensor, so no trace differs from eager "
                              "(the lazy op table runs it)";
  static const std::map<OpId, std::string> reasons = {
      {OpId::equal, number},
      {OpId::allclose, number},
      {OpId::item, number},
      {OpId::_local_scalar_dense, number},
      {OpId::dropout, random},
      {OpId::native_dropout, random},
      {OpId::randn, random},
      {OpId::rand, random},
      {OpId::randint_low, random},
      {OpId::randn_like, random},
      {OpId::rand_like, random},
      {OpId::randint_like, random},
      {OpId::randint_like_low_dtype, random},
      {OpId::empty_like, "its values are unspecified"},
      {OpId::arange_start_step, factory},
      {OpId::linspace, factory},
      {OpId::eye, factory},
      {OpId::eye_m, factory},
      {OpId::scatter_src, "needs an index tensor whose entries are unique per output position (the op table runs it)"},
      {OpId::scatter_value, "needs an index tensor whose entries are unique per output position (the op table runs it)"},
      {OpId::split_with_sizes, "needs sizes that sum to the dim's size; split and chunk reach the same views"},
  };
  return reasons;
}

}  // namespace

TEST_CASE("fuzzer programs reach every declared operator or say why not", "[fuzz][completeness]") {
  std::set<lz::OpId> reached;
  {
    lzt::OperatorRecorder recorder;
    lz::IncludeDispatchKeyGuard mode(lz::DispatchKey::TestingOnlyMode);
    for (uint64_t seed = 1; seed <= 1000; ++seed) run_program(generate_program(seed), Mode::Eager);
    reached = recorder.seen();
  }
  // out= and in-place forms are traced as their operator (one
  // functionalisation path for all): programs write through views, copy_,
  // fill_ and a few in-place operators; the op table runs every variant.
  const auto variant = [](lz::OpId id) {
    const lz::TagSet tags = lz::op_decl(id).tags;
    return tags.has(lz::Tag::Out) || tags.has(lz::Tag::Inplace);
  };
  for (const std::string& gap : lzt::coverage_gaps(reached, not_fuzzed(), variant)) FAIL_CHECK(gap);
  CHECK(reached.size() > 150);
}
