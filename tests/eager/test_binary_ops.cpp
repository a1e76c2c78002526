// add / sub / mul / div: values for every dtype, Scalar overloads, type
// promotion, broadcasting, non-contiguous inputs and their errors.
#include "binary_op_util.h"

using namespace lz;
using namespace binary_test;
using lzt::make_tensor;
using lzt::values;

TEST_CASE("binary ops match a float64/int64 reference for every dtype", "[eager][binary]") {
  const ScalarType dtype = GENERATE(from_range(lzt::kAllDtypes));
  const Op op = GENERATE(Op::Add, Op::Sub, Op::Mul, Op::Div);
  INFO(name_of(op) << " " << dtype);
  if (dtype == kBool && op == Op::Sub) {  // rejected (the bool test checks the message)
    CHECK_THROWS_AS(lz::sub(lz::tensor({true}), lz::tensor({false})), TypeError);
    return;
  }
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
  if (dtype == kBool && op == Op::Sub) {  // rejected (the bool test checks the message)
    CHECK_THROWS_AS(lz::sub(lz::tensor({true}), lz::tensor({false})), TypeError);
    return;
  }
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
