// add / sub / mul / div: values for every dtype, Scalar overloads, type
// promotion, broadcasting, non-contiguous inputs, in-place and out= variants
// and their errors.
#include "test_util.h"

using namespace lz;
using lzt::make_tensor;
using lzt::values;

namespace {

enum class Op { Add, Sub, Mul, Div };

const char* name_of(Op op) {
  switch (op) {
    case Op::Add: return "add";
    case Op::Sub: return "sub";
    case Op::Mul: return "mul";
    case Op::Div: return "div";
  }
  return "?";
}

Tensor apply(Op op, const Tensor& a, const Tensor& b) {
  switch (op) {
    case Op::Add: return lz::add(a, b);
    case Op::Sub: return lz::sub(a, b);
    case Op::Mul: return lz::mul(a, b);
    case Op::Div: return lz::div(a, b);
  }
  return {};
}

Tensor& apply_out(Op op, Tensor& out, const Tensor& a, const Tensor& b) {
  switch (op) {
    case Op::Add: return lz::add_out(out, a, b);
    case Op::Sub: return lz::sub_out(out, a, b);
    case Op::Mul: return lz::mul_out(out, a, b);
    case Op::Div: return lz::div_out(out, a, b);
  }
  return out;
}

Tensor& apply_(Op op, Tensor& a, const Tensor& b) {
  switch (op) {
    case Op::Add: return a.add_(b);
    case Op::Sub: return a.sub_(b);
    case Op::Mul: return a.mul_(b);
    case Op::Div: return a.div_(b);
  }
  return a;
}

// The float64 reference of one element, with the result dtype's semantics:
// bool add/mul are or/and; integers compute in int64 and wrap on the store.
double reference(Op op, ScalarType result, double x, double y) {
  if (result == kBool) {
    if (op == Op::Add) return (x != 0 || y != 0) ? 1 : 0;
    if (op == Op::Mul) return (x != 0 && y != 0) ? 1 : 0;
  }
  if (lzt::is_int(result)) {
    const int64_t a = static_cast<int64_t>(x), b = static_cast<int64_t>(y);
    int64_t r = 0;
    switch (op) {
      case Op::Add: r = a + b; break;
      case Op::Sub: r = a - b; break;
      case Op::Mul: r = a * b; break;
      case Op::Div: break;
    }
    return lzt::round_to(result, static_cast<double>(r));
  }
  switch (op) {
    case Op::Add: return x + y;
    case Op::Sub: return x - y;
    case Op::Mul: return x * y;
    case Op::Div: return x / y;
  }
  return 0;
}

ScalarType expected_result_dtype(Op op, ScalarType t) {
  if (op == Op::Div && !lzt::is_float(t)) return kFloat32;
  return t;
}

}  // namespace

TEST_CASE("binary ops match a float64/int64 reference for every dtype", "[eager][binary]") {
  const ScalarType dtype = GENERATE(from_range(lzt::kAllDtypes));
  const Op op = GENERATE(Op::Add, Op::Sub, Op::Mul, Op::Div);
  INFO(name_of(op) << " " << dtype);
  if (dtype == kBool && op == Op::Sub) return;  // rejected, see the bool test
  const Tensor a = lzt::sample_tensor({3, 17}, dtype, 11);
  const Tensor b = lzt::sample_tensor({3, 17}, dtype, 23, /*nonzero=*/true);
  const Tensor r = apply(op, a, b);
  const ScalarType rt = expected_result_dtype(op, dtype);
  CHECK(r.dtype() == rt);
  CHECK_SHAPE(r, {3, 17});
  CHECK(r.is_contiguous());
  CHECK_VALUES(r, lzt::binary_reference(a, b, {3, 17}, [&](double x, double y) {
                 return reference(op, rt, x, y);
               }));
}

TEST_CASE("add and sub apply alpha", "[eager][binary]") {
  const ScalarType dtype = GENERATE(from_range(lzt::kNumericDtypes));
  INFO(dtype);
  const Tensor a = lzt::sample_tensor({2, 9}, dtype, 5);
  const Tensor b = lzt::sample_tensor({2, 9}, dtype, 6);
  if (lzt::is_float(dtype)) {
    CHECK_VALUES(lz::add(a, b, 0.5),
                 lzt::binary_reference(a, b, {2, 9}, [](double x, double y) { return x + 0.5 * y; }));
    CHECK_VALUES(lz::sub(a, b, -1.5),
                 lzt::binary_reference(a, b, {2, 9}, [](double x, double y) { return x + 1.5 * y; }));
    CHECK_VALUES(a.add(2.0, 0.25), lzt::map_values(a, [](double x) { return x + 0.5; }));
    CHECK_VALUES(a.sub(2.0, 0.25), lzt::map_values(a, [](double x) { return x - 0.5; }));
  }
  CHECK_VALUES(lz::add(a, b, 3), lzt::binary_reference(a, b, {2, 9}, [&](double x, double y) {
                 return lzt::round_to(dtype, x + 3 * y);
               }));
  CHECK_VALUES(lz::sub(a, b, 2), lzt::binary_reference(a, b, {2, 9}, [&](double x, double y) {
                 return lzt::round_to(dtype, x - 2 * y);
               }));
  CHECK_VALUES(lz::sub(a, b, 0), values(a));
}

TEST_CASE("uint8 arithmetic wraps around", "[eager][binary]") {
  const Tensor a = lz::tensor({250, 3, 16, 0}, kUInt8);
  const Tensor b = lz::tensor({10, 5, 20, 1}, kUInt8);
  const Tensor s = a + b;
  CHECK(s.dtype() == kUInt8);
  CHECK(lzt::int_values(s) == std::vector<int64_t>{4, 8, 36, 1});
  CHECK(lzt::int_values(a - b) == std::vector<int64_t>{240, 254, 252, 255});
  CHECK(lzt::int_values(a * b) == std::vector<int64_t>{(250 * 10) % 256, 15, 64, 0});
  // A wrapped int scalar does not promote uint8 (and wraps on the store).
  const Tensor w = a + 300;
  CHECK(w.dtype() == kUInt8);
  CHECK(lzt::int_values(w) == std::vector<int64_t>{(250 + 300) % 256, 303 % 256, 316 % 256, 300 % 256});
  CHECK(lzt::int_values(lz::add(a, b, 2)) == std::vector<int64_t>{270 % 256, 13, 56, 2});
  CHECK(lzt::int_values(lz::tensor({250}, kUInt8) + lz::tensor({10}, kUInt8)) ==
        std::vector<int64_t>{4});
}

