// copy_, fill_, zero_, clone, contiguous, to(dtype), _to_copy and item.
#include "test_util.h"
#include "tests/float_constants.h"

#include <cstring>

using namespace lz;
using lzt::make_tensor;
using lzt::values;

namespace {

using lzt::kNaN;
using lzt::kInf;

// Expected result of converting `v` (valid in both dtypes) from one dtype to another.
double convert_ref(double v, ScalarType to) { return to == kBool ? (v != 0 ? 1 : 0) : v; }

}  // namespace

// ---- copy_ ----------------------------------------------------------------------

TEST_CASE("copy_ converts between every pair of dtypes", "[eager][copy]") {
  const ScalarType from = GENERATE(from_range(lzt::kAllDtypes));
  const ScalarType to = GENERATE(from_range(lzt::kAllDtypes));
  INFO(from << " -> " << to);
  // Values every dtype holds exactly (bool sources hold 0/1).
  const std::vector<double> src_vals =
      from == kBool ? std::vector<double>{0, 1, 1, 0, 1, 0} : std::vector<double>{0, 1, 2, 100, 127, 7};
  const Tensor src = make_tensor(src_vals, {2, 3}, from);
  Tensor dst = lz::empty({2, 3}, to);
  const uint64_t v0 = dst._version();
  Tensor& r = dst.copy_(src);
  CHECK(&r == &dst);
  CHECK(dst.dtype() == to);
  CHECK(dst._version() == v0 + 1);
  std::vector<double> expected;
  for (double v : src_vals) expected.push_back(convert_ref(v, to));
  CHECK_VALUES(dst, expected);
  // The same through a non-contiguous source and destination.
  Tensor dst_t = lz::zeros({3, 2}, to);
  dst_t.t().copy_(src.t().t());
  CHECK_VALUES(dst_t.t(), expected);
  Tensor dst2 = lz::zeros({3, 2}, to);
  dst2.copy_(src.t());
  CHECK_VALUES(dst2.t(), expected);
  // And through _to_copy / to().
  const Tensor converted = src.to(to);
  CHECK(converted.dtype() == to);
  CHECK_VALUES(converted, expected);
  if (from != kUInt8 && from != kBool && to != kUInt8) {
    // Negative values too.
    const Tensor neg = make_tensor({-1, -2, -100}, from);
    CHECK_VALUES(neg.to(to), std::vector<double>{convert_ref(-1, to), convert_ref(-2, to),
                                                 convert_ref(-100, to)});
  }
}

