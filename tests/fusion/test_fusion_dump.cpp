// What reports on the compile pipeline (lazy/compile.h), by its step names:
// LZ_DUMP (Settings::dump_dir) leaves one file per step, DOT and a summary
// naming why each eager step was not fused; the metrics and LZ_DEBUG=3 time
// each step.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "lazy/config.h"
#include "lazy/executable_cache.h"
#include "lazy/metrics.h"

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// What `f` writes to stderr (file descriptor 2).
std::string stderr_of(const std::function<void()>& f) {
  const fs::path file = fs::temp_directory_path() / "lz_debug_stderr.txt";
  std::fflush(stderr);
  const int saved = dup(2);
  FILE* sink = std::fopen(file.c_str(), "w");
  REQUIRE(sink != nullptr);
  dup2(fileno(sink), 2);
  f();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::fclose(sink);
  const std::string text = read(file);
  fs::remove(file);
  return text;
}

TEST_CASE("fusion dump writes every stage of a compiled graph", "[fusion]") {
  const fs::path dir = fs::temp_directory_path() / "lz_dump_test";
  fs::remove_all(dir);
  lz::lazy::Settings s = lz::lazy::settings();
  const lz::lazy::Settings saved = s;
  s.dump_dir = dir.string();
  lz::lazy::set_settings(s);
  lz::lazy::ExecutableCache::instance().clear();

  const lz::Tensor x = lz::randn({8, 4});
  const lz::Tensor w = lz::randn({4, 4});
  const lz::Tensor y = lz::softmax(lz::matmul(x.to_lazy(), w), -1).to_eager();
  lz::lazy::set_settings(saved);
  CHECK(lz::allclose(y, lz::softmax(lz::matmul(x, w), -1), 1e-5, 1e-6));

  REQUIRE(fs::exists(dir));
  std::vector<fs::path> graphs;
  for (const auto& e : fs::directory_iterator(dir)) graphs.push_back(e.path());
  REQUIRE(graphs.size() == 1);
  const fs::path g = graphs[0];
  CHECK(g.filename().string().rfind("graph_", 0) == 0);
  // One file per compile step, named after it (lazy/compile.h).
  CHECK(read(g / "1_copy_cone.ir").find("mm(") != std::string::npos);
  CHECK(fs::exists(g / "2_canonicalise_01_simplify.ir"));
  CHECK(fs::exists(g / "2_canonicalise_05_dce.ir"));
  CHECK(read(g / "3_plan_fusion.txt").find("starts at reduction") != std::string::npos);
  CHECK(read(g / "4_lower.txt").find("1 kernels, 1 eager steps") != std::string::npos);
  CHECK(read(g / "5_generate_code_kernel_0.kir").find("reduce") != std::string::npos);
  // (mm's result is still alive when to_eager runs, so it is an output too: nothing is released.)
  CHECK(read(g / "6_plan_buffers.txt").find("group 1 kernel fused_amax_sub_exp_sum_and1\n  release after:") !=
        std::string::npos);
  CHECK(read(g / "7_assemble.txt").find("1 kernels, 1 eager steps") != std::string::npos);
  CHECK(read(g / "graph.dot").find("digraph") != std::string::npos);
  const std::string summary = read(g / "summary.txt");
  INFO(summary);
  CHECK(summary.find("not fused: no lowering for mm") != std::string::npos);
  CHECK(summary.find("kernels: 1") != std::string::npos);
  for (std::string_view step : {"copy_cone", "canonicalise", "plan_fusion", "lower", "generate_code",
                                "plan_buffers", "assemble"}) {
    CHECK(summary.find("\n" + std::string(step) + " ") != std::string::npos);
  }
  fs::remove_all(dir);
}

TEST_CASE("each compile step is timed in the metrics and printed at LZ_DEBUG=3", "[fusion]") {
  lz::lazy::Settings s = lz::lazy::settings();
  const lz::lazy::Settings saved = s;
  s.debug_level = 3;
  lz::lazy::set_settings(s);
  lz::lazy::ExecutableCache::instance().clear();
  lz::lazy::reset_metrics();
  const lz::Tensor x = lz::randn({8, 4});
  const std::string printed = stderr_of([&] { (lz::exp(x.to_lazy()) * 2).to_eager(); });
  lz::lazy::set_settings(saved);

  INFO(printed);
  const lz::lazy::LazyMetrics m = lz::lazy::metrics();
  const std::vector<std::string_view> steps = {"copy_cone",     "canonicalise", "plan_fusion", "lower",
                                               "generate_code", "plan_buffers", "assemble"};
  CHECK(m.compile_ms.size() == steps.size());
  size_t at = printed.find("[lazuli] compile:");
  REQUIRE(at != std::string::npos);
  for (std::string_view step : steps) {
    CHECK(m.compile_ms.count(step) == 1);
    at = printed.find(" " + std::string(step) + " ", at);  // in pipeline order
    CHECK(at != std::string::npos);
  }
  CHECK(printed.find("[lazuli] fusion: kernel 0") != std::string::npos);
}

}  // namespace