TEST_CASE("integer division is true division", "[eager][binary]") {
  const ScalarType dtype = GENERATE(kUInt8, kInt32, kInt64);
  INFO(dtype);
  const Tensor a = make_tensor({7, 8, 1, 0, 9}, dtype);
  const Tensor b = make_tensor({2, 8, 3, 0, 0}, dtype);
  const Tensor q = a / b;
  CHECK(q.dtype() == kFloat32);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_VALUES(q, std::vector<double>{3.5, 1.0, 1.0 / 3.0, nan, inf});
  // Scalar divisor, and a scalar dividend.
  const Tensor h = a / 2;
  CHECK(h.dtype() == kFloat32);
  CHECK_VALUES(h, std::vector<double>{3.5, 4, 0.5, 0, 4.5});
  CHECK_VALUES(1 / make_tensor({2, 4}, dtype), std::vector<double>{0.5, 0.25});
  if (dtype != kUInt8) {
    CHECK_VALUES(make_tensor({-7, 7}, dtype) / make_tensor({2, -2}, dtype),
                 std::vector<double>{-3.5, -3.5});
    CHECK_VALUES(make_tensor({-1}, dtype) / make_tensor({0}, dtype), std::vector<double>{-inf});
  }
}

TEST_CASE("bool arithmetic: add is or and mul is and", "[eager][binary]") {
  const Tensor a = lz::tensor({false, false, true, true});
  const Tensor b = lz::tensor({false, true, false, true});
  REQUIRE(a.dtype() == kBool);
  const Tensor s = a + b;
  CHECK(s.dtype() == kBool);
  CHECK(lzt::int_values(s) == std::vector<int64_t>{0, 1, 1, 1});
  const Tensor p = a * b;
  CHECK(p.dtype() == kBool);
  CHECK(lzt::int_values(p) == std::vector<int64_t>{0, 0, 0, 1});
  CHECK(lzt::int_values(lz::add(a, b, true)) == std::vector<int64_t>{0, 1, 1, 1});
  CHECK(lzt::int_values(lz::add(a, b, false)) == std::vector<int64_t>{0, 0, 1, 1});
  // div of bools is true division in float32.
  const Tensor q = a / lz::tensor({true, true, true, true});
  CHECK(q.dtype() == kFloat32);
  CHECK_VALUES(q, std::vector<double>{0, 0, 1, 1});
  // A number promotes bool by category.
  const Tensor i = a + 2;
  CHECK(i.dtype() == kInt64);
  CHECK(lzt::int_values(i) == std::vector<int64_t>{2, 2, 3, 3});
  const Tensor f = a * 2.5;
  CHECK(f.dtype() == kFloat32);
  CHECK_VALUES(f, std::vector<double>{0, 0, 2.5, 2.5});
  // In place stays bool.
  Tensor c = lz::tensor({false, true, false});
  c.add_(lz::tensor({true, false, false}));
  CHECK(lzt::int_values(c) == std::vector<int64_t>{1, 1, 0});
  c.mul_(lz::tensor({true, false, true}));
  CHECK(lzt::int_values(c) == std::vector<int64_t>{1, 0, 0});
}

TEST_CASE("bool subtraction is rejected", "[eager][binary][errors]") {
  const Tensor a = lz::tensor({true, false});
  REQUIRE_THROWS_AS(lz::sub(a, a), TypeError);
  REQUIRE_THROWS_WITH(lz::sub(a, a), Catch::Contains("[sub]") && Catch::Contains("bool"));
  CHECK_THROWS_AS(a - lz::tensor({1, 2}), TypeError);
  CHECK_THROWS_AS(lz::tensor({1, 2}) - a, TypeError);
  CHECK_THROWS_AS(a - 1, TypeError);
  Tensor c = a.clone();
  CHECK_THROWS_AS(c.sub_(a), TypeError);
  Tensor out = lz::empty({0}, kBool);
  CHECK_THROWS_AS(lz::sub_out(out, a, a), TypeError);
  CHECK(lzt::int_values(c) == std::vector<int64_t>{1, 0});  // untouched
}

TEST_CASE("alpha must fit the result category", "[eager][binary][errors]") {
  const Tensor i = lz::tensor({1, 2, 3}, kInt32);
  const Tensor j = lz::tensor({4, 5, 6}, kInt64);
  REQUIRE_THROWS_AS(lz::add(i, j, 2.5), TypeError);
  REQUIRE_THROWS_WITH(lz::add(i, j, 2.5), Catch::Contains("[add]") && Catch::Contains("alpha") &&
                                              Catch::Contains("int64"));
  REQUIRE_THROWS_AS(lz::sub(i, j, 0.5), TypeError);
  REQUIRE_THROWS_WITH(lz::sub(i, j, 0.5), Catch::Contains("[sub]") && Catch::Contains("alpha"));
  CHECK_THROWS_AS(lz::add(i, j, true), TypeError);
  CHECK_THROWS_AS(i.add(2, 1.5), TypeError);
  Tensor c = i.clone();
  CHECK_THROWS_AS(c.add_(j, 2.5), TypeError);
  CHECK(lzt::int_values(c) == std::vector<int64_t>{1, 2, 3});
  // A floating alpha is fine once the result is floating.
  CHECK_VALUES(lz::add(i, lz::tensor({1.0, 1.0, 1.0}), 2.5), std::vector<double>{3.5, 4.5, 5.5});
}

