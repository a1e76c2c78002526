// Canonicalisation passes dce, cse and fold: IR text in, expected IR text
// out, with a negative case for every rule that must not fire.
#include <catch2/catch.hpp>

#include "tests/passes/pass_test_util.h"

using namespace lz;
using namespace lz::passes;
using namespace lz::passes::testing;
using ir::ValueId;

TEST_CASE("dce: drops what no output needs, random draws included", "[passes]") {
  constexpr std::string_view text = R"(graph {
  %0 : f32[4] = input 0
  %1 : f32[4] = exp(%0)
  %2 : f32[4] = randn(size=[4]) {generator=$g0}
  %3 : f32[4] = input 1
  %4 : f32[4] = neg(%1)
  %5 : f32[4] = add.Tensor(%0, %3, alpha=$0)
  () = split_with_sizes(%0, split_sizes=[], dim=-1)
  return %5, %0
}
scalars {
  $0 = 1 : int
}
generators { $g0 }
)";
  Program p = program_of(text);
  PassManager pm = make_pipeline("dce");
  pm.run(p);
  CHECK(printed(p) == R"(graph {
  %0 : f32[4] = input 0
  %1 : f32[4] = input 1
  %2 : f32[4] = add.Tensor(%0, %1, alpha=$0)
  return %2, %0
}
scalars {
  $0 = 1 : int
}
generators { $g0 }
)");
  CHECK(p.origin == std::vector<ValueId>{0, 3, 5});
}

TEST_CASE("dce: a program without dead nodes is left as it is", "[passes]") {
  // Inputs stay where they are (no copy is made when nothing changes); a
  // random draw that is used stays.
  CHECK(unchanged_by("dce", R"(graph {
  %0 : f32[4] = input 0
  %1 : f32[4] = randn(size=[4], generator=None, dtype=None, layout=None, device=None, pin_memory=None) {generator=$g0}
  %2 : f32[4] = input 1
  %3 : f32[4] = mul.Tensor(%1, %2)
  return %3
}
generators { $g0 }
)"));
}

TEST_CASE("cse: merges equal nodes, through chains and multi-result nodes", "[passes]") {
  Program p = program_of(R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[8] = input 1
  %2 : f32[4, 8] = exp(%0)
  %3 : f32[4, 8] = exp(%0)
  %4 : f32[4, 8] = add.Tensor(%2, %1, alpha=$0)
  %5 : f32[4, 8] = add.Tensor(%3, %1, alpha=$0)
  %6 : f32[32] = view(%4, size=[32])
  %7 : f32[32] = view(%5, size=[32])
  %8 : f32[4], %9 : i64[4] = max.dim(%4, dim=1, keepdim=false)
  %10 : f32[4], %11 : i64[4] = max.dim(%5, dim=1, keepdim=false)
  return %6, %7, %9, %10, %11
}
scalars {
  $0 = 1 : int
}
)");
  PassManager pm = make_pipeline("cse");
  pm.run(p);
  CHECK(pm.stats()[0].changed);
  CHECK(printed(p) == R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[8] = input 1
  %2 : f32[4, 8] = exp(%0)
  %3 : f32[4, 8] = add.Tensor(%2, %1, alpha=$0)
  %4 : f32[32] = view(%3, size=[32])
  %5 : f32[4], %6 : i64[4] = max.dim(%3, dim=1, keepdim=false)
  return %4, %4, %6, %5, %6
}
scalars {
  $0 = 1 : int
}
)");
  CHECK(p.origin == std::vector<ValueId>{0, 1, 2, 4, 6, 8, 9});
}

TEST_CASE("cse: runtime scalars compare by pool index, never by value", "[passes]") {
  // $0 and $1 both hold 2 today, but they are two runtime parameters.
  CHECK(unchanged_by("cse", R"(graph {
  %0 : f32[4] = input 0
  %1 : f32[4] = mul.Scalar(%0, other=$0)
  %2 : f32[4] = mul.Scalar(%0, other=$1)
  %3 : f32[4] = add.Tensor(%1, %2, alpha=$2)
  return %3
}
scalars {
  $0 = 2 : int
  $1 = 2 : int
  $2 = 1 : int
}
)"));
}

TEST_CASE("cse: never merges random draws or differing attributes", "[passes]") {
  // Two draws from the same generator, two from the default generator,
  // two dropouts, and sums over different dims: all distinct.
  CHECK(unchanged_by("cse", R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[4, 8] = randn(size=[4, 8], generator=$g0, dtype=None, layout=None, device=None, pin_memory=None)
  %2 : f32[4, 8] = randn(size=[4, 8], generator=$g0, dtype=None, layout=None, device=None, pin_memory=None)
  %3 : f32[4, 8] = rand(size=[4, 8], generator=None, dtype=None, layout=None, device=None, pin_memory=None) {generator=$g1}
  %4 : f32[4, 8] = rand(size=[4, 8], generator=None, dtype=None, layout=None, device=None, pin_memory=None) {generator=$g1}
  %5 : f32[4, 8], %6 : b8[4, 8] = native_dropout(%0, p=0.5, train=true) {generator=$g1}
  %7 : f32[4, 8], %8 : b8[4, 8] = native_dropout(%0, p=0.5, train=true) {generator=$g1}
  %9 : f32[4] = sum.dim_IntList(%0, dim=[1], keepdim=false, dtype=None)
  %10 : f32[8] = sum.dim_IntList(%0, dim=[0], keepdim=false, dtype=None)
  %11 : f32[4] = sum.dim_IntList(%0, dim=[1], keepdim=false, dtype=f32)
  return %1, %2, %3, %4, %5, %7, %9, %10, %11
}
generators { $g0, $g1 }
)"));
}

