// where, clamp (clamp_min, clamp_max), lerp, addcmul, addcdiv and
// masked_fill: NaN rules, Scalar forms, type promotion, broadcasting of
// three operands, in-place rules, errors and registration names.
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
}  // namespace

TEST_CASE("where selects and broadcasts three ways", "[eager][ternary][where]") {
  const Tensor c = lz::tensor({{true}, {false}});                 // [2, 1]
  const Tensor x = lz::tensor({1.0f, 2.0f, 3.0f});                // [3]
  const Tensor y = lz::tensor({{10.0f, 20.0f, 30.0f}});           // [1, 3]
  const Tensor r = lz::where(c, x, y);
  CHECK_SHAPE(r, {2, 3});
  CHECK(r.dtype() == kFloat32);
  CHECK_VALUES(r, std::vector<double>{1, 2, 3, 10, 20, 30});
  CHECK_VALUES(x.where(c, y), std::vector<double>{1, 2, 3, 10, 20, 30});
  // Scalar forms.
  CHECK_VALUES(lz::where(c, x, 0.5), std::vector<double>{1, 2, 3, 0.5, 0.5, 0.5});
  CHECK_VALUES(lz::where(c, -1, y), std::vector<double>{-1, -1, -1, 10, 20, 30});
  const Tensor s = lz::where(c, 1.0, 0.0);
  CHECK_SHAPE(s, {2, 1});
  CHECK(s.dtype() == kFloat32);  // two Python floats: the default dtype
  CHECK_VALUES(s, std::vector<double>{1, 0});
  const Tensor si = lz::where(c, 7, -7);
  CHECK(si.dtype() == kInt64);
  CHECK(int_values(si) == std::vector<int64_t>{7, -7});
  CHECK(lz::where(c, true, false).dtype() == kBool);
  // NaN and infinities pass through untouched.
  const Tensor n = make_tensor({kNaN, kInf, -kInf}, kFloat32);
  CHECK_VALUES(lz::where(lz::tensor({true, true, false}), n, 0.0), std::vector<double>{kNaN, kInf, 0});
  // out=, into another dtype.
  Tensor out = lz::empty({0}, kFloat64);
  lz::where_out(out, c, x, y);
  CHECK(out.dtype() == kFloat64);
  CHECK_VALUES(out, std::vector<double>{1, 2, 3, 10, 20, 30});
}

TEST_CASE("where with one-element operands", "[eager][ternary][where]") {
  const Tensor x = lz::tensor({1.0f, 2.0f, 3.0f});
  const Tensor y = lz::tensor({-1.0f, -2.0f, -3.0f});
  CHECK_VALUES(lz::where(lz::scalar_tensor(true), x, y), std::vector<double>{1, 2, 3});
  CHECK_VALUES(lz::where(lz::tensor({false}), x, y), std::vector<double>{-1, -2, -3});
  CHECK_VALUES(lz::where(lz::tensor({{false}}), x, 0.5), std::vector<double>{0.5, 0.5, 0.5});
  CHECK_VALUES(lz::where(lz::tensor({true, false, true}), lz::tensor({9.0f}), y), std::vector<double>{9, -2, 9});
  CHECK_VALUES(lz::where(lz::tensor({true, false, true}), 4.0, lz::tensor({-1.0f})), std::vector<double>{4, -1, 4});
  const Tensor r = lz::where(lz::scalar_tensor(false), lz::scalar_tensor(1.0f), lz::scalar_tensor(2.0f));
  CHECK(r.dim() == 0);
  CHECK_VALUES(r, std::vector<double>{2});
}

