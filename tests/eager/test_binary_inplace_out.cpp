// In-place and out= variants of add / sub / mul / div: writes into self or
// out, casting rules, resizing, views, overlap and their errors.
#include "binary_op_util.h"

using namespace lz;
using namespace binary_test;
using lzt::make_tensor;
using lzt::values;

// ---- In place -----------------------------------------------------------------

TEST_CASE("in-place binary ops write into self", "[eager][binary][inplace]") {
  const ScalarType dtype = GENERATE(from_range(lzt::kAllDtypes));
  const Op op = GENERATE(Op::Add, Op::Sub, Op::Mul, Op::Div);
  INFO(name_of(op) << "_ " << dtype);
  if (dtype == kBool && op == Op::Sub) {  // rejected (the bool test checks the message)
    Tensor t = lz::tensor({true});
    CHECK_THROWS_AS(t.sub_(lz::tensor({false})), TypeError);
    return;
  }
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
  SECTION("out of another non-empty shape: resized, with a warning (as libtorch)") {
    std::vector<std::string> warnings;
    const lz::WarningHandlerGuard capture([&](std::string_view m) { warnings.emplace_back(m); });
    Tensor out = lz::zeros({4, 3});
    apply_out(op, out, a, b);
    CHECK_SHAPE(out, {3, 4});
    CHECK_VALUES(out, ref);
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains(std::string("[") + name_of(op)) && Catch::Contains("[4, 3]") &&
                                Catch::Contains("[3, 4]") && Catch::Contains("was resized"));
    Tensor out2 = lz::zeros({12});
    apply_out(op, out2, a, b);
    CHECK_SHAPE(out2, {3, 4});
    CHECK_VALUES(out2, ref);
    CHECK(warnings.size() == 2);
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

