// Comparisons (eq, ne, lt, le, gt, ge and their operators), logical_and/or/xor
// and bitwise_and/or/xor: NaN, in-place dtype rules, out= into other dtypes,
// Scalar forms and their promotion, errors and registration names.
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

TEST_CASE("comparisons with NaN and infinities", "[eager][binary][compare]") {
  const ScalarType dt = GENERATE(kFloat16, kBFloat16, kFloat32, kFloat64);
  INFO(dt);
  const Tensor a = make_tensor({1, kNaN, kNaN, kInf, -kInf, 0, -0.0}, dt);
  const Tensor b = make_tensor({1, 1, kNaN, kInf, kInf, -0.0, 0}, dt);
  CHECK(int_values(a == b) == std::vector<int64_t>{1, 0, 0, 1, 0, 1, 1});
  CHECK(int_values(a != b) == std::vector<int64_t>{0, 1, 1, 0, 1, 0, 0});
  CHECK(int_values(a < b) == std::vector<int64_t>{0, 0, 0, 0, 1, 0, 0});
  CHECK(int_values(a <= b) == std::vector<int64_t>{1, 0, 0, 1, 1, 1, 1});
  CHECK(int_values(a > b) == std::vector<int64_t>{0, 0, 0, 0, 0, 0, 0});
  CHECK(int_values(a >= b) == std::vector<int64_t>{1, 0, 0, 1, 0, 1, 1});
  for (const Tensor& r : {a == b, a != b, a < b, a <= b, a > b, a >= b}) CHECK(r.dtype() == kBool);
  // Against a NaN scalar every comparison but != is false.
  CHECK(int_values(a == kNaN) == std::vector<int64_t>(7, 0));
  CHECK(int_values(a != kNaN) == std::vector<int64_t>(7, 1));
  CHECK(int_values(a < kInf) == std::vector<int64_t>{1, 0, 0, 0, 1, 1, 1});
}

TEST_CASE("comparison operators, methods and free functions agree", "[eager][binary][compare]") {
  const Tensor a = lz::tensor({1, 5, 3}, kInt32);
  const Tensor b = lz::tensor({2, 5, 1}, kInt32);
  CHECK(int_values(a.eq(b)) == std::vector<int64_t>{0, 1, 0});
  CHECK(int_values(lz::ne(a, b)) == std::vector<int64_t>{1, 0, 1});
  CHECK(int_values(a.lt(b)) == std::vector<int64_t>{1, 0, 0});
  CHECK(int_values(a.le(3)) == std::vector<int64_t>{1, 0, 1});
  CHECK(int_values(a.gt(2.5)) == std::vector<int64_t>{0, 1, 1});
  CHECK(int_values(a.ge(b)) == std::vector<int64_t>{0, 1, 1});
  CHECK(int_values(a == 5) == std::vector<int64_t>{0, 1, 0});
  CHECK(int_values(a != 5) == std::vector<int64_t>{1, 0, 1});
  CHECK(int_values(a < 3) == std::vector<int64_t>{1, 0, 0});
  CHECK(int_values(a <= 3) == std::vector<int64_t>{1, 0, 1});
  CHECK(int_values(a > 1) == std::vector<int64_t>{0, 1, 1});
  CHECK(int_values(a >= 1) == std::vector<int64_t>{1, 1, 1});
  // Broadcasting: a column against a row.
  const Tensor col = lz::tensor({{1}, {2}, {3}});
  const Tensor row = lz::tensor({1, 2, 3});
  const Tensor m = col < row;
  CHECK_SHAPE(m, {3, 3});
  CHECK(int_values(m) == std::vector<int64_t>{0, 1, 1, 0, 0, 1, 0, 0, 0});
  CHECK(int_values(col.t() == row) == std::vector<int64_t>{1, 1, 1});
}

