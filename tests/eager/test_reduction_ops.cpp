// Reductions beyond sum: what the operator table does not express. Result
// dtypes, edge values (empty groups, NaN, infinities, ties), numerical
// stability, index semantics on every kernel path, out= and method forms,
// registered names.
#include <cmath>
#include <limits>

#include "core/dispatcher.h"
#include "test_util.h"
#include "tests/float_constants.h"

using namespace lz;
using lzt::make_tensor;
using lzt::values;

namespace {

constexpr double kNan = std::numeric_limits<double>::quiet_NaN();
using lzt::kInf;

std::vector<int64_t> ints(const Tensor& t) { return lzt::int_values(t); }
bool x_is_nan(const Tensor& t) { return std::isnan(t.item<double>()); }

}  // namespace

TEST_CASE("mean result dtypes and the integral input error", "[eager][reduction][mean]") {
  CHECK(lz::mean(lz::ones({3}, kFloat16)).dtype() == kFloat16);
  CHECK(lz::mean(lz::ones({3}, kBFloat16)).dtype() == kBFloat16);
  CHECK(lz::mean(lz::ones({3}, kFloat64)).dtype() == kFloat64);
  // An integral input needs a floating dtype, like PyTorch.
  REQUIRE_THROWS_AS(lz::mean(lz::ones({3}, kInt32)), TypeError);
  REQUIRE_THROWS_WITH(lz::mean(lz::ones({3}, kInt64), {0}), Catch::Contains("[mean] self") && Catch::Contains("int64"));
  CHECK_THROWS_AS(lz::mean(lz::ones({3}, kBool)), TypeError);
  CHECK_THROWS_AS(lz::mean(lz::ones({3}), kInt64), TypeError);
  const Tensor m = lz::mean(lz::tensor({1, 2, 4}, kInt32), kFloat64);
  CHECK(m.dtype() == kFloat64);
  CHECK(m.item<double>() == Approx(7.0 / 3).epsilon(1e-15));
  // float16 values summed in float: 2048 + 1 + 1 would stick at 2048 in float16.
  const Tensor h = make_tensor({2048, 1, 1, 0}, kFloat16);
  CHECK(lz::mean(h).item<double>() == 512.5);
  CHECK(x_is_nan(lz::mean(lz::empty({0}))));
}

TEST_CASE("prod results, dtypes and wrapping", "[eager][reduction][prod]") {
  CHECK(lz::prod(lz::tensor({2, 3, 4}, kInt32)).dtype() == kInt64);
  CHECK(lz::prod(lz::tensor({2, 3, 4}, kInt32)).item<int64_t>() == 24);
  CHECK(lz::prod(lz::tensor({true, true}), kBool).dtype() == kBool);
  CHECK(lz::prod(lz::full({5}, 200, kUInt8)).item<int64_t>() == 320000000000LL);
  // uint8 result (dtype given) wraps: 200 * 200 = 40000 = 64 mod 256.
  CHECK(lz::prod(lz::full({2}, 200, kUInt8), kUInt8).item<int64_t>() == 64);
  // 2^64 wraps to 0 in int64.
  CHECK(lz::prod(lz::full({64}, 2, kInt64)).item<int64_t>() == 0);
  CHECK(lz::prod(lz::full({63}, 2, kInt64)).item<int64_t>() == std::numeric_limits<int64_t>::min());
  CHECK(lz::prod(lz::empty({0})).item<double>() == 1);
  CHECK_VALUES(lz::prod(lz::empty({2, 0}), 1), std::vector<double>{1, 1});
  const Tensor x = lz::tensor({{1.5, 2.0}, {-3.0, 0.5}}, kFloat64);
  CHECK_VALUES(lz::prod(x, 0), std::vector<double>{-4.5, 1.0});
  CHECK_VALUES(x.prod(1, true), std::vector<double>{3.0, -1.5});
  CHECK_SHAPE(x.prod(1, true), {2, 1});
  CHECK(x.prod().item<double>() == -4.5);
  CHECK(std::isnan(lz::prod(make_tensor({kInf, 0}, kFloat32)).item<double>()));
  // bfloat16 products in float: 1.5^8 = 25.62890625 rounds once to 25.625.
  CHECK(lz::prod(lz::full({8}, 1.5, kBFloat16)).item<double>() == 25.625);
}