TEST_CASE("copy_ conversion details", "[eager][copy]") {
  SECTION("float to int truncates toward zero") {
    const ScalarType to = GENERATE(kInt32, kInt64);
    const ScalarType from = GENERATE(kFloat32, kFloat64, kFloat16, kBFloat16);
    INFO(from << " -> " << to);
    const Tensor f = make_tensor({1.75, -1.75, 2.5, -0.5, 0.25, 100.5}, from);
    CHECK(lzt::int_values(f.to(to)) == std::vector<int64_t>{1, -1, 2, 0, 0, 100});
  }
  SECTION("float to uint8 truncates") {
    CHECK(lzt::int_values(lz::tensor({1.9, 254.5, 0.5}).to(kUInt8)) == std::vector<int64_t>{1, 254, 0});
  }
  SECTION("float to bool is != 0") {
    const ScalarType from = GENERATE(from_range(lzt::kFloatDtypes));
    INFO(from);
    const Tensor f = make_tensor({0.0, -0.0, 0.5, -2.0, kNaN, kInf, 1e-3}, from);
    CHECK(lzt::int_values(f.to(kBool)) == std::vector<int64_t>{0, 0, 1, 1, 1, 1, 1});
  }
  SECTION("int to bool is != 0") {
    CHECK(lzt::int_values(lz::tensor({0, -1, 256, 2}).to(kBool)) == std::vector<int64_t>{0, 1, 1, 1});
    CHECK(lzt::int_values(lz::tensor({0, 255, 16}, kUInt8).to(kBool)) == std::vector<int64_t>{0, 1, 1});
  }
  SECTION("integer narrowing wraps") {
    const Tensor big = lz::tensor({(int64_t{1} << 32) + 5, int64_t{-1}, int64_t{300}});
    CHECK(lzt::int_values(big.to(kInt32)) == std::vector<int64_t>{5, -1, 300});
    CHECK(lzt::int_values(big.to(kUInt8)) == std::vector<int64_t>{5, 255, 44});
    CHECK(lzt::int_values(lz::tensor({-1, 256}, kInt32).to(kUInt8)) == std::vector<int64_t>{255, 0});
  }
  SECTION("float64 to float32 rounds to nearest") {
    const Tensor d = lz::tensor({0.1, 1e-50, 1e40, -1e40}, kFloat64);
    const auto v = values(d.to(kFloat32));
    CHECK(v[0] == static_cast<double>(0.1f));
    CHECK(v[1] == 0.0);
    CHECK(v[2] == kInf);
    CHECK(v[3] == -kInf);
  }
  SECTION("float32 to float16 rounds to nearest even") {
    // 0.1 -> 0x2E66; 2049 is a tie between 2048 and 2050 -> 2048; 2051 -> 2052;
    // 65504 is the largest half; 65520 rounds up to inf; 1e-8 underflows to 0;
    // 2^-24 is the smallest subnormal; 0.75 * 2^-24 rounds up to it; the
    // subnormal ties 0.5 * 2^-24 and 1.5 * 2^-24 round to even (0 and 2^-23).
    const Tensor f = lz::tensor({0.1, 2049.0, 2051.0, 65504.0, 65520.0, 1e-8, std::ldexp(1.0, -24),
                                 -0.0, std::ldexp(3.0, -26), std::ldexp(1.0, -25),
                                 std::ldexp(3.0, -25), -65519.0});
    const Tensor h = f.to(kFloat16);
    CHECK(lzt::bits16(h) == std::vector<uint16_t>{0x2E66, 0x6800, 0x6802, 0x7BFF, 0x7C00, 0x0000,
                                                  0x0001, 0x8000, 0x0001, 0x0000, 0x0002, 0xFBFF});
    CHECK_VALUES(h, std::vector<double>{0.0999755859375, 2048, 2052, 65504, kInf, 0,
                                        std::ldexp(1.0, -24), 0, std::ldexp(1.0, -24), 0,
                                        std::ldexp(1.0, -23), -65504});
  }
  SECTION("float32 to bfloat16 rounds to nearest even") {
    // 1 + 2^-8 is a tie -> 1.0 (even); 1 + 3 * 2^-8 is a tie -> 1 + 2^-6 (even).
    const Tensor f = lz::tensor({0.1, 1.0 + std::ldexp(1.0, -8), 1.0 + 3 * std::ldexp(1.0, -8),
                                 1.0 + 5 * std::ldexp(1.0, -9), 3.0e38});
    const Tensor b = f.to(kBFloat16);
    CHECK(lzt::bits16(b) == std::vector<uint16_t>{0x3DCD, 0x3F80, 0x3F82, 0x3F81, 0x7F62});
    CHECK_VALUES_TOL(b, std::vector<double>{0.10009765625, 1.0, 1.015625, 1.0078125, 3.00405527047391e38},
                     1e-12, 0);
  }
  SECTION("NaN survives 16-bit round trips") {
    const Tensor f = make_tensor({kNaN, -kInf, kInf}, kFloat32);
    for (ScalarType t : {kFloat16, kBFloat16}) {
      CHECK_VALUES(f.to(t).to(kFloat32), std::vector<double>{kNaN, -kInf, kInf});
    }
  }
}

TEST_CASE("16-bit floats round-trip exactly through float32", "[eager][copy]") {
  const ScalarType t = GENERATE(kFloat16, kBFloat16);
  INFO(t);
  // Every 16-bit pattern, decoded by the test's own decoder.
  std::vector<uint16_t> all(65536);
  for (size_t i = 0; i < all.size(); ++i) all[i] = static_cast<uint16_t>(i);
  const Tensor h = lz::from_blob(all.data(), {65536}, t);
  const Tensor f = h.to(kFloat32);
  std::vector<double> expected;
  for (uint16_t b : all) expected.push_back(t == kFloat16 ? lzt::decode_half(b) : lzt::decode_bfloat16(b));
  CHECK(lzt::mismatch(f, expected, 0, 0) == "");
  CHECK(lzt::mismatch(h.to(kFloat64), expected, 0, 0) == "");
  // Back to 16 bits: every non-NaN pattern is restored bit for bit.
  const auto back = lzt::bits16(f.to(t));
  int64_t wrong = 0;
  for (size_t i = 0; i < all.size(); ++i) {
    if (std::isnan(expected[i])) {
      wrong += !std::isnan(t == kFloat16 ? lzt::decode_half(back[i]) : lzt::decode_bfloat16(back[i]));
    } else {
      wrong += back[i] != all[i];
    }
  }
  CHECK(wrong == 0);
}

