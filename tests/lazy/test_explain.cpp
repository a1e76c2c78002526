// lazy::explain_graph (what lz-dump prints and bench_compile times) reaches
// the code generators only through ir/code_generator.h: the LLVM and CUDA
// sections print CodeGenerator::source, and compile_kernels times
// CodeGenerator::compile_cold.
#include <catch2/catch.hpp>

#include <string>

#include "lazy/explain.h"

namespace {

// mm stays an eager step; add + gelu fuse into one CPU kernel.
constexpr const char* kMlp = R"(graph {
  %0 : f32[32, 64] = input 0
  %1 : f32[64, 128] = input 1
  %2 : f32[128] = input 2
  %3 : f32[32, 128] = mm(%0, %1)
  %4 : f32[32, 128] = add.Tensor(%3, %2, alpha=$0)
  %5 : f32[32, 128] = gelu(%4, approximate="none")
  return %5
}
scalars {
  $0 = 1 : int
})";

}  // namespace

TEST_CASE("explain: the llvm and cuda sections print each kernel's generated source", "[lazy][explain]") {
  lz::lazy::ExplainOptions o;
  o.print = {};
  o.print.llvm = true;
  o.print.cuda = true;
  const std::string text = lz::lazy::explain_graph(kMlp, o).text;
  CHECK_THAT(text, Catch::Matchers::Contains("=== llvm ===\n; group 1: kernel fused_add_gelu\n"));
  CHECK_THAT(text, Catch::Matchers::Contains("define void @lzk_fused_add_gelu"));
  CHECK_THAT(text, Catch::Matchers::Contains("// group 1: kernel fused_add_gelu (grid-stride)\n"));
  CHECK_THAT(text, Catch::Matchers::Contains("__global__ void lzk_"));
  CHECK_THAT(text, !Catch::Matchers::Contains("cannot generate code"));
}

TEST_CASE("explain: compile_kernels compiles each CPU kernel cold, twice over without a cache answering",
          "[lazy][explain]") {
  lz::lazy::ExplainOptions o;
  o.compile_kernels = true;
  const lz::lazy::IrGraph graph(kMlp);
  for (int round = 0; round < 2; ++round) {
    const lz::lazy::Explanation e = lz::lazy::explain_graph(graph, o);
    REQUIRE(e.kernel_compiles.size() == 1);
    const lz::lazy::KernelCompile& k = e.kernel_compiles.front();
    CHECK(k.kernel == "fused_add_gelu");
    CHECK(k.failure.empty());
    // A cache hit would take no optimisation or code generation time.
    CHECK(k.optimize_ms > 0);
    CHECK(k.codegen_ms > 0);
    CHECK(k.ms >= k.optimize_ms + k.codegen_ms);
  }
}