TEST_CASE("max and min of all elements", "[eager][reduction][max]") {
  const Tensor x = lz::tensor({{3, -7, 9}, {9, 0, -7}}, kInt32);
  CHECK(lz::max(x).item<int64_t>() == 9);
  CHECK(lz::min(x).item<int64_t>() == -7);
  CHECK(x.max().dim() == 0);
  CHECK(x.max().dtype() == kInt32);
  CHECK(lz::max(lz::tensor({false, true})).item<bool>());
  CHECK(!lz::min(lz::tensor({false, true})).item<bool>());
  CHECK(std::isnan(lz::max(make_tensor({1, kNan, kInf}, kFloat32)).item<double>()));
  CHECK(std::isnan(lz::min(make_tensor({-kInf, 2, kNan}, kBFloat16)).item<double>()));
  CHECK(lz::max(make_tensor({-kInf, -kInf}, kFloat64)).item<double>() == -kInf);
  CHECK(lz::min(lz::scalar_tensor(4.5)).item<double>() == 4.5);
  REQUIRE_THROWS_AS(lz::max(lz::empty({0})), ValueError);
  REQUIRE_THROWS_WITH(lz::min(lz::empty({3, 0})), Catch::Contains("[min] self") && Catch::Contains("[3, 0]"));
  // A NaN anywhere in a large tensor, on the vectorised path.
  Tensor big = lz::zeros({100003});
  static_cast<float*>(big.data_ptr())[99999] = std::numeric_limits<float>::quiet_NaN();
  CHECK(std::isnan(lz::max(big).item<double>()));
  CHECK(std::isnan(lz::min(big).item<double>()));
  Tensor out = lz::empty({0}, kInt32);
  lz::max_out(out, x);
  CHECK(out.dim() == 0);
  CHECK(out.item<int64_t>() == 9);
}

TEST_CASE("max.dim and min.dim return the first extremum and its index", "[eager][reduction][max]") {
  const Tensor x = lz::tensor({{1.0, 5.0, 5.0, -2.0}, {7.0, 7.0, 0.0, 7.0}}, kFloat32);
  auto [v1, i1] = lz::max(x, 1);
  CHECK_VALUES(v1, std::vector<double>{5, 7});
  CHECK(ints(i1) == std::vector<int64_t>{1, 0});
  auto [v0, i0] = x.min(0, /*keepdim=*/true);
  CHECK_SHAPE(v0, {1, 4});
  CHECK_VALUES(v0, std::vector<double>{1, 5, 0, -2});
  CHECK(ints(i0) == std::vector<int64_t>{0, 0, 1, 0});
  CHECK(i0.dtype() == kInt64);
  // NaN counts as the extremum, the first one wins.
  const Tensor n = make_tensor({3, kNan, 1, kNan, 9}, kFloat64);
  auto [nv, ni] = lz::max(n, 0);
  CHECK(std::isnan(nv.item<double>()));
  CHECK(ni.item<int64_t>() == 1);
  auto [mv, mi] = lz::min(n, 0);
  CHECK(std::isnan(mv.item<double>()));
  CHECK(mi.item<int64_t>() == 1);
  // 0-dim input: dim 0 or -1.
  auto [sv, si] = lz::max(lz::scalar_tensor(3, kInt64), -1);
  CHECK(sv.item<int64_t>() == 3);
  CHECK(si.item<int64_t>() == 0);
  CHECK(si.dim() == 0);
  // A size-0 dim has no maximum; other dims may be empty.
  REQUIRE_THROWS_AS(lz::max(lz::empty({2, 0}), 1), IndexError);
  auto [ev, ei] = lz::max(lz::empty({0, 3}), 1);
  CHECK_SHAPE(ev, {0});
  CHECK_SHAPE(ei, {0});
}