TEST_CASE("where promotes self and other only", "[eager][ternary][where][promotion]") {
  const Tensor c = lz::tensor({true, false});
  const Tensor i = lz::tensor({1, 2}, kInt32);
  CHECK(lz::where(c, i, lz::tensor({0.5, 0.5}, kFloat16)).dtype() == kFloat16);
  CHECK(lz::where(c, i, lz::tensor({int64_t{9}, int64_t{9}})).dtype() == kInt64);
  CHECK(lz::where(c, i, 2.5).dtype() == kFloat32);
  CHECK_VALUES(lz::where(c, i, 2.5), std::vector<double>{1, 2.5});
  CHECK(lz::where(c, i, 3).dtype() == kInt32);
  CHECK(lz::where(c, lz::tensor({true, true}), i).dtype() == kInt32);
  const Tensor u = lz::tensor({200, 100}, kUInt8);
  CHECK(lz::where(c, u, 7).dtype() == kUInt8);
  CHECK(int_values(lz::where(c, u, 7)) == std::vector<int64_t>{200, 7});
  CHECK(lz::where(c, lz::tensor({1.0}, kBFloat16), lz::tensor({1.0}, kFloat16)).dtype() == kFloat32);
}

TEST_CASE("where errors", "[eager][ternary][where][errors]") {
  const Tensor x = lz::ones({3});
  REQUIRE_THROWS_AS(lz::where(lz::ones({3}), x, x), TypeError);
  REQUIRE_THROWS_WITH(lz::where(lz::ones({3}, kUInt8), x, x),
                      Catch::Contains("[where] condition") && Catch::Contains("uint8"));
  CHECK_THROWS_AS(lz::where(lz::ones({3}, kInt64), x, 0.0), TypeError);
  REQUIRE_THROWS_AS(lz::where(lz::ones({2}, kBool), x, x), ShapeError);
  REQUIRE_THROWS_WITH(lz::where(lz::ones({3}, kBool), x, lz::ones({2})),
                      Catch::Contains("[where]") && Catch::Contains("other shape [2]"));
  CHECK_THROWS_AS(lz::where(Tensor(), x, x), ValueError);
  CHECK_THROWS_AS(lz::where(lz::ones({3}, kBool), x, Tensor()), ValueError);
  // A wrongly sized out is resized, with a warning (as libtorch).
  std::vector<std::string> warnings;
  const lz::WarningHandlerGuard capture([&](std::string_view m) { warnings.emplace_back(m); });
  Tensor small = lz::empty({2});
  lz::where_out(small, lz::ones({3}, kBool), x, x);
  CHECK_SHAPE(small, {3});
  CHECK(warnings.size() == 1);
}

TEST_CASE("clamp with Scalar bounds", "[eager][ternary][clamp]") {
  const ScalarType dt = GENERATE(kFloat16, kBFloat16, kFloat32, kFloat64);
  INFO(dt);
  const Tensor x = make_tensor({-3, -1, 0, 1, 3, kNaN, kInf, -kInf}, dt);
  CHECK_VALUES(lz::clamp(x, -1, 2), std::vector<double>{-1, -1, 0, 1, 2, kNaN, 2, -1});
  CHECK_VALUES(lz::clamp(x, 0.5), std::vector<double>{0.5, 0.5, 0.5, 1, 3, kNaN, kInf, 0.5});
  CHECK_VALUES(lz::clamp(x, std::nullopt, 0.5), std::vector<double>{-3, -1, 0, 0.5, 0.5, kNaN, 0.5, -kInf});
  CHECK_VALUES(x.clamp(-1, 2), std::vector<double>{-1, -1, 0, 1, 2, kNaN, 2, -1});
  CHECK_VALUES(x.clamp_min(0), std::vector<double>{0, 0, 0, 1, 3, kNaN, kInf, 0});
  CHECK_VALUES(x.clamp_max(0), std::vector<double>{-3, -1, 0, 0, 0, kNaN, 0, -kInf});
  // min > max: every element becomes max (NaN stays NaN).
  CHECK_VALUES(lz::clamp(x, 2, -2), std::vector<double>{-2, -2, -2, -2, -2, kNaN, -2, -2});
  // A NaN bound makes the result NaN.
  CHECK_VALUES(lz::clamp(x, kNaN, 1), std::vector<double>(8, kNaN));
  CHECK_VALUES(lz::clamp(x, std::nullopt, kNaN), std::vector<double>(8, kNaN));
  // In place and out=.
  Tensor c = x.clone();
  c.clamp_(0, 1);
  CHECK_VALUES(c, std::vector<double>{0, 0, 0, 1, 1, kNaN, 1, 0});
  Tensor o = lz::empty({0}, kFloat64);
  lz::clamp_out(o, x, -2, std::nullopt);
  CHECK(o.dtype() == kFloat64);
  CHECK_VALUES(o, std::vector<double>{-2, -1, 0, 1, 3, kNaN, kInf, -2});
  Tensor m = x.clone();
  lz::clamp_min_(m, 1);
  lz::clamp_max_(m, 2);
  CHECK_VALUES(m, std::vector<double>{1, 1, 1, 1, 2, kNaN, 2, 1});
}

