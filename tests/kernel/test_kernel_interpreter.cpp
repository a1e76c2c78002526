// The kernel interpreter on pointwise kernels: access strides (broadcast,
// transpose), dtype conversions at loads and stores, and the scalar
// semantics of the operations against hand-computed values.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "core/half.h"
#include "tests/kernel/kernel_test_util.h"
#include "tests/float_constants.h"

using namespace lz;
using namespace lz::ir;
using namespace lz::codegen_interp;
using namespace lz::kernel_testing;

namespace {

using lzt::kNaN;
using lzt::kInf;

// out[i] = op(x[i], y[i]) over n elements of C++ type T (result type R).
// Element storage of a result type: std::vector<bool> has no data().
template <class R>
using Storage = std::conditional_t<std::is_same_v<R, bool>, uint8_t, R>;

template <class R, class T>
std::vector<R> run_binary(ScalarOp op, ScalarType t, ScalarType rt, std::vector<T> x, std::vector<T> y) {
  std::vector<Storage<R>> out(x.size());
  const Kernel k = binary_kernel(op, t, 1, rt);
  run_kernel(k, {{static_cast<int64_t>(x.size())}, {bind(x, {1}), bind(y, {1}), bind(out, {1})}, {}});
  return std::vector<R>(out.begin(), out.end());
}

template <class R, class T>
std::vector<R> run_unary(ScalarOp op, ScalarType t, ScalarType rt, std::vector<T> x) {
  std::vector<Storage<R>> out(x.size());
  run_kernel(unary_kernel(op, t, rt), {{static_cast<int64_t>(x.size())}, {bind(x, {1}), bind(out, {1})}, {}});
  return std::vector<R>(out.begin(), out.end());
}

}  // namespace

TEST_CASE("kernel interpreter: pointwise add with a broadcast operand", "[kernel]") {
  // out[2, 3] = x[2, 3] + y[3] (y read at stride 0 along axis 0).
  std::vector<float> x = {1, 2, 3, 4, 5, 6}, y = {10, 20, 30}, out(6, -1);
  run_kernel(binary_kernel(ScalarOp::Add, kFloat, 2),
             {{2, 3}, {bind(x, {3, 1}), bind(y, {0, 1}), bind(out, {3, 1})}, {}});
  CHECK(out == std::vector<float>{11, 22, 33, 14, 25, 36});
}

TEST_CASE("kernel interpreter: transposed access", "[kernel]") {
  // x is a contiguous [3, 2] tensor read as its transpose [2, 3] (strides swapped).
  std::vector<int64_t> x = {1, 2, 3, 4, 5, 6}, y(6, 100), out(6, 0);
  run_kernel(binary_kernel(ScalarOp::Sub, kLong, 2),
             {{2, 3}, {bind(x, {1, 2}), bind(y, {3, 1}), bind(out, {3, 1})}, {}});
  CHECK(out == std::vector<int64_t>{-99, -97, -95, -98, -96, -94});
  // The output can be strided too: out^T = x^T - y, written transposed.
  std::vector<int64_t> out_t(6, 0);
  run_kernel(binary_kernel(ScalarOp::Sub, kLong, 2),
             {{2, 3}, {bind(x, {1, 2}), bind(y, {3, 1}), bind(out_t, {1, 2})}, {}});
  CHECK(out_t == std::vector<int64_t>{-99, -98, -97, -96, -95, -94});
}

