// The unary operators beyond neg/exp/relu: what the operator table does not
// express — PyTorch's dtype rules per operator, exact values at edges
// (integer wrap-around, signed zeros, ties, NaN handling), methods and
// operator~, in-place/out= dtype behaviour, thread-count independence.
#include "test_util.h"
#include "tests/float_constants.h"

#include <cmath>
#include <limits>

using namespace lz;
using lzt::make_tensor;
using lzt::values;

namespace {

using lzt::kInf;
using lzt::kNaN;

// Bit-exact comparison of doubles read back (NaN equals NaN, zeros by sign).
std::string exact(const Tensor& t, const std::vector<double>& expected) {
  const std::vector<double> v = values(t);
  if (v.size() != expected.size()) return "size mismatch";
  for (size_t i = 0; i < v.size(); ++i) {
    const bool same = (std::isnan(v[i]) && std::isnan(expected[i])) ||
                      (v[i] == expected[i] && std::signbit(v[i]) == std::signbit(expected[i]));
    if (!same) return "element " + std::to_string(i) + ": got " + lzt::fmt(v[i]) + ", expected " + lzt::fmt(expected[i]);
  }
  return "";
}

}  // namespace

TEST_CASE("floating unary functions promote integral and bool inputs to float32", "[eager][unary]") {
  const ScalarType dtype = GENERATE(kBool, kUInt8, kInt32, kInt64);
  const Tensor x = make_tensor({0, 1, 1}, dtype);
  INFO(dtype);
  for (const Tensor& r : {lz::reciprocal(x), lz::exp2(x), lz::expm1(x), lz::log(x), lz::log2(x), lz::log1p(x),
                          lz::sqrt(x), lz::rsqrt(x), lz::sin(x), lz::cos(x), lz::tan(x), lz::tanh(x),
                          lz::sigmoid(x), lz::erf(x)}) {
    CHECK(r.dtype() == kFloat32);
  }
  CHECK_VALUES(lz::sigmoid(x), std::vector<double>{0.5, 1 / (1 + std::exp(-1.0)), 1 / (1 + std::exp(-1.0))});
  CHECK_VALUES(lz::log(x), std::vector<double>{-kInf, 0, 0});
  CHECK_VALUES(lz::reciprocal(x), std::vector<double>{kInf, 1, 1});
}

TEST_CASE("sign and magnitude keep integer dtypes", "[eager][unary]") {
  SECTION("abs") {
    CHECK(lzt::int_values(lz::abs(lz::tensor({-3, 0, 7, INT32_MIN}, kInt32))) ==
          std::vector<int64_t>{3, 0, 7, INT32_MIN});  // INT32_MIN wraps, as in PyTorch
    CHECK(lzt::int_values(lz::abs(lz::tensor({0, 200, 255}, kUInt8))) == std::vector<int64_t>{0, 200, 255});
    CHECK(exact(lz::abs(make_tensor({-0.0, -kInf, kNaN, -2.5}, kFloat32)), {0.0, kInf, kNaN, 2.5}) == "");
    CHECK(lz::abs(lz::tensor({-1}, kInt64)).dtype() == kInt64);
    REQUIRE_THROWS_AS(lz::abs(lz::tensor({true})), TypeError);
    REQUIRE_THROWS_WITH(lz::abs(lz::tensor({true})), Catch::Contains("[abs] self") && Catch::Contains("bool"));
  }
  SECTION("sign") {
    CHECK(lzt::int_values(lz::sign(lz::tensor({-5, 0, 9}, kInt64))) == std::vector<int64_t>{-1, 0, 1});
    CHECK(lzt::int_values(lz::sign(lz::tensor({0, 3}, kUInt8))) == std::vector<int64_t>{0, 1});
    const Tensor b = lz::sign(lz::tensor({true, false}));
    CHECK(b.dtype() == kBool);
    CHECK(lzt::int_values(b) == std::vector<int64_t>{1, 0});
    // PyTorch: sign(NaN) == 0 and sign(-0.0) == +0.
    const ScalarType dtype = GENERATE(from_range(lzt::kFloatDtypes));
    CHECK(exact(lz::sign(make_tensor({-2.5, -0.0, 0.0, 3.0, kNaN, -kInf, kInf}, dtype)),
                {-1, 0, 0, 1, 0, -1, 1}) == "");
  }
  SECTION("square") {
    const Tensor s = lz::square(lz::tensor({true, false}));
    CHECK(s.dtype() == kInt64);  // pow(bool, 2) promotes to int64
    CHECK(lzt::int_values(s) == std::vector<int64_t>{1, 0});
    CHECK(lzt::int_values(lz::square(lz::tensor({16, 255}, kUInt8))) == std::vector<int64_t>{0, 1});  // wraps
    CHECK(lzt::int_values(lz::square(lz::tensor({-7, 46341}, kInt32))) ==
          std::vector<int64_t>{49, static_cast<int32_t>(int64_t{46341} * 46341 - (int64_t{1} << 32))});
    CHECK_VALUES(lz::square(make_tensor({-1.5, 3}, kFloat16)), std::vector<double>{2.25, 9});
  }
}

