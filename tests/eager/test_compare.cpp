// equal and allclose.
#include "test_util.h"
#include "tests/float_constants.h"

using namespace lz;
using lzt::make_tensor;

namespace {
using lzt::kNaN;
using lzt::kInf;
}  // namespace

TEST_CASE("equal", "[eager][compare]") {
  SECTION("same sizes and values") {
    const ScalarType dtype = GENERATE(from_range(lzt::kAllDtypes));
    INFO(dtype);
    const Tensor a = lzt::sample_tensor({3, 5}, dtype, 4);
    const Tensor b = lzt::sample_tensor({3, 5}, dtype, 4);
    CHECK(lz::equal(a, b));
    CHECK(lz::equal(a, a));
    // One element differs: the last one, and the first one.
    for (int64_t idx : {int64_t{0}, int64_t{14}}) {
      std::vector<double> v = lzt::values(a);
      v[idx] = dtype == kBool ? 1 - v[idx] : (v[idx] == 1 ? 2 : 1);
      CHECK_FALSE(lz::equal(a, make_tensor(v, {3, 5}, dtype)));
      CHECK_FALSE(lz::equal(make_tensor(v, {3, 5}, dtype), a));
    }
  }
  SECTION("different shapes are not equal") {
    CHECK_FALSE(lz::equal(lz::ones({3}), lz::ones({1, 3})));
    CHECK_FALSE(lz::equal(lz::ones({2, 3}), lz::ones({3, 2})));
    CHECK_FALSE(lz::equal(lz::ones({3}), lz::ones({})));
    CHECK_FALSE(lz::equal(lz::ones({0}), lz::ones({0, 1})));
    CHECK_FALSE(lz::equal(lz::ones({2}), lz::ones({1})));  // no broadcasting
  }
  SECTION("values compare after type promotion") {
    CHECK(lz::equal(lz::tensor({1, 2, 3}), lz::tensor({1.0, 2.0, 3.0})));
    CHECK(lz::equal(lz::tensor({1, 2}, kInt32), lz::tensor({1, 2}, kInt64)));
    CHECK(lz::equal(lz::tensor({true, false}), lz::tensor({1, 0}, kUInt8)));
    CHECK_FALSE(lz::equal(lz::tensor({1, 2}), lz::tensor({1.0, 2.5})));
    CHECK(lz::equal(lz::tensor({0.5}, kFloat16), lz::tensor({0.5}, kBFloat16)));
    CHECK_FALSE(lz::equal(lz::tensor({0.1}, kFloat16), lz::tensor({0.1}, kBFloat16)));
    CHECK_FALSE(lz::equal(lz::tensor({0.1f}), lz::tensor({0.1}, kFloat64)));
  }
  SECTION("special values") {
    CHECK_FALSE(lz::equal(make_tensor({kNaN}, kFloat32), make_tensor({kNaN}, kFloat32)));
    const Tensor n = make_tensor({1, kNaN}, kFloat64);
    CHECK_FALSE(lz::equal(n, n));
    CHECK(lz::equal(make_tensor({kInf, -kInf}, kFloat32), make_tensor({kInf, -kInf}, kFloat32)));
    CHECK_FALSE(lz::equal(make_tensor({kInf}, kFloat32), make_tensor({-kInf}, kFloat32)));
    CHECK(lz::equal(make_tensor({0.0}, kFloat32), make_tensor({-0.0}, kFloat32)));
    CHECK(lz::equal(make_tensor({0.0}, kFloat16), make_tensor({-0.0}, kFloat16)));
  }
  SECTION("layouts do not matter") {
    const Tensor a = lzt::sample_tensor({4, 6}, kFloat32, 5);
    CHECK(lz::equal(a.t(), a.t().contiguous()));
    CHECK(lz::equal(a.slice(1, 0, 6, 2), a.slice(1, 0, 6, 2).clone()));
    CHECK_FALSE(lz::equal(a.slice(1, 0, 6, 2), a.slice(1, 1, 6, 2)));
    CHECK(lz::equal(a.select(0, 1).expand({3, 6}), a.select(0, 1).expand({3, 6}).contiguous()));
    const Tensor sq = lzt::sample_tensor({4, 4}, kInt64, 6);
    CHECK_FALSE(lz::equal(sq, sq.t()));
  }
  SECTION("0-size and 0-dim") {
    CHECK(lz::equal(lz::empty({0}), lz::empty({0})));
    CHECK(lz::equal(lz::empty({2, 0}), lz::empty({2, 0}, kInt32)));
    CHECK(lz::equal(lz::scalar_tensor(3.0), lz::scalar_tensor(3)));
    CHECK_FALSE(lz::equal(lz::scalar_tensor(3.0), lz::scalar_tensor(4.0)));
  }
}

