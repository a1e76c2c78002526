// neg / exp / relu: values for every dtype, result dtypes, special values,
// non-contiguous inputs, in-place and out= variants, errors.
#include "test_util.h"

using namespace lz;
using lzt::make_tensor;
using lzt::values;

namespace {

enum class Un { Neg, Exp, Relu };

const char* name_of(Un op) {
  switch (op) {
    case Un::Neg: return "neg";
    case Un::Exp: return "exp";
    case Un::Relu: return "relu";
  }
  return "?";
}

Tensor apply(Un op, const Tensor& x) {
  switch (op) {
    case Un::Neg: return lz::neg(x);
    case Un::Exp: return lz::exp(x);
    case Un::Relu: return lz::relu(x);
  }
  return {};
}

Tensor& apply_(Un op, Tensor& x) {
  switch (op) {
    case Un::Neg: return x.neg_();
    case Un::Exp: return x.exp_();
    case Un::Relu: return x.relu_();
  }
  return x;
}

Tensor& apply_out(Un op, Tensor& out, const Tensor& x) {
  switch (op) {
    case Un::Neg: return lz::neg_out(out, x);
    case Un::Exp: return lz::exp_out(out, x);
    case Un::Relu: return lz::relu_out(out, x);
  }
  return out;
}

ScalarType result_dtype(Un op, ScalarType t) {
  return op == Un::Exp && !lzt::is_float(t) ? kFloat32 : t;
}

double reference(Un op, ScalarType result, double x) {
  switch (op) {
    case Un::Neg: return lzt::round_to(result, -x);
    case Un::Exp: return lzt::round_to(result, std::exp(x));
    case Un::Relu: return x < 0 ? 0 : x;
  }
  return 0;
}

bool supported(Un op, ScalarType t) { return t != kBool || op == Un::Exp; }

}  // namespace

TEST_CASE("unary ops match a float64 reference for every dtype", "[eager][unary]") {
  const ScalarType dtype = GENERATE(from_range(lzt::kAllDtypes));
  const Un op = GENERATE(Un::Neg, Un::Exp, Un::Relu);
  INFO(name_of(op) << " " << dtype);
  const Tensor x = lzt::sample_tensor({4, 13}, dtype, 7);
  if (!supported(op, dtype)) {
    REQUIRE_THROWS_AS(apply(op, x), TypeError);
    REQUIRE_THROWS_WITH(apply(op, x), Catch::Contains(std::string("[") + name_of(op) + "]") &&
                                          Catch::Contains("bool"));
    return;
  }
  const Tensor r = apply(op, x);
  const ScalarType rt = result_dtype(op, dtype);
  CHECK(r.dtype() == rt);
  CHECK_SHAPE(r, {4, 13});
  // exp of the sample values (up to e^8 or e^255) in the result's precision.
  CHECK_VALUES(r, lzt::map_values(x, [&](double v) { return reference(op, rt, v); }));
}

TEST_CASE("neg", "[eager][unary]") {
  CHECK(lzt::int_values(-lz::tensor({1, -2, 0}, kInt32)) == std::vector<int64_t>{-1, 2, 0});
  // uint8 negation wraps, like PyTorch.
  CHECK(lzt::int_values(lz::neg(lz::tensor({1, 0, 255, 128}, kUInt8))) ==
        std::vector<int64_t>{255, 0, 1, 128});
  CHECK(lzt::int_values(lz::neg(lz::tensor({INT64_MIN + 1, INT64_MAX}))) ==
        std::vector<int64_t>{INT64_MAX, INT64_MIN + 1});
  // -0.0 and infinities.
  const Tensor z = lz::neg(lz::tensor({0.0, -0.0}, kFloat64));
  CHECK(std::signbit(values(z)[0]));
  CHECK(!std::signbit(values(z)[1]));
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK_VALUES(lz::neg(make_tensor({inf, -inf, nan}, kFloat16)), std::vector<double>{-inf, inf, nan});
  REQUIRE_THROWS_AS(-lz::tensor({true}), TypeError);
  REQUIRE_THROWS_WITH(lz::neg(lz::tensor({true})), Catch::Contains("[neg]") && Catch::Contains("bool"));
}