TEST_CASE("comparisons promote before comparing", "[eager][binary][compare][promotion]") {
  // int32 vs 2.5: compared in float32, not after truncating 2.5.
  const Tensor i = lz::tensor({2, 3}, kInt32);
  CHECK(int_values(i == 2.5) == std::vector<int64_t>{0, 0});
  CHECK(int_values(i < 2.5) == std::vector<int64_t>{1, 0});
  // int64 vs float64 tensor.
  CHECK(int_values(lz::tensor({int64_t{1}, int64_t{2}}) == lz::tensor({1.0, 2.5}, kFloat64)) ==
        std::vector<int64_t>{1, 0});
  // float16 vs bfloat16 compare in float32: 0.1 differs between them.
  CHECK(int_values(lz::tensor({0.1}, kFloat16) == lz::tensor({0.1}, kBFloat16)) == std::vector<int64_t>{0});
  CHECK(int_values(lz::tensor({0.5}, kFloat16) == lz::tensor({0.5}, kBFloat16)) == std::vector<int64_t>{1});
  // bool vs int.
  CHECK(int_values(lz::tensor({true, false}) == lz::tensor({1, 2})) == std::vector<int64_t>{1, 0});
  CHECK(int_values(lz::tensor({true, false}) < 2) == std::vector<int64_t>{1, 1});
  // A float32 tensor against a float64 0-dim tensor compares in float32 (the
  // dimensioned tensor wins): 0.1 as float32 equals 0.1 rounded to float32.
  CHECK(int_values(lz::tensor({0.1f}) == lz::scalar_tensor(0.1, kFloat64)) == std::vector<int64_t>{1});
  CHECK(int_values(lz::tensor({0.1f}) == lz::tensor({0.1}, kFloat64)) == std::vector<int64_t>{0});
  // Large int64 values compare exactly (not through double).
  const int64_t big = (int64_t{1} << 53) + 1;
  CHECK(int_values(lz::tensor({big}) == lz::tensor({big - 1})) == std::vector<int64_t>{0});
  CHECK(int_values(lz::tensor({big}) > big - 1) == std::vector<int64_t>{1});
}

TEST_CASE("in-place comparisons keep self's dtype", "[eager][binary][compare][inplace]") {
  Tensor f = lz::tensor({1.0f, 2.0f, 3.0f});
  lz::lt_(f, lz::tensor({2.0f, 2.0f, 2.0f}));
  CHECK(f.dtype() == kFloat32);
  CHECK_VALUES(f, std::vector<double>{1, 0, 0});
  Tensor i = lz::tensor({1, 2, 3}, kInt32);
  lz::eq_(i, 2);
  CHECK(i.dtype() == kInt32);
  CHECK(int_values(i) == std::vector<int64_t>{0, 1, 0});
  Tensor u = lz::tensor({5, 200}, kUInt8);
  lz::ge_(u, 100.5);
  CHECK(u.dtype() == kUInt8);
  CHECK(int_values(u) == std::vector<int64_t>{0, 1});
  // Broadcast other into self; a self that would have to grow is a ShapeError.
  Tensor m = lz::zeros({2, 3});
  lz::ne_(m, lz::tensor({0.0f, 1.0f, 0.0f}));
  CHECK_VALUES(m, std::vector<double>{0, 1, 0, 0, 1, 0});
  Tensor s = lz::zeros({3});
  CHECK_THROWS_AS(lz::gt_(s, lz::zeros({2, 3})), ShapeError);
  // Into a view: the base sees it.
  Tensor base = lz::tensor({{1.0, 5.0}, {7.0, 2.0}});
  Tensor col = base.select(1, 0);
  lz::le_(col, 3.0);
  CHECK_VALUES(base, std::vector<double>{1, 5, 0, 2});
  // self compared with itself transposed (partial overlap).
  Tensor sq = lz::tensor({{1, 2}, {3, 1}}, kInt64);
  lz::eq_(sq, sq.t());
  CHECK(int_values(sq) == std::vector<int64_t>{1, 0, 0, 1});
}

TEST_CASE("comparison out= accepts other dtypes", "[eager][binary][compare][out]") {
  const Tensor a = lz::tensor({1, 2, 3});
  Tensor fo = lz::empty({0});
  lz::gt_out(fo, a, 1);
  CHECK(fo.dtype() == kFloat32);
  CHECK_VALUES(fo, std::vector<double>{0, 1, 1});
  Tensor bo = lz::empty({3}, kBool);
  lz::eq_out(bo, a, lz::tensor({1, 0, 3}));
  CHECK(int_values(bo) == std::vector<int64_t>{1, 0, 1});
  // A non-empty out of another shape is resized, with a warning (as libtorch).
  std::vector<std::string> warnings;
  const lz::WarningHandlerGuard capture([&](std::string_view m) { warnings.emplace_back(m); });
  Tensor wrong = lz::empty({2}, kBool);
  lz::lt_out(wrong, a, a);
  CHECK(int_values(wrong) == std::vector<int64_t>{0, 0, 0});
  CHECK(warnings.size() == 1);
}

