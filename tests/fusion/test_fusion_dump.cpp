// LZ_DUMP (Settings::dump_dir): a compiled graph leaves its IR before and
// after each pass, the plan, each kernel's IR, DOT and a summary naming why
// each eager step was not fused.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "lazy/config.h"
#include "lazy/executable_cache.h"

namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
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
  CHECK(read(g / "00_traced.ir").find("mm(") != std::string::npos);
  CHECK(fs::exists(g / "01_simplify.ir"));
  CHECK(fs::exists(g / "05_dce.ir"));
  CHECK(read(g / "plan.txt").find("1 kernels, 1 eager steps") != std::string::npos);
  CHECK(read(g / "kernel_0.kir").find("reduce") != std::string::npos);
  CHECK(read(g / "graph.dot").find("digraph") != std::string::npos);
  const std::string summary = read(g / "summary.txt");
  INFO(summary);
  CHECK(summary.find("not fused: no lowering for mm") != std::string::npos);
  CHECK(summary.find("kernels: 1") != std::string::npos);
  fs::remove_all(dir);
}

}  // namespace
