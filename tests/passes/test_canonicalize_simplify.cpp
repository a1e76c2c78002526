// The simplify pass: identities exact in IEEE arithmetic fold, on special
// scalars only; everything inexact, type-changing or resting on a
// runtime scalar's value is left alone.
#include <catch2/catch.hpp>

#include <limits>

#include "ir/graph.h"
#include "tests/passes/pass_test_util.h"

using namespace lz;
using namespace lz::passes;
using namespace lz::passes::testing;
using ir::ValueId;

TEST_CASE("special scalars are exactly 0, 1 and pow's special exponents", "[passes]") {
  CHECK(ir::is_special_scalar(Scalar(0)));
  CHECK(ir::is_special_scalar(Scalar(1)));
  CHECK(ir::is_special_scalar(Scalar(true)));
  CHECK(ir::is_special_scalar(Scalar(false)));
  CHECK(ir::is_special_scalar(Scalar(0.0)));
  CHECK(ir::is_special_scalar(Scalar(1.0)));
  for (double v : {2.0, 3.0, -1.0, -2.0, 0.5, -0.5}) CHECK(ir::is_special_scalar(Scalar(v)));
  for (int64_t v : {2, 3, -1, -2}) CHECK(ir::is_special_scalar(Scalar(v)));
  CHECK_FALSE(ir::is_special_scalar(Scalar(-0.0)));  // x - (-0.0) is not x for x = -0.0
  CHECK_FALSE(ir::is_special_scalar(Scalar(4)));
  CHECK_FALSE(ir::is_special_scalar(Scalar(-3)));
  CHECK_FALSE(ir::is_special_scalar(Scalar(0.25)));
  CHECK_FALSE(ir::is_special_scalar(Scalar(1.0000000000000002)));
  CHECK_FALSE(ir::is_special_scalar(Scalar(std::numeric_limits<double>::quiet_NaN())));
}

TEST_CASE("simplify: double negation and arithmetic with 1 and 0", "[passes]") {
  Program p = program_of(R"(graph {
  %0 : f32[4] = input 0
  %1 : i32[4] = input 1
  %2 : f32[4] = neg(%0)
  %3 : f32[4] = neg(%2)
  %4 : f32[4] = neg(%3)
  %5 : f32[4] = mul.Scalar(%4, other=$0)
  %6 : f32[4] = div.Scalar(%5, other=$1)
  %7 : f32[4] = sub.Scalar(%6, other=$2, alpha=$0)
  %8 : f32[4] = sub.Scalar(%7, other=$0, alpha=$2)
  %9 : i32[4] = add.Scalar(%1, other=$2, alpha=$3)
  %10 : i32[4] = sub.Scalar(%9, other=$3, alpha=$2)
  %11 : i32[4] = mul.Scalar(%10, other=$0)
  return %8, %11, %3
}
scalars {
  $0 = 1 : int
  $1 = 1 : double
  $2 = 0 : int
  $3 = 5 : int
}
)");
  PassManager pm = make_pipeline("simplify");
  pm.run(p);
  // neg(neg(neg(x))) is neg(x) (%3); %2 is the copy of the first neg,
  // dead now, left for dce.
  CHECK(printed(p) == R"(graph {
  %0 : f32[4] = input 0
  %1 : i32[4] = input 1
  %2 : f32[4] = neg(%0)
  %3 : f32[4] = neg(%0)
  return %3, %1, %0
}
scalars {
  $0 = 1 : int
  $1 = 1 : double
  $2 = 0 : int
  $3 = 5 : int
}
)");
  CHECK(p.origin == std::vector<ValueId>{0, 1, 2, 4});
}

TEST_CASE("simplify: nothing folds on inexact identities or runtime values", "[passes]") {
  // f32 x + 0 (-0.0 + 0.0 is +0.0); x * 0 (NaN, inf); x * 2; a multiply
  // that promotes (i32 * 1.0 is f32); integer true division; x - 0 with a
  // runtime alpha (0 * alpha is NaN for alpha = inf); x - (-0.0); and
  // add.Tensor with alpha 0 (its sizes are the broadcast of both operands).
  CHECK(unchanged_by("simplify", R"(graph {
  %0 : f32[4] = input 0
  %1 : i32[4] = input 1
  %2 : f32[4] = add.Scalar(%0, other=$0, alpha=$1)
  %3 : f32[4] = mul.Scalar(%0, other=$0)
  %4 : f32[4] = mul.Scalar(%0, other=$2)
  %5 : f32[4] = mul.Scalar(%1, other=$3)
  %6 : f32[4] = div.Scalar(%1, other=$1)
  %7 : f32[4] = sub.Scalar(%0, other=$0, alpha=$2)
  %8 : f32[4] = sub.Scalar(%0, other=$4, alpha=$1)
  %9 : i32[4] = add.Tensor(%1, %1, alpha=$0)
  %10 : f32[4] = neg(%0)
  %11 : f32[4] = exp(%10)
  %12 : f32[4] = neg(%11)
  return %2, %3, %4, %5, %6, %7, %8, %9, %12
}
scalars {
  $0 = 0 : int
  $1 = 1 : int
  $2 = 2 : int
  $3 = 1 : double
  $4 = -0 : double
}
)"));
}