TEST_CASE("max.dim indices on the inner, outer and strided paths", "[eager][reduction][max][layout]") {
  // Column j holds ties at rows j % 7 and 100 + j % 7 (value 1000); every
  // other element is smaller. Reducing dim 0 is an outer reduction on the
  // row-major tensor and an inner one on its transposed copy.
  const int64_t rows = 300, cols = 50;
  std::vector<double> v(rows * cols);
  for (int64_t i = 0; i < rows; ++i) {
    for (int64_t j = 0; j < cols; ++j) v[i * cols + j] = static_cast<double>((i * 31 + j * 17) % 97);
  }
  std::vector<int64_t> expected;
  for (int64_t j = 0; j < cols; ++j) {
    v[(j % 7) * cols + j] = 1000;
    v[(100 + j % 7) * cols + j] = 1000;
    expected.push_back(j % 7);
  }
  for (ScalarType dtype : {kFloat32, kInt32, kFloat16, kInt64, kUInt8}) {
    INFO(dtype);
    std::vector<double> w = v;
    if (dtype == kUInt8) {
      for (double& e : w) e = e == 1000 ? 255 : e;
    }
    const Tensor x = make_tensor(w, {rows, cols}, dtype);
    CHECK(ints(std::get<1>(lz::max(x, 0))) == expected);
    CHECK(ints(lz::argmax(x, 0)) == expected);
    const Tensor xt = x.t().contiguous();  // [cols, rows]
    CHECK(ints(std::get<1>(lz::max(xt, 1))) == expected);
    CHECK(ints(lz::argmax(xt, 1)) == expected);
    CHECK(ints(lz::argmax(xt.t(), 0)) == expected);  // strided view
    std::vector<int64_t> neg_expected = expected;
    const Tensor y = dtype == kUInt8 ? x : -x;
    if (dtype != kUInt8) CHECK(ints(lz::argmin(y, 0)) == neg_expected);
  }
}

TEST_CASE("argmax over the flattened tensor uses the logical order", "[eager][reduction][argmax]") {
  const Tensor x = lz::tensor({{1, 8, 3}, {8, 2, 0}}, kInt32);
  CHECK(lz::argmax(x).item<int64_t>() == 1);
  CHECK(lz::argmin(x).item<int64_t>() == 5);
  // Transposed: [[1, 8], [8, 2], [3, 0]] -> the first 8 is at flat index 1 too,
  // the 0 at flat index 5.
  CHECK(lz::argmax(x.t()).item<int64_t>() == 1);
  CHECK(lz::argmin(x.t()).item<int64_t>() == 5);
  const Tensor k = lz::argmax(x, std::nullopt, /*keepdim=*/true);
  CHECK_SHAPE(k, {1, 1});
  CHECK(ints(k) == std::vector<int64_t>{1});
  CHECK(x.argmax(1).dtype() == kInt64);
  CHECK(ints(x.argmax(1)) == std::vector<int64_t>{1, 0});
  CHECK(ints(x.argmin(0, true)) == std::vector<int64_t>{0, 1, 1});
  REQUIRE_THROWS_AS(lz::argmax(lz::tensor({true, false})), TypeError);
  REQUIRE_THROWS_AS(lz::argmin(lz::empty({0})), ValueError);
  CHECK(lz::argmax(make_tensor({-kInf, -kInf, -kInf}, kFloat32)).item<int64_t>() == 0);
  CHECK(lz::argmin(make_tensor({kInf, kInf}, kFloat32)).item<int64_t>() == 0);
  CHECK(lz::argmax(make_tensor({2, kNan, kInf}, kFloat16)).item<int64_t>() == 1);
  // A large tensor: the maximum far from the start, a tie after it.
  Tensor big = lz::zeros({1 << 20}, kFloat32);
  static_cast<float*>(big.data_ptr())[777777] = 3;
  static_cast<float*>(big.data_ptr())[900000] = 3;
  CHECK(lz::argmax(big).item<int64_t>() == 777777);
  static_cast<float*>(big.data_ptr())[1000000] = std::numeric_limits<float>::quiet_NaN();
  static_cast<float*>(big.data_ptr())[1000001] = std::numeric_limits<float>::quiet_NaN();
  CHECK(lz::argmax(big).item<int64_t>() == 1000000);
  CHECK(lz::argmin(big).item<int64_t>() == 1000000);
}

