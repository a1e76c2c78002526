// sum: every dtype, result dtypes, dim lists (single, multiple, negative,
// keepdim, all, empty), 0-size and 0-dim inputs, inner and outer
// reductions, non-contiguous inputs, accuracy, out= and errors.
#include "test_util.h"

using namespace lz;
using lzt::make_tensor;
using lzt::values;

namespace {

// Float64 reference of sum over `dims` (sorted, non-negative) of t.
std::vector<double> sum_reference(const Tensor& t, std::vector<int64_t> dims) {
  const std::vector<double> v = values(t);
  const int64_t nd = t.dim();
  std::vector<bool> reduced(nd, false);
  if (dims.empty()) reduced.assign(nd, true);
  for (int64_t d : dims) reduced[d] = true;
  std::vector<int64_t> out_sizes;
  for (int64_t d = 0; d < nd; ++d) {
    if (!reduced[d]) out_sizes.push_back(t.size(d));
  }
  std::vector<double> out(static_cast<size_t>(lzt::numel_of(out_sizes)), 0.0);
  std::vector<int64_t> index(nd, 0);
  for (size_t k = 0; k < v.size(); ++k) {
    int64_t o = 0;
    for (int64_t d = 0; d < nd; ++d) {
      if (!reduced[d]) o = o * t.size(d) + index[d];
    }
    out[o] += v[k];
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (++index[d] < t.size(d)) break;
      index[d] = 0;
    }
  }
  return out;
}

std::vector<int64_t> int_sum_reference(const Tensor& t, std::vector<int64_t> dims) {
  // Exact int64 sums (values of the samples are small).
  std::vector<int64_t> out;
  for (double v : sum_reference(t, std::move(dims))) out.push_back(static_cast<int64_t>(v));
  return out;
}

// Tolerance of a float sum of n terms accumulated in float32 (pairwise).
double sum_rtol(ScalarType t) {
  switch (t) {
    case kFloat16: return 2.0 / 1024;
    case kBFloat16: return 2.0 / 128;
    case kFloat32: return 1e-5;
    default: return 1e-12;
  }
}

}  // namespace

TEST_CASE("sum of all elements for every dtype", "[eager][sum]") {
  const ScalarType dtype = GENERATE(from_range(lzt::kAllDtypes));
  INFO(dtype);
  const Tensor x = lzt::sample_tensor({7, 11}, dtype, 3);
  const Tensor s = lz::sum(x);
  CHECK(s.dim() == 0);
  if (lzt::is_float(dtype)) {
    CHECK(s.dtype() == dtype);
    CHECK_VALUES_TOL(s, sum_reference(x, {}), sum_rtol(dtype), 1e-3);
  } else {
    // Integral and bool inputs sum to int64.
    CHECK(s.dtype() == kInt64);
    CHECK(lzt::int_values(s) == int_sum_reference(x, {}));
  }
  CHECK(lzt::same_values(x.sum(), s) == "");
}