// ---- fold -------------------------------------------------------------------

TEST_CASE("fold: mul/div by a constant one", "[passes]") {
  CHECK(run_passes("fold", R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[1, 1] = ones(size=[1, 1])
  %2 : f32[4, 8] = mul.Tensor(%0, %1)
  %3 : f32[4, 8] = ones_like(%0)
  %4 : f32[4, 8] = mul.Tensor(%3, %2)
  %5 : f32[4, 8] = mul.Tensor(%3, %0)
  %6 : i64[1] = full(size=[1], fill_value=$0, dtype=i64)
  %7 : f32[4, 8] = div.Tensor(%5, %6)
  %8 : f32[] = scalar_tensor(s=$1)
  %9 : f32[4, 8] = mul.Tensor(%7, %8)
  return %4, %9
}
scalars {
  $0 = 1 : int
  $1 = 1 : double
}
)") == R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : f32[1, 1] = ones(size=[1, 1], dtype=None, layout=None, device=None, pin_memory=None)
  %2 : f32[4, 8] = ones_like(%0, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None)
  %3 : i64[1] = full(size=[1], fill_value=$0, dtype=i64, layout=None, device=None, pin_memory=None)
  %4 : f32[] = scalar_tensor(s=$1, dtype=None, layout=None, device=None, pin_memory=None)
  return %0, %0
}
scalars {
  $0 = 1 : int
  $1 = 1 : double
}
)");
}

TEST_CASE("fold: add/sub of a constant zero where exact", "[passes]") {
  CHECK(run_passes("fold,dce", R"(graph {
  %0 : i32[4] = input 0
  %1 : f32[4] = input 1
  %2 : i32[1] = zeros(size=[1], dtype=i32)
  %3 : i32[4] = add.Tensor(%0, %2, alpha=$0)
  %4 : i32[4] = add.Tensor(%2, %3, alpha=$1)
  %5 : i32[4] = sub.Tensor(%4, %2, alpha=$0)
  %6 : f32[] = zeros(size=[])
  %7 : f32[4] = sub.Tensor(%1, %6, alpha=$1)
  %8 : f32[4] = sub.Tensor(%7, %2, alpha=$2)
  return %5, %8
}
scalars {
  $0 = 3 : int
  $1 = 1 : int
  $2 = 0 : int
}
)") == R"(graph {
  %0 : i32[4] = input 0
  %1 : f32[4] = input 1
  return %0, %1
}
scalars {
  $0 = 3 : int
  $1 = 1 : int
  $2 = 0 : int
}
)");
}

TEST_CASE("fold: leaves inexact or size-changing arithmetic alone", "[passes]") {
  // f32 x + 0 (-0.0 + 0.0 is +0.0); x * 0; a constant whose sizes are not
  // all 1 (x's sizes are not hashed: x could be [1, 8]); a constant that
  // adds a dim; a fill that is not special; a promoting constant; a float
  // sub with a runtime alpha; 0 + x with a runtime alpha; ones_like of
  // another tensor; div with a rounding mode.
  CHECK(unchanged_by("fold", R"(graph {
  %0 : f32[4, 8] = input 0
  %1 : i32[8] = input 1
  %2 : f32[4, 8] = input 2
  %3 : f32[1] = zeros(size=[1], dtype=None, layout=None, device=None, pin_memory=None)
  %4 : f32[4, 8] = add.Tensor(%0, %3, alpha=$0)
  %5 : f32[4, 8] = mul.Tensor(%0, %3)
  %6 : f32[4, 8] = ones(size=[4, 8], dtype=None, layout=None, device=None, pin_memory=None)
  %7 : f32[4, 8] = mul.Tensor(%0, %6)
  %8 : f32[1, 1, 1] = ones(size=[1, 1, 1], dtype=None, layout=None, device=None, pin_memory=None)
  %9 : f32[1, 4, 8] = mul.Tensor(%0, %8)
  %10 : f32[1] = full(size=[1], fill_value=$1, dtype=None, layout=None, device=None, pin_memory=None)
  %11 : f32[4, 8] = mul.Tensor(%0, %10)
  %12 : f32[1] = ones(size=[1], dtype=None, layout=None, device=None, pin_memory=None)
  %13 : f32[8] = mul.Tensor(%1, %12)
  %14 : f32[4, 8] = sub.Tensor(%0, %3, alpha=$2)
  %15 : i32[1] = zeros(size=[1], dtype=i32, layout=None, device=None, pin_memory=None)
  %16 : i32[8] = add.Tensor(%15, %1, alpha=$2)
  %17 : f32[4, 8] = ones_like(%2, dtype=None, layout=None, device=None, pin_memory=None, memory_format=None)
  %18 : f32[4, 8] = mul.Tensor(%0, %17)
  %19 : f32[4, 8] = div.Tensor_mode(%0, %12, rounding_mode="floor")
  %20 : f32[1] = full(size=[1], fill_value=$3, dtype=None, layout=None, device=None, pin_memory=None)
  %21 : f32[4, 8] = sub.Tensor(%0, %20, alpha=$0)
  return %4, %5, %7, %9, %11, %13, %14, %16, %18, %19, %21
}
scalars {
  $0 = 1 : int
  $1 = 2 : int
  $2 = 3 : int
  $3 = -0 : double
}
)"));
}