TEST_CASE("rounding operators", "[eager][unary]") {
  const ScalarType dtype = GENERATE(from_range(lzt::kFloatDtypes));
  INFO(dtype);
  const Tensor x = make_tensor({-2.5, -1.5, -0.5, -0.25, -0.0, 0.25, 0.5, 1.5, 2.5, 3.75, kInf, -kInf, kNaN}, dtype);
  // round: half to even; the sign of zero is kept (round(-0.25) == -0.0).
  CHECK(exact(lz::round(x), {-2, -2, -0.0, -0.0, -0.0, 0, 0, 2, 2, 4, kInf, -kInf, kNaN}) == "");
  CHECK(exact(lz::floor(x), {-3, -2, -1, -1, -0.0, 0, 0, 1, 2, 3, kInf, -kInf, kNaN}) == "");
  CHECK(exact(lz::ceil(x), {-2, -1, -0.0, -0.0, -0.0, 1, 1, 2, 3, 4, kInf, -kInf, kNaN}) == "");
  CHECK(exact(lz::trunc(x), {-2, -1, -0.0, -0.0, -0.0, 0, 0, 1, 2, 3, kInf, -kInf, kNaN}) == "");
  for (const Tensor& r : {lz::round(x), lz::floor(x), lz::ceil(x), lz::trunc(x)}) CHECK(r.dtype() == dtype);
}

TEST_CASE("rounding is the identity on integers", "[eager][unary]") {
  const int64_t big = (int64_t{1} << 53) + 1;  // not a double: must not go through float
  const Tensor x = lz::tensor({-big, int64_t{-3}, int64_t{0}, big});
  for (const Tensor& r : {lz::round(x), lz::floor(x), lz::ceil(x), lz::trunc(x)}) {
    CHECK(r.dtype() == kInt64);
    CHECK(lzt::int_values(r) == std::vector<int64_t>{-big, -3, 0, big});
  }
  CHECK(lzt::int_values(lz::floor(lz::tensor({0, 255}, kUInt8))) == std::vector<int64_t>{0, 255});
  for (auto f : {+[](const Tensor& t) { return lz::floor(t); }, +[](const Tensor& t) { return lz::round(t); }}) {
    REQUIRE_THROWS_AS(f(lz::tensor({true})), TypeError);
  }
  // Large floats are already integers.
  CHECK(exact(lz::round(make_tensor({8388609.0, -16777217.0}, kFloat64)), {8388609.0, -16777217.0}) == "");
  CHECK(exact(lz::floor(make_tensor({4503599627370497.0}, kFloat64)), {4503599627370497.0}) == "");
}

TEST_CASE("logical_not, isnan and isinf give bool tensors", "[eager][unary]") {
  const ScalarType dtype = GENERATE(from_range(lzt::kAllDtypes));
  INFO(dtype);
  const Tensor x = make_tensor({0, 1, 0, 1}, dtype);
  const Tensor n = lz::logical_not(x);
  CHECK(n.dtype() == kBool);
  CHECK(lzt::int_values(n) == std::vector<int64_t>{1, 0, 1, 0});
  CHECK(lz::isnan(x).dtype() == kBool);
  CHECK(lzt::int_values(lz::isnan(x)) == std::vector<int64_t>{0, 0, 0, 0});
  CHECK(lzt::int_values(lz::isinf(x)) == std::vector<int64_t>{0, 0, 0, 0});
  if (lzt::is_float(dtype)) {
    const Tensor s = make_tensor({kNaN, kInf, -kInf, -0.0, 65504}, dtype);
    CHECK(lzt::int_values(lz::isnan(s)) == std::vector<int64_t>{1, 0, 0, 0, 0});
    CHECK(lzt::int_values(lz::isinf(s)) == std::vector<int64_t>{0, 1, 1, 0, 0});
    CHECK(lzt::int_values(lz::logical_not(s)) == std::vector<int64_t>{0, 0, 0, 1, 0});  // NaN is true
  }
}