TEST_CASE("amax and amin over dim lists", "[eager][reduction][amax]") {
  const Tensor x = lzt::sample_tensor({3, 4, 5}, kInt32, 4);
  const std::vector<double> v = values(x);
  // amax over dims {0, 2}: one value per dim-1 index.
  std::vector<double> expected(4, -1e9);
  for (int64_t i = 0; i < 3; ++i) {
    for (int64_t j = 0; j < 4; ++j) {
      for (int64_t k = 0; k < 5; ++k) expected[j] = std::max(expected[j], v[(i * 4 + j) * 5 + k]);
    }
  }
  CHECK_VALUES(lz::amax(x, {0, 2}), expected);
  CHECK_VALUES(x.amax({2, 0}, true), expected);
  CHECK_SHAPE(x.amax({2, 0}, true), {1, 4, 1});
  CHECK(lz::amax(x).dim() == 0);
  CHECK(lz::amax(x).item<double>() == *std::max_element(v.begin(), v.end()));
  CHECK(lz::amin(x).item<double>() == *std::min_element(v.begin(), v.end()));
  CHECK(lz::amin(x, {1}).dtype() == kInt32);
  REQUIRE_THROWS_AS(lz::amax(lz::empty({0, 2})), ValueError);
  REQUIRE_THROWS_AS(lz::amax(lz::empty({0, 2}), {0}), IndexError);
  CHECK_SHAPE(lz::amax(lz::empty({0, 2}), {1}), {0});
  CHECK(lz::amax(lz::tensor({true, false})).item<bool>());
  Tensor out = lz::empty({0}, kInt32);
  lz::amin_out(out, x, {0, 1});
  CHECK_SHAPE(out, {5});
}

TEST_CASE("var and std: corrections, degrees of freedom and dtypes", "[eager][reduction][var]") {
  const Tensor x = lz::tensor({1.0, 2.0, 3.0, 4.0}, kFloat64);
  // mean 2.5, squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5.
  CHECK(lz::var(x).item<double>() == Approx(5.0 / 3).epsilon(1e-15));
  CHECK(lz::var(x, std::nullopt, 0).item<double>() == 1.25);
  CHECK(lz::var(x, std::nullopt, 2).item<double>() == 2.5);
  CHECK(lz::var(x, std::nullopt, 0.5).item<double>() == Approx(5.0 / 3.5).epsilon(1e-15));
  CHECK(lz::std(x, std::nullopt, 0).item<double>() == Approx(std::sqrt(1.25)).epsilon(1e-15));
  CHECK(x.std().item<double>() == Approx(std::sqrt(5.0 / 3)).epsilon(1e-15));
  // No degrees of freedom left: inf for a nonzero numerator, NaN for zero.
  CHECK(lz::var(x, std::nullopt, 4).item<double>() == kInf);
  CHECK(lz::var(x, std::nullopt, 6).item<double>() == kInf);
  CHECK(std::isnan(lz::var(lz::tensor({3.0})).item<double>()));
  CHECK(std::isnan(lz::var(lz::empty({0})).item<double>()));
  CHECK(lz::var(lz::tensor({3.0}), std::nullopt, 0).item<double>() == 0);
  // Over dims.
  const Tensor m = lz::tensor({{1.0f, 3.0f}, {5.0f, 11.0f}});
  CHECK_VALUES(lz::var(m, IntArrayRef{0}), std::vector<double>{8, 32});
  CHECK_VALUES(lz::var(m, IntArrayRef{1}, 0, true), std::vector<double>{1, 9});
  CHECK_SHAPE(lz::var(m, IntArrayRef{1}, 0, true), {2, 1});
  CHECK_VALUES(m.std(IntArrayRef{-1}, 0), std::vector<double>{1, 3});
  CHECK(lz::var(m).dtype() == kFloat32);
  CHECK(lz::var(lz::ones({2}, kFloat16)).dtype() == kFloat16);
  REQUIRE_THROWS_AS(lz::var(lz::ones({3}, kInt32)), TypeError);
  REQUIRE_THROWS_AS(lz::std(lz::ones({3}, kBool)), TypeError);
  Tensor out = lz::empty({0});
  lz::std_out(out, m, IntArrayRef{0}, 0);
  CHECK_VALUES(out, std::vector<double>{2, 4});
}