TEST_CASE("type promotion of binary results", "[eager][binary][promotion]") {
  struct Case {
    ScalarType a, b, result;
  };
  const Case c = GENERATE(Case{kInt32, kInt64, kInt64}, Case{kInt32, kFloat16, kFloat16},
                          Case{kBool, kBool, kBool}, Case{kFloat16, kBFloat16, kFloat32},
                          Case{kUInt8, kInt32, kInt32}, Case{kBool, kUInt8, kUInt8},
                          Case{kInt64, kFloat32, kFloat32}, Case{kFloat32, kFloat64, kFloat64},
                          Case{kUInt8, kBFloat16, kBFloat16}, Case{kBool, kFloat64, kFloat64},
                          Case{kFloat16, kFloat32, kFloat32}, Case{kInt64, kBFloat16, kBFloat16});
  INFO(c.a << " + " << c.b);
  const Tensor a = make_tensor({1, 0, 1, 1}, {2, 2}, c.a);
  const Tensor b = make_tensor({1, 1, 0, 1}, {2, 2}, c.b);
  for (const Tensor& r : {a + b, b + a, a * b, lz::add(a, b, 1)}) {
    CHECK(r.dtype() == c.result);
  }
  CHECK_VALUES(a + b, c.result == kBool ? std::vector<double>{1, 1, 1, 1}
                                        : std::vector<double>{2, 1, 1, 2});
  CHECK_VALUES(a * b, std::vector<double>{1, 0, 0, 1});
  if (c.a != kBool && c.b != kBool) {
    CHECK(lz::sub(a, b).dtype() == c.result);
    CHECK_VALUES(a - b, std::vector<double>{0, -1, 1, 0});
  }
  CHECK(lz::div(a, b).dtype() == (lzt::is_float(c.result) ? c.result : kFloat32));
}

TEST_CASE("promotion with mixed values keeps precision", "[eager][binary][promotion]") {
  const Tensor i = lz::tensor({1, 2, 3}, kInt32);
  const Tensor h = lz::tensor({0.5, 0.25, -4.0}, kFloat16);
  const Tensor r = i + h;
  CHECK(r.dtype() == kFloat16);
  CHECK_VALUES(r, std::vector<double>{1.5, 2.25, -1.0});
  const Tensor bf = lz::tensor({2.25, 1.0, 3.0}, kBFloat16);
  const Tensor hb = h + bf;
  CHECK(hb.dtype() == kFloat32);
  CHECK_VALUES(hb, std::vector<double>{2.75, 1.25, -1.0});
  // int32 + int64 computes in int64: no wrap at int32's range.
  const Tensor big = lz::tensor({2147483647}, kInt32) + lz::tensor({1}, kInt64);
  CHECK(big.dtype() == kInt64);
  CHECK(lzt::int_values(big) == std::vector<int64_t>{2147483648LL});
  // ... while int32 + int32 wraps.
  CHECK(lzt::int_values(lz::tensor({2147483647}, kInt32) + lz::tensor({1}, kInt32)) ==
        std::vector<int64_t>{-2147483648LL});
  // float32 + float64 computes in float64.
  const Tensor d = lz::tensor({1.0}, kFloat64) + lz::tensor({1e-10}, kFloat64);
  CHECK(values(d)[0] == 1.0 + 1e-10);
  const Tensor fd = lz::tensor({1.0f}) + lz::tensor({1e-10}, kFloat64);
  CHECK(fd.dtype() == kFloat64);
  CHECK(values(fd)[0] == 1.0 + 1e-10);
}

TEST_CASE("0-dim tensors and wrapped numbers promote by category only", "[eager][binary][promotion]") {
  const Tensor i32 = lz::tensor({1, 2, 3}, kInt32);
  SECTION("dimensioned tensor wins within a category") {
    const Tensor r = i32 + lz::scalar_tensor(5, kInt64);
    CHECK(r.dtype() == kInt32);
    CHECK(lzt::int_values(r) == std::vector<int64_t>{6, 7, 8});
    CHECK((lz::tensor({1.0f, 2.0f}) + lz::scalar_tensor(1.0, kFloat64)).dtype() == kFloat32);
    CHECK((lz::tensor({1.0}, kFloat16) * lz::scalar_tensor(2.0, kFloat64)).dtype() == kFloat16);
  }
  SECTION("a 0-dim tensor of a higher category keeps its own dtype") {
    const Tensor r = i32 + lz::scalar_tensor(0.5, kFloat64);
    CHECK(r.dtype() == kFloat64);
    CHECK_VALUES(r, std::vector<double>{1.5, 2.5, 3.5});
    CHECK((lz::tensor({true}) + lz::scalar_tensor(3, kInt32)).dtype() == kInt32);
  }
  SECTION("two 0-dim tensors promote normally") {
    const Tensor r = lz::scalar_tensor(2, kInt32) + lz::scalar_tensor(3, kInt64);
    CHECK(r.dim() == 0);
    CHECK(r.dtype() == kInt64);
    CHECK(r.item<int64_t>() == 5);
  }
  SECTION("wrapped numbers") {
    const Tensor f = i32 + 2.5;
    CHECK(f.dtype() == kFloat32);
    CHECK_VALUES(f, std::vector<double>{3.5, 4.5, 5.5});
    const Tensor g = 2.5 + i32;
    CHECK(g.dtype() == kFloat32);
    CHECK_VALUES(g, std::vector<double>{3.5, 4.5, 5.5});
    const Tensor k = i32 * int64_t{3};
    CHECK(k.dtype() == kInt32);
    CHECK(lzt::int_values(k) == std::vector<int64_t>{3, 6, 9});
    const Tensor h = lz::tensor({1.0, 2.0}, kFloat16) + 2.5;
    CHECK(h.dtype() == kFloat16);
    CHECK_VALUES(h, std::vector<double>{3.5, 4.5});
    const Tensor b = lz::tensor({1.0, 2.0}, kBFloat16) * 0.5;
    CHECK(b.dtype() == kBFloat16);
    CHECK_VALUES(b, std::vector<double>{0.5, 1.0});
    const Tensor d = lz::tensor({1.0}, kFloat64) + 1;
    CHECK(d.dtype() == kFloat64);
    CHECK((lz::tensor({1, 2}) + true).dtype() == kInt64);
    CHECK(lzt::int_values(lz::tensor({1, 2}) + true) == std::vector<int64_t>{2, 3});
  }
  SECTION("scalar on the left") {
    const Tensor r = 2 - i32;
    CHECK(r.dtype() == kInt32);
    CHECK(lzt::int_values(r) == std::vector<int64_t>{1, 0, -1});
    const Tensor q = 6.0 / lz::tensor({2.0f, 4.0f});
    CHECK(q.dtype() == kFloat32);
    CHECK_VALUES(q, std::vector<double>{3.0, 1.5});
    const Tensor q2 = 3 / i32;
    CHECK(q2.dtype() == kFloat32);
    CHECK_VALUES(q2, std::vector<double>{3.0, 1.5, 1.0});
    CHECK(lzt::int_values(3 * i32) == std::vector<int64_t>{3, 6, 9});
    CHECK(lzt::int_values(1 + i32) == std::vector<int64_t>{2, 3, 4});
    CHECK_VALUES(0.5 - lz::tensor({1.0f}), std::vector<double>{-0.5});
  }
}