TEST_CASE("clamp of integers and type promotion", "[eager][ternary][clamp][promotion]") {
  const Tensor i = lz::tensor({-5, 0, 5, 10}, kInt32);
  CHECK(lz::clamp(i, 0, 6).dtype() == kInt32);
  CHECK(int_values(lz::clamp(i, 0, 6)) == std::vector<int64_t>{0, 0, 5, 6});
  // A float bound makes the result float32, as in PyTorch 2.
  const Tensor f = lz::clamp(i, 0.5, 6);
  CHECK(f.dtype() == kFloat32);
  CHECK_VALUES(f, std::vector<double>{0.5, 0.5, 5, 6});
  // ... so clamping in place with it is a TypeError, and self is untouched.
  Tensor c = i.clone();
  REQUIRE_THROWS_AS(c.clamp_(0.5, 6), TypeError);
  CHECK(int_values(c) == std::vector<int64_t>{-5, 0, 5, 10});
  c.clamp_(-1, 1);
  CHECK(int_values(c) == std::vector<int64_t>{-1, 0, 1, 1});
  // uint8 bounds must fit uint8.
  const Tensor u = lz::tensor({0, 100, 255}, kUInt8);
  CHECK(int_values(lz::clamp(u, 50, 200)) == std::vector<int64_t>{50, 100, 200});
  REQUIRE_THROWS_AS(lz::clamp(u, -1, 200), ValueError);
  REQUIRE_THROWS_WITH(lz::clamp(u, std::nullopt, 256), Catch::Contains("256") && Catch::Contains("uint8"));
  CHECK_THROWS_AS(lz::clamp_min(u, -1), ValueError);
  // ... unless a float bound makes the result float.
  CHECK_VALUES(lz::clamp(u, -1.5, 300.0), std::vector<double>{0, 100, 255});
  // int64 bounds beyond float16's range.
  CHECK_THROWS_AS(lz::clamp(lz::ones({2}, kFloat16), 0, 100000), ValueError);
  // Tensor bounds promote too: int32 with float64 bounds is float64.
  const Tensor lo = lz::tensor({0.5}, kFloat64);
  CHECK(lz::clamp(i, lo, std::nullopt).dtype() == kFloat64);
  CHECK(lz::clamp_min(i, lo).dtype() == kFloat64);
  CHECK(lz::clamp_max(i, lz::tensor({3}, kInt64)).dtype() == kInt64);
}