TEST_CASE("allclose", "[eager][compare]") {
  SECTION("tolerances") {
    const Tensor a = lz::tensor({1.0, 100.0}, kFloat64);
    CHECK(lz::allclose(a, a));
    CHECK(lz::allclose(a, lz::tensor({1.0 + 5e-6, 100.0 + 5e-4}, kFloat64)));
    CHECK_FALSE(lz::allclose(a, lz::tensor({1.0 + 5e-5, 100.0}, kFloat64)));
    CHECK_FALSE(lz::allclose(a, lz::tensor({1.0, 100.01}, kFloat64)));
    CHECK(lz::allclose(a, lz::tensor({1.01, 100.01}, kFloat64), 0.0, 0.02));
    CHECK_FALSE(lz::allclose(a, lz::tensor({1.01, 100.03}, kFloat64), 0.0, 0.02));
    CHECK(lz::allclose(a, lz::tensor({1.05, 105.0}, kFloat64), 0.1, 0.0));
    // atol matters around zero, where rtol does nothing.
    const Tensor z = lz::tensor({0.0}, kFloat64);
    CHECK_FALSE(lz::allclose(z, lz::tensor({1e-7}, kFloat64), 1e-5, 0.0));
    CHECK(lz::allclose(z, lz::tensor({1e-9}, kFloat64)));
    CHECK_FALSE(lz::allclose(z, lz::tensor({1e-7}, kFloat64)));
  }
  SECTION("rtol is relative to other") {
    // |a - b| <= atol + rtol * |b|: 0.1 <= 0.095 * 1.1, but 0.1 > 0.095 * 1.0.
    const Tensor one = lz::tensor({1.0}, kFloat64);
    const Tensor more = lz::tensor({1.1}, kFloat64);
    CHECK(lz::allclose(one, more, 0.095, 0.0));
    CHECK_FALSE(lz::allclose(more, one, 0.095, 0.0));
  }
  SECTION("NaN") {
    const Tensor n = make_tensor({1.0, kNaN}, kFloat32);
    CHECK_FALSE(lz::allclose(n, n));
    CHECK(lz::allclose(n, n, 1e-5, 1e-8, /*equal_nan=*/true));
    const Tensor m = make_tensor({1.0, 2.0}, kFloat32);
    CHECK_FALSE(lz::allclose(n, m, 1e-5, 1e-8, true));
    CHECK_FALSE(lz::allclose(m, n, 1e-5, 1e-8, true));
    CHECK_FALSE(lz::allclose(m, n, 1e10, 1e10, true));
  }
  SECTION("infinities") {
    const Tensor i = make_tensor({kInf, -kInf}, kFloat64);
    CHECK(lz::allclose(i, i));
    CHECK_FALSE(lz::allclose(i, make_tensor({-kInf, kInf}, kFloat64)));
    CHECK_FALSE(lz::allclose(make_tensor({kInf}, kFloat64), make_tensor({1e308}, kFloat64), 1.0, 1.0));
    CHECK_FALSE(lz::allclose(make_tensor({1e308}, kFloat64), make_tensor({kInf}, kFloat64), 1.0, 1e300));
  }
  SECTION("broadcasting") {
    const Tensor row = lz::tensor({1.0, 2.0, 3.0});
    const Tensor m = lz::tensor({{1.0, 2.0, 3.0}, {1.0, 2.0, 3.0000001}});
    CHECK(lz::allclose(row, m));
    CHECK(lz::allclose(m, row));
    CHECK_FALSE(lz::allclose(lz::tensor({{1.0, 2.0, 3.0}, {1.0, 2.5, 3.0}}), row));
    CHECK(lz::allclose(lz::scalar_tensor(2.0), lz::full({4, 2}, 2.0)));
    CHECK_FALSE(lz::allclose(lz::scalar_tensor(2.0), lz::tensor({2.0, 2.1})));
    CHECK(lz::allclose(lz::empty({0, 3}), row));
    REQUIRE_THROWS_AS(lz::allclose(row, lz::ones({2})), ShapeError);
    REQUIRE_THROWS_WITH(lz::allclose(row, lz::ones({2})), Catch::Contains("[allclose]") &&
                                                              Catch::Contains("[3]") &&
                                                              Catch::Contains("[2]"));
  }
  SECTION("dtypes") {
    const ScalarType dtype = GENERATE(from_range(lzt::kAllDtypes));
    INFO(dtype);
    const Tensor a = lzt::sample_tensor({10}, dtype, 2);
    CHECK(lz::allclose(a, a.clone()));
    CHECK(lz::allclose(a.t(), a));
    std::vector<double> v = lzt::values(a);
    v[3] = dtype == kBool ? 1 - v[3] : (v[3] == 5 ? 6 : 5);
    CHECK_FALSE(lz::allclose(a, make_tensor(v, {10}, dtype)));
  }
  SECTION("16-bit values need a looser tolerance") {
    const Tensor h = lz::tensor({0.1}, kFloat16);
    const Tensor h2 = lz::tensor({0.1001}, kFloat16);  // the next float16 up: 0.10009765625
    CHECK_FALSE(lz::allclose(h, h2));
    CHECK(lz::allclose(h, h2, 2e-3, 0.0));
  }
  SECTION("different dtypes are rejected") {
    REQUIRE_THROWS_AS(lz::allclose(lz::ones({2}), lz::ones({2}, kFloat64)), TypeError);
    REQUIRE_THROWS_WITH(lz::allclose(lz::ones({2}), lz::ones({2}, kFloat64)),
                        Catch::Contains("[allclose]") && Catch::Contains("float32") &&
                            Catch::Contains("float64"));
    CHECK_THROWS_AS(lz::allclose(lz::ones({2}, kInt32), lz::ones({2}, kInt64)), TypeError);
  }
  SECTION("negative tolerances are rejected") {
    CHECK_THROWS_AS(lz::allclose(lz::ones({2}), lz::ones({2}), -1.0, 0.0), ValueError);
    CHECK_THROWS_AS(lz::allclose(lz::ones({2}), lz::ones({2}), 0.0, -1.0), ValueError);
  }
}

TEST_CASE("comparisons reject undefined tensors", "[eager][compare][errors]") {
  const Tensor u;
  REQUIRE_THROWS_AS(lz::equal(u, lz::ones({1})), ValueError);
  REQUIRE_THROWS_WITH(lz::equal(u, lz::ones({1})), Catch::Contains("[equal]") && Catch::Contains("self"));
  REQUIRE_THROWS_AS(lz::equal(lz::ones({1}), u), ValueError);
  REQUIRE_THROWS_WITH(lz::equal(lz::ones({1}), u), Catch::Contains("[equal]") && Catch::Contains("other"));
  REQUIRE_THROWS_AS(lz::allclose(lz::ones({1}), u), ValueError);
  REQUIRE_THROWS_WITH(lz::allclose(lz::ones({1}), u), Catch::Contains("[allclose]"));
}