TEST_CASE("copy_ broadcasts src to self", "[eager][copy]") {
  Tensor dst = lz::zeros({2, 3});
  dst.copy_(lz::tensor({1.0, 2.0, 3.0}));
  CHECK_VALUES(dst, std::vector<double>{1, 2, 3, 1, 2, 3});
  dst.copy_(lz::tensor({{7.0}, {8.0}}));
  CHECK_VALUES(dst, std::vector<double>{7, 7, 7, 8, 8, 8});
  dst.copy_(lz::scalar_tensor(4, kInt32));
  CHECK_VALUES(dst, std::vector<double>(6, 4.0));
  dst.copy_(lz::tensor({{{5.0, 6.0, 7.0}}}).select(0, 0));
  CHECK_VALUES(dst, std::vector<double>{5, 6, 7, 5, 6, 7});
  Tensor big = lz::zeros({50, 40}, kInt64);
  big.copy_(lz::arange(0, 40));
  const auto v = lzt::int_values(big);
  bool ok = true;
  for (int64_t i = 0; i < 2000; ++i) ok = ok && v[i] == i % 40;
  CHECK(ok);

  SECTION("src that does not broadcast") {
    REQUIRE_THROWS_AS(dst.copy_(lz::ones({3, 2})), ShapeError);
    REQUIRE_THROWS_WITH(dst.copy_(lz::ones({3, 2})), Catch::Contains("[copy_]") &&
                                                         Catch::Contains("[3, 2]") &&
                                                         Catch::Contains("[2, 3]"));
    // self does not broadcast to src.
    Tensor small = lz::zeros({3});
    CHECK_THROWS_AS(small.copy_(lz::ones({2, 3})), ShapeError);
    CHECK_VALUES(dst, std::vector<double>{5, 6, 7, 5, 6, 7});
  }
}

TEST_CASE("copy_ into views and from non-contiguous sources", "[eager][copy][layout]") {
  const ScalarType dtype = GENERATE(kFloat32, kInt64, kFloat16, kBool, kUInt8);
  INFO(dtype);
  Tensor base = lz::zeros({4, 6}, dtype);
  const uint64_t v0 = base._version();
  const Tensor src = lzt::sample_tensor({4, 3}, dtype, 3);
  base.slice(1, 0, 6, 2).copy_(src);  // every other column
  CHECK(base._version() == v0 + 1);
  std::vector<double> expected(24, 0.0);
  const auto sv = values(src);
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 3; ++c) expected[r * 6 + 2 * c] = sv[r * 3 + c];
  }
  CHECK_VALUES(base, expected);
  // Transposed destination, transposed source.
  Tensor dst = lz::zeros({3, 4}, dtype);
  dst.copy_(src.t());
  CHECK_VALUES(dst, values(src.t()));
  Tensor dst2 = lz::zeros({4, 3}, dtype);
  dst2.t().copy_(src.t());
  CHECK_VALUES(dst2, sv);
  // Expanded source.
  Tensor dst3 = lz::zeros({5, 3}, dtype);
  dst3.copy_(src.select(0, 2).expand({5, 3}));
  CHECK_VALUES(dst3, lzt::broadcast_values(src.select(0, 2), {5, 3}));
  // as_strided source with overlapping windows.
  Tensor dst4 = lz::zeros({3, 3}, dtype);
  dst4.copy_(src.as_strided({3, 3}, {1, 1}));
  CHECK_VALUES(dst4, std::vector<double>{sv[0], sv[1], sv[2], sv[1], sv[2], sv[3], sv[2], sv[3], sv[4]});
}