TEST_CASE("logical_not_ keeps self's dtype", "[eager][unary][inplace]") {
  Tensor f = make_tensor({0, 2.5, -1, 0}, kFloat32);
  f.logical_not_();
  CHECK(f.dtype() == kFloat32);
  CHECK(exact(f, {1, 0, 0, 1}) == "");
  Tensor i = lz::tensor({0, 7}, kInt32);
  lz::logical_not_(i);
  CHECK(lzt::int_values(i) == std::vector<int64_t>{1, 0});
}

TEST_CASE("bitwise_not and operator~", "[eager][unary]") {
  CHECK(lzt::int_values(~lz::tensor({0, 5, -1}, kInt32)) == std::vector<int64_t>{-1, -6, 0});
  CHECK(lzt::int_values(lz::bitwise_not(lz::tensor({0, 5, 255}, kUInt8))) == std::vector<int64_t>{255, 250, 0});
  CHECK(lzt::int_values(lz::tensor({INT64_MIN, int64_t{0}}).bitwise_not()) == std::vector<int64_t>{INT64_MAX, -1});
  const Tensor b = ~lz::tensor({true, false});
  CHECK(b.dtype() == kBool);
  CHECK(lzt::int_values(b) == std::vector<int64_t>{0, 1});
  Tensor m = lz::tensor({true, false, true});
  m.bitwise_not_();
  CHECK(lzt::int_values(m) == std::vector<int64_t>{0, 1, 0});
  const ScalarType dtype = GENERATE(from_range(lzt::kFloatDtypes));
  REQUIRE_THROWS_AS(~lz::zeros({2}, dtype), TypeError);
  REQUIRE_THROWS_WITH(lz::bitwise_not(lz::zeros({2}, dtype)),
                      Catch::Contains("[bitwise_not] self") && Catch::Contains(std::string(lz::to_string(dtype))));
}

TEST_CASE("gelu and silu", "[eager][unary]") {
  SECTION("values") {
    const Tensor x = make_tensor({-3, -1, 0, 1, 2.5}, kFloat64);
    std::vector<double> erf_form, tanh_form, silu;
    for (double v : values(x)) {
      erf_form.push_back(0.5 * v * (1 + std::erf(v / std::sqrt(2.0))));
      tanh_form.push_back(0.5 * v * (1 + std::tanh(std::sqrt(2 / M_PI) * (v + 0.044715 * v * v * v))));
      silu.push_back(v / (1 + std::exp(-v)));
    }
    CHECK_VALUES_TOL(lz::gelu(x), erf_form, 1e-12, 1e-300);
    CHECK_VALUES_TOL(lz::gelu(x, "tanh"), tanh_form, 1e-12, 1e-300);
    CHECK_VALUES_TOL(lz::silu(x), silu, 1e-12, 1e-300);
    // The two gelu forms differ (by ~1e-4 near x = -1... 2.5).
    CHECK(lzt::mismatch(lz::gelu(x), tanh_form, 1e-6, 0) != "");
    // float32 against the same float64 values.
    const Tensor xf = make_tensor(values(x), kFloat32);
    CHECK_VALUES_TOL(lz::gelu(xf), erf_form, 1e-6, 1e-7);
    CHECK_VALUES_TOL(lz::gelu(xf, "tanh"), tanh_form, 1e-6, 1e-7);
    CHECK_VALUES_TOL(lz::silu(xf), silu, 1e-6, 1e-7);
  }
  SECTION("the negative tail keeps relative accuracy in float32") {
    // 1 + erf(x/sqrt 2) cancels for x << 0; Lazuli computes erfc instead.
    const Tensor x = make_tensor({-6, -8}, kFloat32);
    std::vector<double> ref;
    for (double v : values(x)) ref.push_back(0.5 * v * std::erfc(-v / std::sqrt(2.0)));
    CHECK_VALUES_TOL(lz::gelu(x), ref, 1e-6, 0);
  }
  SECTION("in-place and out=") {
    Tensor x = make_tensor({-1, 0.5}, kFloat32);
    const std::vector<double> ref{-1 / (1 + std::exp(1.0)), 0.5 / (1 + std::exp(-0.5))};
    lz::silu_(x);
    CHECK_VALUES(x, ref);
    Tensor y = make_tensor({1.0}, kBFloat16);
    lz::gelu_(y, "tanh");
    CHECK_VALUES(y, std::vector<double>{0.5 * (1 + std::tanh(std::sqrt(2 / M_PI) * 1.044715))});
    Tensor out = lz::empty({0}, kFloat64);
    lz::gelu_out(out, make_tensor({1.0}, kFloat32));  // float32 result cast into float64
    CHECK(out.dtype() == kFloat64);
    CHECK_VALUES_TOL(out, std::vector<double>{0.5 * (1 + std::erf(1 / std::sqrt(2.0)))}, 1e-6, 0);
  }
  SECTION("errors") {
    const ScalarType dtype = GENERATE(kBool, kUInt8, kInt32, kInt64);
    REQUIRE_THROWS_AS(lz::gelu(lz::zeros({2}, dtype)), TypeError);
    REQUIRE_THROWS_WITH(lz::silu(lz::zeros({2}, dtype)),
                        Catch::Contains("[silu] self") && Catch::Contains(std::string(lz::to_string(dtype))));
    REQUIRE_THROWS_AS(lz::gelu(lz::zeros({2}), "fast"), ValueError);
    REQUIRE_THROWS_WITH(lz::gelu(lz::zeros({2}), "Tanh"), Catch::Contains("[gelu] approximate") && Catch::Contains("'Tanh'"));
    Tensor z = lz::zeros({2});
    REQUIRE_THROWS_AS(lz::gelu_(z, "erf"), ValueError);
  }
}