TEST_CASE("binary ops broadcast", "[eager][binary][broadcast]") {
  const Op op = GENERATE(Op::Add, Op::Sub, Op::Mul, Op::Div);
  INFO(name_of(op));
  auto check = [&](const Tensor& a, const Tensor& b, std::vector<int64_t> shape) {
    INFO(lzt::fmt(a.sizes()) << " with " << lzt::fmt(b.sizes()));
    const Tensor r = apply(op, a, b);
    CHECK(lzt::sizes_vec(r.sizes()) == shape);
    CHECK(r.dtype() == kFloat32);
    CHECK_VALUES(r, lzt::binary_reference(a, b, shape, [&](double x, double y) {
                   return reference(op, kFloat32, x, y);
                 }));
  };
  const auto f = [](std::vector<int64_t> s, uint32_t seed) {
    return lzt::sample_tensor(s, kFloat32, seed, /*nonzero=*/true);
  };
  check(f({3, 1}, 1), f({1, 4}, 2), {3, 4});
  check(f({4}, 3), f({2, 3, 4}, 4), {2, 3, 4});
  check(f({2, 3, 4}, 5), f({4}, 6), {2, 3, 4});
  check(f({2, 1, 4}, 7), f({3, 1}, 8), {2, 3, 4});
  check(f({}, 9), f({2, 3}, 10), {2, 3});
  check(f({2, 3}, 11), f({}, 12), {2, 3});
  check(f({}, 13), f({}, 14), {});
  check(f({1}, 15), f({}, 16), {1});
  check(f({5, 1, 1}, 17), f({1, 6, 7}, 18), {5, 6, 7});
  check(f({1, 40}, 19), f({33, 1}, 20), {33, 40});
  // 0-size shapes.
  check(f({0}, 21), f({1}, 22), {0});
  check(f({2, 0, 3}, 23), f({3}, 24), {2, 0, 3});
  check(f({2, 0, 3}, 25), f({2, 1, 3}, 26), {2, 0, 3});
  check(f({0, 1}, 27), f({1, 5}, 28), {0, 5});
}

TEST_CASE("binary ops reject shapes that do not broadcast", "[eager][binary][errors]") {
  const Op op = GENERATE(Op::Add, Op::Sub, Op::Mul, Op::Div);
  const Tensor a = lz::ones({3});
  const Tensor b = lz::ones({4});
  const std::string tag = std::string("[") + name_of(op) + "]";
  REQUIRE_THROWS_AS(apply(op, a, b), ShapeError);
  REQUIRE_THROWS_WITH(apply(op, a, b),
                      Catch::Contains(tag) && Catch::Contains("[3]") && Catch::Contains("[4]"));
  REQUIRE_THROWS_AS(apply(op, lz::ones({2, 3}), lz::ones({3, 2})), ShapeError);
  REQUIRE_THROWS_WITH(apply(op, lz::ones({2, 3}), lz::ones({3, 2})),
                      Catch::Contains(tag) && Catch::Contains("[2, 3]") && Catch::Contains("[3, 2]"));
  CHECK_THROWS_AS(apply(op, lz::ones({2, 0}), lz::ones({2, 3})), ShapeError);
  Tensor out = lz::empty({0});
  CHECK_THROWS_AS(apply_out(op, out, a, b), ShapeError);
}

TEST_CASE("binary ops on non-contiguous inputs equal their contiguous copies",
          "[eager][binary][layout]") {
  const ScalarType dtype = GENERATE(from_range(lzt::kAllDtypes));
  const Op op = GENERATE(Op::Add, Op::Sub, Op::Mul, Op::Div);
  if (dtype == kBool && op == Op::Sub) return;
  INFO(name_of(op) << " " << dtype);
  const Tensor base_a = lzt::sample_tensor({6, 10}, dtype, 31);
  const Tensor base_b = lzt::sample_tensor({10, 6}, dtype, 37, /*nonzero=*/true);
  const ScalarType rt = expected_result_dtype(op, dtype);
  auto check = [&](const char* what, const Tensor& a, const Tensor& b) {
    INFO(what << ": " << lzt::fmt(a.sizes()) << "/" << lzt::fmt(a.strides()) << " with "
              << lzt::fmt(b.sizes()) << "/" << lzt::fmt(b.strides()));
    const Tensor r = apply(op, a, b);
    const std::vector<int64_t> shape = lzt::sizes_vec(r.sizes());
    CHECK_VALUES(r, lzt::binary_reference(a, b, shape, [&](double x, double y) {
                   return reference(op, rt, x, y);
                 }));
    CHECK(lzt::same_values(r, apply(op, a.contiguous(), b.contiguous())) == "");
  };
  // transposed [10, 6] with a contiguous [10, 6]
  check("transposed", base_a.t(), base_b);
  check("both transposed", base_a.t(), base_b.t().t());
  check("transposed other", base_b.t(), base_a);
  // stride-2 slices
  check("step 2", base_a.slice(1, 0, 10, 2), base_b.t().slice(1, 1, 10, 2));
  check("step 3 rows", base_a.slice(0, 0, 6, 3), base_a.slice(0, 1, 6, 3));
  // expanded (stride 0)
  check("expanded row", base_a.select(0, 2).expand({6, 10}), base_a);
  check("expanded col", base_a.slice(1, 0, 1).expand({6, 10}), base_a);
  check("expanded both", base_a.slice(1, 3, 4).expand({6, 10}), base_a.select(0, 1).unsqueeze(0).expand({6, 10}));
  // as_strided: overlapping sliding windows over the storage
  check("as_strided", base_a.as_strided({5, 4}, {3, 2}, 1), base_b.as_strided({5, 4}, {1, 5}, 2));
  // permuted 3-D
  const Tensor c3 = lzt::sample_tensor({3, 4, 5}, dtype, 41);
  const Tensor d3 = lzt::sample_tensor({5, 3, 4}, dtype, 43, true);
  check("permuted 3-D", c3.permute({2, 0, 1}), d3);
  check("permuted both", c3.permute({1, 2, 0}), d3.permute({2, 0, 1}));
}