TEST_CASE("copy_ between overlapping parts of one tensor", "[eager][copy][overlap]") {
  SECTION("shift right") {
    Tensor x = lz::arange(0, 6, kFloat32);
    x.slice(0, 1, 5).copy_(x.slice(0, 0, 4));
    CHECK_VALUES(x, std::vector<double>{0, 0, 1, 2, 3, 5});
  }
  SECTION("shift left") {
    Tensor x = lz::arange(0, 6, kFloat32);
    x.slice(0, 0, 4).copy_(x.slice(0, 1, 5));
    CHECK_VALUES(x, std::vector<double>{1, 2, 3, 4, 4, 5});
  }
  SECTION("long shift") {
    Tensor x = lz::arange(0, 1000, kInt64);
    x.slice(0, 3, 1000).copy_(x.slice(0, 0, 997));
    const auto v = lzt::int_values(x);
    bool ok = v[0] == 0 && v[1] == 1 && v[2] == 2;
    for (int64_t i = 3; i < 1000; ++i) ok = ok && v[i] == i - 3;
    CHECK(ok);
  }
  SECTION("transpose in place") {
    const Tensor orig = lzt::sample_tensor({7, 7}, kFloat64, 4);
    Tensor a = orig.clone();
    a.copy_(a.t());
    CHECK_VALUES(a, values(orig.t()));
  }
  SECTION("copy from itself") {
    Tensor a = lz::tensor({1.0, 2.0});
    const uint64_t v0 = a._version();
    a.copy_(a);
    CHECK_VALUES(a, std::vector<double>{1, 2});
    CHECK(a._version() == v0 + 1);
  }
  SECTION("broadcast a row of self into self") {
    Tensor a = lz::tensor({{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}});
    a.copy_(a.select(0, 2));
    CHECK_VALUES(a, std::vector<double>{5, 6, 5, 6, 5, 6});
  }
}

TEST_CASE("copy_ into an expanded view is rejected", "[eager][copy][errors]") {
  Tensor base = lz::zeros({3});
  Tensor e = base.expand({4, 3});
  REQUIRE_THROWS_AS(e.copy_(lz::ones({4, 3})), ValueError);
  REQUIRE_THROWS_WITH(e.copy_(lz::ones({4, 3})),
                      Catch::Contains("[copy_]") && Catch::Contains("single memory location"));
  CHECK_VALUES(base, std::vector<double>{0, 0, 0});
  Tensor u;
  CHECK_THROWS_AS(base.copy_(u), ValueError);
}

TEST_CASE("copy_ with 0-size and 0-dim tensors", "[eager][copy]") {
  Tensor e = lz::empty({2, 0});
  CHECK_NOTHROW(e.copy_(lz::empty({2, 0}, kInt32)));
  CHECK_NOTHROW(e.copy_(lz::ones({1})));  // [1] broadcasts to [2, 0]
  Tensor s = lz::scalar_tensor(0.0);
  s.copy_(lz::scalar_tensor(3, kInt64));
  CHECK(s.item<double>() == 3.0);
  s.copy_(lz::tensor({9.0}).view({}));
  CHECK(s.item<double>() == 9.0);
  CHECK_THROWS_AS(s.copy_(lz::tensor({1.0, 2.0})), ShapeError);
}

// ---- fill_ / zero_ ----------------------------------------------------------------

TEST_CASE("fill_ and zero_", "[eager][copy][fill]") {
  const ScalarType dtype = GENERATE(from_range(lzt::kAllDtypes));
  INFO(dtype);
  Tensor x = lzt::sample_tensor({3, 5}, dtype, 9);
  const uint64_t v0 = x._version();
  Tensor& r = x.fill_(1);
  CHECK(&r == &x);
  CHECK(x._version() == v0 + 1);
  CHECK_VALUES(x, std::vector<double>(15, 1.0));
  x.zero_();
  CHECK(x._version() == v0 + 2);
  CHECK_VALUES(x, std::vector<double>(15, 0.0));
  if (lzt::is_float(dtype)) {
    x.fill_(-2.5);
    CHECK_VALUES(x, std::vector<double>(15, -2.5));
    x.fill_(kNaN);
    CHECK_VALUES(x, std::vector<double>(15, kNaN));
  }
  // Through views: only the viewed elements change.
  Tensor y = lz::zeros({4, 4}, dtype);
  y.t().select(0, 1).fill_(true);  // column 1
  y.slice(0, 0, 4, 3).select(1, 3).fill_(1);  // rows 0 and 3, column 3
  CHECK_VALUES(y, std::vector<double>{0, 1, 0, 1, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 1});
  y.select(1, 1).zero_();
  CHECK_VALUES(y, std::vector<double>{0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1});
}

