// The views pass: transposes become permutes, chains of permutes, views,
// reshapes and expands collapse, cancelling unsqueeze/squeeze pairs go;
// nothing that would depend on sizes (not hashed) is rewritten.
#include <catch2/catch.hpp>

#include "tests/passes/pass_test_util.h"

using namespace lz;
using namespace lz::passes;
using namespace lz::passes::testing;
using ir::ValueId;

TEST_CASE("views: transposes become permutes, permute chains compose", "[passes]") {
  CHECK(run_passes("views", R"(graph {
  %0 : f32[2, 3, 4] = input 0
  %1 : f32[4, 3, 2] = transpose.int(%0, dim0=0, dim1=-1)
  %2 : f32[3, 4, 2] = permute(%0, dims=[1, 2, 0])
  %3 : f32[2, 3, 4] = permute(%2, dims=[2, 0, 1])
  %4 : f32[3, 2, 4] = permute(%0, dims=[1, 0, 2])
  %5 : f32[3, 4, 2] = permute(%4, dims=[0, 2, 1])
  %6 : f32[4, 2, 3] = permute(%0, dims=[-1, 0, 1])
  %7 : f32[2, 3, 4] = transpose.int(%0, dim0=1, dim1=1)
  %8 : f32[4, 3, 2] = transpose.int(%1, dim0=1, dim1=1)
  return %1, %3, %5, %6, %7, %8
}
)") == R"(graph {
  %0 : f32[2, 3, 4] = input 0
  %1 : f32[4, 3, 2] = permute(%0, dims=[2, 1, 0])
  %2 : f32[3, 4, 2] = permute(%0, dims=[1, 2, 0])
  %3 : f32[3, 2, 4] = permute(%0, dims=[1, 0, 2])
  %4 : f32[3, 4, 2] = permute(%0, dims=[1, 2, 0])
  %5 : f32[4, 2, 3] = permute(%0, dims=[2, 0, 1])
  return %1, %0, %4, %5, %0, %1
}
)");
}

TEST_CASE("views: t becomes a permute, or nothing below rank 2", "[passes]") {
  Program p = program_of(R"(graph {
  %0 : f32[2, 3] = input 0
  %1 : f32[5] = input 1
  %2 : f32[3, 2] = t(%0)
  %3 : f32[2, 3] = t(%2)
  %4 : f32[5] = t(%1)
  %5 : f32[3, 2] = exp(%2)
  return %3, %4, %5
}
)");
  PassManager pm = make_pipeline("views");
  pm.run(p);
  CHECK(printed(p) == R"(graph {
  %0 : f32[2, 3] = input 0
  %1 : f32[5] = input 1
  %2 : f32[3, 2] = permute(%0, dims=[1, 0])
  %3 : f32[3, 2] = exp(%2)
  return %0, %1, %3
}
)");
  // The new permute stands for the t it replaced.
  CHECK(p.origin == std::vector<ValueId>{0, 1, 2, 5});
}

TEST_CASE("views: view and reshape chains keep the outer sizes", "[passes]") {
  CHECK(run_passes("views,dce", R"(graph {
  %0 : f32[4, 6] = input 0
  %1 : f32[24] = view(%0, size=[24])
  %2 : f32[2, 12] = view(%1, size=[2, -1])
  %3 : f32[3, 8] = view(%2, size=[3, 8])
  %4 : f32[6, 4] = reshape(%1, shape=[6, 4])
  %5 : f32[24, 1] = view(%4, size=[-1, 1])
  %6 : f32[2, 2, 6] = reshape(%0, shape=[2, 2, 6])
  %7 : f32[4, 6] = reshape(%6, shape=[4, 6])
  return %3, %5, %7
}
)") == R"(graph {
  %0 : f32[4, 6] = input 0
  %1 : f32[3, 8] = view(%0, size=[3, 8])
  %2 : f32[24, 1] = reshape(%0, shape=[-1, 1])
  %3 : f32[4, 6] = reshape(%0, shape=[4, 6])
  return %1, %2, %3
}
)");
}

TEST_CASE("views: expand chains merge, -1 keeping the inner size", "[passes]") {
  CHECK(run_passes("views,dce", R"(graph {
  %0 : f32[1, 4] = input 0
  %1 : f32[3, 4] = expand(%0, size=[3, 4])
  %2 : f32[2, 3, 4] = expand(%1, size=[2, -1, -1])
  %3 : f32[3, 4] = expand(%0, size=[3, -1], implicit=true)
  %4 : f32[5, 3, 4] = expand(%3, size=[5, -1, -1])
  return %2, %4
}
)") == R"(graph {
  %0 : f32[1, 4] = input 0
  %1 : f32[2, 3, 4] = expand(%0, size=[2, 3, 4], implicit=false)
  %2 : f32[5, 3, 4] = expand(%0, size=[5, 3, -1], implicit=false)
  return %1, %2
}
)");
}

TEST_CASE("views: unsqueeze then squeeze of the same dim cancels", "[passes]") {
  CHECK(run_passes("views", R"(graph {
  %0 : f32[2, 3] = input 0
  %1 : f32[2, 1, 3] = unsqueeze(%0, dim=1)
  %2 : f32[2, 3] = squeeze.dim(%1, dim=-2)
  %3 : f32[2, 3, 1] = unsqueeze(%0, dim=-1)
  %4 : f32[2, 3] = squeeze.dim(%3, dim=2)
  return %2, %4
}
)") == R"(graph {
  %0 : f32[2, 3] = input 0
  %1 : f32[2, 1, 3] = unsqueeze(%0, dim=1)
  %2 : f32[2, 3, 1] = unsqueeze(%0, dim=-1)
  return %0, %0
}
)");
}

TEST_CASE("views: nothing that depends on sizes is rewritten", "[passes]") {
  // A view of a permute (not a view of x in general); a view to x's own
  // sizes (another x of the same rank may differ); squeeze then unsqueeze
  // (x's dim may not be 1); squeeze without a dim; an unsqueeze and a
  // squeeze of different dims; a plain permute; an expand of a view.
  CHECK(unchanged_by("views", R"(graph {
  %0 : f32[4, 6] = input 0
  %1 : f32[1, 6] = input 1
  %2 : f32[6, 4] = permute(%0, dims=[1, 0])
  %3 : f32[24] = view(%2, size=[24])
  %4 : f32[4, 6] = view(%0, size=[4, 6])
  %5 : f32[6] = squeeze.dim(%1, dim=0)
  %6 : f32[1, 6] = unsqueeze(%5, dim=0)
  %7 : f32[6] = squeeze(%1)
  %8 : f32[1, 1, 6] = unsqueeze(%1, dim=0)
  %9 : f32[1, 6] = squeeze.dim(%8, dim=1)
  %10 : f32[6, 1] = view(%1, size=[6, 1])
  %11 : f32[6, 5] = expand(%10, size=[6, 5], implicit=false)
  return %3, %4, %6, %7, %9, %11
}
)"));
}