TEST_CASE("in-place floating functions on integer tensors", "[eager][unary][inplace]") {
  Tensor x = lz::tensor({1, 4}, kInt32);
  REQUIRE_THROWS_AS(x.sqrt_(), TypeError);
  REQUIRE_THROWS_WITH(x.sigmoid_(), Catch::Contains("[sigmoid_") && Catch::Contains("can't be cast"));
  CHECK(lzt::int_values(x) == std::vector<int64_t>{1, 4});
  // Integer-valued operators work in place.
  x.square_();
  x.neg_();
  x.abs_();
  CHECK(lzt::int_values(x) == std::vector<int64_t>{1, 16});
  Tensor f = make_tensor({4, 0.25}, kFloat16);
  f.sqrt_().reciprocal_();
  CHECK_VALUES(f, std::vector<double>{0.5, 2});
}

TEST_CASE("isnan and isinf have out= but no in-place form", "[eager][unary][out]") {
  Tensor out = lz::empty({0}, kBool);
  lz::isnan_out(out, make_tensor({kNaN, 1}, kFloat32));
  CHECK(lzt::int_values(out) == std::vector<int64_t>{1, 0});
  Tensor fout = lz::empty({2}, kFloat32);  // bool results cast into float
  lz::isinf_out(fout, make_tensor({-kInf, 1}, kFloat64));
  CHECK(exact(fout, {1, 0}) == "");
  // A wrongly sized out is resized, with a warning (as libtorch).
  std::vector<std::string> warnings;
  const lz::WarningHandlerGuard capture([&](std::string_view m) { warnings.emplace_back(m); });
  Tensor wrong = lz::empty({3}, kBool);
  lz::isnan_out(wrong, lz::zeros({2}));
  CHECK(lzt::int_values(wrong) == std::vector<int64_t>{0, 0});
  CHECK(warnings.size() == 1);
}