TEST_CASE("binary ops on 0-size and 0-dim tensors", "[eager][binary]") {
  const Op op = GENERATE(Op::Add, Op::Sub, Op::Mul, Op::Div);
  const Tensor e = lz::empty({0});
  const Tensor r = apply(op, e, e);
  CHECK_SHAPE(r, {0});
  CHECK(r.numel() == 0);
  const Tensor e3 = apply(op, lz::ones({2, 0, 3}, kInt32), lz::ones({2, 0, 3}, kInt32));
  CHECK_SHAPE(e3, {2, 0, 3});
  CHECK(e3.dtype() == (op == Op::Div ? kFloat32 : kInt32));
  const Tensor a = lz::scalar_tensor(6.0);
  const Tensor b = lz::scalar_tensor(4.0);
  const Tensor s = apply(op, a, b);
  CHECK(s.dim() == 0);
  CHECK(s.dtype() == kFloat32);
  CHECK(s.item<double>() == reference(op, kFloat32, 6.0, 4.0));
}

TEST_CASE("float special values follow IEEE arithmetic", "[eager][binary]") {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const ScalarType dtype = GENERATE(from_range(lzt::kFloatDtypes));
  INFO(dtype);
  const Tensor a = make_tensor({inf, inf, 1, -1, 0, nan}, dtype);
  const Tensor b = make_tensor({inf, -inf, 0, 0, 0, 1}, dtype);
  CHECK_VALUES(a - b, std::vector<double>{nan, inf, 1, -1, 0, nan});
  CHECK_VALUES(a + b, std::vector<double>{inf, nan, 1, -1, 0, nan});
  CHECK_VALUES(a / b, std::vector<double>{nan, nan, inf, -inf, nan, nan});
  CHECK_VALUES(a * b, std::vector<double>{inf, -inf, 0, -0.0, 0, nan});
  // Overflow rounds to infinity in the narrow types.
  if (dtype == kFloat16) {
    CHECK_VALUES(make_tensor({60000}, dtype) * 2, std::vector<double>{inf});
    CHECK_VALUES(make_tensor({65504}, dtype) + make_tensor({8}, dtype), std::vector<double>{65504});
  }
}

TEST_CASE("binary ops handle larger inputs on every loop path", "[eager][binary][layout]") {
  // Inner loops: contiguous, broadcast scalar on either side, and strided.
  const Tensor a = lzt::sample_tensor({37, 129}, kFloat32, 3);
  const Tensor row = lzt::sample_tensor({129}, kFloat32, 4);
  const Tensor col = lzt::sample_tensor({37, 1}, kFloat32, 5);
  const Tensor sc = lz::scalar_tensor(1.75);
  auto add_ref = [](double x, double y) { return x + y; };
  CHECK_VALUES(a + row, lzt::binary_reference(a, row, {37, 129}, add_ref));
  CHECK_VALUES(row + a, lzt::binary_reference(row, a, {37, 129}, add_ref));
  CHECK_VALUES(a + col, lzt::binary_reference(a, col, {37, 129}, add_ref));
  CHECK_VALUES(col + a, lzt::binary_reference(col, a, {37, 129}, add_ref));
  CHECK_VALUES(sc - a, lzt::binary_reference(sc, a, {37, 129}, [](double x, double y) { return x - y; }));
  CHECK_VALUES(a - sc, lzt::binary_reference(a, sc, {37, 129}, [](double x, double y) { return x - y; }));
  CHECK_VALUES(a.t() * a.t(), lzt::map_values(a.t(), [](double x) { return x * x; }));
  CHECK_VALUES(col + row, lzt::binary_reference(col, row, {37, 129}, add_ref));
}

TEST_CASE("binary ops on high-rank permuted tensors", "[eager][binary][layout]") {
  // 7 dims of size 2 (more than the inline capacity of the size vectors),
  // with a reversed dim order that the iterator cannot merge away.
  const Tensor x = lzt::sample_tensor({2, 2, 2, 2, 3, 2, 2}, kFloat64, 91);
  const Tensor y = lzt::sample_tensor({2, 2, 3, 2, 2, 2, 2}, kFloat64, 92);
  const Tensor yp = y.permute({6, 5, 4, 3, 2, 1, 0});
  REQUIRE(lzt::sizes_vec(yp.sizes()) == lzt::sizes_vec(x.sizes()));
  CHECK_VALUES(x * yp, lzt::binary_reference(x, yp, {2, 2, 2, 2, 3, 2, 2},
                                             [](double a, double b) { return a * b; }));
  const Tensor row = lzt::sample_tensor({2}, kFloat64, 93);
  CHECK_VALUES(yp - row, lzt::binary_reference(yp, row, {2, 2, 2, 2, 3, 2, 2},
                                               [](double a, double b) { return a - b; }));
  // A permuted out= of the same sizes.
  Tensor out = lz::zeros({2, 2, 2, 2, 2, 3, 2}, kFloat64).permute({1, 0, 3, 2, 5, 4, 6});
  REQUIRE(lzt::sizes_vec(out.sizes()) == lzt::sizes_vec(x.sizes()));
  lz::add_out(out, x, yp);
  CHECK_VALUES(out, lzt::binary_reference(x, yp, {2, 2, 2, 2, 3, 2, 2},
                                          [](double a, double b) { return a + b; }));
}

// ---- In place -----------------------------------------------------------------