TEST_CASE("kernel interpreter: integer arithmetic wraps to the dtype", "[kernel]") {
  constexpr int32_t kMax = std::numeric_limits<int32_t>::max(), kMin = std::numeric_limits<int32_t>::min();
  CHECK(run_binary<int32_t>(ScalarOp::Add, kInt, kInt, std::vector<int32_t>{kMax, 5, -3},
                            std::vector<int32_t>{1, 7, -4}) == std::vector<int32_t>{kMin, 12, -7});
  CHECK(run_binary<int32_t>(ScalarOp::Mul, kInt, kInt, std::vector<int32_t>{65536, -65536, 3},
                            std::vector<int32_t>{65536, 32768, -5}) == std::vector<int32_t>{0, kMin, -15});
  CHECK(run_unary<int32_t>(ScalarOp::Neg, kInt, kInt, std::vector<int32_t>{kMin, 4}) ==
        std::vector<int32_t>{kMin, -4});
  CHECK(run_unary<int32_t>(ScalarOp::Abs, kInt, kInt, std::vector<int32_t>{kMin, -4}) ==
        std::vector<int32_t>{kMin, 4});
  CHECK(run_binary<uint8_t>(ScalarOp::Sub, kByte, kByte, std::vector<uint8_t>{3, 200},
                            std::vector<uint8_t>{5, 100}) == std::vector<uint8_t>{254, 100});
  CHECK(run_binary<uint8_t>(ScalarOp::Mul, kByte, kByte, std::vector<uint8_t>{16, 3},
                            std::vector<uint8_t>{17, 5}) == std::vector<uint8_t>{16, 15});
  CHECK(run_unary<uint8_t>(ScalarOp::BitwiseNot, kByte, kByte, std::vector<uint8_t>{5}) ==
        std::vector<uint8_t>{250});

  // Intermediate values wrap too, not only at the store: (max + 1) / 2 and
  // (max + 1) < 0 see int32's min.
  Kernel k;
  k.rank = 1;
  KernelBuilder kb(&k);
  const uint32_t xa = kb.add_access({kb.add_buffer(kInt, 1, false), {}});
  const uint32_t half = kb.add_access({kb.add_buffer(kLong, 1, true), {}});
  const uint32_t neg = kb.add_access({kb.add_buffer(kBool, 1, true), {}});
  const ExprId x = kb.load(xa, kInt);
  const ExprId sum = kb.binary(ScalarOp::Add, x, kb.constant(1, kInt), kInt);
  kb.add_store(half, kb.binary(ScalarOp::Div, sum, kb.constant(2, kInt), kInt), false);
  kb.add_store(neg, kb.binary(ScalarOp::Lt, sum, kb.constant(0, kInt), kBool), false);
  std::vector<int32_t> xs = {kMax, 4};
  std::vector<int64_t> halves(2);
  std::vector<uint8_t> negs(2, 7);
  run_kernel(k, {{2}, {bind(xs, {1}), bind(halves, {1}), bind(negs, {1})}, {}});
  CHECK(halves == std::vector<int64_t>{-1073741824, 2});
  CHECK(negs == std::vector<uint8_t>{1, 0});

  // Truncating, floor and remainder division; x / 0 is 0 (an error in eager).
  const std::vector<int32_t> a = {7, -7, 7, -7, 5, kMin}, b = {2, 2, -2, -2, 0, -1};
  CHECK(run_binary<int32_t>(ScalarOp::Div, kInt, kInt, a, b) == std::vector<int32_t>{3, -3, -3, 3, 0, kMin});
  CHECK(run_binary<int32_t>(ScalarOp::FloorDiv, kInt, kInt, a, b) == std::vector<int32_t>{3, -4, -4, 3, 0, kMin});
  CHECK(run_binary<int32_t>(ScalarOp::Remainder, kInt, kInt, a, b) == std::vector<int32_t>{1, 1, -1, -1, 0, 0});
  CHECK(run_binary<int64_t>(ScalarOp::Pow, kLong, kLong, std::vector<int64_t>{2, 2, -1, 3, 0},
                            std::vector<int64_t>{10, -1, -3, 0, 0}) == std::vector<int64_t>{1024, 0, -1, 1, 1});
  CHECK(run_binary<int32_t>(ScalarOp::Pow, kInt, kInt, std::vector<int32_t>{2}, std::vector<int32_t>{31}) ==
        std::vector<int32_t>{kMin});
  CHECK(run_binary<int32_t>(ScalarOp::BitwiseXor, kInt, kInt, std::vector<int32_t>{12, -1},
                            std::vector<int32_t>{10, 5}) == std::vector<int32_t>{6, -6});
}

TEST_CASE("kernel interpreter: float32 rounds after every operation", "[kernel]") {
  // (1 + 1e-8) - 1: 0 in float32, about 1e-8 in float64.
  for (const ScalarType t : {kFloat, kDouble}) {
    Kernel k;
    k.rank = 0;
    KernelBuilder b(&k);
    const uint32_t out = b.add_access({b.add_buffer(kDouble, 0, true), {}});
    const ExprId one = b.constant(1, t);
    const ExprId sum = b.binary(ScalarOp::Add, one, b.constant(1e-8, t), t);
    b.add_store(out, b.binary(ScalarOp::Sub, sum, one, t), false);
    std::vector<double> o(1, -1);
    run_kernel(k, {{}, {bind(o, {})}, {}});
    if (t == kFloat) {
      CHECK(o[0] == 0.0);
    } else {
      CHECK(o[0] == Approx(1e-8).epsilon(1e-6));
    }
  }
  // Division and sqrt in float32 are the float operations exactly.
  const auto q = run_binary<float>(ScalarOp::Div, kFloat, kFloat, std::vector<float>{1, 2}, std::vector<float>{3, 7});
  CHECK(q == std::vector<float>{1.0f / 3.0f, 2.0f / 7.0f});
}