TEST_CASE("exp", "[eager][unary]") {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  SECTION("integral and bool inputs give float32") {
    const ScalarType dtype = GENERATE(kBool, kUInt8, kInt32, kInt64);
    const Tensor e = lz::exp(make_tensor({0, 1, 1}, dtype));
    CHECK(e.dtype() == kFloat32);
    CHECK_VALUES(e, std::vector<double>{1.0, M_E, M_E});
  }
  SECTION("floating inputs keep their dtype") {
    const ScalarType dtype = GENERATE(from_range(lzt::kFloatDtypes));
    const Tensor e = lz::exp(make_tensor({0, 1, -1, 2.5, inf, -inf, nan}, dtype));
    CHECK(e.dtype() == dtype);
    CHECK_VALUES(e, std::vector<double>{1, M_E, 1 / M_E, std::exp(2.5), inf, 0, nan});
  }
  SECTION("float64 is computed in float64") {
    const Tensor e = lz::exp(lz::tensor({1e-10, 700.0}, kFloat64));
    CHECK_VALUES_TOL(e, std::vector<double>{std::exp(1e-10), std::exp(700.0)}, 1e-15, 0);
    CHECK(values(e)[0] != 1.0);  // float32 would round 1 + 1e-10 to 1
  }
  SECTION("overflow in narrow types") {
    CHECK_VALUES(lz::exp(make_tensor({12.0}, kFloat16)), std::vector<double>{inf});  // e^12 > 65504
    CHECK_VALUES(lz::exp(make_tensor({89.0}, kFloat32)), std::vector<double>{inf});
    CHECK_VALUES(lz::exp(make_tensor({88.0}, kBFloat16)), std::vector<double>{std::exp(88.0)});  // bfloat16 keeps float32's range
  }
  SECTION("large integers") {
    CHECK_VALUES(lz::exp(lz::tensor({100}, kInt64)), std::vector<double>{inf});
    CHECK_VALUES(lz::exp(lz::tensor({-200}, kInt32)), std::vector<double>{0});
  }
}

TEST_CASE("relu", "[eager][unary]") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const ScalarType dtype = GENERATE(from_range(lzt::kFloatDtypes));
  const Tensor r = lz::relu(make_tensor({-2, -0.5, 0, 0.5, 3, nan, -inf, inf}, dtype));
  CHECK(r.dtype() == dtype);
  // NaN propagates (like clamp_min), -inf clamps to 0.
  CHECK_VALUES(r, std::vector<double>{0, 0, 0, 0.5, 3, nan, 0, inf});
  CHECK(lzt::int_values(lz::relu(lz::tensor({-5, 0, 7}, kInt32))) == std::vector<int64_t>{0, 0, 7});
  CHECK(lzt::int_values(lz::relu(lz::tensor({INT64_MIN, INT64_MAX}))) ==
        std::vector<int64_t>{0, INT64_MAX});
  CHECK(lzt::int_values(lz::relu(lz::tensor({0, 200, 255}, kUInt8))) ==
        std::vector<int64_t>{0, 200, 255});
  REQUIRE_THROWS_AS(lz::relu(lz::tensor({true})), TypeError);
  REQUIRE_THROWS_WITH(lz::relu(lz::tensor({true})), Catch::Contains("[relu]") && Catch::Contains("bool"));
}

TEST_CASE("unary ops on non-contiguous inputs", "[eager][unary][layout]") {
  const Un op = GENERATE(Un::Neg, Un::Exp, Un::Relu);
  const ScalarType dtype = GENERATE(kUInt8, kInt32, kFloat16, kBFloat16, kFloat32, kFloat64);
  INFO(name_of(op) << " " << dtype);
  const Tensor base = lzt::sample_tensor({8, 12}, dtype, 17);
  const ScalarType rt = result_dtype(op, dtype);
  auto check = [&](const char* what, const Tensor& x) {
    INFO(what);
    const Tensor r = apply(op, x);
    CHECK(lzt::sizes_vec(r.sizes()) == lzt::sizes_vec(x.sizes()));
    CHECK_VALUES(r, lzt::map_values(x, [&](double v) { return reference(op, rt, v); }));
    CHECK(lzt::same_values(r, apply(op, x.contiguous())) == "");
  };
  check("transposed", base.t());
  check("step 2", base.slice(1, 1, 12, 2));
  check("step 3 of transpose", base.t().slice(0, 0, 12, 3));
  check("expanded", base.select(1, 3).unsqueeze(1).expand({8, 5}));
  check("as_strided", base.as_strided({6, 6}, {7, 3}, 2));
  check("select", base.select(1, 5));
  check("permuted 3-D", base.view({2, 4, 12}).permute({2, 0, 1}));
}

TEST_CASE("unary ops on 0-size and 0-dim tensors", "[eager][unary]") {
  const Un op = GENERATE(Un::Neg, Un::Exp, Un::Relu);
  const Tensor e = apply(op, lz::empty({2, 0, 3}, kInt32));
  CHECK_SHAPE(e, {2, 0, 3});
  CHECK(e.dtype() == result_dtype(op, kInt32));
  CHECK(apply(op, lz::empty({0})).numel() == 0);
  const Tensor s = apply(op, lz::scalar_tensor(-1.5));
  CHECK(s.dim() == 0);
  CHECK(s.item<double>() == Approx(reference(op, kFloat32, -1.5)).epsilon(1e-6));
}