TEST_CASE("fill_ with a value its dtype cannot hold is a ValueError, also lazily and on 0-size tensors",
          "[eager][copy][fill]") {
  // Tried: -3 and 256 into uint8, 70000.0 into float16, 2^31 into int32; each
  // eager, lazy (raised when recorded), and on an empty tensor.
  const std::vector<std::pair<ScalarType, Scalar>> cases = {
      {lz::kUInt8, Scalar(int64_t{-3})}, {lz::kUInt8, Scalar(int64_t{256})},
      {lz::kFloat16, Scalar(70000.0)}, {lz::kInt32, Scalar(int64_t{1} << 31)}};
  for (const auto& [dtype, value] : cases) {
    INFO(dtype << " " << value);
    for (const lz::SizeVec& sizes : {lz::SizeVec{3}, lz::SizeVec{0, 2}}) {
      Tensor x = lz::zeros(sizes, dtype);
      CHECK_THROWS_AS(x.fill_(value), lz::ValueError);
      CHECK_THROWS_WITH(x.fill_(value), Catch::Contains("[fill_] value: " + value.str() + " cannot be converted to " +
                                                        std::string(lz::to_string(dtype))));
      Tensor l = lz::zeros(sizes, dtype).to_lazy();
      CHECK_THROWS_AS(l.fill_(value), lz::ValueError);
      CHECK(lz::equal(l.to_eager(), lz::zeros(sizes, dtype)));  // nothing was recorded
    }
  }
}

TEST_CASE("fill_ on an expanded view writes the shared element", "[eager][copy][fill]") {
  // Filling is idempotent, so (as in PyTorch) an expanded self is allowed.
  Tensor base = lz::zeros({3});
  Tensor e = base.expand({4, 3});
  e.fill_(2);
  CHECK_VALUES(base, std::vector<double>{2, 2, 2});
  CHECK_VALUES(e, std::vector<double>(12, 2.0));
  e.zero_();
  CHECK_VALUES(base, std::vector<double>{0, 0, 0});
}

TEST_CASE("fill_ value conversion", "[eager][copy][fill]") {
  Tensor b = lz::zeros({2}, kBool);
  b.fill_(2);
  CHECK(lzt::int_values(b) == std::vector<int64_t>{1, 1});
  b.fill_(0.0);
  CHECK(lzt::int_values(b) == std::vector<int64_t>{0, 0});
  b.fill_(0.5);
  CHECK(lzt::int_values(b) == std::vector<int64_t>{1, 1});
  Tensor h = lz::zeros({1}, kFloat16);
  h.fill_(0.1);
  CHECK(lzt::bits16(h) == std::vector<uint16_t>{0x2E66});
  Tensor d = lz::zeros({1}, kFloat64);
  d.fill_(0.1);
  CHECK(values(d)[0] == 0.1);
  Tensor i = lz::zeros({1}, kInt64);
  i.fill_(int64_t{1} << 60);
  CHECK(lzt::int_values(i)[0] == int64_t{1} << 60);
  Tensor u = lz::zeros({2}, kUInt8);
  u.fill_(255);
  CHECK(lzt::int_values(u) == std::vector<int64_t>{255, 255});
  CHECK_THROWS_AS(u.fill_(256), ValueError);
  CHECK_THROWS_AS(u.fill_(-1), ValueError);
  CHECK(lzt::int_values(u) == std::vector<int64_t>{255, 255});
  Tensor e = lz::empty({0}, kInt32);
  CHECK_NOTHROW(e.fill_(3));
  Tensor s = lz::scalar_tensor(0.0);
  s.fill_(4);
  CHECK(s.item<double>() == 4);
}

// ---- clone / contiguous -------------------------------------------------------------

