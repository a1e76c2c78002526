// CompiledKernel's runtime parameters (a graph's numbers) against the
// reference interpreter: conversion to each expression dtype, and kernels
// with more numbers than vector registers (kept in stack slots).
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "codegen_llvm/jit_engine.h"
#include "tests/codegen_llvm/compiled_test_util.h"

using namespace lz;
using namespace lz::ir;
using namespace lz::compiled_testing;
using lz::codegen_llvm::CompiledKernel;
using lz::codegen_llvm::JitEngine;

TEST_CASE("compiled kernel: runtime parameters convert to the expression dtype", "[codegen_llvm]") {
  JitEngine::instance().set_disk_cache(false);
  // p0, p1, p2 each used at several dtypes:
  //   out0 (f32) = x * p0 + p1      out1 (i32) = xi * p0 + p1
  //   out2 (bool) = p2 and x > p0   out3 (f64) = p1
  //   out4 (u8) = u8(xi) + p0       out5 (i64) = p0 - p2
  Kernel k;
  k.name = "params";
  k.rank = 1;
  KernelBuilder b(&k);
  const uint32_t xa = input(b, kFloat, 1), xia = input(b, kInt, 1);
  uint32_t o[6];
  const ScalarType out_t[6] = {kFloat, kInt, kBool, kDouble, kByte, kLong};
  for (int i = 0; i < 6; ++i) o[i] = output(b, out_t[i], 1);
  const ExprId x = b.load(xa, kFloat);
  const ExprId xi = b.load(xia, kInt);
  b.add_store(o[0], b.binary(ScalarOp::Add, b.binary(ScalarOp::Mul, x, b.param(0, kFloat), kFloat), b.param(1, kFloat), kFloat), false);
  b.add_store(o[1], b.binary(ScalarOp::Add, b.binary(ScalarOp::Mul, xi, b.param(0, kInt), kInt), b.param(1, kInt), kInt), false);
  b.add_store(o[2], b.binary(ScalarOp::LogicalAnd, b.param(2, kBool), b.binary(ScalarOp::Gt, x, b.param(0, kFloat), kBool), kBool),
              false);
  b.add_store(o[3], b.param(1, kDouble), false);
  b.add_store(o[4], b.binary(ScalarOp::Add, b.cast(xi, kByte), b.param(0, kByte), kByte), false);
  b.add_store(o[5], b.binary(ScalarOp::Sub, b.param(0, kLong), b.param(2, kLong), kLong), false);
  REQUIRE(verify_kernel(k) == "");
  REQUIRE(k.num_params == 3);
  const CompiledKernel ck(k);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::vector<Scalar>> param_sets = {
      {Scalar(2.5), Scalar(int64_t{-3}), Scalar(true)},
      {Scalar(int64_t{7}), Scalar(-1.75), Scalar(false)},
      {Scalar(true), Scalar(1e10), Scalar(int64_t{1})},
      {Scalar(-2.9), Scalar((int64_t{1} << 40) + 3), Scalar(2.0)},
      {Scalar(nan), Scalar(std::numeric_limits<int64_t>::max()), Scalar(0.0)},
      {Scalar(int64_t{-300}), Scalar(1e-40), Scalar(int64_t{-5})},
      {Scalar(3e9), Scalar(false), Scalar(-0.0)},
  };
  std::mt19937_64 rng(77);
  for (size_t p = 0; p < param_sets.size(); ++p) {
    CAPTURE(p);
    Case c;
    c.domain = {37};
    c.add_input(kFloat, Layout::Contiguous, rng);
    c.add_input(kInt, Layout::Contiguous, rng);
    for (const ScalarType t : out_t) c.add_output(t);
    c.params = param_sets[p];
    CHECK(compare_with_interpreter(ck, c) == "");
  }
}

TEST_CASE("compiled kernel: more runtime numbers than vector registers, each used at two dtypes",
          "[codegen_llvm]") {
  // W8's shape: past kMaxHoistedParams numbers the kernel keeps them in
  // stack slots. out0 (f32) = (((x * p0) + p1) * p2) + p3 ...; out1 (i32) =
  // xi + p0 + p1 + ... (the same numbers converted to int).
  JitEngine::instance().set_disk_cache(false);
  constexpr uint32_t kNumbers = 40;
  Kernel k;
  k.name = "many_params";
  k.rank = 1;
  KernelBuilder b(&k);
  const uint32_t xa = input(b, kFloat, 1), xia = input(b, kInt, 1);
  const uint32_t o0 = output(b, kFloat, 1), o1 = output(b, kInt, 1);
  ExprId f = b.load(xa, kFloat), i = b.load(xia, kInt);
  for (uint32_t p = 0; p < kNumbers; ++p) {
    f = b.binary(p % 2 == 0 ? ScalarOp::Mul : ScalarOp::Add, f, b.param(p, kFloat), kFloat);
    i = b.binary(ScalarOp::Add, i, b.param(p, kInt), kInt);
  }
  b.add_store(o0, f, false);
  b.add_store(o1, i, false);
  REQUIRE(verify_kernel(k) == "");
  REQUIRE(k.num_params == kNumbers);
  const CompiledKernel ck(k);
  std::mt19937_64 rng(5);
  for (int set = 0; set < 2; ++set) {
    CAPTURE(set);
    Case c;
    c.domain = {set == 0 ? int64_t{37} : int64_t{1000}};
    c.add_input(kFloat, Layout::Contiguous, rng);
    c.add_input(kInt, Layout::Contiguous, rng);
    c.add_output(kFloat);
    c.add_output(kInt);
    // Distinct numbers (factors near 1, small addends; some integral), new ones each launch.
    for (uint32_t p = 0; p < kNumbers; ++p) {
      const double v = p % 2 == 0 ? 0.9 + 0.005 * p + 0.01 * set : 0.25 * p - 3 - set;
      c.params.push_back(p % 5 == 3 ? Scalar(static_cast<int64_t>(v)) : Scalar(v));
    }
    CHECK(compare_with_interpreter(ck, c) == "");
  }
}
