// The kernel interpreter on reduction kernels (stages, reduced stores,
// identities, empty domains), parameters, and launch errors.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/error.h"
#include "tests/kernel/kernel_test_util.h"

using namespace lz;
using namespace lz::ir;
using namespace lz::codegen_interp;
using namespace lz::kernel_testing;

namespace {

constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();

// out = op-reduction of in over the axes in `reduce` of a rank-`rank`
// domain, stored reduced; both buffers of dtype t.
Kernel reduce_kernel(ReduceOp op, ScalarType t, uint32_t rank, uint64_t reduce, ScalarType acc = ScalarType::Undefined) {
  if (acc == ScalarType::Undefined) acc = t;
  Kernel k;
  k.name = "reduce";
  k.rank = rank;
  k.reduce_axes = reduce;
  KernelBuilder b(&k);
  const uint32_t in = b.add_access({b.add_buffer(t, rank, false), {}});
  const uint32_t out = b.add_access({b.add_buffer(acc, rank, true), {}});
  const uint32_t r = b.add_reduction(op, b.load(in, op == ReduceOp::All || op == ReduceOp::Any ? t : acc), acc);
  b.add_store(out, b.reduced(r), true);
  return k;
}

// mean(x) * p0 + p1 over axis 1 of [rows, cols] float32 data.
Kernel mean_kernel() {
  Kernel k;
  k.name = "scaled_mean";
  k.rank = 2;
  k.reduce_axes = 0b10;
  KernelBuilder b(&k);
  const uint32_t in = b.add_access({b.add_buffer(kFloat, 2, false), {}});
  const uint32_t out = b.add_access({b.add_buffer(kFloat, 1, true), {{ViewStep::Kind::Unsqueeze, {1}}}});
  const uint32_t r = b.add_reduction(ReduceOp::Sum, b.load(in, kFloat), kFloat);
  const ExprId sum = b.reduced(r);
  const ExprId mean = b.binary(ScalarOp::Div, sum, b.reduce_count(kFloat), kFloat);
  const ExprId p0 = b.param(0, kFloat);
  const ExprId scaled = b.binary(ScalarOp::Mul, mean, p0, kFloat);
  const ExprId p1 = b.param(1, kFloat);
  b.add_store(out, b.binary(ScalarOp::Add, scaled, p1, kFloat), true);
  return k;
}

std::string launch_error(const Kernel& k, const KernelLaunch& l) {
  try {
    run_kernel(k, l);
  } catch (const ValueError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("kernel interpreter: row softmax", "[kernel]") {
  std::vector<float> x = {1, 2, 3, 0, 0, 0, 1000, 1001, 999}, out(9, -1);
  run_kernel(softmax_kernel(), {{3, 3}, {bind(x, {3, 1}), bind(out, {3, 1})}, {}});
  const std::vector<double> expected = {0.09003057317038046, 0.24472847105479767, 0.6652409557748219,
                                        1.0 / 3, 1.0 / 3, 1.0 / 3,
                                        0.24472847105479767, 0.6652409557748219, 0.09003057317038046};
  for (size_t i = 0; i < out.size(); ++i) {
    INFO("element " << i);
    CHECK(out[i] == Approx(expected[i]).epsilon(1e-6));
  }
  // The same kernel on the transpose: softmax over columns of x.
  run_kernel(softmax_kernel(), {{3, 3}, {bind(x, {1, 3}), bind(out, {1, 3})}, {}});
  // Column 0 is [1, 0, 1000]: exp(1 - 1000) underflows in float32.
  CHECK(out == std::vector<float>{0, 0, 0, 0, 0, 0, 1, 1, 1});
}

TEST_CASE("kernel interpreter: full sum to a rank-0 output", "[kernel]") {
  Kernel k;
  k.name = "full_sum";
  k.rank = 2;
  k.reduce_axes = 0b11;
  KernelBuilder b(&k);
  const uint32_t in = b.add_access({b.add_buffer(kDouble, 2, false), {}});
  const uint32_t out = b.add_access(
      {b.add_buffer(kDouble, 0, true), {{ViewStep::Kind::Unsqueeze, {0}}, {ViewStep::Kind::Unsqueeze, {0}}}});
  b.add_store(out, b.reduced(b.add_reduction(ReduceOp::Sum, b.load(in, kDouble), kDouble)), true);
  REQUIRE(verify_kernel(k) == "");
  std::vector<double> x = {1, 2, 3, 4, 5, 6.5}, o = {-1};
  run_kernel(k, {{2, 3}, {bind(x, {3, 1}), bind(o, {0, 0})}, {}});
  CHECK(o[0] == 21.5);
}

TEST_CASE("kernel interpreter: reductions over a non-last axis", "[kernel]") {
  // [[1, 2], [3, 4], [5, 6]] summed and multiplied over axis 0.
  std::vector<float> x = {1, 2, 3, 4, 5, 6}, sum(2, -1), prod(2, -1);
  run_kernel(reduce_kernel(ReduceOp::Sum, kFloat, 2, 0b01), {{3, 2}, {bind(x, {2, 1}), bind(sum, {0, 1})}, {}});
  CHECK(sum == std::vector<float>{9, 12});
  run_kernel(reduce_kernel(ReduceOp::Prod, kFloat, 2, 0b01), {{3, 2}, {bind(x, {2, 1}), bind(prod, {0, 1})}, {}});
  CHECK(prod == std::vector<float>{15, 48});

  // A middle axis of a rank-3 domain: outer axes 0 and 2 are not adjacent.
  std::vector<int64_t> y(24), out(8, -1);
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t j = 0; j < 3; ++j)
      for (int64_t l = 0; l < 4; ++l) y[static_cast<size_t>(i * 12 + j * 4 + l)] = i * 100 + j * 10 + l;
  run_kernel(reduce_kernel(ReduceOp::Sum, kLong, 3, 0b010), {{2, 3, 4}, {bind(y, {12, 4, 1}), bind(out, {4, 0, 1})}, {}});
  for (int64_t i = 0; i < 2; ++i)
    for (int64_t l = 0; l < 4; ++l) CHECK(out[static_cast<size_t>(i * 4 + l)] == 3 * (i * 100 + l) + 30);
}

TEST_CASE("kernel interpreter: max and min reductions propagate NaN", "[kernel]") {
  std::vector<float> x = {1, kNaNf, 3, 2, 5, -1, kNaNf, 0, 0, 4, 4, kNaNf}, mx(4), mn(4);
  run_kernel(reduce_kernel(ReduceOp::Max, kFloat, 2, 0b10), {{4, 3}, {bind(x, {3, 1}), bind(mx, {1, 0})}, {}});
  run_kernel(reduce_kernel(ReduceOp::Min, kFloat, 2, 0b10), {{4, 3}, {bind(x, {3, 1}), bind(mn, {1, 0})}, {}});
  CHECK(std::isnan(mx[0]));
  CHECK(mx[1] == 5);
  CHECK(std::isnan(mx[2]));
  CHECK(std::isnan(mx[3]));
  CHECK(std::isnan(mn[0]));
  CHECK(mn[1] == -1);
  CHECK(std::isnan(mn[2]));
  CHECK(std::isnan(mn[3]));
}

TEST_CASE("kernel interpreter: integer and bool reductions", "[kernel]") {
  // int32 accumulation wraps: max + 1 + 5 + 2 = min + 7.
  std::vector<int32_t> x = {std::numeric_limits<int32_t>::max(), 1, 5, 2}, s(1), m(1);
  run_kernel(reduce_kernel(ReduceOp::Sum, kInt, 1, 1), {{4}, {bind(x, {1}), bind(s, {0})}, {}});
  CHECK(s[0] == std::numeric_limits<int32_t>::min() + 7);
  run_kernel(reduce_kernel(ReduceOp::Min, kInt, 1, 1), {{4}, {bind(x, {1}), bind(m, {0})}, {}});
  CHECK(m[0] == 1);

  // all/any read the truthiness of a float input (NaN is true); rows are
  // x[o + 4 i] (a transposed read).
  std::vector<float> f = {1, kNaNf, 0, 0, 2, -1, 3, 0};
  std::vector<uint8_t> all_b(4, 7), any_b(4, 7);  // bool storage
  run_kernel(reduce_kernel(ReduceOp::All, kFloat, 2, 0b10, kBool), {{4, 2}, {bind(f, {1, 4}), bind(all_b, {1, 0})}, {}});
  run_kernel(reduce_kernel(ReduceOp::Any, kFloat, 2, 0b10, kBool), {{4, 2}, {bind(f, {1, 4}), bind(any_b, {1, 0})}, {}});
  CHECK(all_b == std::vector<uint8_t>{1, 1, 0, 0});
  CHECK(any_b == std::vector<uint8_t>{1, 1, 1, 0});
}

TEST_CASE("kernel interpreter: params and reduce_count (scaled mean)", "[kernel]") {
  const Kernel k = mean_kernel();
  REQUIRE(verify_kernel(k) == "");
  REQUIRE(k.num_params == 2);
  std::vector<float> x = {1, 2, 3, 4, 10, 20, 30, 45}, out(2, -1);
  // p0 a floating scalar, p1 an integer one: both converted to f32.
  run_kernel(k, {{2, 4}, {bind(x, {4, 1}), bind(out, {1, 0})}, {Scalar(2.0), Scalar(int64_t{-1})}});
  CHECK(out[0] == Approx(2.5 * 2 - 1).epsilon(1e-7));
  CHECK(out[1] == Approx(26.25 * 2 - 1).epsilon(1e-7));
  run_kernel(k, {{2, 4}, {bind(x, {4, 1}), bind(out, {1, 0})}, {Scalar(true), Scalar(0.25)}});
  CHECK(out[0] == Approx(2.75).epsilon(1e-7));
  CHECK(out[1] == Approx(26.5).epsilon(1e-7));
}

TEST_CASE("kernel interpreter: reduced stores may read per-outer-point values", "[kernel]") {
  // out[i] = sum_j x[i, j] + bias[i] (bias read at stride 0 along the reduction axis).
  Kernel k;
  k.name = "sum_bias";
  k.rank = 2;
  k.reduce_axes = 0b10;
  KernelBuilder b(&k);
  const uint32_t in = b.add_access({b.add_buffer(kFloat, 2, false), {}});
  const uint32_t bias = b.add_access({b.add_buffer(kFloat, 1, false), {{ViewStep::Kind::Unsqueeze, {1}}}});
  const uint32_t out = b.add_access({b.add_buffer(kFloat, 1, true), {{ViewStep::Kind::Unsqueeze, {1}}}});
  const uint32_t r = b.add_reduction(ReduceOp::Sum, b.load(in, kFloat), kFloat);
  const ExprId s = b.reduced(r);
  const ExprId bl = b.load(bias, kFloat);
  b.add_store(out, b.binary(ScalarOp::Add, s, bl, kFloat), true);
  REQUIRE(verify_kernel(k) == "");
  std::vector<float> x = {1, 2, 3, 4, 5, 6}, bv = {100, 200}, o(2, -1);
  run_kernel(k, {{2, 3}, {bind(x, {3, 1}), bind(bv, {1, 0}), bind(o, {1, 0})}, {}});
  CHECK(o == std::vector<float>{106, 215});
  // An empty reduction still stores identity + bias for every row.
  run_kernel(k, {{2, 0}, {bind(x, {0, 1}), bind(bv, {1, 0}), bind(o, {1, 0})}, {}});
  CHECK(o == std::vector<float>{100, 200});
}

TEST_CASE("kernel interpreter: a later stage reads what an earlier one stored", "[kernel]") {
  Kernel k;
  k.name = "store_then_load";
  k.rank = 1;
  KernelBuilder b(&k);
  const uint32_t in = b.add_access({b.add_buffer(kInt, 1, false), {}});
  const uint32_t o0 = b.add_access({b.add_buffer(kByte, 1, true), {}});
  const uint32_t o1 = b.add_access({b.add_buffer(kInt, 1, true), {}});
  const ExprId x = b.load(in, kInt);
  b.add_store(o0, b.binary(ScalarOp::Mul, x, b.constant(2, kInt), kInt), false);
  // Read back through the uint8 output: the stored value wrapped to 8 bits.
  const ExprId y = b.load(o0, kInt);
  b.add_store(o1, b.binary(ScalarOp::Add, y, b.constant(1, kInt), kInt), false);
  REQUIRE(verify_kernel(k) == "");
  std::vector<int32_t> xs = {3, 200}, out1(2);
  std::vector<uint8_t> out0(2);
  run_kernel(k, {{2}, {bind(xs, {1}), bind(out0, {1}), bind(out1, {1})}, {}});
  CHECK(out0 == std::vector<uint8_t>{6, 144});
  CHECK(out1 == std::vector<int32_t>{7, 145});
}

TEST_CASE("kernel interpreter: zero-size domains", "[kernel]") {
  // No outer point: nothing runs, nothing is written.
  std::vector<float> x(6, 1), out(3, -1);
  run_kernel(softmax_kernel(), {{0, 3}, {bind(x, {3, 1}), bind(out, {3, 1})}, {}});
  CHECK(out == std::vector<float>{-1, -1, -1});
  // A pointwise kernel over an empty domain may get null data.
  run_kernel(binary_kernel(ScalarOp::Add, kFloat, 2),
             {{4, 0}, {BoundAccess{nullptr, {0, 1}}, BoundAccess{nullptr, {0, 1}}, BoundAccess{nullptr, {0, 1}}}, {}});
  // An empty inner domain: non-reduced stores write nothing, reduced
  // stores write the identity-based result for every outer point.
  run_kernel(softmax_kernel(), {{3, 0}, {bind(x, {0, 1}), bind(out, {1, 1})}, {}});
  CHECK(out == std::vector<float>{-1, -1, -1});
  std::vector<float> sum(3, -1), mx(3, -1), prod(3, -1), mean(3, -1);
  run_kernel(reduce_kernel(ReduceOp::Sum, kFloat, 2, 0b10), {{3, 0}, {bind(x, {1, 1}), bind(sum, {1, 0})}, {}});
  run_kernel(reduce_kernel(ReduceOp::Max, kFloat, 2, 0b10), {{3, 0}, {bind(x, {1, 1}), bind(mx, {1, 0})}, {}});
  run_kernel(reduce_kernel(ReduceOp::Prod, kFloat, 2, 0b10), {{3, 0}, {bind(x, {1, 1}), bind(prod, {1, 0})}, {}});
  run_kernel(mean_kernel(), {{3, 0}, {bind(x, {1, 1}), bind(mean, {1, 0})}, {Scalar(1.0), Scalar(0.0)}});
  CHECK(sum == std::vector<float>{0, 0, 0});
  CHECK(prod == std::vector<float>{1, 1, 1});
  CHECK(mx[0] == -std::numeric_limits<float>::infinity());
  CHECK(std::isnan(mean[2]));  // 0 / 0
  std::vector<int32_t> imin(1, 0);
  run_kernel(reduce_kernel(ReduceOp::Min, kInt, 1, 1), {{0}, {BoundAccess{nullptr, {1}}, bind(imin, {0})}, {}});
  CHECK(imin[0] == std::numeric_limits<int32_t>::max());
  // A rank-0 domain has one point.
  std::vector<double> a = {2}, c = {5}, r = {0};
  run_kernel(binary_kernel(ScalarOp::Pow, kDouble, 0), {{}, {bind(a, {}), bind(c, {}), bind(r, {})}, {}});
  CHECK(r[0] == 32);
}

TEST_CASE("kernel interpreter: many outer points (parallel chunks)", "[kernel]") {
  // Row sums of a [1000, 7] int64 matrix and a transposed [300, 500] copy.
  std::vector<int64_t> x(7000), sums(1000, -1);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int64_t>(i);
  run_kernel(reduce_kernel(ReduceOp::Sum, kLong, 2, 0b10), {{1000, 7}, {bind(x, {7, 1}), bind(sums, {1, 0})}, {}});
  bool all_ok = true;
  for (int64_t i = 0; i < 1000; ++i) all_ok &= sums[static_cast<size_t>(i)] == 49 * i + 21;
  CHECK(all_ok);

  std::vector<float> m(150000), zero(1, 0), t(150000, -1);
  for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<float>(i);
  run_kernel(binary_kernel(ScalarOp::Add, kFloat, 2),
             {{300, 500}, {bind(m, {1, 300}), bind(zero, {0, 0}), bind(t, {500, 1})}, {}});
  all_ok = true;
  for (int64_t i = 0; i < 300; ++i)
    for (int64_t j = 0; j < 500; ++j) all_ok &= t[static_cast<size_t>(i * 500 + j)] == static_cast<float>(j * 300 + i);
  CHECK(all_ok);
}

TEST_CASE("kernel interpreter: launch errors name the kernel", "[kernel]") {
  const Kernel k = softmax_kernel();
  std::vector<float> x(6), out(6);
  const KernelLaunch good{{2, 3}, {bind(x, {3, 1}), bind(out, {3, 1})}, {}};
  CHECK(launch_error(k, good) == "");

  KernelLaunch l = good;
  l.domain = {6};
  CHECK(launch_error(k, l) == "[run_kernel] kernel 'softmax_row': the domain has 1 extents, the kernel's rank is 2");
  l = good;
  l.domain = {2, -3};
  CHECK(launch_error(k, l).find("domain extent 1 is negative") != std::string::npos);
  l = good;
  l.accesses.pop_back();
  CHECK(launch_error(k, l) == "[run_kernel] kernel 'softmax_row': 1 bound accesses, the kernel has 2");
  l = good;
  l.params.push_back(Scalar(1.0));
  CHECK(launch_error(k, l) == "[run_kernel] kernel 'softmax_row': 1 params, the kernel has 0");
  l = good;
  l.accesses[1].strides = {1};
  CHECK(launch_error(k, l) ==
        "[run_kernel] kernel 'softmax_row': access a1 has 1 strides, the domain rank is 2");
  Kernel bad = k;
  bad.stages.pop_back();
  CHECK(launch_error(bad, good) == "[run_kernel] kernel 'softmax_row' is malformed: store 0 is in no stage");
  CHECK(launch_error(mean_kernel(), {{2, 4}, {bind(x, {4, 1}), bind(out, {1, 0})}, {Scalar(1.0)}}) ==
        "[run_kernel] kernel 'scaled_mean': 1 params, the kernel has 2");
}