TEST_CASE("clone copies values into new memory", "[eager][copy][clone]") {
  const ScalarType dtype = GENERATE(from_range(lzt::kAllDtypes));
  INFO(dtype);
  const Tensor x = lzt::sample_tensor({3, 4}, dtype, 5);
  const Tensor c = x.clone();
  CHECK(c.dtype() == dtype);
  CHECK_SHAPE(c, {3, 4});
  CHECK(c.is_contiguous());
  CHECK(c.data_ptr() != x.data_ptr());
  CHECK(lzt::same_values(c, x) == "");
  Tensor w = c;
  w.fill_(0);
  CHECK(lzt::same_values(x, lzt::sample_tensor({3, 4}, dtype, 5)) == "");
}

TEST_CASE("clone preserves a dense layout", "[eager][copy][clone]") {
  const Tensor x = lzt::sample_tensor({3, 4}, kFloat32, 6);
  SECTION("transposed") {
    const Tensor c = x.t().clone();
    CHECK_SHAPE(c, {4, 3});
    CHECK_STRIDES(c, {1, 4});
    CHECK(!c.is_contiguous());
    CHECK(c.storage_offset() == 0);
    CHECK(c.data_ptr() != x.data_ptr());
    CHECK_VALUES(c, values(x.t()));
  }
  SECTION("permuted 3-D") {
    const Tensor y = lzt::sample_tensor({2, 3, 4}, kInt32, 7).permute({2, 0, 1});
    const Tensor c = y.clone();
    CHECK_SHAPE(c, {4, 2, 3});
    CHECK_STRIDES(c, {1, 12, 4});
    CHECK_VALUES(c, values(y));
  }
  SECTION("explicit contiguous format") {
    const Tensor c = x.t().clone(MemoryFormat::Contiguous);
    CHECK(c.is_contiguous());
    CHECK_STRIDES(c, {3, 1});
    CHECK_VALUES(c, values(x.t()));
  }
  SECTION("non-dense inputs become contiguous") {
    const Tensor s = x.slice(1, 0, 4, 2).clone();
    CHECK(s.is_contiguous());
    CHECK_SHAPE(s, {3, 2});
    CHECK_VALUES(s, values(x.slice(1, 0, 4, 2)));
    const Tensor e = x.select(0, 1).expand({5, 4}).clone();
    CHECK(e.is_contiguous());
    CHECK_VALUES(e, lzt::broadcast_values(x.select(0, 1), {5, 4}));
    const Tensor o = x.slice(0, 1, 3).clone();
    CHECK(o.storage_offset() == 0);
    CHECK_VALUES(o, values(x.slice(0, 1, 3)));
  }
  SECTION("0-dim and 0-size") {
    const Tensor s = lz::scalar_tensor(2.5).clone();
    CHECK(s.dim() == 0);
    CHECK(s.item<double>() == 2.5);
    CHECK_SHAPE(lz::empty({2, 0, 3}).clone(), {2, 0, 3});
  }
}

TEST_CASE("contiguous", "[eager][copy][clone]") {
  const Tensor x = lzt::sample_tensor({3, 4}, kFloat64, 8);
  CHECK(x.contiguous().is_same(x));
  CHECK(x.slice(0, 1, 3).contiguous().is_same(x.slice(0, 1, 3)) == false);  // new views each call
  const Tensor rows = x.slice(0, 1, 3);
  CHECK(rows.is_contiguous());
  CHECK(rows.contiguous().is_same(rows));
  const Tensor t = x.t();
  const Tensor tc = t.contiguous();
  CHECK(!tc.is_same(t));
  CHECK(tc.is_contiguous());
  CHECK_STRIDES(tc, {3, 1});
  CHECK(tc.data_ptr() != x.data_ptr());
  CHECK_VALUES(tc, values(t));
  const Tensor sl = x.slice(1, 0, 4, 2).contiguous();
  CHECK(sl.is_contiguous());
  CHECK_VALUES(sl, values(x.slice(1, 0, 4, 2)));
  // A size-1 dim's stride does not matter.
  const Tensor one = x.slice(0, 0, 1);
  CHECK(one.contiguous().is_same(one));
}

// ---- to / _to_copy -------------------------------------------------------------------

