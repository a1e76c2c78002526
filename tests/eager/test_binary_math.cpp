// div with rounding modes, pow, remainder, atan2, maximum and minimum: the
// semantics the operator table cannot express (signs, special values,
// integer corner cases, errors, operator names and schemas).
#include <cmath>
#include <limits>

#include "core/dispatcher.h"
#include "test_util.h"
#include "tests/float_constants.h"

using namespace lz;
using lzt::int_values;
using lzt::make_tensor;
using lzt::values;

namespace {
using lzt::kNaN;
using lzt::kInf;

// Equal values with equal signs (so -0 differs from 0); any NaN matches any NaN.
bool same_bits(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}
}  // namespace

TEST_CASE("div trunc and floor on integers follow C and Python", "[eager][binary][div_mode]") {
  const ScalarType dt = GENERATE(kInt32, kInt64);
  INFO(dt);
  const Tensor a = make_tensor({7, -7, 7, -7, 6, -6, 0, 1}, dt);
  const Tensor b = make_tensor({2, 2, -2, -2, 3, 3, 5, -3}, dt);
  const Tensor t = lz::div(a, b, "trunc");
  CHECK(t.dtype() == dt);
  CHECK(int_values(t) == std::vector<int64_t>{3, -3, -3, 3, 2, -2, 0, 0});
  const Tensor f = lz::div(a, b, "floor");
  CHECK(f.dtype() == dt);
  CHECK(int_values(f) == std::vector<int64_t>{3, -4, -4, 3, 2, -2, 0, -1});
  // The default is true division, also with an explicit nullopt.
  const Tensor q = lz::div(a, b, std::nullopt);
  CHECK(q.dtype() == kFloat32);
  CHECK_VALUES(q, std::vector<double>{3.5, -3.5, -3.5, 3.5, 2, -2, 0, -1.0 / 3});
  // Methods, in place and out=.
  CHECK(int_values(a.div(b, "floor")) == int_values(f));
  Tensor c = a.clone();
  c.div_(b, "floor");
  CHECK(int_values(c) == int_values(f));
  Tensor out = lz::empty({0}, dt);
  lz::div_out(out, a, b, "trunc");
  CHECK(int_values(out) == int_values(t));
  // Scalar divisors.
  CHECK(int_values(lz::div(a, 2, "floor")) == std::vector<int64_t>{3, -4, 3, -4, 3, -3, 0, 0});
  CHECK(int_values(lz::div(a, -2, "trunc")) == std::vector<int64_t>{-3, 3, -3, 3, -3, 3, 0, 0});
  Tensor d = a.clone();
  d.div_(4, "floor");
  CHECK(int_values(d) == std::vector<int64_t>{1, -2, 1, -2, 1, -2, 0, 0});
  // A float Scalar makes the result floating.
  const Tensor fl = lz::div(a, 2.0, "floor");
  CHECK(fl.dtype() == kFloat32);
  CHECK_VALUES(fl, std::vector<double>{3, -4, 3, -4, 3, -3, 0, 0});
}

TEST_CASE("div with a rounding mode keeps uint8 and wraps negative divisors", "[eager][binary][div_mode]") {
  const Tensor a = make_tensor({200, 7, 255}, kUInt8);
  CHECK(int_values(lz::div(a, make_tensor({3, 2, 16}, kUInt8), "floor")) == std::vector<int64_t>{66, 3, 15});
  // -1 is 255 in uint8 (type promotion keeps uint8): 200 // 255 == 0, 255 // 255 == 1.
  const Tensor r = lz::div(a, -1, "trunc");
  CHECK(r.dtype() == kUInt8);
  CHECK(int_values(r) == std::vector<int64_t>{0, 0, 1});
}

TEST_CASE("integer division of the most negative value by -1 wraps", "[eager][binary][div_mode]") {
  const int64_t lo = std::numeric_limits<int64_t>::min();
  const Tensor a = lz::tensor({lo, int64_t{5}});
  const Tensor b = lz::tensor({int64_t{-1}, int64_t{-1}});
  CHECK(int_values(lz::div(a, b, "trunc")) == std::vector<int64_t>{lo, -5});
  CHECK(int_values(lz::div(a, b, "floor")) == std::vector<int64_t>{lo, -5});
  CHECK(int_values(lz::remainder(a, b)) == std::vector<int64_t>{0, 0});
  const Tensor i = lz::tensor({std::numeric_limits<int32_t>::min()}, kInt32);
  CHECK(int_values(lz::div(i, -1, "floor")) == std::vector<int64_t>{std::numeric_limits<int32_t>::min()});
}