TEST_CASE("clamp with tensor bounds broadcasts all three", "[eager][ternary][clamp]") {
  const Tensor x = lz::tensor({{-2.0f, 0.0f, 2.0f}});        // [1, 3]
  const Tensor lo = lz::tensor({{-1.0f}, {1.0f}});            // [2, 1]
  const Tensor hi = make_tensor({1.5, kNaN, 0.5}, kFloat32);     // [3]
  const Tensor r = lz::clamp(x, lo, hi);
  CHECK_SHAPE(r, {2, 3});
  CHECK_VALUES(r, std::vector<double>{-1, kNaN, 0.5, 1, kNaN, 0.5});
  CHECK_VALUES(x.clamp(lo), std::vector<double>{-1, 0, 2, 1, 1, 2});
  CHECK_VALUES(lz::clamp(x, std::nullopt, hi), std::vector<double>{-2, kNaN, 0.5});
  CHECK_VALUES(lz::clamp_max(x, hi), std::vector<double>{-2, kNaN, 0.5});
  CHECK_VALUES(lz::clamp_min(x, make_tensor({kNaN}, kFloat32)), std::vector<double>{kNaN, kNaN, kNaN});
  // In place must keep self's shape.
  Tensor c = x.clone();
  CHECK_THROWS_AS(lz::clamp_(c, lo, hi), ShapeError);
  Tensor d = lz::tensor({{-2.0f, 0.0f, 2.0f}, {5.0f, 5.0f, 5.0f}});
  lz::clamp_(d, lo, lz::tensor({1.5f, 1.5f, 1.5f}));
  CHECK_VALUES(d, std::vector<double>{-1, 0, 1.5, 1.5, 1.5, 1.5});
  Tensor o = lz::empty({0});
  lz::clamp_out(o, x, lo, std::optional<Tensor>{});
  CHECK_VALUES(o, std::vector<double>{-1, 0, 2, 1, 1, 2});
  Tensor o2 = lz::empty({0});
  lz::clamp_min_out(o2, x, lz::scalar_tensor(0.5, kFloat32));
  CHECK_SHAPE(o2, {1, 3});
  CHECK_VALUES(o2, std::vector<double>{0.5, 0.5, 2});
  // A non-empty out of the wrong shape is resized, with a warning (as libtorch).
  std::vector<std::string> warnings;
  const lz::WarningHandlerGuard capture([&](std::string_view m) { warnings.emplace_back(m); });
  lz::clamp_min_out(o, x, lz::scalar_tensor(0.5, kFloat32));
  CHECK_SHAPE(o, {1, 3});
  CHECK_VALUES(o, std::vector<double>{0.5, 0.5, 2});
  CHECK(warnings.size() == 1);
}

TEST_CASE("clamp errors", "[eager][ternary][clamp][errors]") {
  const Tensor x = lz::ones({3});
  REQUIRE_THROWS_AS(lz::clamp(x, std::optional<Scalar>{}, std::optional<Scalar>{}), ValueError);
  REQUIRE_THROWS_WITH(lz::clamp(x, std::optional<Tensor>{}, std::optional<Tensor>{}),
                      Catch::Contains("[clamp]") && Catch::Contains("at least one"));
  const Tensor b = lz::tensor({true, false});
  REQUIRE_THROWS_AS(lz::clamp(b, false, true), TypeError);
  REQUIRE_THROWS_WITH(lz::clamp(b, b, b), Catch::Contains("[clamp]") && Catch::Contains("bool"));
  CHECK_THROWS_AS(lz::clamp_min(b, b), TypeError);
  CHECK_THROWS_AS(lz::clamp_max(b, false), TypeError);
  // But a bool tensor with an int bound is int64.
  CHECK(lz::clamp(b, 0, 5).dtype() == kInt64);
  CHECK_THROWS_AS(lz::clamp(x, lz::ones({2}), std::nullopt), ShapeError);
  CHECK_THROWS_AS(lz::clamp(x, x, lz::ones({2, 2})), ShapeError);
}

TEST_CASE("lerp", "[eager][ternary][lerp]") {
  const ScalarType dt = GENERATE(kFloat16, kBFloat16, kFloat32, kFloat64);
  INFO(dt);
  const Tensor a = make_tensor({0, 1, -2, 10}, dt);
  const Tensor b = make_tensor({4, 3, 2, 10}, dt);
  // Both ends are exact: weight 0 gives self, weight 1 gives end.
  CHECK(values(lz::lerp(a, b, 0)) == values(a));
  CHECK(values(lz::lerp(a, b, 1)) == values(b));
  CHECK_VALUES(lz::lerp(a, b, 0.25), std::vector<double>{1, 1.5, -1, 10});
  CHECK_VALUES(lz::lerp(a, b, 2), std::vector<double>{8, 5, 6, 10});
  CHECK_VALUES(lz::lerp(a, b, -1), std::vector<double>{-4, -1, -6, 10});
  CHECK(lz::lerp(a, b, 0.5).dtype() == dt);
  // Tensor weights broadcast.
  const Tensor w = make_tensor({0, 1}, {2, 1}, dt);
  const Tensor r = lz::lerp(a, b, w);
  CHECK_SHAPE(r, {2, 4});
  CHECK_VALUES(r, std::vector<double>{0, 1, -2, 10, 4, 3, 2, 10});
  CHECK_VALUES(a.lerp(b, make_tensor({0.5}, {}, dt)), std::vector<double>{2, 2, 0, 10});
  // Infinite ends and NaN weights.
  CHECK_VALUES(lz::lerp(make_tensor({0}, dt), make_tensor({kInf}, dt), 0.25), std::vector<double>{kInf});
  CHECK_VALUES(lz::lerp(a, b, make_tensor({kNaN}, {}, dt)), std::vector<double>(4, kNaN));
  // In place and out=.
  Tensor c = a.clone();
  c.lerp_(b, 0.5);
  CHECK_VALUES(c, std::vector<double>{2, 2, 0, 10});
  lz::lerp_(c, a, make_tensor({1, 0, 1, 0}, dt));
  CHECK_VALUES(c, std::vector<double>{0, 2, -2, 10});
  Tensor o = lz::empty({0}, kFloat64);
  lz::lerp_out(o, a, b, 0.75);
  CHECK_VALUES(o, std::vector<double>{3, 2.5, 1, 10});
  Tensor ow = lz::empty({0}, dt);
  lz::lerp_out(ow, a, b, make_tensor({0.5, 0.5, 0.5, 0.5}, dt));
  CHECK_VALUES(ow, std::vector<double>{2, 2, 0, 10});
}