TEST_CASE("in-place unary ops", "[eager][unary][inplace]") {
  const Un op = GENERATE(Un::Neg, Un::Exp, Un::Relu);
  INFO(name_of(op));
  SECTION("float self") {
    const ScalarType dtype = GENERATE(from_range(lzt::kFloatDtypes));
    const Tensor x0 = lzt::sample_tensor({3, 7}, dtype, 3);
    Tensor x = x0.clone();
    void* data = x.data_ptr();
    const uint64_t v0 = x._version();
    Tensor& r = apply_(op, x);
    CHECK(&r == &x);
    CHECK(x.data_ptr() == data);
    CHECK(x._version() == v0 + 1);
    CHECK(x.dtype() == dtype);
    CHECK_VALUES(x, lzt::map_values(x0, [&](double v) { return reference(op, dtype, v); }));
  }
  SECTION("integral self") {
    Tensor x = lz::tensor({-3, 0, 4}, kInt32);
    if (op == Un::Exp) {
      // exp's float result can't be written back into int32.
      REQUIRE_THROWS_AS(apply_(op, x), TypeError);
      REQUIRE_THROWS_WITH(apply_(op, x), Catch::Contains("[exp_") && Catch::Contains("can't be cast"));
      CHECK(lzt::int_values(x) == std::vector<int64_t>{-3, 0, 4});
    } else {
      apply_(op, x);
      CHECK(lzt::int_values(x) ==
            (op == Un::Neg ? std::vector<int64_t>{3, 0, -4} : std::vector<int64_t>{0, 0, 4}));
    }
  }
  SECTION("through a view") {
    Tensor base = lz::tensor({{-1.0, 2.0, -3.0}, {4.0, -5.0, 6.0}});
    const uint64_t v0 = base._version();
    Tensor col = base.select(1, 1);
    apply_(op, col);
    CHECK(base._version() == v0 + 1);
    const std::vector<double> expected{-1, reference(op, kFloat32, 2), -3,
                                       4,  reference(op, kFloat32, -5), 6};
    CHECK_VALUES(base, expected);
    Tensor tr = base.t();
    apply_(op, tr);
    std::vector<double> twice;
    for (double v : expected) twice.push_back(reference(op, kFloat32, v));
    CHECK_VALUES_TOL(base, twice, 1e-6, 0);
  }
  SECTION("expanded self") {
    Tensor e = lz::ones({3}).expand({4, 3});
    REQUIRE_THROWS_AS(apply_(op, e), ValueError);
    REQUIRE_THROWS_WITH(apply_(op, e), Catch::Contains("single memory location"));
  }
  SECTION("0-size self") {
    Tensor e = lz::empty({0, 4});
    CHECK_NOTHROW(apply_(op, e));
  }
}

TEST_CASE("unary out= variants", "[eager][unary][out]") {
  const Un op = GENERATE(Un::Neg, Un::Exp, Un::Relu);
  INFO(name_of(op));
  const Tensor x = lzt::sample_tensor({2, 5}, kFloat32, 9);
  const auto ref = lzt::map_values(x, [&](double v) { return reference(op, kFloat32, v); });
  SECTION("empty out is resized") {
    Tensor out = lz::empty({0});
    Tensor& r = apply_out(op, out, x);
    CHECK(&r == &out);
    CHECK_SHAPE(out, {2, 5});
    CHECK_VALUES(out, ref);
  }
  SECTION("matching out, non-contiguous") {
    Tensor storage = lz::zeros({5, 2});
    Tensor out = storage.t();
    apply_out(op, out, x);
    CHECK_VALUES(out, ref);
  }
  SECTION("wrong shape: resized, with a warning (as libtorch)") {
    std::vector<std::string> warnings;
    const lz::WarningHandlerGuard capture([&](std::string_view m) { warnings.emplace_back(m); });
    Tensor out = lz::zeros({5, 2});
    apply_out(op, out, x);
    CHECK_SHAPE(out, {2, 5});
    CHECK_VALUES(out, ref);
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains(std::string("[") + name_of(op)) && Catch::Contains("[5, 2]") &&
                                Catch::Contains("[2, 5]"));
  }
  SECTION("wider dtype") {
    Tensor out = lz::empty({2, 5}, kFloat64);
    apply_out(op, out, x);
    CHECK(out.dtype() == kFloat64);
    CHECK_VALUES_TOL(out, ref, 1e-6, 0);
  }
  SECTION("narrower category") {
    Tensor out = lz::empty({2, 5}, kInt32);
    REQUIRE_THROWS_AS(apply_out(op, out, x), TypeError);
    REQUIRE_THROWS_WITH(apply_out(op, out, x), Catch::Contains("can't be cast"));
  }
  SECTION("out aliases the input") {
    Tensor y = x.clone();
    apply_out(op, y, y);
    CHECK_VALUES(y, ref);
  }
  SECTION("exp of an int tensor into float64") {
    Tensor out = lz::empty({0}, kFloat64);
    lz::exp_out(out, lz::tensor({0, 1, 2}));
    CHECK(out.dtype() == kFloat64);
    CHECK_VALUES_TOL(out, std::vector<double>{1, M_E, std::exp(2.0)}, 1e-6, 0);
  }
}

TEST_CASE("unary ops reject undefined tensors", "[eager][unary][errors]") {
  const Un op = GENERATE(Un::Neg, Un::Exp, Un::Relu);
  const Tensor u;
  CHECK_THROWS_AS(apply(op, u), Error);
  Tensor out = lz::empty({0});
  REQUIRE_THROWS_AS(apply_out(op, out, u), ValueError);
  REQUIRE_THROWS_WITH(apply_out(op, out, u), Catch::Contains(std::string("[") + name_of(op)) &&
                                                 Catch::Contains("self"));
}