TEST_CASE("div trunc and floor on floats", "[eager][binary][div_mode]") {
  const ScalarType dt = GENERATE(kFloat16, kBFloat16, kFloat32, kFloat64);
  INFO(dt);
  const Tensor a = make_tensor({7, -7, 7.5, -0.5, 0.5, 0, 1, -1, 0}, dt);
  const Tensor b = make_tensor({2, 2, -2, 4, -4, -3, 0, 0, 0}, dt);
  const std::vector<double> t = values(lz::div(a, b, "trunc"));
  const std::vector<double> f = values(lz::div(a, b, "floor"));
  const std::vector<double> et = {3, -3, -3, -0.0, -0.0, -0.0, kInf, -kInf, kNaN};
  const std::vector<double> ef = {3, -4, -4, -1, -1, -0.0, kInf, -kInf, kNaN};
  for (size_t i = 0; i < et.size(); ++i) {
    INFO("element " << i << ": trunc " << t[i] << " floor " << f[i]);
    CHECK(same_bits(t[i], et[i]));
    CHECK(same_bits(f[i], ef[i]));
  }
  // Quotients that round up to an integer in the dtype still floor correctly.
  CHECK_VALUES(lz::div(make_tensor({1.0}, dt), make_tensor({0.1}, dt), "floor"),
               std::vector<double>{dt == kFloat64 ? 9.0 : std::floor(lzt::round_to(dt, 1.0) / lzt::round_to(dt, 0.1))});
}

TEST_CASE("div rounding-mode errors", "[eager][binary][div_mode][errors]") {
  const Tensor a = lz::tensor({1, 2, 3});
  REQUIRE_THROWS_AS(lz::div(a, a, "round"), ValueError);
  REQUIRE_THROWS_WITH(lz::div(a, a, "round"), Catch::Contains("[div] rounding_mode") && Catch::Contains("round"));
  CHECK_THROWS_AS(lz::div(a, 2, "Floor"), ValueError);
  CHECK_THROWS_AS(lz::div(a, a, ""), ValueError);
  // Integer division by zero, for every integral dtype, Tensor and Scalar divisors.
  for (ScalarType dt : {kUInt8, kInt32, kInt64}) {
    INFO(dt);
    const Tensor x = make_tensor({4, 5, 6}, dt);
    const Tensor z = make_tensor({1, 0, 2}, dt);
    REQUIRE_THROWS_AS(lz::div(x, z, "trunc"), ValueError);
    REQUIRE_THROWS_WITH(lz::div(x, z, "floor"), Catch::Contains("ZeroDivisionError"));
    CHECK_THROWS_AS(lz::div(x, 0, "floor"), ValueError);
    CHECK_THROWS_AS(lz::remainder(x, z), ValueError);
    CHECK_THROWS_AS(lz::remainder(x, 0), ValueError);
    // In place: nothing is written before the error.
    Tensor c = x.clone();
    CHECK_THROWS_AS(c.div_(z, "trunc"), ValueError);
    CHECK_THROWS_AS(c.remainder_(z), ValueError);
    CHECK(int_values(c) == std::vector<int64_t>{4, 5, 6});
    // A zero divisor in a broadcast or transposed tensor is found too.
    CHECK_THROWS_AS(lz::div(make_tensor({1, 2, 3, 4}, {2, 2}, dt), make_tensor({1, 0, 1, 1}, {2, 2}, dt).t(), "floor"),
                    ValueError);
    CHECK_THROWS_AS(lz::div(x, make_tensor({0}, {1}, dt).expand({3}), "trunc"), ValueError);
    // ... but an empty result divides nothing.
    CHECK(lz::div(make_tensor({}, {0}, dt), make_tensor({0}, {1}, dt), "trunc").numel() == 0);
  }
  // Bool has no rounding division (true division of bools is fine).
  const Tensor bt = lz::tensor({true, false});
  REQUIRE_THROWS_AS(lz::div(bt, bt, "floor"), TypeError);
  CHECK(lz::div(bt, lz::tensor({true, true})).dtype() == kFloat32);
  // A float divisor of zero is not an error.
  CHECK_VALUES(lz::div(lz::tensor({1.0f}), lz::tensor({0.0f}), "trunc"), std::vector<double>{kInf});
}