TEST_CASE("logical operators treat nonzero and NaN as true", "[eager][binary][logical]") {
  const Tensor a = make_tensor({0, 0, 1, 2, kNaN, -0.0}, kFloat32);
  const Tensor b = make_tensor({0, 3, 0, -1, 0, 1}, kFloat32);
  CHECK(int_values(lz::logical_and(a, b)) == std::vector<int64_t>{0, 0, 0, 1, 0, 0});
  CHECK(int_values(lz::logical_or(a, b)) == std::vector<int64_t>{0, 1, 1, 1, 1, 1});
  CHECK(int_values(lz::logical_xor(a, b)) == std::vector<int64_t>{0, 1, 1, 0, 1, 1});
  CHECK(lz::logical_and(a, b).dtype() == kBool);
  CHECK(int_values(a.logical_or(b)) == int_values(lz::logical_or(a, b)));
  // Mixed dtypes and broadcasting.
  const Tensor i = lz::tensor({{0}, {5}}, kInt32);
  const Tensor r = lz::logical_xor(i, lz::tensor({true, false}));
  CHECK_SHAPE(r, {2, 2});
  CHECK(int_values(r) == std::vector<int64_t>{1, 0, 0, 1});
  // In place keeps self's dtype; out= may be any dtype.
  Tensor c = lz::tensor({0, 4, 7}, kInt64);
  lz::logical_and_(c, lz::tensor({1.5, 0.0, 2.0}));
  CHECK(c.dtype() == kInt64);
  CHECK(int_values(c) == std::vector<int64_t>{0, 0, 1});
  Tensor o = lz::empty({0}, kFloat64);
  lz::logical_or_out(o, lz::tensor({0, 0}), lz::tensor({0, 2}));
  CHECK(o.dtype() == kFloat64);
  CHECK_VALUES(o, std::vector<double>{0, 1});
  CHECK_THROWS_AS(lz::logical_and(lz::ones({2}), lz::ones({3})), ShapeError);
}

TEST_CASE("bitwise operators on integers and bools", "[eager][binary][bitwise]") {
  const Tensor a = lz::tensor({12, -1, 5, 0}, kInt32);
  const Tensor b = lz::tensor({10, 6, -8, 7}, kInt32);
  CHECK(int_values(a & b) == std::vector<int64_t>{8, 6, 0, 0});
  CHECK(int_values(a | b) == std::vector<int64_t>{14, -1, -3, 7});
  CHECK(int_values(a ^ b) == std::vector<int64_t>{6, -7, -3, 7});
  CHECK(int_values(a.bitwise_and(b)) == int_values(a & b));
  CHECK(int_values(lz::bitwise_or(a, 1)) == std::vector<int64_t>{13, -1, 5, 1});
  CHECK(int_values(lz::bitwise_xor(-1, a)) == std::vector<int64_t>{~12, 0, ~5, -1});
  CHECK(int_values(lz::bitwise_and(a, true)) == std::vector<int64_t>{0, 1, 1, 0});
  // uint8: a negative Scalar is taken modulo 256.
  const Tensor u = lz::tensor({0xF0, 0x0F}, kUInt8);
  CHECK(lz::bitwise_xor(u, -1).dtype() == kUInt8);
  CHECK(int_values(lz::bitwise_xor(u, -1)) == std::vector<int64_t>{0x0F, 0xF0});
  // bool stays bool: and/or/xor.
  const Tensor p = lz::tensor({false, false, true, true});
  const Tensor q = lz::tensor({false, true, false, true});
  CHECK((p & q).dtype() == kBool);
  CHECK(int_values(p & q) == std::vector<int64_t>{0, 0, 0, 1});
  CHECK(int_values(p | q) == std::vector<int64_t>{0, 1, 1, 1});
  CHECK(int_values(p ^ q) == std::vector<int64_t>{0, 1, 1, 0});
  // bool with an int promotes to the int (a bool tensor & 3 is int64).
  CHECK(lz::bitwise_and(p, 3).dtype() == kInt64);
  CHECK(int_values(lz::bitwise_or(p, 2)) == std::vector<int64_t>{2, 2, 3, 3});
  // int32 and int64 -> int64, no truncation of the high bits.
  const Tensor wide = lz::tensor({int64_t{1} << 40});
  CHECK(int_values(lz::tensor({1}, kInt32) | wide) == std::vector<int64_t>{(int64_t{1} << 40) | 1});
  // In place and out=.
  Tensor c = a.clone();
  c.bitwise_and_(lz::tensor({3}, kInt32));
  CHECK(int_values(c) == std::vector<int64_t>{0, 3, 1, 0});
  lz::bitwise_or_(c, 8);
  CHECK(int_values(c) == std::vector<int64_t>{8, 11, 9, 8});
  c.bitwise_xor_(c);
  CHECK(int_values(c) == std::vector<int64_t>{0, 0, 0, 0});
  Tensor o = lz::empty({0}, kInt64);
  lz::bitwise_xor_out(o, u, 0xFF);
  CHECK(o.dtype() == kInt64);
  CHECK(int_values(o) == std::vector<int64_t>{0x0F, 0xF0});
  // In place cannot change the category: int32 self with an int64 tensor is fine, bool self with int is not.
  Tensor bs = p.clone();
  CHECK_THROWS_AS(bs.bitwise_or_(lz::tensor({1, 2, 3, 4})), TypeError);
}