TEST_CASE("kernel interpreter: NaN propagation and comparisons", "[kernel]") {
  const std::vector<float> x = {static_cast<float>(kNaN), 1, 3, -0.0f}, y = {1, static_cast<float>(kNaN), 2, 0};
  const auto mx = run_binary<float>(ScalarOp::Maximum, kFloat, kFloat, x, y);
  CHECK(std::isnan(mx[0]));
  CHECK(std::isnan(mx[1]));
  CHECK(mx[2] == 3);
  const auto mn = run_binary<float>(ScalarOp::Minimum, kFloat, kFloat, x, y);
  CHECK(std::isnan(mn[0]));
  CHECK(std::isnan(mn[1]));
  CHECK(mn[2] == 2);
  CHECK(run_binary<bool>(ScalarOp::Lt, kFloat, kBool, x, y) == std::vector<bool>{false, false, false, false});
  CHECK(run_binary<bool>(ScalarOp::Ne, kFloat, kBool, x, y) == std::vector<bool>{true, true, true, false});
  CHECK(run_binary<bool>(ScalarOp::Ge, kFloat, kBool, x, y) == std::vector<bool>{false, false, true, true});
  CHECK(run_unary<bool>(ScalarOp::IsNan, kFloat, kBool, x) == std::vector<bool>{true, false, false, false});
  CHECK(run_unary<bool>(ScalarOp::IsInf, kDouble, kBool, std::vector<double>{kInf, -kInf, kNaN, 1e308}) ==
        std::vector<bool>{true, true, false, false});
  // Logical ops take truthiness: NaN is true.
  CHECK(run_binary<bool>(ScalarOp::LogicalAnd, kFloat, kBool, x, y) == std::vector<bool>{true, true, true, false});
  CHECK(run_unary<bool>(ScalarOp::LogicalNot, kFloat, kBool, x) == std::vector<bool>{false, false, false, true});
}

TEST_CASE("kernel interpreter: floating operations match eager", "[kernel]") {
  const std::vector<double> x = {-7.5, 7.5, -7.5, 0.5}, y = {2, -2, -2, 0};
  CHECK(run_binary<double>(ScalarOp::Remainder, kDouble, kDouble, x, {2, 2, -2, 3}) ==
        std::vector<double>{0.5, 1.5, -1.5, 0.5});
  const auto fd = run_binary<double>(ScalarOp::FloorDiv, kDouble, kDouble, x, y);
  CHECK(fd[0] == -4);
  CHECK(fd[1] == -4);
  CHECK(fd[2] == 3);
  CHECK(fd[3] == kInf);
  const auto td = run_binary<float>(ScalarOp::TruncDiv, kFloat, kFloat, std::vector<float>{-7.5f, 7.5f},
                                    std::vector<float>{2, 2});
  CHECK(td == std::vector<float>{-3, 3});
  CHECK(run_unary<double>(ScalarOp::Round, kDouble, kDouble, std::vector<double>{2.5, 3.5, -0.5, -2.6}) ==
        std::vector<double>{2, 4, -0.0, -3});
  CHECK(std::signbit(run_unary<double>(ScalarOp::Round, kDouble, kDouble, std::vector<double>{-0.5})[0]));
  CHECK(run_unary<float>(ScalarOp::Sign, kFloat, kFloat, std::vector<float>{-3, 0, 2, static_cast<float>(kNaN)}) ==
        std::vector<float>{-1, 0, 1, 0});

  const auto s = run_unary<float>(ScalarOp::Sigmoid, kFloat, kFloat, std::vector<float>{0, 2, -100});
  CHECK(s[0] == 0.5f);
  CHECK(s[1] == Approx(0.8807970779778823).epsilon(1e-7));
  CHECK(s[2] == static_cast<float>(3.7200759760208356e-44));  // a subnormal, rounded once
  CHECK(run_unary<double>(ScalarOp::Erf, kDouble, kDouble, std::vector<double>{1})[0] ==
        Approx(0.8427007929497149).epsilon(1e-15));
  CHECK(run_unary<float>(ScalarOp::Rsqrt, kFloat, kFloat, std::vector<float>{4})[0] == 0.5f);
  CHECK(run_binary<float>(ScalarOp::Pow, kFloat, kFloat, std::vector<float>{2, 9}, std::vector<float>{-2, 0.5f}) ==
        std::vector<float>{0.25f, 3});
}