TEST_CASE("in-place binary ops write into self", "[eager][binary][inplace]") {
  const ScalarType dtype = GENERATE(from_range(lzt::kAllDtypes));
  const Op op = GENERATE(Op::Add, Op::Sub, Op::Mul, Op::Div);
  INFO(name_of(op) << "_ " << dtype);
  if (dtype == kBool && op == Op::Sub) return;
  const Tensor a0 = lzt::sample_tensor({4, 5}, dtype, 51);
  const Tensor b = lzt::sample_tensor({4, 5}, dtype, 52, /*nonzero=*/true);
  Tensor a = a0.clone();
  void* const data = a.data_ptr();
  const uint64_t v0 = a._version();
  if (op == Op::Div && !lzt::is_float(dtype)) {
    // A float result can't be written into an integral self.
    REQUIRE_THROWS_AS(apply_(op, a, b), TypeError);
    REQUIRE_THROWS_WITH(apply_(op, a, b), Catch::Contains("[div_") && Catch::Contains("can't be cast"));
    CHECK(lzt::same_values(a, a0) == "");
    CHECK(a._version() == v0);
    return;
  }
  Tensor& r = apply_(op, a, b);
  CHECK(&r == &a);
  CHECK(a.data_ptr() == data);
  CHECK(a.dtype() == dtype);
  CHECK(a._version() == v0 + 1);
  CHECK_VALUES(a, lzt::binary_reference(a0, b, {4, 5}, [&](double x, double y) {
                 return reference(op, dtype, x, y);
               }));
}

TEST_CASE("in-place Scalar overloads and compound assignment", "[eager][binary][inplace]") {
  Tensor x = lz::tensor({1.0, 2.0, 3.0});
  const uint64_t v0 = x._version();
  x.add_(2);
  CHECK_VALUES(x, std::vector<double>{3, 4, 5});
  x.sub_(0.5, 2);
  CHECK_VALUES(x, std::vector<double>{2, 3, 4});
  x.mul_(1.5);
  CHECK_VALUES(x, std::vector<double>{3, 4.5, 6});
  x.div_(2);
  CHECK_VALUES(x, std::vector<double>{1.5, 2.25, 3});
  CHECK(x._version() == v0 + 4);
  x += lz::tensor({1.0, 1.0, 1.0});
  x -= 0.5;
  x *= lz::tensor({2.0, 2.0, 2.0});
  x /= 4;
  CHECK_VALUES(x, std::vector<double>{1.0, 1.375, 1.75});
  CHECK(x._version() == v0 + 8);
  CHECK(x.dtype() == kFloat32);

  Tensor i = lz::tensor({1, 2, 3}, kInt32);
  i += 5;
  i *= 2;
  i -= lz::tensor({1, 1, 1}, kInt64);
  CHECK(i.dtype() == kInt32);
  CHECK(lzt::int_values(i) == std::vector<int64_t>{11, 13, 15});
  REQUIRE_THROWS_AS(i += 0.5, TypeError);
  REQUIRE_THROWS_WITH(i.add_(0.5), Catch::Contains("[add_") && Catch::Contains("can't be cast") &&
                                       Catch::Contains("float32") && Catch::Contains("int32"));
  CHECK_THROWS_AS(i /= 2, TypeError);
  CHECK(lzt::int_values(i) == std::vector<int64_t>{11, 13, 15});

  Tensor u = lz::tensor({250, 5}, kUInt8);
  u += 10;
  CHECK(lzt::int_values(u) == std::vector<int64_t>{4, 15});
}

TEST_CASE("in-place ops cast the result into self's dtype when allowed", "[eager][binary][inplace]") {
  SECTION("float self, int other") {
    Tensor f = lz::tensor({0.5, 1.5});
    f.add_(lz::tensor({1, 2}));
    CHECK(f.dtype() == kFloat32);
    CHECK_VALUES(f, std::vector<double>{1.5, 3.5});
  }
  SECTION("float16 self, float32 other") {
    Tensor h = lz::tensor({1.0, 2.0}, kFloat16);
    const uint64_t v0 = h._version();
    h.mul_(lz::tensor({0.1f, 3.0f}));
    CHECK(h.dtype() == kFloat16);
    CHECK_VALUES(h, std::vector<double>{lzt::round_to(kFloat16, 0.1f), 6.0});
    CHECK(h._version() > v0);
  }
  SECTION("int32 self, int64 other") {
    Tensor i = lz::tensor({1, 2}, kInt32);
    i.add_(lz::tensor({int64_t{1} << 32, int64_t{5}}));
    CHECK(i.dtype() == kInt32);
    CHECK(lzt::int_values(i) == std::vector<int64_t>{1, 7});  // 2^32 + 1 wraps to 1
  }
  SECTION("int self, float other: TypeError") {
    Tensor i = lz::tensor({1, 2}, kInt64);
    REQUIRE_THROWS_AS(i.add_(lz::tensor({1.5, 2.5})), TypeError);
    REQUIRE_THROWS_WITH(i.add_(lz::tensor({1.5, 2.5})),
                        Catch::Contains("[add_") && Catch::Contains("can't be cast") &&
                            Catch::Contains("float32") && Catch::Contains("int64"));
    CHECK(lzt::int_values(i) == std::vector<int64_t>{1, 2});
  }
  SECTION("bool self, int other: TypeError") {
    Tensor b = lz::tensor({true, false});
    REQUIRE_THROWS_AS(b.add_(lz::tensor({1, 1})), TypeError);
    REQUIRE_THROWS_AS(b.mul_(2), TypeError);
  }
}