TEST_CASE("pow of integers", "[eager][binary][pow]") {
  const ScalarType dt = GENERATE(kInt32, kInt64);
  INFO(dt);
  const Tensor base = make_tensor({2, -3, 0, 1, -1, -1, 2, 0, 5}, dt);
  const Tensor expo = make_tensor({10, 3, 0, -5, -3, -4, -1, -2, 1}, dt);
  const Tensor r = lz::pow(base, expo);
  CHECK(r.dtype() == dt);
  // 0 ** 0 == 1; negative exponents: 1 / base ** |e| truncated, 0 ** -2 == 0 (no trap).
  CHECK(int_values(r) == std::vector<int64_t>{1024, -27, 1, 1, -1, 1, 0, 0, 5});
  // Overflow wraps like repeated multiplication in the dtype.
  const Tensor big = lz::pow(make_tensor({3}, dt), make_tensor({40}, dt));
  uint64_t p = 1;
  for (int i = 0; i < 40; ++i) p *= 3;
  const int64_t wrapped = dt == kInt64 ? static_cast<int64_t>(p) : static_cast<int32_t>(static_cast<uint32_t>(p));
  CHECK(int_values(big) == std::vector<int64_t>{wrapped});
  // Scalar exponents.
  CHECK(int_values(lz::pow(base, 2)) == std::vector<int64_t>{4, 9, 0, 1, 1, 1, 4, 0, 25});
  CHECK(int_values(lz::pow(base, 3)) == std::vector<int64_t>{8, -27, 0, 1, -1, -1, 8, 0, 125});
  CHECK(int_values(lz::pow(base, 0)) == std::vector<int64_t>(9, 1));
  CHECK(int_values(lz::pow(base, 5)) == std::vector<int64_t>{32, -243, 0, 1, -1, -1, 32, 0, 3125});
  // A float exponent makes the result float32.
  const Tensor h = lz::pow(make_tensor({4, 9}, dt), 0.5);
  CHECK(h.dtype() == kFloat32);
  CHECK_VALUES(h, std::vector<double>{2, 3});
  // Negative integer Scalar exponents are an error, as in PyTorch.
  REQUIRE_THROWS_AS(lz::pow(base, -1), ValueError);
  REQUIRE_THROWS_WITH(lz::pow(base, -2), Catch::Contains("[pow]") && Catch::Contains("negative integer powers"));
  Tensor c = base.clone();
  CHECK_THROWS_AS(c.pow_(-1), ValueError);
  Tensor out = lz::empty({0}, dt);
  CHECK_THROWS_AS(lz::pow_out(out, base, -3), ValueError);
  // ... but a negative float exponent is fine.
  CHECK_VALUES(lz::pow(make_tensor({2, 4}, dt), -1.0), std::vector<double>{0.5, 0.25});
}

TEST_CASE("pow of floats: special exponents and values", "[eager][binary][pow]") {
  const ScalarType dt = GENERATE(kFloat16, kBFloat16, kFloat32, kFloat64);
  INFO(dt);
  const std::vector<double> xs = {4, 0.25, -2, 0, -0.0, kInf, -kInf, kNaN, 1};
  const Tensor x = make_tensor(xs, dt);
  for (double e : {2.0, 3.0, 0.5, -0.5, -1.0, -2.0, 1.5, 0.0, 1.0, -3.0}) {
    INFO("exponent " << e);
    // A scalar exponent of 0.5 / -0.5 is sqrt / 1 / sqrt, as in PyTorch
    // (so (-inf) ** 0.5 is NaN and (-0) ** -0.5 is -inf, where C's pow
    // gives inf and inf); the other powers agree with pow.
    std::vector<double> expected, scalar_expected;
    for (double v : xs) {
      expected.push_back(std::pow(v, e));
      scalar_expected.push_back(e == 0.5 ? std::sqrt(v) : e == -0.5 ? 1 / std::sqrt(v) : std::pow(v, e));
    }
    const Tensor r = lz::pow(x, e);
    CHECK(r.dtype() == dt);
    CHECK_VALUES(r, scalar_expected);
    // The exponent as a tensor, 0-dim or not, takes the general path
    // (libtorch's CPU kernel too: only a number exponent is special-cased).
    CHECK_VALUES(lz::pow(x, make_tensor({e}, {}, dt)), expected);
    CHECK_VALUES(lz::pow(x, make_tensor(std::vector<double>(xs.size(), e), dt)), expected);
  }
  // pow(x, 0) is 1 even for NaN; pow(1, y) is 1 even for NaN.
  CHECK_VALUES(lz::pow(make_tensor({kNaN}, dt), 0), std::vector<double>{1});
  CHECK_VALUES(lz::pow(1, make_tensor({kNaN, kInf}, dt)), std::vector<double>{1, 1});
  // Scalar base.
  const Tensor e = make_tensor({-1, 0, 0.5, 3}, dt);
  CHECK_VALUES(lz::pow(2, e), std::vector<double>{0.5, 1, std::sqrt(2.0), 8});
  CHECK(lz::pow(2, e).dtype() == dt);
  CHECK_VALUES(lz::pow(-8.0, make_tensor({1.0 / 3}, dt)), std::vector<double>{kNaN});
}