TEST_CASE("to(dtype) and _to_copy", "[eager][copy][to]") {
  const Tensor x = lz::tensor({1.5, -2.5, 3.0});
  CHECK(x.to(kFloat32).is_same(x));
  CHECK(x.to(Device(kCPU)).is_same(x));
  CHECK(x.to(TensorOptions(kFloat32)).is_same(x));
  const Tensor c = x.to(kFloat32, false, /*copy=*/true);
  CHECK(!c.is_same(x));
  CHECK(c.data_ptr() != x.data_ptr());
  CHECK(lzt::same_values(c, x) == "");
  const Tensor d = x.to(kFloat64);
  CHECK(d.dtype() == kFloat64);
  CHECK_VALUES(d, std::vector<double>{1.5, -2.5, 3.0});
  const Tensor i = x.to(TensorOptions(kInt32));
  CHECK(i.dtype() == kInt32);
  CHECK(lzt::int_values(i) == std::vector<int64_t>{1, -2, 3});
  const Tensor dev = x.to(Device(kCPU), kInt64);
  CHECK(dev.dtype() == kInt64);
  CHECK(lzt::int_values(dev) == std::vector<int64_t>{1, -2, 3});
  const Tensor copy = lz::_to_copy(x);
  CHECK(!copy.is_same(x));
  CHECK(copy.data_ptr() != x.data_ptr());
  CHECK(lzt::same_values(copy, x) == "");
  CHECK(lz::_to_copy(x, kFloat16).dtype() == kFloat16);
  // A transposed input keeps its layout.
  const Tensor m = lzt::sample_tensor({2, 3}, kFloat32, 2).t();
  const Tensor md = m.to(kFloat64);
  CHECK_STRIDES(md, {1, 3});
  CHECK_VALUES(md, values(m));
  // Writing to the copy leaves the source alone.
  Tensor w = x.to(kFloat32, false, true);
  w.fill_(0);
  CHECK_VALUES(x, std::vector<double>{1.5, -2.5, 3.0});
}

// ---- item ------------------------------------------------------------------------------

TEST_CASE("item", "[eager][copy][item]") {
  CHECK(lz::tensor({2.5}).item<double>() == 2.5);
  CHECK(lz::tensor({2.5}).item<float>() == 2.5f);
  CHECK(lz::tensor({0.1f}).item<double>() == static_cast<double>(0.1f));
  CHECK(lz::tensor({0.1}, kFloat64).item<double>() == 0.1);
  CHECK(lz::tensor({7}, kInt32).item<int64_t>() == 7);
  CHECK(lz::tensor({int64_t{1} << 62}).item<int64_t>() == int64_t{1} << 62);
  CHECK(lz::tensor({255}, kUInt8).item<int64_t>() == 255);
  CHECK(lz::tensor({true}).item<bool>());
  CHECK(lz::tensor({0.1}, kFloat16).item<double>() == 0.0999755859375);
  CHECK(lz::tensor({0.1}, kBFloat16).item<double>() == 0.10009765625);
  CHECK(lz::scalar_tensor(-3).item<int64_t>() == -3);
  CHECK(lz::tensor({{4.0}}).item<double>() == 4.0);  // [1, 1]
  CHECK(lz::tensor({1.0, 2.0, 3.0}).select(0, 2).item<double>() == 3.0);
  CHECK(lz::tensor({1.0, 2.0, 3.0}).t().slice(0, 1, 2).item<double>() == 2.0);
  // The Scalar keeps the category.
  CHECK(lz::tensor({7}, kInt32).item().is_integral(false));
  CHECK(lz::tensor({7.0}).item().is_floating_point());
  CHECK(lz::tensor({true}).item().is_bool());

  REQUIRE_THROWS_AS(lz::tensor({1.0, 2.0}).item(), ValueError);
  REQUIRE_THROWS_WITH(lz::tensor({1.0, 2.0}).item<double>(),
                      Catch::Contains("[item]") && Catch::Contains("2 elements") && Catch::Contains("[2]"));
  REQUIRE_THROWS_WITH(lz::empty({0, 3}).item<double>(), Catch::Contains("[item]") && Catch::Contains("[0, 3]"));
  CHECK_THROWS_AS(lz::empty({0}).item(), ValueError);
  CHECK_THROWS_AS(Tensor().item(), Error);
}