TEST_CASE("lerp errors", "[eager][ternary][lerp][errors]") {
  const Tensor f = lz::ones({2});
  REQUIRE_THROWS_AS(lz::lerp(lz::ones({2}, kInt64), lz::ones({2}, kInt64), 0.5), TypeError);
  REQUIRE_THROWS_WITH(lz::lerp(lz::ones({2}, kInt64), lz::ones({2}, kInt64), 0.5),
                      Catch::Contains("[lerp] self") && Catch::Contains("int64"));
  REQUIRE_THROWS_AS(lz::lerp(f, lz::ones({2}, kFloat16), 0.5), TypeError);
  REQUIRE_THROWS_WITH(lz::lerp(f, f, lz::ones({2}, kFloat64)),
                      Catch::Contains("[lerp] weight") && Catch::Contains("float64"));
  CHECK_THROWS_AS(lz::lerp(f, f, lz::scalar_tensor(0.5, kFloat64)), TypeError);
  CHECK_THROWS_AS(lz::lerp(f, lz::ones({3}), 0.5), ShapeError);
  CHECK_THROWS_AS(lz::lerp(lz::ones({2}, kBool), lz::ones({2}, kBool), 0.5), TypeError);
  Tensor c = lz::ones({1});
  CHECK_THROWS_AS(c.lerp_(lz::ones({3}), 0.5), ShapeError);
}

TEST_CASE("addcmul and addcdiv", "[eager][ternary][addcmul]") {
  const Tensor s = lz::tensor({1.0f, 2.0f, 3.0f});
  const Tensor a = lz::tensor({2.0f, 4.0f, -6.0f});
  const Tensor b = lz::tensor({{4.0f}, {-0.5f}});
  const Tensor m = lz::addcmul(s, a, b);
  CHECK_SHAPE(m, {2, 3});
  CHECK_VALUES(m, std::vector<double>{9, 18, -21, 0, 0, 6});
  CHECK_VALUES(lz::addcmul(s, a, b, 0.5), std::vector<double>{5, 10, -9, 0.5, 1, 4.5});
  CHECK_VALUES(lz::addcdiv(s, a, b), std::vector<double>{1.5, 3, 1.5, -3, -6, 15});
  CHECK_VALUES(lz::addcdiv(s, a, b, -2), std::vector<double>{0, 0, 6, 9, 18, -21});
  CHECK_VALUES(s.addcmul(a, a), std::vector<double>{5, 18, 39});
  CHECK_VALUES(s.addcdiv(a, a, 3), std::vector<double>{4, 5, 6});
  // Division by zero follows IEEE.
  CHECK_VALUES(lz::addcdiv(s, a, lz::zeros({3})), std::vector<double>{kInf, kInf, -kInf});
  // In place and out=.
  Tensor c = s.clone();
  c.addcmul_(a, lz::tensor({1.0f, 1.0f, 1.0f}), 2);
  CHECK_VALUES(c, std::vector<double>{5, 10, -9});
  c.addcdiv_(lz::tensor({1.0f, 1.0f, 1.0f}), lz::tensor({4.0f, 4.0f, 4.0f}));
  CHECK_VALUES(c, std::vector<double>{5.25, 10.25, -8.75});
  CHECK_THROWS_AS(c.addcmul_(a, b), ShapeError);
  Tensor o = lz::empty({0}, kFloat64);
  lz::addcmul_out(o, s, a, a, -1);
  CHECK_VALUES(o, std::vector<double>{-3, -14, -33});
  lz::addcdiv_out(o, s, a, a);
  CHECK_VALUES(o, std::vector<double>{2, 3, 4});
}