TEST_CASE("bitwise operators reject floating dtypes", "[eager][binary][bitwise][errors]") {
  for (ScalarType dt : {kFloat16, kBFloat16, kFloat32, kFloat64}) {
    INFO(dt);
    const Tensor f = lz::ones({2}, dt);
    REQUIRE_THROWS_AS(lz::bitwise_and(f, f), TypeError);
    REQUIRE_THROWS_WITH(lz::bitwise_or(f, lz::ones({2}, kInt32)),
                        Catch::Contains("[bitwise_or]") && Catch::Contains(std::string(lz::to_string(dt))));
    CHECK_THROWS_AS(lz::tensor({1, 2}) ^ f, TypeError);
  }
  CHECK_THROWS_AS(lz::bitwise_and(lz::tensor({1, 2}), 1.5), TypeError);
}

TEST_CASE("comparison and logical operators are registered under PyTorch's names",
          "[eager][binary][registration]") {
  Dispatcher& d = Dispatcher::singleton();
  for (std::string op : {"eq", "ne", "lt", "le", "gt", "ge", "bitwise_and", "bitwise_or", "bitwise_xor"}) {
    for (std::string suffix : {".Tensor", ".Scalar", ".Tensor_out", ".Scalar_out"}) {
      INFO(op + suffix);
      CHECK(d.find(op + suffix).has_value());
    }
    for (std::string suffix : {"_.Tensor", "_.Scalar"}) {
      INFO(op + suffix);
      CHECK(d.find(op + suffix).has_value());
    }
    const OperatorHandle h = d.find_or_throw(op + ".Tensor");
    CHECK(h.out_variant()->name() == op + ".Tensor_out");
    CHECK(h.inplace_variant()->name() == op + "_.Tensor");
    CHECK(h.has_meta());
    CHECK(h.has_tag(Tag::Pointwise));
  }
  for (std::string op : {"logical_and", "logical_or", "logical_xor"}) {
    INFO(op);
    CHECK(d.find(op).has_value());
    CHECK(d.find(op + "_").has_value());
    CHECK(d.find(op + ".out").has_value());
  }
  CHECK(d.find("bitwise_and.Scalar_Tensor").has_value());
  // The meta of a comparison says bool without running a kernel.
  Stack s{IValue(lz::zeros({2, 1}, kFloat16)), IValue(lz::zeros({3}, kInt64))};
  const MetaList m = d.find_or_throw("lt.Tensor").meta(s);
  CHECK(m[0].dtype == kBool);
  CHECK(m[0].sizes == SizeVec{2, 3});
}

TEST_CASE("large comparisons do not depend on the thread count", "[eager][binary][compare][threads]") {
  const Tensor a = lzt::sample_tensor({600, 513}, kFloat32, 8);
  const Tensor b = lzt::sample_tensor({513}, kFloat32, 9);
  const int threads = get_num_threads();
  std::vector<std::vector<int64_t>> r[2];
  for (int n : {1, 2}) {
    set_num_threads(n);
    r[n - 1] = {int_values(a < b), int_values(a.t().contiguous().t() >= b), int_values(lz::logical_xor(a, b)),
                int_values(lz::bitwise_xor(lz::gt(a, 0), lz::lt(b, 1)))};
  }
  set_num_threads(threads);
  for (size_t i = 0; i < r[0].size(); ++i) {
    INFO("result " << i);
    CHECK(r[0][i] == r[1][i]);
  }
  // And agree with the element-wise reference.
  const std::vector<double> va = values(a), vb = lzt::broadcast_values(b, {600, 513});
  std::vector<int64_t> expected;
  for (size_t k = 0; k < va.size(); ++k) expected.push_back(va[k] < vb[k]);
  CHECK(r[1][0] == expected);
}