TEST_CASE("sum result dtypes", "[eager][sum][promotion]") {
  CHECK(lz::sum(lz::ones({3}, kInt32)).dtype() == kInt64);
  CHECK(lz::sum(lz::ones({3}, kUInt8)).dtype() == kInt64);
  CHECK(lz::sum(lz::ones({3}, kBool)).dtype() == kInt64);
  CHECK(lz::sum(lz::ones({3}, kFloat16)).dtype() == kFloat16);
  CHECK(lz::sum(lz::ones({3}, kBFloat16)).dtype() == kBFloat16);
  CHECK(lz::sum(lz::ones({3}, kFloat64)).dtype() == kFloat64);
  CHECK(lz::sum(lz::ones({2, 3}, kInt32), {1}).dtype() == kInt64);

  SECTION("bool counts trues") {
    const Tensor b = lz::tensor({true, false, true, true});
    CHECK(lz::sum(b).item<int64_t>() == 3);
  }
  SECTION("uint8 does not wrap") {
    CHECK(lz::sum(lz::full({4}, 255, kUInt8)).item<int64_t>() == 1020);
  }
  SECTION("int32 does not wrap") {
    const Tensor i = lz::tensor({2147483647, 1, 2147483647}, kInt32);
    CHECK(lz::sum(i).item<int64_t>() == 2LL * 2147483647 + 1);
  }
  SECTION("dtype argument") {
    const Tensor f = lz::tensor({0.1f, 0.2f, 0.3f});
    const Tensor d = lz::sum(f, kFloat64);
    CHECK(d.dtype() == kFloat64);
    // The float32 inputs are summed in float64.
    CHECK(d.item<double>() == double(0.1f) + double(0.2f) + double(0.3f));
    const Tensor d2 = lz::sum(lz::tensor({{1, 2}, {3, 4}}, kInt32), {0}, false, kFloat64);
    CHECK(d2.dtype() == kFloat64);
    CHECK_VALUES(d2, std::vector<double>{4, 6});
    const Tensor d3 = lz::sum(lz::tensor({1, 2}, kInt64), kInt32);
    CHECK(d3.dtype() == kInt32);
    CHECK(d3.item<int64_t>() == 3);
    const Tensor h = lz::sum(lz::tensor({1000.0, 1000.0, 1000.0}, kFloat16), kFloat32);
    CHECK(h.dtype() == kFloat32);
    CHECK(h.item<double>() == 3000);
  }
}

TEST_CASE("sum over dim lists", "[eager][sum]") {
  const ScalarType dtype = GENERATE(kInt32, kFloat32, kFloat64, kFloat16);
  INFO(dtype);
  const Tensor x = lzt::sample_tensor({3, 4, 5}, dtype, 8);
  const ScalarType rt = lzt::is_float(dtype) ? dtype : kInt64;
  struct Case {
    std::vector<int64_t> dims;       // as passed
    std::vector<int64_t> canonical;  // sorted, wrapped
    std::vector<int64_t> shape, keep_shape;
  };
  const Case c = GENERATE(Case{{0}, {0}, {4, 5}, {1, 4, 5}}, Case{{1}, {1}, {3, 5}, {3, 1, 5}},
                          Case{{2}, {2}, {3, 4}, {3, 4, 1}}, Case{{-1}, {2}, {3, 4}, {3, 4, 1}},
                          Case{{-3}, {0}, {4, 5}, {1, 4, 5}}, Case{{0, 2}, {0, 2}, {4}, {1, 4, 1}},
                          Case{{2, 0}, {0, 2}, {4}, {1, 4, 1}}, Case{{1, -1}, {1, 2}, {3}, {3, 1, 1}},
                          Case{{0, 1, 2}, {0, 1, 2}, {}, {1, 1, 1}},
                          Case{{-1, 0, 1}, {0, 1, 2}, {}, {1, 1, 1}});
  INFO("dims " << lzt::fmt(c.dims));
  const Tensor s = lz::sum(x, c.dims);
  CHECK(s.dtype() == rt);
  CHECK(lzt::sizes_vec(s.sizes()) == c.shape);
  const auto ref = sum_reference(x, c.canonical);
  CHECK_VALUES_TOL(s, ref, sum_rtol(dtype), 1e-3);
  const Tensor k = x.sum(c.dims, /*keepdim=*/true);
  CHECK(lzt::sizes_vec(k.sizes()) == c.keep_shape);
  CHECK_VALUES_TOL(k, ref, sum_rtol(dtype), 1e-3);
}

TEST_CASE("sum with an empty dim list reduces everything", "[eager][sum]") {
  const Tensor x = lzt::sample_tensor({3, 4}, kFloat64, 2);
  const Tensor s = lz::sum(x, IntArrayRef{});
  CHECK(s.dim() == 0);
  CHECK_VALUES(s, sum_reference(x, {}));
  const Tensor k = lz::sum(x, IntArrayRef{}, true);
  CHECK_SHAPE(k, {1, 1});
  CHECK_VALUES(k, sum_reference(x, {}));
}