TEST_CASE("pow type promotion and Scalar bases", "[eager][binary][pow][promotion]") {
  const Tensor i = lz::tensor({1, 2, 3}, kInt32);
  CHECK(lz::pow(i, 2).dtype() == kInt32);
  CHECK(lz::pow(i, 2.0).dtype() == kFloat32);
  CHECK(lz::pow(i, lz::tensor({2.0}, kFloat64)).dtype() == kFloat64);
  CHECK(lz::pow(2, i).dtype() == kInt32);
  CHECK(int_values(lz::pow(2, i)) == std::vector<int64_t>{2, 4, 8});
  CHECK(lz::pow(2.5, i).dtype() == kFloat32);
  CHECK_VALUES(lz::pow(0.5, i), std::vector<double>{0.5, 0.25, 0.125});
  // A bool tensor with an integer exponent is int64.
  const Tensor b = lz::tensor({true, false});
  CHECK(lz::pow(b, 2).dtype() == kInt64);
  CHECK(int_values(lz::pow(b, 2)) == std::vector<int64_t>{1, 0});
  // bool ** bool has no kernel.
  REQUIRE_THROWS_AS(lz::pow(b, b), TypeError);
  REQUIRE_THROWS_WITH(lz::pow(b, b), Catch::Contains("[pow]") && Catch::Contains("bool"));
  CHECK_THROWS_AS(lz::pow(b, true), TypeError);
  // In place: the result must fit self.
  Tensor c = i.clone();
  CHECK_THROWS_AS(c.pow_(0.5), TypeError);
  c.pow_(lz::tensor({2, 2, 2}, kInt64));
  CHECK(int_values(c) == std::vector<int64_t>{1, 4, 9});
  Tensor f = lz::tensor({1.0f, 4.0f});
  f.pow_(0.5);
  CHECK_VALUES(f, std::vector<double>{1, 2});
  f.pow_(lz::tensor({3.0f, 2.0f}));
  CHECK_VALUES(f, std::vector<double>{1, 4});
  Tensor out = lz::empty({0}, kFloat64);
  lz::pow_out(out, 3, lz::tensor({2.0f}));
  CHECK(out.dtype() == kFloat64);
  CHECK_VALUES(out, std::vector<double>{9});
}