TEST_CASE("var is numerically stable", "[eager][reduction][var][accuracy]") {
  // A large offset with small deviations: a one-pass sum of squares loses
  // every digit; two passes per block merged with Chan's formula do not.
  const int64_t n = 1 << 20;
  std::vector<double> v(n);
  // Alternating within every row and every column of the [1024, 1024] view.
  for (int64_t i = 0; i < n; ++i) v[i] = 1e9 + ((i + i / 1024) % 2 ? 1.0 : -1.0);
  const Tensor x = make_tensor(v, kFloat64);
  CHECK(lz::var(x, std::nullopt, 0).item<double>() == Approx(1.0).epsilon(1e-9));
  const Tensor cols = lz::var(x.view({1024, 1024}), IntArrayRef{0}, 0);
  for (double c : values(cols)) CHECK(c == Approx(1.0).epsilon(1e-9));
  // float32: 1e4 +- 0.5 (exact in float32).
  std::vector<double> w(n);
  for (int64_t i = 0; i < n; ++i) w[i] = 1e4 + ((i + i / 512) % 2 ? 0.5 : -0.5);
  const Tensor f = make_tensor(w, kFloat32);
  CHECK(lz::var(f, std::nullopt, 0).item<double>() == Approx(0.25).epsilon(1e-6));
  const Tensor fc = lz::var(f.view({2048, 512}), IntArrayRef{0}, 0);
  for (double c : values(fc)) CHECK(c == Approx(0.25).epsilon(1e-6));
}

TEST_CASE("norm orders", "[eager][reduction][norm]") {
  const Tensor x = lz::tensor({3.0, -4.0, 0.0, 1.0}, kFloat64);
  CHECK(lz::norm(x).item<double>() == Approx(std::sqrt(26.0)).epsilon(1e-15));
  CHECK(x.norm().item<double>() == Approx(std::sqrt(26.0)).epsilon(1e-15));
  CHECK(lz::norm(x, 1).item<double>() == 8);
  CHECK(lz::norm(x, 0).item<double>() == 3);
  CHECK(lz::norm(x, kInf).item<double>() == 4);
  CHECK(lz::norm(x, -kInf).item<double>() == 0);
  CHECK(lz::norm(x, 3).item<double>() == Approx(std::cbrt(27.0 + 64 + 1)).epsilon(1e-14));
  CHECK(lz::norm(x, 0.5).item<double>() == Approx(std::pow(std::sqrt(3.0) + 2 + 1, 2)).epsilon(1e-14));
  // A zero makes negative orders 0 (|0|^p = inf).
  CHECK(lz::norm(x, -1).item<double>() == 0);
  CHECK(lz::norm(lz::tensor({2.0, 2.0}), -1).item<double>() == Approx(1.0).epsilon(1e-15));
  const Tensor m = lz::tensor({{3.0f, 4.0f}, {6.0f, 8.0f}});
  CHECK_VALUES(lz::norm(m, 2, {1}), std::vector<double>{5, 10});
  CHECK_VALUES(m.norm(std::nullopt, {0}, true), std::vector<double>{std::sqrt(45.0), std::sqrt(80.0)});
  CHECK_SHAPE(m.norm(std::nullopt, {0}, true), {1, 2});
  CHECK(lz::norm(m, std::nullopt, {}).item<double>() == Approx(std::sqrt(125.0)).epsilon(1e-6));
  CHECK(lz::norm(lz::empty({0})).item<double>() == 0);
  CHECK(lz::norm(lz::empty({0}), 0).item<double>() == 0);
  CHECK(std::isnan(lz::norm(make_tensor({1, kNan}, kFloat32), kInf).item<double>()));
  CHECK(std::isnan(lz::norm(make_tensor({1, kNan}, kFloat32), -kInf).item<double>()));
  CHECK(lz::norm(make_tensor({0, kNan}, kFloat32), 0).item<double>() == 1);
  REQUIRE_THROWS_AS(lz::norm(lz::empty({0}), kInf), ValueError);
  REQUIRE_THROWS_AS(lz::norm(lz::ones({2}, kInt64)), TypeError);
  // float16 accumulates in float: 4096 squares of 1 would stick at 2048 in float16.
  CHECK(lz::norm(lz::ones({4096}, kFloat16)).item<double>() == 64);
  CHECK(lz::norm(lz::ones({4096}, kFloat16), 1).item<double>() == 4096);
}