TEST_CASE("sum over 0-size dims gives zeros", "[eager][sum]") {
  const ScalarType dtype = GENERATE(kFloat32, kInt64, kBool, kFloat16);
  INFO(dtype);
  const Tensor e = lz::empty({2, 0, 3}, dtype);
  const Tensor s1 = lz::sum(e, {1});
  CHECK_SHAPE(s1, {2, 3});
  CHECK_VALUES(s1, std::vector<double>(6, 0.0));
  CHECK_SHAPE(lz::sum(e, {1}, true), {2, 1, 3});
  CHECK_VALUES(lz::sum(e, {1}, true), std::vector<double>(6, 0.0));
  const Tensor s0 = lz::sum(e, {0});
  CHECK_SHAPE(s0, {0, 3});
  CHECK(lz::sum(e, {0, 2}).numel() == 0);
  CHECK_SHAPE(lz::sum(e, {0, 2}), {0});
  CHECK(lz::sum(e).item<double>() == 0);
  CHECK(lz::sum(lz::empty({0}, dtype)).item<double>() == 0);
  // A large tensor with a zero-size dim.
  CHECK_VALUES(lz::sum(lz::empty({64, 0}, dtype), {1}), std::vector<double>(64, 0.0));
  CHECK_VALUES(lz::sum(lz::empty({0, 64}, dtype), {0}), std::vector<double>(64, 0.0));
}

TEST_CASE("sum of 0-dim tensors", "[eager][sum]") {
  const Tensor x = lz::scalar_tensor(2.5);
  CHECK(lz::sum(x).item<double>() == 2.5);
  for (int64_t d : {0, -1}) {
    const Tensor s = lz::sum(x, {d});
    CHECK(s.dim() == 0);
    CHECK(s.item<double>() == 2.5);
    const Tensor k = lz::sum(x, {d}, true);
    CHECK(k.dim() == 0);
    CHECK(k.item<double>() == 2.5);
  }
  CHECK(lz::sum(lz::scalar_tensor(7, kInt32)).item<int64_t>() == 7);
  CHECK(lz::sum(lz::scalar_tensor(7, kInt32)).dtype() == kInt64);
  REQUIRE_THROWS_AS(lz::sum(x, {1}), IndexError);
  REQUIRE_THROWS_AS(lz::sum(x, {-2}), IndexError);
}

TEST_CASE("sum of size-1 dims", "[eager][sum]") {
  const Tensor x = lzt::sample_tensor({1, 5, 1}, kFloat64, 4);
  CHECK_VALUES(lz::sum(x, {0}), values(x));
  CHECK_VALUES(lz::sum(x, {0, 2}), values(x));
  CHECK_SHAPE(lz::sum(x, {0, 2}), {5});
  CHECK_VALUES(lz::sum(x, {1}), sum_reference(x, {1}));
}

TEST_CASE("sum inner and outer reductions of large matrices", "[eager][sum]") {
  const ScalarType dtype = GENERATE(kFloat32, kFloat64, kInt64, kInt32, kFloat16, kBFloat16);
  INFO(dtype);
  const Tensor x = lzt::sample_tensor({1000, 37}, dtype, 99);
  const double atol = dtype == kBFloat16 ? 0.5 : dtype == kFloat16 ? 0.25 : 1e-3;
  for (int64_t dim : {0, 1}) {
    INFO("dim " << dim);
    const Tensor s = lz::sum(x, {dim});
    CHECK_SHAPE(s, {dim == 0 ? 37 : 1000});
    if (lzt::is_float(dtype)) {
      CHECK_VALUES_TOL(s, sum_reference(x, {dim}), sum_rtol(dtype), atol);
    } else {
      CHECK(lzt::int_values(s) == int_sum_reference(x, {dim}));
    }
    // Same through the transposed (column-major) layout.
    const Tensor st = lz::sum(x.t(), {1 - dim});
    CHECK(lzt::mismatch(st, values(s), sum_rtol(dtype), atol) == "");
  }
  const Tensor k0 = lz::sum(x, {0}, /*keepdim=*/true);
  CHECK_SHAPE(k0, {1, 37});
  CHECK(lzt::mismatch(k0, values(lz::sum(x, {0})), 0, 0) == "");
  const Tensor all = lz::sum(x);
  if (lzt::is_float(dtype)) {
    CHECK_VALUES_TOL(all, sum_reference(x, {}), sum_rtol(dtype), atol * 10);
  } else {
    CHECK(lzt::int_values(all) == int_sum_reference(x, {}));
  }
}