TEST_CASE("in-place shape rules", "[eager][binary][inplace][errors]") {
  SECTION("other broadcasts to self") {
    Tensor a = lz::zeros({2, 3});
    a.add_(lz::tensor({1.0, 2.0, 3.0}));
    CHECK_VALUES(a, std::vector<double>{1, 2, 3, 1, 2, 3});
    a.mul_(lz::tensor({{2.0}, {3.0}}));
    CHECK_VALUES(a, std::vector<double>{2, 4, 6, 3, 6, 9});
    a.sub_(lz::scalar_tensor(1.0));
    CHECK_VALUES(a, std::vector<double>{1, 3, 5, 2, 5, 8});
  }
  SECTION("self must not need broadcasting") {
    Tensor a = lz::zeros({3});
    const Tensor b = lz::ones({2, 3});
    REQUIRE_THROWS_AS(a.add_(b), ShapeError);
    REQUIRE_THROWS_WITH(a.add_(b), Catch::Contains("[add_") && Catch::Contains("[3]") &&
                                       Catch::Contains("[2, 3]"));
    CHECK_THROWS_AS(a.mul_(b), ShapeError);
    Tensor s = lz::scalar_tensor(1.0);
    CHECK_THROWS_AS(s.add_(a), ShapeError);
    Tensor c = lz::zeros({3, 1});
    CHECK_THROWS_AS(c.add_(lz::ones({1, 4})), ShapeError);
    CHECK_VALUES(a, std::vector<double>{0, 0, 0});
  }
  SECTION("non-broadcastable other") {
    Tensor a = lz::zeros({3});
    CHECK_THROWS_AS(a.add_(lz::ones({4})), ShapeError);
  }
}

TEST_CASE("in-place through views lands in the base", "[eager][binary][inplace][views]") {
  Tensor base = lz::zeros({3, 4});
  const uint64_t v0 = base._version();
  Tensor row = base.select(0, 1);
  row.add_(lz::tensor({1.0, 2.0, 3.0, 4.0}));
  CHECK_VALUES(base, std::vector<double>{0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0});
  CHECK(base._version() == v0 + 1);
  CHECK(row._version() == base._version());
  Tensor col = base.t().select(0, 2);  // column 2, stride 4
  col.add_(10);
  CHECK_VALUES(base, std::vector<double>{0, 0, 10, 0, 1, 2, 13, 4, 0, 0, 10, 0});
  Tensor every_other = base.slice(1, 0, 4, 2);
  every_other.mul_(lz::tensor({-1.0, 2.0}));
  CHECK_VALUES(base, std::vector<double>{0, 0, 20, 0, -1, 2, 26, 4, 0, 0, 20, 0});
  Tensor tr = base.t();
  tr.sub_(lz::tensor({1.0, 2.0, 3.0}));  // broadcast over the rows of the transpose
  CHECK_VALUES(base, std::vector<double>{-1, -1, 19, -1, -3, 0, 24, 2, -3, -3, 17, -3});
  CHECK(base._version() == v0 + 4);
}

TEST_CASE("in-place on an expanded view is rejected", "[eager][binary][inplace][errors]") {
  const Op op = GENERATE(Op::Add, Op::Sub, Op::Mul, Op::Div);
  Tensor base = lz::ones({3});
  Tensor e = base.expand({2, 3});
  const uint64_t v0 = base._version();
  REQUIRE_THROWS_AS(apply_(op, e, lz::ones({2, 3})), ValueError);
  REQUIRE_THROWS_WITH(apply_(op, e, lz::ones({2, 3})), Catch::Contains("single memory location"));
  CHECK(base._version() == v0);
  CHECK_VALUES(base, std::vector<double>{1, 1, 1});
}

TEST_CASE("in-place with overlapping inputs matches the out-of-place result",
          "[eager][binary][inplace][overlap]") {
  SECTION("a += a.t()") {
    const Tensor orig = lzt::sample_tensor({5, 5}, kFloat32, 61);
    const Tensor expected = orig + orig.t();
    Tensor a = orig.clone();
    a.add_(a.t());
    CHECK(lzt::same_values(a, expected) == "");
    // and against the independent reference
    CHECK_VALUES(a, lzt::binary_reference(orig, orig.t(), {5, 5},
                                          [](double x, double y) { return x + y; }));
  }
  SECTION("larger square, every op") {
    const Op op = GENERATE(Op::Add, Op::Sub, Op::Mul, Op::Div);
    const Tensor orig = lzt::sample_tensor({40, 40}, kFloat64, 62, true);
    const Tensor expected = apply(op, orig, orig.t());
    Tensor a = orig.clone();
    apply_(op, a, a.t());
    CHECK(lzt::same_values(a, expected) == "");
  }
  SECTION("shifted 1-D slices") {
    const Tensor orig = lz::arange(0, 100, kFloat32);
    Tensor x = orig.clone();
    Tensor dst = x.slice(0, 1, 100);
    dst.add_(x.slice(0, 0, 99));
    std::vector<double> expected{0};
    for (int i = 1; i < 100; ++i) expected.push_back(i + (i - 1));
    CHECK_VALUES(x, expected);
  }
  SECTION("other is a row of self") {
    Tensor x = lz::tensor({{1.0, 2.0}, {3.0, 4.0}});
    x.mul_(x.select(0, 1));
    CHECK_VALUES(x, std::vector<double>{3, 8, 9, 16});
  }
  SECTION("fully aliased input") {
    Tensor x = lz::tensor({1.0, -2.0, 3.0});
    x.mul_(x);
    CHECK_VALUES(x, std::vector<double>{1, 4, 9});
    x.sub_(x);
    CHECK_VALUES(x, std::vector<double>{0, 0, 0});
  }
}

// ---- out= ---------------------------------------------------------------------