TEST_CASE("logsumexp is stable", "[eager][reduction][logsumexp]") {
  CHECK(lz::logsumexp(lz::tensor({1000.0f, 1000.0f}), {0}).item<double>() ==
        Approx(1000 + std::log(2.0)).epsilon(1e-7));
  CHECK(lz::logsumexp(lz::tensor({-1000.0, -1000.0}, kFloat64), {0}).item<double>() ==
        Approx(-1000 + std::log(2.0)).epsilon(1e-14));
  CHECK(lz::logsumexp(make_tensor({-kInf, -kInf}, kFloat32), {0}).item<double>() == -kInf);
  CHECK(lz::logsumexp(make_tensor({-kInf, 0}, kFloat32), {0}).item<double>() == 0);
  CHECK(lz::logsumexp(make_tensor({kInf, 0}, kFloat32), {0}).item<double>() == kInf);
  CHECK(std::isnan(lz::logsumexp(make_tensor({kInf, kNan}, kFloat32), {0}).item<double>()));
  CHECK(lz::logsumexp(lz::empty({0}), {0}).item<double>() == -kInf);
  // Integral inputs give float32.
  const Tensor i = lz::logsumexp(lz::tensor({0, 0}, kInt32), {0});
  CHECK(i.dtype() == kFloat32);
  CHECK(i.item<double>() == Approx(std::log(2.0)).epsilon(1e-7));
  // Blocks with very different maxima combine without overflow (large
  // enough for several blocks and threads).
  std::vector<double> v(100000, -50.0);
  v[99990] = 80.0;
  const Tensor x = make_tensor(v, kFloat32);
  const double expected = 80 + std::log1p(99999 * std::exp(-130.0));
  CHECK(lz::logsumexp(x, {0}).item<double>() == Approx(expected).epsilon(1e-7));
  const Tensor rows = make_tensor({0, 1, 2, 10, 10, 10}, {2, 3}, kFloat64);
  CHECK_VALUES(rows.logsumexp({1}, true),
               std::vector<double>{std::log(1 + std::exp(1.0) + std::exp(2.0)), 10 + std::log(3.0)});
  CHECK_SHAPE(rows.logsumexp({1}, true), {2, 1});
}

TEST_CASE("all and any: dtypes and values", "[eager][reduction][logical]") {
  CHECK(lz::all(lz::tensor({1, 2}, kInt32)).dtype() == kBool);
  CHECK(lz::any(lz::tensor({1.5f})).dtype() == kBool);
  // uint8 keeps uint8, as in PyTorch.
  CHECK(lz::all(lz::tensor({1, 2}, kUInt8)).dtype() == kUInt8);
  CHECK(lz::all(lz::tensor({1, 2}, kUInt8)).item<int64_t>() == 1);
  CHECK(lz::any(lz::tensor({0, 0}, kUInt8), 0).dtype() == kUInt8);
  CHECK(lz::all(lz::empty({0})).item<bool>());
  CHECK(!lz::any(lz::empty({0})).item<bool>());
  CHECK(lz::any(make_tensor({0, kNan}, kFloat32)).item<bool>());  // NaN is nonzero
  CHECK(lz::all(make_tensor({-0.0, 1}, kFloat32)).item<bool>() == false);
  const Tensor b = lz::tensor({{true, false, true}, {true, true, true}});
  CHECK(ints(lz::all(b, 1)) == std::vector<int64_t>{0, 1});
  CHECK(ints(b.any(0)) == std::vector<int64_t>{1, 1, 1});
  CHECK(ints(b.all(0, true)) == std::vector<int64_t>{1, 0, 1});
  CHECK_SHAPE(b.all(0, true), {1, 3});
  CHECK(!b.all().item<bool>());
  CHECK(b.any().item<bool>());
  // A single nonzero element deep inside a large tensor.
  Tensor big = lz::zeros({1 << 20}, kInt32);
  CHECK(!lz::any(big).item<bool>());
  static_cast<int32_t*>(big.data_ptr())[654321] = 5;
  CHECK(lz::any(big).item<bool>());
  CHECK(!lz::all(big).item<bool>());
  Tensor out = lz::empty({0}, kBool);
  lz::all_out(out, b);
  CHECK(out.dim() == 0);
  CHECK(!out.item<bool>());
  Tensor out2 = lz::empty({0}, kBool);
  lz::any_out(out2, b, 1);
  CHECK(ints(out2) == std::vector<int64_t>{1, 1});
}