TEST_CASE("remainder takes the sign of the divisor", "[eager][binary][remainder]") {
  SECTION("integers") {
    const ScalarType dt = GENERATE(kInt32, kInt64);
    const Tensor a = make_tensor({7, -7, 7, -7, 6, 0, -1}, dt);
    const Tensor b = make_tensor({3, 3, -3, -3, 3, -2, 5}, dt);
    const Tensor r = lz::remainder(a, b);
    CHECK(r.dtype() == dt);
    CHECK(int_values(r) == std::vector<int64_t>{1, 2, -2, -1, 0, 0, 4});
    CHECK(int_values(a % b) == int_values(r));
    CHECK(int_values(a % 4) == std::vector<int64_t>{3, 1, 3, 1, 2, 0, 3});
    CHECK(int_values(a % -4) == std::vector<int64_t>{-1, -3, -1, -3, -2, 0, -1});
    CHECK(int_values(lz::remainder(10, b)) == std::vector<int64_t>{1, 1, -2, -2, 1, 0, 0});
  }
  SECTION("floats") {
    const ScalarType dt = GENERATE(kFloat16, kBFloat16, kFloat32, kFloat64);
    INFO(dt);
    const Tensor a = make_tensor({5.5, -5.5, 5.5, -5.5, 1, kInf, 2, 3, -0.0, 4}, dt);
    const Tensor b = make_tensor({2, 2, -2, -2, 0, 2, kInf, -kInf, 2, -2}, dt);
    const std::vector<double> r = values(lz::remainder(a, b));
    const std::vector<double> e = {1.5, 0.5, -0.5, -1.5, kNaN, kNaN, 2, -kInf, -0.0, -0.0};
    for (size_t i = 0; i < e.size(); ++i) {
      INFO("element " << i << ": " << r[i]);
      // Python: 3 % -inf is -inf (the fmod result plus the divisor); zeros keep fmod's sign.
      CHECK((same_bits(r[i], e[i]) || (e[i] == 0 && r[i] == 0)));
    }
    CHECK_VALUES(lz::remainder(a.slice(0, 0, 4), 2.5), std::vector<double>{0.5, 2.0, 0.5, 2.0});
    CHECK_VALUES(lz::remainder(-1.0, make_tensor({0.75}, dt)), std::vector<double>{0.5});
  }
  SECTION("uint8 and promotion") {
    const Tensor u = make_tensor({250, 7}, kUInt8);
    CHECK(int_values(u % 8) == std::vector<int64_t>{2, 7});
    CHECK((u % 2.5).dtype() == kFloat32);
    CHECK_VALUES(u % 2.5, std::vector<double>{0, 2});
    const Tensor i = lz::tensor({-7}, kInt32);
    CHECK((i % lz::tensor({2.0}, kFloat64)).dtype() == kFloat64);
    CHECK_VALUES(i % lz::tensor({2.0}, kFloat64), std::vector<double>{1});
  }
  SECTION("errors") {
    const Tensor bt = lz::tensor({true});
    REQUIRE_THROWS_AS(lz::remainder(bt, bt), TypeError);
    REQUIRE_THROWS_WITH(lz::remainder(bt, bt), Catch::Contains("[remainder]") && Catch::Contains("bool"));
    CHECK_THROWS_AS(lz::remainder(lz::ones({2}), lz::ones({3})), ShapeError);
  }
}

TEST_CASE("atan2 quadrants and special values", "[eager][binary][atan2]") {
  const ScalarType dt = GENERATE(kFloat16, kBFloat16, kFloat32, kFloat64);
  INFO(dt);
  const std::vector<double> y = {1, 1, -1, -1, 0, -0.0, 0, -0.0, kInf, 1, kNaN};
  const std::vector<double> x = {1, -1, -1, 1, 1, 1, -1, -1, kInf, 0, 1};
  std::vector<double> e;
  for (size_t i = 0; i < y.size(); ++i) e.push_back(std::atan2(y[i], x[i]));
  const Tensor r = lz::atan2(make_tensor(y, dt), make_tensor(x, dt));
  CHECK(r.dtype() == dt);
  CHECK_VALUES(r, e);
  const std::vector<double> rv = values(r);
  CHECK(std::signbit(rv[5]));   // atan2(-0, 1) == -0
  CHECK(rv[7] < 0);             // atan2(-0, -1) == -pi
  // Integers and bools give float32; in place needs a floating self.
  const Tensor i = lz::tensor({1, -1}, kInt32);
  CHECK(lz::atan2(i, i).dtype() == kFloat32);
  CHECK_VALUES(lz::atan2(i, i), std::vector<double>{std::atan2(1.0, 1.0), std::atan2(-1.0, -1.0)});
  CHECK(lz::atan2(lz::tensor({true}), lz::tensor({false})).dtype() == kFloat32);
  Tensor c = i.clone();
  CHECK_THROWS_AS(c.atan2_(i), TypeError);
  Tensor f = make_tensor({1, 0}, dt);
  f.atan2_(make_tensor({0, 1}, dt));
  CHECK_VALUES(f, std::vector<double>{std::atan2(1.0, 0.0), 0});
}