TEST_CASE("out= variants write into out", "[eager][binary][out]") {
  const Op op = GENERATE(Op::Add, Op::Sub, Op::Mul, Op::Div);
  INFO(name_of(op));
  const Tensor a = lzt::sample_tensor({3, 4}, kFloat32, 71);
  const Tensor b = lzt::sample_tensor({4}, kFloat32, 72, true);
  const auto ref = lzt::binary_reference(a, b, {3, 4}, [&](double x, double y) {
    return reference(op, kFloat32, x, y);
  });
  SECTION("matching out") {
    Tensor out = lz::zeros({3, 4});
    void* data = out.data_ptr();
    const uint64_t v0 = out._version();
    Tensor& r = apply_out(op, out, a, b);
    CHECK(&r == &out);
    CHECK(out.data_ptr() == data);
    CHECK(out._version() > v0);
    CHECK_VALUES(out, ref);
  }
  SECTION("empty out is resized") {
    Tensor out = lz::empty({0});
    apply_out(op, out, a, b);
    CHECK_SHAPE(out, {3, 4});
    CHECK(out.is_contiguous());
    CHECK(out.dtype() == kFloat32);
    CHECK_VALUES(out, ref);
    Tensor out2 = lz::empty({0, 7});
    apply_out(op, out2, a, b);
    CHECK_SHAPE(out2, {3, 4});
    CHECK_VALUES(out2, ref);
  }
  SECTION("out of another non-empty shape") {
    Tensor out = lz::zeros({4, 3});
    REQUIRE_THROWS_AS(apply_out(op, out, a, b), ShapeError);
    REQUIRE_THROWS_WITH(apply_out(op, out, a, b), Catch::Contains(std::string("[") + name_of(op)) &&
                                                      Catch::Contains("[4, 3]") &&
                                                      Catch::Contains("[3, 4]"));
    Tensor out2 = lz::zeros({12});
    CHECK_THROWS_AS(apply_out(op, out2, a, b), ShapeError);
    CHECK_VALUES(out2, std::vector<double>(12, 0.0));
  }
  SECTION("wider out dtype") {
    Tensor out = lz::zeros({3, 4}, kFloat64);
    apply_out(op, out, a, b);
    CHECK(out.dtype() == kFloat64);
    CHECK_VALUES_TOL(out, ref, 4e-7, 0);
  }
  SECTION("narrower category out") {
    Tensor out = lz::zeros({3, 4}, kInt64);
    REQUIRE_THROWS_AS(apply_out(op, out, a, b), TypeError);
    REQUIRE_THROWS_WITH(apply_out(op, out, a, b), Catch::Contains("can't be cast") &&
                                                      Catch::Contains("float32") &&
                                                      Catch::Contains("int64"));
    CHECK(lzt::int_values(out) == std::vector<int64_t>(12, 0));
  }
  SECTION("non-contiguous out") {
    Tensor storage = lz::zeros({4, 3});
    Tensor out = storage.t();
    apply_out(op, out, a, b);
    CHECK_VALUES(out, ref);
    CHECK(out.data_ptr() == storage.data_ptr());
  }
  SECTION("expanded out") {
    Tensor out = lz::zeros({4}).expand({3, 4});
    REQUIRE_THROWS_AS(apply_out(op, out, a, b), ValueError);
    REQUIRE_THROWS_WITH(apply_out(op, out, a, b), Catch::Contains("single memory location"));
  }
}

TEST_CASE("out= with integral inputs", "[eager][binary][out]") {
  const Tensor a = lz::tensor({7, 8, 9}, kInt32);
  const Tensor b = lz::tensor({2, 4, 3}, kInt32);
  Tensor q = lz::empty({0});
  lz::div_out(q, a, b);
  CHECK(q.dtype() == kFloat32);
  CHECK_VALUES(q, std::vector<double>{3.5, 2, 3});
  Tensor qi = lz::empty({0}, kInt32);
  CHECK_THROWS_AS(lz::div_out(qi, a, b), TypeError);
  Tensor s = lz::empty({3}, kInt64);
  lz::mul_out(s, a, b);
  CHECK(lzt::int_values(s) == std::vector<int64_t>{14, 32, 27});
  Tensor f = lz::empty({3}, kFloat16);
  lz::sub_out(f, a, b, 2);
  CHECK(f.dtype() == kFloat16);
  CHECK_VALUES(f, std::vector<double>{3, 0, 3});
  Tensor bo = lz::empty({3}, kBool);
  CHECK_THROWS_AS(lz::add_out(bo, a, b), TypeError);
  Tensor nar = lz::empty({3}, kUInt8);  // same category, narrower: allowed (wraps)
  lz::add_out(nar, a, lz::tensor({250, 250, 250}, kInt32));
  CHECK(lzt::int_values(nar) == std::vector<int64_t>{1, 2, 3});
}

TEST_CASE("out= aliasing an input", "[eager][binary][out][overlap]") {
  SECTION("out is self") {
    Tensor a = lz::tensor({1.0, 2.0, 3.0});
    const Tensor b = lz::tensor({10.0, 20.0, 30.0});
    lz::add_out(a, a, b);
    CHECK_VALUES(a, std::vector<double>{11, 22, 33});
  }
  SECTION("out is other") {
    const Tensor a = lz::tensor({1.0, 2.0, 3.0});
    Tensor b = lz::tensor({10.0, 20.0, 30.0});
    lz::sub_out(b, a, b);
    CHECK_VALUES(b, std::vector<double>{-9, -18, -27});
  }
  SECTION("out partially overlaps an input") {
    const Tensor orig = lzt::sample_tensor({6, 6}, kFloat32, 81);
    Tensor a = orig.clone();
    lz::mul_out(a, a, a.t());
    CHECK(lzt::same_values(a, orig * orig.t()) == "");
  }
  SECTION("out is a shifted window of the input") {
    Tensor x = lz::arange(0, 10, kFloat64);
    Tensor dst = x.slice(0, 0, 9);
    lz::add_out(dst, x.slice(0, 1, 10), x.slice(0, 1, 10));
    CHECK_VALUES(x, std::vector<double>{2, 4, 6, 8, 10, 12, 14, 16, 18, 9});
  }
}

TEST_CASE("binary ops reject undefined tensors", "[eager][binary][errors]") {
  const Tensor u;
  const Tensor x = lz::ones({2});
  REQUIRE_THROWS_AS(lz::add(u, x), ValueError);
  REQUIRE_THROWS_WITH(lz::add(u, x), Catch::Contains("[add]") && Catch::Contains("self"));
  REQUIRE_THROWS_AS(lz::mul(x, u), ValueError);
  REQUIRE_THROWS_WITH(lz::mul(x, u), Catch::Contains("[mul]") && Catch::Contains("other"));
  CHECK_THROWS_AS(lz::sub(x, u), ValueError);
  CHECK_THROWS_AS(lz::div(u, x), ValueError);
  CHECK_THROWS_AS(x + u, ValueError);
  Tensor y = x.clone();
  CHECK_THROWS_AS(y.add_(u), ValueError);
  CHECK_THROWS_AS(lz::add(u, 1.0), Error);
}