TEST_CASE("sum of 3-D and 4-D tensors over mixed dims", "[eager][sum]") {
  const Tensor x = lzt::sample_tensor({4, 50, 9}, kInt64, 5);
  for (const std::vector<int64_t>& dims : std::vector<std::vector<int64_t>>{
           {0}, {1}, {2}, {0, 1}, {0, 2}, {1, 2}, {0, 1, 2}}) {
    INFO("dims " << lzt::fmt(dims));
    CHECK(lzt::int_values(lz::sum(x, dims)) == int_sum_reference(x, dims));
    CHECK(lzt::int_values(lz::sum(x.permute({2, 0, 1}).contiguous().permute({1, 2, 0}), dims)) ==
          int_sum_reference(x, dims));
  }
  const Tensor y = lzt::sample_tensor({3, 2, 16, 5}, kFloat64, 6);
  for (const std::vector<int64_t>& dims : std::vector<std::vector<int64_t>>{
           {0, 2}, {1, 3}, {0, 3}, {2}, {0, 1, 3}}) {
    INFO("dims " << lzt::fmt(dims));
    CHECK_VALUES(lz::sum(y, dims), sum_reference(y, dims));
  }
}

TEST_CASE("sum of a high-rank permuted tensor", "[eager][sum][layout]") {
  const Tensor x = lzt::sample_tensor({2, 3, 2, 2, 2, 3, 2}, kInt64, 7).permute({6, 0, 5, 1, 4, 2, 3});
  for (const std::vector<int64_t>& dims : std::vector<std::vector<int64_t>>{
           {0}, {6}, {0, 2, 4, 6}, {1, 3, 5}, {0, 1, 2, 3, 4, 5}, {3}}) {
    INFO("dims " << lzt::fmt(dims));
    CHECK(lzt::int_values(lz::sum(x, dims)) == int_sum_reference(x, dims));
  }
}

TEST_CASE("sum of non-contiguous inputs", "[eager][sum][layout]") {
  const ScalarType dtype = GENERATE(kFloat32, kInt32, kFloat64);
  INFO(dtype);
  const Tensor base = lzt::sample_tensor({12, 20}, dtype, 21);
  auto check = [&](const char* what, const Tensor& x, std::vector<int64_t> dims) {
    INFO(what << " dims " << lzt::fmt(dims));
    const Tensor s = lz::sum(x, dims);
    CHECK_VALUES_TOL(s, sum_reference(x, dims), 1e-6, 1e-4);
    CHECK(lzt::mismatch(s, values(lz::sum(x.contiguous(), dims)), 1e-6, 1e-4) == "");
  };
  check("transposed", base.t(), {0});
  check("transposed", base.t(), {1});
  check("transposed", base.t(), {0, 1});
  check("step 2 cols", base.slice(1, 0, 20, 2), {0});
  check("step 2 cols", base.slice(1, 0, 20, 2), {1});
  check("step 3 rows", base.slice(0, 1, 12, 3), {0});
  check("expanded", base.select(0, 3).expand({50, 20}), {0});
  check("expanded", base.select(0, 3).expand({50, 20}), {1});
  check("expanded col", base.slice(1, 2, 3).expand({12, 33}), {0});
  check("expanded col", base.slice(1, 2, 3).expand({12, 33}), {1});
  check("as_strided", base.as_strided({10, 10}, {13, 2}, 3), {0});
  check("as_strided", base.as_strided({10, 10}, {13, 2}, 3), {1});
  check("as_strided windows", base.as_strided({200, 8}, {1, 1}), {1});
  check("permuted", base.view({3, 4, 20}).permute({2, 0, 1}), {1});
  check("permuted", base.view({3, 4, 20}).permute({2, 0, 1}), {0, 2});
  // Sum of an expanded scalar over 1000 rows is 1000 times the value.
  const Tensor v = lz::tensor({0.5f, -2.0f, 3.0f});
  CHECK_VALUES(lz::sum(v.expand({1000, 3}), {0}), std::vector<double>{500, -2000, 3000});
}