TEST_CASE("maximum and minimum propagate NaN", "[eager][binary][maximum]") {
  const ScalarType dt = GENERATE(kFloat16, kBFloat16, kFloat32, kFloat64);
  INFO(dt);
  const Tensor a = make_tensor({1, kNaN, 3, kNaN, -kInf, kInf, -1}, dt);
  const Tensor b = make_tensor({2, 1, kNaN, kNaN, 0, 5, -1}, dt);
  CHECK_VALUES(lz::maximum(a, b), std::vector<double>{2, kNaN, kNaN, kNaN, 0, kInf, -1});
  CHECK_VALUES(lz::minimum(a, b), std::vector<double>{1, kNaN, kNaN, kNaN, -kInf, 5, -1});
  CHECK_VALUES(a.maximum(b), std::vector<double>{2, kNaN, kNaN, kNaN, 0, kInf, -1});
  CHECK_VALUES(b.minimum(a), std::vector<double>{1, kNaN, kNaN, kNaN, -kInf, 5, -1});
  // A NaN 0-dim operand makes everything NaN (the scalar path).
  CHECK_VALUES(lz::maximum(a.slice(0, 4), make_tensor({kNaN}, {}, dt)), std::vector<double>{kNaN, kNaN, kNaN});
  CHECK_VALUES(lz::minimum(make_tensor({kNaN}, {}, dt), a.slice(0, 4)), std::vector<double>{kNaN, kNaN, kNaN});
  // A long contiguous run (the vectorised row) with NaNs sprinkled in.
  std::vector<double> xs(1000), ys(1000), mx(1000), mn(1000);
  for (int i = 0; i < 1000; ++i) {
    xs[i] = (i % 7) - 3;
    ys[i] = (i % 5) - 2;
    if (i % 97 == 3) xs[i] = kNaN;
    if (i % 89 == 5) ys[i] = kNaN;
    const bool nan = std::isnan(xs[i]) || std::isnan(ys[i]);
    mx[i] = nan ? kNaN : std::max(xs[i], ys[i]);
    mn[i] = nan ? kNaN : std::min(xs[i], ys[i]);
  }
  CHECK_VALUES(lz::maximum(make_tensor(xs, dt), make_tensor(ys, dt)), mx);
  CHECK_VALUES(lz::minimum(make_tensor(xs, dt), make_tensor(ys, dt)), mn);
}

TEST_CASE("maximum and minimum of integers and bools", "[eager][binary][maximum]") {
  const Tensor a = lz::tensor({1, -5, 7}, kInt32);
  const Tensor b = lz::tensor({int64_t{3}, int64_t{-9}, int64_t{7}});
  CHECK(lz::maximum(a, b).dtype() == kInt64);
  CHECK(int_values(lz::maximum(a, b)) == std::vector<int64_t>{3, -5, 7});
  CHECK(int_values(lz::minimum(a, b)) == std::vector<int64_t>{1, -9, 7});
  const Tensor p = lz::tensor({false, false, true, true});
  const Tensor q = lz::tensor({false, true, false, true});
  CHECK(lz::maximum(p, q).dtype() == kBool);
  CHECK(int_values(lz::maximum(p, q)) == std::vector<int64_t>{0, 1, 1, 1});
  CHECK(int_values(lz::minimum(p, q)) == std::vector<int64_t>{0, 0, 0, 1});
  // Promotion with a float: int32 and float16 -> float16.
  CHECK(lz::maximum(a, lz::tensor({0.5, 0.5, 8.5}, kFloat16)).dtype() == kFloat16);
  CHECK_VALUES(lz::maximum(a, lz::tensor({0.5, 0.5, 8.5}, kFloat16)), std::vector<double>{1, 0.5, 8.5});
  Tensor out = lz::empty({0}, kFloat64);
  lz::maximum_out(out, a, b);
  CHECK(out.dtype() == kFloat64);
  CHECK_VALUES(out, std::vector<double>{3, -5, 7});
  Tensor small = lz::empty({3}, kInt32);
  CHECK_THROWS_AS(lz::minimum_out(small, a, lz::tensor({0.5, 0.5, 0.5})), TypeError);
}