TEST_CASE("Tensor methods of the unary operators", "[eager][unary]") {
  const Tensor x = make_tensor({0.25, 1, 2}, kFloat64);
  CHECK_VALUES(x.sqrt(), std::vector<double>{0.5, 1, std::sqrt(2.0)});
  CHECK_VALUES(x.rsqrt(), std::vector<double>{2, 1, 1 / std::sqrt(2.0)});
  CHECK_VALUES(x.log2(), std::vector<double>{-2, 0, 1});
  CHECK_VALUES(x.exp2(), std::vector<double>{std::exp2(0.25), 2, 4});
  CHECK_VALUES(x.expm1(), std::vector<double>{std::expm1(0.25), std::expm1(1.0), std::expm1(2.0)});
  CHECK_VALUES(x.log1p(), std::vector<double>{std::log1p(0.25), std::log(2.0), std::log(3.0)});
  CHECK_VALUES(x.sin(), std::vector<double>{std::sin(0.25), std::sin(1.0), std::sin(2.0)});
  CHECK_VALUES(x.cos(), std::vector<double>{std::cos(0.25), std::cos(1.0), std::cos(2.0)});
  CHECK_VALUES(x.tan(), std::vector<double>{std::tan(0.25), std::tan(1.0), std::tan(2.0)});
  CHECK_VALUES(x.tanh(), std::vector<double>{std::tanh(0.25), std::tanh(1.0), std::tanh(2.0)});
  CHECK_VALUES(x.erf(), std::vector<double>{std::erf(0.25), std::erf(1.0), std::erf(2.0)});
  CHECK_VALUES(x.reciprocal(), std::vector<double>{4, 1, 0.5});
  CHECK_VALUES(x.square(), std::vector<double>{0.0625, 1, 4});
  CHECK_VALUES(x.log(), std::vector<double>{std::log(0.25), 0, std::log(2.0)});
  CHECK_VALUES(x.sigmoid(), std::vector<double>{1 / (1 + std::exp(-0.25)), 1 / (1 + std::exp(-1.0)),
                                                1 / (1 + std::exp(-2.0))});
  CHECK_VALUES(x.neg().abs().sign(), std::vector<double>{1, 1, 1});
  CHECK_VALUES(x.floor(), std::vector<double>{0, 1, 2});
  CHECK_VALUES(x.ceil(), std::vector<double>{1, 1, 2});
  CHECK_VALUES(x.round(), std::vector<double>{0, 1, 2});
  CHECK_VALUES(x.trunc(), std::vector<double>{0, 1, 2});
  CHECK(lzt::int_values(x.isnan()) == std::vector<int64_t>{0, 0, 0});
  CHECK(lzt::int_values(x.isinf()) == std::vector<int64_t>{0, 0, 0});
  CHECK(lzt::int_values(x.logical_not()) == std::vector<int64_t>{0, 0, 0});
  Tensor y = x.clone();
  y.exp2_().log2_();
  CHECK_VALUES(y, values(x));
  y.sin_().cos_().tan_().tanh_().erf_().sigmoid_().expm1_().log1p_().rsqrt_().exp_().log_();
  CHECK(y.dtype() == kFloat64);
  y.floor_().ceil_().round_().trunc_().sign_().relu_();
  CHECK_VALUES(y, std::vector<double>{1, 1, 1});
}

TEST_CASE("unary kernels do not depend on the thread count", "[eager][unary]") {
  // Large enough to be split across threads, with a non-contiguous view.
  const Tensor base = lzt::sample_tensor({700, 300}, kFloat32, 5);
  const Tensor x = base.t();
  const int saved = lz::get_num_threads();
  lz::set_num_threads(1);
  const Tensor a = lz::gelu(x, "tanh"), b = lz::sin(x), c = lz::log1p(lz::abs(x));
  lz::set_num_threads(std::max(saved, 2));
  const Tensor a2 = lz::gelu(x, "tanh"), b2 = lz::sin(x), c2 = lz::log1p(lz::abs(x));
  lz::set_num_threads(saved);
  CHECK(lzt::same_values(a, a2) == "");
  CHECK(lzt::same_values(b, b2) == "");
  CHECK(lzt::same_values(c, c2) == "");
}

TEST_CASE("16-bit floats go through the float32 functions", "[eager][unary]") {
  // exp(11.5) = 98715.8 overflows float16 (max 65504) but not bfloat16.
  CHECK(exact(lz::exp(make_tensor({11.5, -20}, kFloat16)), {kInf, 0}) == "");
  CHECK_VALUES(lz::exp(make_tensor({11.5}, kBFloat16)), std::vector<double>{std::exp(11.5)});
  // log of the smallest float16 subnormal (2^-24).
  CHECK_VALUES(lz::log(make_tensor({std::ldexp(1.0, -24)}, kFloat16)), std::vector<double>{-24 * std::log(2.0)});
  CHECK_VALUES(lz::tanh(make_tensor({0.5, -3}, kBFloat16)), std::vector<double>{std::tanh(0.5), std::tanh(-3.0)});
}