TEST_CASE("addcmul and addcdiv type rules", "[eager][ternary][addcmul][promotion]") {
  const Tensor i = lz::tensor({1, 2, 3}, kInt32);
  const Tensor l = lz::tensor({int64_t{2}, int64_t{3}, int64_t{4}});
  // Integer addcmul stays integral (promoted over all three tensors).
  CHECK(lz::addcmul(i, i, i).dtype() == kInt32);
  CHECK(lz::addcmul(i, i, l).dtype() == kInt64);
  CHECK(int_values(lz::addcmul(i, i, l, 2)) == std::vector<int64_t>{5, 14, 27});
  // uint8 wraps.
  const Tensor u = lz::tensor({250}, kUInt8);
  CHECK(int_values(lz::addcmul(u, u.clone().fill_(2), u.clone().fill_(3))) == std::vector<int64_t>{(250 + 6) % 256});
  // A floating tensor1 makes the result floating.
  CHECK(lz::addcmul(i, lz::tensor({0.5f, 0.5f, 0.5f}), i).dtype() == kFloat32);
  CHECK_VALUES(lz::addcmul(i, lz::tensor({0.5f, 0.5f, 0.5f}), i), std::vector<double>{1.5, 3, 4.5});
  // addcdiv needs a floating tensor1 or tensor2 (no integer division).
  REQUIRE_THROWS_AS(lz::addcdiv(lz::ones({3}), i, i), TypeError);
  REQUIRE_THROWS_WITH(lz::addcdiv(lz::ones({3}), i, l),
                      Catch::Contains("[addcdiv]") && Catch::Contains("integer division"));
  CHECK_THROWS_AS(lz::addcdiv(lz::ones({3}), lz::tensor({true}), lz::tensor({true})), TypeError);
  CHECK(lz::addcdiv(i, i, lz::tensor({2.0}, kFloat64)).dtype() == kFloat64);
  CHECK_VALUES(lz::addcdiv(i, i, lz::tensor({2.0}, kFloat64)), std::vector<double>{1.5, 3, 4.5});
  // In place into an integer self with a floating result is a TypeError.
  Tensor c = i.clone();
  CHECK_THROWS_AS(c.addcdiv_(lz::ones({3}), lz::ones({3})), TypeError);
  CHECK(int_values(c) == std::vector<int64_t>{1, 2, 3});
  // bool has no addcmul.
  const Tensor bt = lz::tensor({true});
  CHECK_THROWS_AS(lz::addcmul(bt, bt, bt), TypeError);
  CHECK_THROWS_AS(lz::addcmul(lz::ones({2}), lz::ones({3}), lz::ones({2})), ShapeError);
}