TEST_CASE("cumsum: dtypes, in place, layouts", "[eager][reduction][cumsum]") {
  const Tensor x = lz::tensor({{1, 2, 3}, {4, 5, 6}}, kInt32);
  CHECK(lz::cumsum(x, 1).dtype() == kInt64);
  CHECK(ints(lz::cumsum(x, 1)) == std::vector<int64_t>{1, 3, 6, 4, 9, 15});
  CHECK(ints(x.cumsum(0)) == std::vector<int64_t>{1, 2, 3, 5, 7, 9});
  CHECK(ints(x.cumsum(-2)) == std::vector<int64_t>{1, 2, 3, 5, 7, 9});
  CHECK(lz::cumsum(x, 1, kFloat64).dtype() == kFloat64);
  CHECK(ints(lz::cumsum(lz::tensor({true, true, false, true}), 0)) == std::vector<int64_t>{1, 2, 2, 3});
  // In place keeps self's dtype (the int64 result cast back).
  Tensor y = x.clone();
  Tensor& r = lz::cumsum_(y, 1);
  CHECK(&r == &y);
  CHECK(y.dtype() == kInt32);
  CHECK(ints(y) == std::vector<int64_t>{1, 3, 6, 4, 9, 15});
  // Transposed input and output.
  const Tensor xt = x.t();  // [[1, 4], [2, 5], [3, 6]]
  CHECK(ints(lz::cumsum(xt, 0)) == std::vector<int64_t>{1, 4, 3, 9, 6, 15});
  Tensor tout = lz::empty({2, 3}, kInt64).t();
  lz::cumsum_out(tout, xt, 1);
  CHECK(ints(tout) == std::vector<int64_t>{1, 5, 2, 7, 3, 9});
  // 0-dim and empty.
  CHECK(lz::cumsum(lz::scalar_tensor(2.5), 0).item<double>() == 2.5);
  CHECK(lz::cumsum(lz::scalar_tensor(2.5), -1).dim() == 0);
  CHECK_SHAPE(lz::cumsum(lz::empty({0, 3}), 0), {0, 3});
  // float16 accumulates in float: running sums past 2048 keep counting.
  const Tensor h = lz::cumsum(lz::ones({3000}, kFloat16), 0);
  CHECK(values(h)[2999] == 3000);
  CHECK(values(h)[2048] == 2048);  // 2049 is stored as 2048 (float16 spacing 2, ties to even)
  CHECK(values(h)[2049] == 2050);
  // Long outer scans (the column path) and inner scans agree.
  const Tensor big = lzt::sample_tensor({500, 64}, kInt64, 8);
  const Tensor a = lz::cumsum(big, 0);
  const Tensor b = lz::cumsum(big.t().contiguous(), 1).t();
  CHECK(lzt::same_values(a, b) == "");
  std::vector<int64_t> col0;
  int64_t acc = 0;
  const std::vector<int64_t> bv = ints(big);
  for (int64_t i = 0; i < 500; ++i) col0.push_back(acc += bv[i * 64]);
  CHECK(ints(a.select(1, 0)) == col0);
  REQUIRE_THROWS_AS(lz::cumsum(x, 2), IndexError);
}