TEST_CASE("kernel interpreter: casts, select and constants", "[kernel]") {
  // float -> integer truncates; NaN and out-of-range values give INT_MIN
  // then wrap (what eager's static_cast does on x86-64).
  CHECK(run_unary<int32_t>(ScalarOp::Cast, kFloat, kInt, std::vector<float>{-2.7f, 2.7f, static_cast<float>(kNaN), 3e9f}) ==
        std::vector<int32_t>{-2, 2, std::numeric_limits<int32_t>::min(), std::numeric_limits<int32_t>::min()});
  CHECK(run_unary<uint8_t>(ScalarOp::Cast, kDouble, kByte, std::vector<double>{300.7, -1}) ==
        std::vector<uint8_t>{44, 255});
  CHECK(run_unary<int64_t>(ScalarOp::Cast, kDouble, kLong, std::vector<double>{kInf, -1e30, 1e18}) ==
        std::vector<int64_t>{INT64_MIN, INT64_MIN, 1000000000000000000});
  CHECK(run_unary<bool>(ScalarOp::Cast, kFloat, kBool, std::vector<float>{0.5f, 0, -0.0f, static_cast<float>(kNaN)}) ==
        std::vector<bool>{true, false, false, true});
  // int64 -> float32 rounds once: through double, 2^60 + 2^36 + 1 would
  // become the tie 2^60 + 2^36 and round to even (2^60).
  const int64_t v = (int64_t{1} << 60) + (int64_t{1} << 36) + 1;
  const float direct = static_cast<float>(v);
  CHECK(direct == 1152921642045800448.0f);
  CHECK(run_unary<float>(ScalarOp::Cast, kLong, kFloat, std::vector<int64_t>{v}) == std::vector<float>{direct});
  CHECK(run_unary<int32_t>(ScalarOp::Cast, kLong, kInt, std::vector<int64_t>{(int64_t{1} << 32) + 5}) ==
        std::vector<int32_t>{5});

  // out = x > 0 ? x : 0.5 * x with a float constant.
  Kernel k;
  k.rank = 1;
  KernelBuilder b(&k);
  const uint32_t xa = b.add_access({b.add_buffer(kFloat, 1, false), {}});
  const uint32_t oa = b.add_access({b.add_buffer(kFloat, 1, true), {}});
  const ExprId x = b.load(xa, kFloat);
  const ExprId pos = b.binary(ScalarOp::Gt, x, b.constant(0, kFloat), kBool);
  const ExprId half = b.binary(ScalarOp::Mul, x, b.constant(0.5, kFloat), kFloat);
  b.add_store(oa, b.select(pos, x, half, kFloat), false);
  std::vector<float> xs = {2, -2, 0}, os(3);
  run_kernel(k, {{3}, {bind(xs, {1}), bind(os, {1})}, {}});
  CHECK(os == std::vector<float>{2, -1, 0});
}

TEST_CASE("kernel interpreter: float16 and bfloat16 buffers", "[kernel]") {
  // out (bf16) = in (f16, loaded as f32) * 3; the f32 result rounds to bf16 at the store.
  Kernel k;
  k.rank = 1;
  KernelBuilder b(&k);
  const uint32_t in = b.add_access({b.add_buffer(kHalf, 1, false), {}});
  const uint32_t out = b.add_access({b.add_buffer(kBFloat16, 1, true), {}});
  const uint32_t out16 = b.add_access({b.add_buffer(kHalf, 1, true), {}});
  const ExprId x = b.load(in, kFloat);
  const ExprId y = b.binary(ScalarOp::Mul, x, b.constant(3, kFloat), kFloat);
  b.add_store(out, y, false);
  b.add_store(out16, y, false);
  std::vector<Half> xs = {Half(1.5f), Half(-2.25f), Half(1.0009765625f), Half(65504.0f)};
  std::vector<BFloat16> os(4, BFloat16(0.0f));
  std::vector<Half> os16(4, Half(0.0f));
  run_kernel(k, {{4}, {bind(xs, {1}), bind(os, {1}), bind(os16, {1})}, {}});
  CHECK(static_cast<float>(os[0]) == 4.5f);
  CHECK(static_cast<float>(os[1]) == -6.75f);
  CHECK(static_cast<float>(os[2]) == 3.0f);  // 3.0029296875 has no bf16 neighbour but 3
  CHECK(static_cast<float>(os[3]) == 196608.0f);  // 196512 rounds to 3 * 2^16 in bf16
  CHECK(static_cast<float>(os16[2]) == 3.00390625f);  // the tie 3.0029296875 rounds to even
  CHECK(std::isinf(static_cast<float>(os16[3])));  // 196512 overflows f16
}