TEST_CASE("float sums are accurate", "[eager][sum][accuracy]") {
  SECTION("one million times 0.1f") {
    const Tensor x = lz::full({1000000}, 0.1);
    REQUIRE(x.dtype() == kFloat32);
    const double s = lz::sum(x).item<double>();
    CHECK(s == Approx(1e5).epsilon(1e-3));
    // A naive float32 running sum would be off by about 1%; pairwise is much closer.
    CHECK(std::fabs(s - 1e6 * double(0.1f)) < 1.0);
  }
  SECTION("outer reduction of many rows") {
    const Tensor x = lz::full({500000, 8}, 0.1);
    const Tensor s = lz::sum(x, {0});
    for (double v : values(s)) CHECK(v == Approx(5e4).epsilon(1e-3));
  }
  SECTION("strided inner reduction") {
    const Tensor x = lz::full({8, 300000}, 0.1).t();  // reduce dim 0 of the transpose: stride 300000
    const Tensor s = lz::sum(x, {0});
    CHECK(s.numel() == 8);
    for (double v : values(s)) CHECK(v == Approx(3e4).epsilon(1e-3));
  }
  SECTION("16-bit floats accumulate in float32") {
    // Accumulating in float16 would stick at 2048 (2048 + 1 rounds to 2048).
    CHECK(lz::sum(lz::ones({4096}, kFloat16)).item<double>() == 4096);
    // ... and bfloat16 at 256.
    CHECK(lz::sum(lz::ones({1000}, kBFloat16)).item<double>() == 1000);
    CHECK_VALUES(lz::sum(lz::ones({3, 1000}, kBFloat16), {1}), std::vector<double>{1000, 1000, 1000});
    CHECK_VALUES(lz::sum(lz::ones({1000, 3}, kBFloat16), {0}), std::vector<double>{1000, 1000, 1000});
    CHECK_VALUES(lz::sum(lz::ones({4096, 16}, kFloat16), {0}), std::vector<double>(16, 4096));
  }
  SECTION("cancellation") {
    const Tensor x = lz::tensor({1e8, 1.0, -1e8, 1.0}, kFloat64);
    CHECK(lz::sum(x).item<double>() == 2.0);
  }
}

TEST_CASE("sum propagates NaN and infinities", "[eager][sum]") {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  CHECK(std::isnan(lz::sum(make_tensor({1, nan, 2}, kFloat32)).item<double>()));
  CHECK(lz::sum(make_tensor({1, inf, 2}, kFloat32)).item<double>() == inf);
  CHECK(std::isnan(lz::sum(make_tensor({inf, -inf}, kFloat64)).item<double>()));
  CHECK(lz::sum(make_tensor({60000, 60000}, kFloat16)).item<double>() == inf);
}