TEST_CASE("reductions of 0-size inputs", "[eager][reduction]") {
  const Tensor e = lz::empty({2, 0, 3});
  CHECK_VALUES(lz::mean(e, {1}), std::vector<double>(6, kNan));
  CHECK_VALUES(lz::prod(e, 1), std::vector<double>(6, 1.0));
  CHECK_VALUES(lz::var(e, IntArrayRef{1}), std::vector<double>(6, kNan));
  CHECK_VALUES(lz::norm(e, 2, {1}), std::vector<double>(6, 0.0));
  CHECK_VALUES(lz::logsumexp(e, {1}), std::vector<double>(6, -kInf));
  CHECK_VALUES(lz::all(e, 1), std::vector<double>(6, 1.0));
  CHECK_VALUES(lz::any(e, 1), std::vector<double>(6, 0.0));
  CHECK_SHAPE(lz::amax(e, {0, 2}), {0});
  CHECK_SHAPE(lz::argmax(e, 2), {2, 0});
  CHECK_SHAPE(std::get<0>(lz::min(e, 0, true)), {1, 0, 3});
}

TEST_CASE("reduction operators are registered with tags and out= variants", "[eager][reduction][registration]") {
  Dispatcher& d = Dispatcher::singleton();
  for (const char* name :
       {"sum", "sum.out", "sum.dim_IntList", "sum.dim_IntList_out", "mean", "mean.dim", "mean.dim_out", "prod",
        "prod.out", "prod.dim_int", "prod.dim_int_out", "max", "max.unary_out", "min.unary_out", "max.dim",
        "max.dim_out", "min.dim_out", "amax.out", "amin.out", "argmax.out", "argmin.out", "var.correction_out",
        "std.correction_out", "norm.ScalarOpt_dim_out", "norm.Scalar_out", "logsumexp.out", "all.all_out",
        "any.all_out", "all.dim_out", "any.dim_out", "cumsum", "cumsum_", "cumsum.out"}) {
    INFO(name);
    const auto op = d.find(name);
    REQUIRE(op.has_value());
    if (std::string(name) != "cumsum" && std::string(name) != "cumsum_" && std::string(name) != "cumsum.out") {
      CHECK(op->has_tag(Tag::Reduction));
    }
  }
  CHECK(d.find_or_throw("max").out_variant()->name() == "max.unary_out");
  CHECK(d.find_or_throw("all.all_out").has_tag(Tag::Out));
  CHECK(d.find_or_throw("max.dim").schema().str() ==
        "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  CHECK(d.find_or_throw("var.correction").schema().str() ==
        "var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor");
}

TEST_CASE("max_out and min_out with two outputs", "[eager][reduction][out]") {
  const Tensor x = lz::tensor({{1.0f, 9.0f, 4.0f}, {7.0f, 2.0f, 7.0f}});
  Tensor values_out = lz::empty({0});
  Tensor indices_out = lz::empty({0}, kInt64);
  auto [v, i] = lz::max_out(values_out, indices_out, x, 1);
  CHECK(&v == &values_out);
  CHECK(&i == &indices_out);
  CHECK_VALUES(values_out, std::vector<double>{9, 7});
  CHECK(ints(indices_out) == std::vector<int64_t>{1, 0});
  Tensor mv = lz::empty({3}, kFloat64);  // a wider dtype is fine
  Tensor mi = lz::empty({0}, kInt64);
  lz::min_out(mv, mi, x, 0);
  CHECK_VALUES(mv, std::vector<double>{1, 2, 4});
  CHECK(ints(mi) == std::vector<int64_t>{0, 1, 0});
  // A wrongly sized out is resized, with a warning (as libtorch).
  std::vector<std::string> warnings;
  const lz::WarningHandlerGuard capture([&](std::string_view m) { warnings.emplace_back(m); });
  Tensor wrong = lz::empty({5});
  lz::max_out(wrong, indices_out, x, 1);
  CHECK_VALUES(wrong, std::vector<double>{9, 7});
  CHECK(warnings.size() == 1);
}