TEST_CASE("masked_fill", "[eager][ternary][masked_fill]") {
  const Tensor x = lz::tensor({{1.0f, 2.0f, 3.0f}, {4.0f, 5.0f, 6.0f}});
  const Tensor mask = lz::tensor({true, false, true});
  CHECK_VALUES(lz::masked_fill(x, mask, -1), std::vector<double>{-1, 2, -1, -1, 5, -1});
  CHECK_VALUES(x.masked_fill(mask, kNaN), std::vector<double>{kNaN, 2, kNaN, kNaN, 5, kNaN});
  CHECK_VALUES(x.masked_fill(mask, lz::scalar_tensor(7)), std::vector<double>{7, 2, 7, 7, 5, 7});
  CHECK(x.masked_fill(mask, 2.5).dtype() == kFloat32);
  // The functional form broadcasts self with a larger mask.
  const Tensor row = lz::tensor({1, 2, 3}, kInt64);
  const Tensor big = lz::masked_fill(row, lz::tensor({{true, false, false}, {false, false, true}}), 0);
  CHECK_SHAPE(big, {2, 3});
  CHECK(big.dtype() == kInt64);
  CHECK(int_values(big) == std::vector<int64_t>{0, 2, 3, 1, 2, 0});
  // ... in place the mask must broadcast to self.
  Tensor r = row.clone();
  CHECK_THROWS_AS(r.masked_fill_(lz::tensor({{true, false, false}, {false, false, true}}), 0), ShapeError);
  r.masked_fill_(lz::tensor({false, true, false}), 9);
  CHECK(int_values(r) == std::vector<int64_t>{1, 9, 3});
  r.masked_fill_(lz::tensor({true}), lz::scalar_tensor(2.9, kFloat64));  // truncated into int64
  CHECK(int_values(r) == std::vector<int64_t>{2, 2, 2});
  // The value keeps self's dtype: no promotion.
  const Tensor i = lz::tensor({1, 2}, kInt32);
  CHECK(lz::masked_fill(i, lz::tensor({true, false}), 1.5).dtype() == kInt32);
  CHECK(int_values(lz::masked_fill(i, lz::tensor({true, false}), 1.5)) == std::vector<int64_t>{1, 2});
  const Tensor bl = lz::tensor({false, false});
  CHECK(int_values(lz::masked_fill(bl, lz::tensor({true, false}), 5)) == std::vector<int64_t>{1, 0});
  // Through a view and into a transposed tensor.
  Tensor m = lz::zeros({3, 2});
  Tensor mt = m.t();
  mt.masked_fill_(lz::tensor({{true, false, false}, {false, false, true}}), 1.0);
  CHECK_VALUES(m, std::vector<double>{1, 0, 0, 0, 0, 1});
}

TEST_CASE("masked_fill errors", "[eager][ternary][masked_fill][errors]") {
  const Tensor x = lz::ones({3});
  REQUIRE_THROWS_AS(lz::masked_fill(x, lz::ones({3}), 0), TypeError);
  REQUIRE_THROWS_WITH(lz::masked_fill(x, lz::ones({3}, kUInt8), 0),
                      Catch::Contains("[masked_fill] mask") && Catch::Contains("uint8"));
  REQUIRE_THROWS_AS(lz::masked_fill(x, lz::ones({2}, kBool), 0), ShapeError);
  REQUIRE_THROWS_AS(lz::masked_fill(x, lz::ones({3}, kBool), lz::ones({1})), ShapeError);
  REQUIRE_THROWS_WITH(lz::masked_fill(x, lz::ones({3}, kBool), lz::ones({1})),
                      Catch::Contains("[masked_fill] value") && Catch::Contains("0-dim"));
  // Values that do not fit self's dtype.
  CHECK_THROWS_AS(lz::masked_fill(lz::ones({2}, kUInt8), lz::ones({2}, kBool), 256), ValueError);
  CHECK_THROWS_AS(lz::masked_fill(lz::ones({2}, kUInt8), lz::ones({2}, kBool), -1), ValueError);
  CHECK_THROWS_AS(lz::masked_fill(lz::ones({2}, kFloat16), lz::ones({2}, kBool), 1e10), ValueError);
  CHECK_THROWS_AS(lz::masked_fill(lz::ones({2}, kInt32), lz::ones({2}, kBool), kNaN), ValueError);
  CHECK_THROWS_AS(lz::masked_fill(lz::ones({2}, kInt32), lz::ones({2}, kBool), lz::scalar_tensor(kNaN)),
                  ValueError);
  Tensor c = lz::ones({2}, kUInt8);
  CHECK_THROWS_AS(c.masked_fill_(lz::ones({2}, kBool), 1000), ValueError);
  CHECK(int_values(c) == std::vector<int64_t>{1, 1});
  CHECK_THROWS_AS(lz::masked_fill(x, Tensor(), 0), ValueError);
}