TEST_CASE("sum_out", "[eager][sum][out]") {
  const Tensor x = lzt::sample_tensor({4, 6}, kFloat32, 12);
  const auto ref = sum_reference(x, {1});
  SECTION("empty out is resized") {
    Tensor out = lz::empty({0});
    Tensor& r = lz::sum_out(out, x, {1});
    CHECK(&r == &out);
    CHECK_SHAPE(out, {4});
    CHECK_VALUES_TOL(out, ref, 1e-6, 1e-5);
    Tensor k = lz::empty({0});
    lz::sum_out(k, x, {1}, true);
    CHECK_SHAPE(k, {4, 1});
    CHECK_VALUES_TOL(k, ref, 1e-6, 1e-5);
  }
  SECTION("matching out") {
    Tensor out = lz::zeros({4});
    void* data = out.data_ptr();
    const uint64_t v0 = out._version();
    lz::sum_out(out, x, {-1});
    CHECK(out.data_ptr() == data);
    CHECK(out._version() > v0);
    CHECK_VALUES_TOL(out, ref, 1e-6, 1e-5);
  }
  SECTION("wrong shape: resized, with a warning (as libtorch)") {
    std::vector<std::string> warnings;
    const lz::WarningHandlerGuard capture([&](std::string_view m) { warnings.emplace_back(m); });
    Tensor out = lz::zeros({6});
    lz::sum_out(out, x, {1});
    CHECK_SHAPE(out, {4});
    CHECK_VALUES_TOL(out, ref, 1e-6, 1e-5);
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("[sum") && Catch::Contains("[6]") && Catch::Contains("[4]"));
  }
  SECTION("wider dtype") {
    Tensor out = lz::zeros({4}, kFloat64);
    lz::sum_out(out, x, {1});
    CHECK_VALUES_TOL(out, ref, 1e-6, 1e-5);
  }
  SECTION("narrower category") {
    Tensor out = lz::zeros({4}, kInt64);
    REQUIRE_THROWS_AS(lz::sum_out(out, x, {1}), TypeError);
    REQUIRE_THROWS_WITH(lz::sum_out(out, x, {1}), Catch::Contains("can't be cast"));
  }
  SECTION("int input into an int64 out") {
    Tensor out = lz::empty({0}, kInt64);
    lz::sum_out(out, lz::tensor({{1, 2, 3}, {4, 5, 6}}, kInt32), {0});
    CHECK(lzt::int_values(out) == std::vector<int64_t>{5, 7, 9});
  }
  SECTION("non-contiguous out") {
    Tensor storage = lz::zeros({4, 2});
    Tensor out = storage.select(1, 1);
    lz::sum_out(out, x, {1});
    CHECK_VALUES_TOL(out, ref, 1e-6, 1e-5);
    CHECK_VALUES(storage.select(1, 0), std::vector<double>(4, 0.0));
  }
  SECTION("strided out of an outer reduction") {
    const Tensor y = lzt::sample_tensor({50, 16}, kFloat64, 13);
    Tensor storage = lz::zeros({16, 2}, kFloat64);
    Tensor out = storage.select(1, 0);  // stride 2
    lz::sum_out(out, y, {0});
    CHECK_VALUES(out, sum_reference(y, {0}));
    CHECK_VALUES(storage.select(1, 1), std::vector<double>(16, 0.0));
    Tensor kept = lz::zeros({2, 16}, kFloat64).slice(0, 1, 2);  // [1, 16], offset 16
    lz::sum_out(kept, y, {0}, /*keepdim=*/true);
    CHECK_VALUES(kept, sum_reference(y, {0}));
  }
  SECTION("out overlapping the input") {
    Tensor y = x.clone();
    Tensor out = y.select(1, 0);  // column 0 of the input itself
    lz::sum_out(out, y, {1});
    CHECK_VALUES_TOL(y.select(1, 0), ref, 1e-6, 1e-5);
  }
}

TEST_CASE("sum errors", "[eager][sum][errors]") {
  const Tensor x = lz::ones({2, 3});
  SECTION("duplicate dims") {
    REQUIRE_THROWS_AS(lz::sum(x, {0, 0}), ValueError);
    REQUIRE_THROWS_WITH(lz::sum(x, {1, -1}), Catch::Contains("[sum]") && Catch::Contains("multiple times"));
    CHECK_THROWS_AS(lz::sum(x, {0, -2}), ValueError);
  }
  SECTION("dim out of range") {
    REQUIRE_THROWS_AS(lz::sum(x, {2}), IndexError);
    REQUIRE_THROWS_WITH(lz::sum(x, {2}), Catch::Contains("[sum]") && Catch::Contains("2-D") &&
                                             Catch::Contains("[-2, 1]"));
    CHECK_THROWS_AS(lz::sum(x, {-3}), IndexError);
    CHECK_THROWS_AS(lz::sum(x, {0, 5}), IndexError);
    Tensor out = lz::empty({0});
    CHECK_THROWS_AS(lz::sum_out(out, x, {2}), IndexError);
  }
  SECTION("undefined input") {
    Tensor out = lz::empty({0});
    REQUIRE_THROWS_AS(lz::sum_out(out, Tensor(), {0}), ValueError);
    REQUIRE_THROWS_WITH(lz::sum_out(out, Tensor(), {0}), Catch::Contains("[sum]"));
    CHECK_THROWS_AS(lz::sum(Tensor()), Error);
  }
}