TEST_CASE("simplify: widening cast chains collapse", "[passes]") {
  CHECK(run_passes("simplify,dce", R"(graph {
  %0 : f32[4] = input 0
  %1 : i32[4] = input 1
  %2 : b8[4] = input 2
  %3 : f64[4] = _to_copy(%0, dtype=f64)
  %4 : f32[4] = _to_copy(%3, dtype=f32, device=cpu, memory_format=preserve_format)
  %5 : i64[4] = _to_copy(%1, dtype=i64)
  %6 : f16[4] = _to_copy(%5, dtype=f16, non_blocking=true)
  %7 : u8[4] = _to_copy(%2, dtype=u8, layout=strided, pin_memory=false)
  %8 : f16[4] = _to_copy(%7, dtype=f16)
  %9 : bf16[4] = _to_copy(%8, dtype=bf16)
  %10 : f32[4] = _to_copy(%2, dtype=f32)
  %11 : f32[4] = _to_copy(%10, dtype=None, memory_format=contiguous_format)
  return %4, %6, %9, %11
}
)") == R"(graph {
  %0 : f32[4] = input 0
  %1 : i32[4] = input 1
  %2 : b8[4] = input 2
  %3 : f16[4] = _to_copy(%1, dtype=f16, layout=None, device=None, pin_memory=None, non_blocking=true, memory_format=None)
  %4 : bf16[4] = _to_copy(%2, dtype=bf16, layout=None, device=None, pin_memory=None, non_blocking=false, memory_format=None)
  %5 : f32[4] = _to_copy(%2, dtype=f32, layout=None, device=None, pin_memory=None, non_blocking=false, memory_format=contiguous_format)
  return %0, %3, %4, %5
}
)");
}

TEST_CASE("simplify: narrowing or layout-changing casts stay", "[passes]") {
  // f32 -> f16 -> f32 rounds; i64 -> i32 -> i64 wraps; f16 -> bf16 loses
  // range; an inner cast that makes a contiguous copy or moves the device
  // changes more than the dtype.
  CHECK(unchanged_by("simplify", R"(graph {
  %0 : f32[4] = input 0
  %1 : i64[4] = input 1
  %2 : f16[4] = input 2
  %3 : f16[4] = _to_copy(%0, dtype=f16, layout=None, device=None, pin_memory=None, non_blocking=false, memory_format=None)
  %4 : f32[4] = _to_copy(%3, dtype=f32, layout=None, device=None, pin_memory=None, non_blocking=false, memory_format=None)
  %5 : i32[4] = _to_copy(%1, dtype=i32, layout=None, device=None, pin_memory=None, non_blocking=false, memory_format=None)
  %6 : i64[4] = _to_copy(%5, dtype=i64, layout=None, device=None, pin_memory=None, non_blocking=false, memory_format=None)
  %7 : bf16[4] = _to_copy(%2, dtype=bf16, layout=None, device=None, pin_memory=None, non_blocking=false, memory_format=None)
  %8 : f32[4] = _to_copy(%7, dtype=f32, layout=None, device=None, pin_memory=None, non_blocking=false, memory_format=None)
  %9 : f64[4] = _to_copy(%0, dtype=f64, layout=None, device=None, pin_memory=None, non_blocking=false, memory_format=contiguous_format)
  %10 : f32[4] = _to_copy(%9, dtype=f32, layout=None, device=None, pin_memory=None, non_blocking=false, memory_format=None)
  %11 : f64[4]@cuda:0 = _to_copy(%0, dtype=f64, layout=None, device=cuda:0, pin_memory=None, non_blocking=false, memory_format=None)
  %12 : f32[4]@cuda:0 = _to_copy(%11, dtype=f32, layout=None, device=None, pin_memory=None, non_blocking=false, memory_format=None)
  return %4, %6, %8, %10, %12
}
)"));
}