TEST_CASE("ternary operators are registered under PyTorch's names", "[eager][ternary][registration]") {
  Dispatcher& d = Dispatcher::singleton();
  for (const char* name :
       {"where.self", "where.self_out", "where.ScalarSelf", "where.ScalarOther", "where.Scalar", "clamp",
        "clamp_", "clamp.out", "clamp.Tensor", "clamp_.Tensor", "clamp.Tensor_out", "clamp_min", "clamp_min_",
        "clamp_min.out", "clamp_min.Tensor", "clamp_min_.Tensor", "clamp_min.Tensor_out", "clamp_max",
        "clamp_max_", "clamp_max.out", "clamp_max.Tensor", "clamp_max_.Tensor", "clamp_max.Tensor_out",
        "lerp.Scalar", "lerp_.Scalar", "lerp.Scalar_out", "lerp.Tensor", "lerp_.Tensor", "lerp.Tensor_out",
        "addcmul", "addcmul_", "addcmul.out", "addcdiv", "addcdiv_", "addcdiv.out", "masked_fill.Scalar",
        "masked_fill_.Scalar", "masked_fill.Tensor", "masked_fill_.Tensor"}) {
    INFO(name);
    CHECK(d.find(name).has_value());
  }
  CHECK_FALSE(d.find("where_.self").has_value());
  CHECK(d.find_or_throw("clamp.Tensor").out_variant()->name() == "clamp.Tensor_out");
  CHECK(d.find_or_throw("lerp.Tensor").out_variant()->name() == "lerp.Tensor_out");
  CHECK(d.find_or_throw("where.self").out_variant()->name() == "where.self_out");
  // Metas of the kernels' operators.
  Stack s{IValue(lz::zeros({2, 1}, kBool)), IValue(lz::zeros({3}, kInt32)), IValue(lz::zeros({1, 3}, kFloat16))};
  const MetaList m = d.find_or_throw("where.self").meta(s);
  CHECK(m[0].sizes == SizeVec{2, 3});
  CHECK(m[0].dtype == kFloat16);
  Stack cl{IValue(lz::zeros({4}, kInt32)), IValue(), IValue(lz::zeros({2, 1}, kInt64))};
  const MetaList mc = d.find_or_throw("clamp.Tensor").meta(cl);
  CHECK(mc[0].sizes == SizeVec{2, 4});
  CHECK(mc[0].dtype == kInt64);
  Stack mf{IValue(lz::zeros({3}, kUInt8)), IValue(lz::zeros({2, 3}, kBool)), IValue(Scalar(300))};
  CHECK_THROWS_AS(d.find_or_throw("masked_fill.Scalar").meta(mf), ValueError);
}

TEST_CASE("large ternary results do not depend on the thread count", "[eager][ternary][threads]") {
  const Tensor c = lz::gt(lzt::sample_tensor({700, 513}, kFloat32, 5), 0);
  const Tensor x = lzt::sample_tensor({700, 513}, kFloat32, 6);
  const Tensor y = lzt::sample_tensor({513}, kFloat32, 7);
  const int threads = get_num_threads();
  std::vector<std::vector<double>> r[2];
  for (int n : {1, 2}) {
    set_num_threads(n);
    r[n - 1] = {values(lz::where(c, x, y)), values(lz::where(c.t().contiguous().t(), x, 0.0)),
                values(lz::clamp(x, lz::scalar_tensor(-1.0f), y)), values(lz::lerp(x, y.expand({700, 513}), 0.3)),
                values(lz::addcdiv(x, y, lz::clamp_min(y, 1))), values(lz::masked_fill(x, c, 3.0))};
  }
  set_num_threads(threads);
  for (size_t i = 0; i < r[0].size(); ++i) {
    INFO("result " << i);
    CHECK(lzt::mismatch(r[0][i], r[1][i], 0, 0) == "");
  }
  // where agrees with a plain loop.
  const std::vector<double> vc = values(c), vx = values(x), vy = lzt::broadcast_values(y, {700, 513});
  std::vector<double> expected;
  for (size_t k = 0; k < vc.size(); ++k) expected.push_back(vc[k] != 0 ? vx[k] : vy[k]);
  CHECK(lzt::mismatch(r[1][0], expected, 0, 0) == "");
}