TEST_CASE("binary operators are registered under PyTorch's names", "[eager][binary][registration]") {
  Dispatcher& d = Dispatcher::singleton();
  for (const char* name :
       {"div.Tensor_mode", "div_.Tensor_mode", "div.out_mode", "div.Scalar_mode", "div_.Scalar_mode",
        "pow.Tensor_Tensor", "pow_.Tensor", "pow.Tensor_Tensor_out", "pow.Tensor_Scalar", "pow_.Scalar",
        "pow.Tensor_Scalar_out", "pow.Scalar", "pow.Scalar_out", "remainder.Tensor", "remainder_.Tensor",
        "remainder.Tensor_out", "remainder.Scalar", "remainder_.Scalar", "remainder.Scalar_out",
        "remainder.Scalar_Tensor", "atan2", "atan2_", "atan2.out", "maximum", "maximum.out", "minimum",
        "minimum.out"}) {
    INFO(name);
    CHECK(d.find(name).has_value());
  }
  // maximum has no in-place form in PyTorch.
  CHECK_FALSE(d.find("maximum_").has_value());
  // Derived variants are linked to their functional operator, and carry its meta.
  const OperatorHandle div_mode = d.find_or_throw("div.Tensor_mode");
  REQUIRE(div_mode.out_variant().has_value());
  CHECK(div_mode.out_variant()->name() == "div.out_mode");
  REQUIRE(div_mode.inplace_variant().has_value());
  CHECK(div_mode.inplace_variant()->name() == "div_.Tensor_mode");
  CHECK(div_mode.has_tag(Tag::Pointwise));
  CHECK(div_mode.inplace_variant()->has_tag(Tag::Inplace));
  CHECK(div_mode.out_variant()->has_tag(Tag::Out));
  const OperatorHandle pow_tt = d.find_or_throw("pow.Tensor_Tensor");
  CHECK(pow_tt.inplace_variant()->name() == "pow_.Tensor");
  CHECK(pow_tt.out_variant()->name() == "pow.Tensor_Tensor_out");
  CHECK(d.find_or_throw("remainder.Tensor").out_variant()->name() == "remainder.Tensor_out");
  for (const char* name : {"div.Tensor_mode", "div.out_mode", "pow_.Tensor", "remainder.Tensor_out", "atan2", "maximum"}) {
    INFO(name);
    CHECK(d.find_or_throw(name).has_meta());
  }
}

TEST_CASE("binary metas compute shapes and dtypes without running kernels", "[eager][binary][meta]") {
  Dispatcher& d = Dispatcher::singleton();
  Stack s{IValue(lz::zeros({3, 1}, kInt32)), IValue(lz::zeros({4}, kInt64)), IValue(std::string("floor"))};
  MetaList m = d.find_or_throw("div.Tensor_mode").meta(s);
  REQUIRE(m.size() == 1);
  CHECK(m[0].sizes == SizeVec{3, 4});
  CHECK(m[0].dtype == kInt64);
  // A zero divisor is a value: only the kernel can see it.
  Stack z{IValue(lz::ones({2}, kInt32)), IValue(lz::zeros({2}, kInt32)), IValue(std::string("trunc"))};
  CHECK_NOTHROW(d.find_or_throw("div.Tensor_mode").meta(z));
  Stack bad{IValue(lz::ones({2}, kInt32)), IValue(lz::ones({2}, kInt32)), IValue(std::string("ceil"))};
  CHECK_THROWS_AS(d.find_or_throw("div.Tensor_mode").meta(bad), ValueError);
  Stack at{IValue(lz::zeros({2}, kBool)), IValue(lz::zeros({5, 1}, kUInt8))};
  m = d.find_or_throw("atan2").meta(at);
  CHECK(m[0].sizes == SizeVec{5, 2});
  CHECK(m[0].dtype == kFloat32);
  Stack pw{IValue(lz::zeros({2}, kBool)), IValue(lz::zeros({2}, kBool))};
  CHECK_THROWS_AS(d.find_or_throw("pow.Tensor_Tensor").meta(pw), TypeError);
}

TEST_CASE("large binary results do not depend on the thread count", "[eager][binary][threads]") {
  const Tensor a = lzt::sample_tensor({513, 700}, kFloat32, 3);
  const Tensor b = lzt::sample_tensor({700}, kFloat32, 4, /*nonzero=*/true);
  const int threads = get_num_threads();
  std::vector<std::vector<double>> results[2];
  for (int n : {1, 2}) {
    set_num_threads(n);
    auto& r = results[n - 1];
    r.push_back(values(lz::div(a, b, "floor")));
    r.push_back(values(lz::pow(a, lz::clamp(b, -3, 3))));
    r.push_back(values(lz::remainder(a.t().contiguous().t(), b)));
    r.push_back(values(lz::maximum(a, b)));
    r.push_back(values(lz::atan2(a, b)));
  }
  set_num_threads(threads);
  for (size_t i = 0; i < results[0].size(); ++i) {
    INFO("result " << i);
    CHECK(lzt::mismatch(results[1][i], results[0][i], 0, 0) == "");
  }
}
