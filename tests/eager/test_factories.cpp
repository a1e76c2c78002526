// Factories: empty/zeros/ones/full, arange, randn/rand, the *_like family,
// scalar_tensor, lz::tensor / from_vector / from_blob.
#include "core/philox.h"
#include "test_util.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

using namespace lz;
using lzt::values;

TEST_CASE("zeros ones and empty", "[eager][factories]") {
  SECTION("default dtype is float32") {
    const Tensor z = lz::zeros({2, 3});
    CHECK(z.dtype() == kFloat32);
    CHECK_SHAPE(z, {2, 3});
    CHECK(z.is_contiguous());
    CHECK_STRIDES(z, {3, 1});
    CHECK(z.is_cpu());
    CHECK_VALUES(z, std::vector<double>(6, 0.0));
    CHECK_VALUES(lz::ones({2, 3}), std::vector<double>(6, 1.0));
    CHECK(lz::empty({4}).dtype() == kFloat32);
    CHECK_SHAPE(lz::empty({4, 1, 2}), {4, 1, 2});
  }
  SECTION("every dtype") {
    const ScalarType dtype = GENERATE(from_range(lzt::kAllDtypes));
    INFO(dtype);
    const Tensor z = lz::zeros({5}, dtype);
    const Tensor o = lz::ones({5}, dtype);
    const Tensor e = lz::empty({5}, dtype);
    CHECK(z.dtype() == dtype);
    CHECK(o.dtype() == dtype);
    CHECK(e.dtype() == dtype);
    CHECK(z.itemsize() == e.itemsize());
    CHECK_VALUES(z, std::vector<double>(5, 0.0));
    CHECK_VALUES(o, std::vector<double>(5, 1.0));
    // A non-contiguous-sized zeros: the raw bytes are zero too.
    const Tensor big = lz::zeros({3, 1000}, dtype);
    const auto v = values(big);
    CHECK(std::all_of(v.begin(), v.end(), [](double x) { return x == 0; }));
  }
  SECTION("0-size and 0-dim") {
    const Tensor a = lz::zeros({0});
    CHECK(a.numel() == 0);
    CHECK_SHAPE(a, {0});
    const Tensor b = lz::ones({2, 0, 3}, kInt32);
    CHECK(b.numel() == 0);
    CHECK_SHAPE(b, {2, 0, 3});
    const Tensor s = lz::ones({});
    CHECK(s.dim() == 0);
    CHECK(s.numel() == 1);
    CHECK(s.item<double>() == 1.0);
  }
  SECTION("negative sizes") {
    REQUIRE_THROWS_AS(lz::zeros({2, -1}), ValueError);
    REQUIRE_THROWS_WITH(lz::zeros({2, -1}), Catch::Contains("[zeros]") && Catch::Contains("-1"));
    REQUIRE_THROWS_WITH(lz::ones({-3}), Catch::Contains("[ones]") && Catch::Contains("-3"));
    REQUIRE_THROWS_WITH(lz::empty({-2}), Catch::Contains("[empty]"));
    CHECK_THROWS_AS(lz::ones({-3}), ValueError);
    CHECK_THROWS_AS(lz::full({-1}, 1.0), ValueError);
  }
  SECTION("fill values the dtype cannot hold") {
    CHECK_THROWS_WITH(lz::full({2}, 70000.0, lz::kFloat16), Catch::Contains("70000") && Catch::Contains("float16"));
    CHECK_THROWS_AS(lz::full({2}, 300, lz::kUInt8), ValueError);
    CHECK_THROWS_AS(lz::zeros({2}, lz::kFloat16).fill_(1e5), ValueError);
    CHECK(std::isinf(lz::full({1}, std::numeric_limits<double>::infinity(), lz::kFloat16).item<float>()));
  }
}

TEST_CASE("full infers its dtype from the fill value", "[eager][factories]") {
  const Tensor i = lz::full({2, 2}, 7);
  CHECK(i.dtype() == kInt64);
  CHECK(lzt::int_values(i) == std::vector<int64_t>(4, 7));
  const Tensor f = lz::full({3}, 2.5);
  CHECK(f.dtype() == kFloat32);
  CHECK_VALUES(f, std::vector<double>(3, 2.5));
  const Tensor b = lz::full({2}, true);
  CHECK(b.dtype() == kBool);
  CHECK(lzt::int_values(b) == std::vector<int64_t>{1, 1});
  const Tensor d = lz::full({2}, 0.1, kFloat64);
  CHECK(d.dtype() == kFloat64);
  CHECK(values(d)[0] == 0.1);
  const Tensor h = lz::full({2}, 0.1, kFloat16);
  CHECK(lzt::bits16(h) == std::vector<uint16_t>{0x2E66, 0x2E66});
  const Tensor u = lz::full({2}, 200, kUInt8);
  CHECK(lzt::int_values(u) == std::vector<int64_t>{200, 200});
  const Tensor big = lz::full({1}, int64_t{1} << 40);
  CHECK(lzt::int_values(big) == std::vector<int64_t>{int64_t{1} << 40});
  const Tensor s = lz::full({}, -3);
  CHECK(s.dim() == 0);
  CHECK(s.item<int64_t>() == -3);
  // A value the dtype cannot hold is an error, not a silent wrap.
  CHECK_THROWS_AS(lz::full({2}, 300, kUInt8), ValueError);
  CHECK_THROWS_AS(lz::full({2}, -1, kUInt8), ValueError);
}

TEST_CASE("arange", "[eager][factories][arange]") {
  SECTION("integer arguments give int64") {
    const Tensor a = lz::arange(5);
    CHECK(a.dtype() == kInt64);
    CHECK(lzt::int_values(a) == std::vector<int64_t>{0, 1, 2, 3, 4});
    CHECK(lzt::int_values(lz::arange(2, 6)) == std::vector<int64_t>{2, 3, 4, 5});
    CHECK(lzt::int_values(lz::arange(-3, 3)) == std::vector<int64_t>{-3, -2, -1, 0, 1, 2});
    CHECK(lzt::int_values(lz::arange(0, 10, 3)) == std::vector<int64_t>{0, 3, 6, 9});
    CHECK(lzt::int_values(lz::arange(0, 9, 3)) == std::vector<int64_t>{0, 3, 6});
    CHECK(lzt::int_values(lz::arange(1, 2, 5)) == std::vector<int64_t>{1});
  }
  SECTION("negative steps") {
    CHECK(lzt::int_values(lz::arange(10, 0, -3)) == std::vector<int64_t>{10, 7, 4, 1});
    CHECK(lzt::int_values(lz::arange(0, -5, -1)) == std::vector<int64_t>{0, -1, -2, -3, -4});
    CHECK(lzt::int_values(lz::arange(5, -5, -5)) == std::vector<int64_t>{5, 0});
    const Tensor f = lz::arange(1.0, -1.0, -0.5);
    CHECK(f.dtype() == kFloat32);
    CHECK_VALUES(f, std::vector<double>{1.0, 0.5, 0.0, -0.5});
  }
  SECTION("floating arguments give float32") {
    const Tensor a = lz::arange(0.5, 2.0);
    CHECK(a.dtype() == kFloat32);
    CHECK_VALUES(a, std::vector<double>{0.5, 1.5});
    const Tensor b = lz::arange(0, 1, 0.25);
    CHECK(b.dtype() == kFloat32);
    CHECK_VALUES(b, std::vector<double>{0, 0.25, 0.5, 0.75});
    const Tensor c = lz::arange(1, 2, 0.3);
    CHECK(c.numel() == 4);  // ceil(1 / 0.3)
    CHECK_VALUES(c, std::vector<double>{1.0, 1.3, 1.6, 1.9});
    CHECK(lz::arange(0, 1, 0.1).numel() == 10);
    CHECK(lz::arange(2.5).numel() == 3);
    CHECK(lz::arange(10, 0, -2.5).numel() == 4);
  }
  SECTION("explicit dtype") {
    const Tensor a = lz::arange(5, kFloat64);
    CHECK(a.dtype() == kFloat64);
    CHECK_VALUES(a, std::vector<double>{0, 1, 2, 3, 4});
    const Tensor b = lz::arange(0, 10, 3, kInt32);
    CHECK(b.dtype() == kInt32);
    CHECK(lzt::int_values(b) == std::vector<int64_t>{0, 3, 6, 9});
    const Tensor h = lz::arange(0, 3, kFloat16);
    CHECK(h.dtype() == kFloat16);
    CHECK_VALUES(h, std::vector<double>{0, 1, 2});
    const Tensor u = lz::arange(250, 256, kUInt8);
    CHECK(lzt::int_values(u) == std::vector<int64_t>{250, 251, 252, 253, 254, 255});
  }
  SECTION("empty ranges") {
    CHECK(lz::arange(0).numel() == 0);
    CHECK(lz::arange(3, 3).numel() == 0);
    CHECK(lz::arange(3, 3, -1).numel() == 0);
    CHECK_SHAPE(lz::arange(1.5, 1.5), {0});
  }
  SECTION("large int64 values are exact") {
    const int64_t start = (int64_t{1} << 53) + 1;  // not representable as a double
    const Tensor a = lz::arange(start, start + 3);
    CHECK(lzt::int_values(a) == std::vector<int64_t>{start, start + 1, start + 2});
  }
  SECTION("errors") {
    REQUIRE_THROWS_AS(lz::arange(0, 5, 0), ValueError);
    REQUIRE_THROWS_WITH(lz::arange(0, 5, 0), Catch::Contains("[arange]") && Catch::Contains("step"));
    REQUIRE_THROWS_AS(lz::arange(0, 5, -1), ValueError);
    REQUIRE_THROWS_WITH(lz::arange(0, 5, -1), Catch::Contains("[arange]"));
    CHECK_THROWS_AS(lz::arange(5, 0), ValueError);
    CHECK_THROWS_AS(lz::arange(-1), ValueError);
    CHECK_THROWS_AS(lz::arange(0.0, 1.0, 0.0), ValueError);
    CHECK_THROWS_AS(lz::arange(0.0, std::numeric_limits<double>::infinity()), ValueError);
    CHECK_THROWS_AS(lz::arange(0.0, std::numeric_limits<double>::quiet_NaN()), ValueError);
    CHECK_THROWS_AS(lz::arange(0.0, 1.0, std::numeric_limits<double>::quiet_NaN()), ValueError);
    // A length that does not fit in int64.
    REQUIRE_THROWS_AS(lz::arange(0.0, 1e300, 1e-300), ValueError);
    REQUIRE_THROWS_WITH(lz::arange(0.0, 1e300, 1e-300), Catch::Contains("[arange]") &&
                                                            Catch::Contains("int64"));
  }
}

TEST_CASE("randn and rand are reproducible per seed", "[eager][factories][random]") {
  const ScalarType dtype = GENERATE(from_range(lzt::kFloatDtypes));
  INFO(dtype);
  for (bool normal : {true, false}) {
    INFO((normal ? "randn" : "rand"));
    auto draw = [&](Generator g, std::vector<int64_t> size) {
      return normal ? lz::randn(size, g, dtype) : lz::rand(size, g, dtype);
    };
    const Tensor a = draw(lz::make_generator(42), {3, 7});
    const Tensor b = draw(lz::make_generator(42), {3, 7});
    const Tensor c = draw(lz::make_generator(43), {3, 7});
    CHECK(a.dtype() == dtype);
    CHECK_SHAPE(a, {3, 7});
    CHECK(lzt::same_values(a, b) == "");
    CHECK(lzt::mismatch(a, values(c), 0, 0) != "");
    // Consecutive draws from one generator differ; re-seeding restarts it.
    Generator g = lz::make_generator(7);
    const Tensor first = draw(g, {20});
    const Tensor second = draw(g, {20});
    CHECK(lzt::mismatch(first, values(second), 0, 0) != "");
    g.set_seed(7);
    CHECK(lzt::same_values(draw(g, {20}), first) == "");
    // Values are not all equal.
    const auto v = values(a);
    CHECK(std::adjacent_find(v.begin(), v.end(), std::not_equal_to<>()) != v.end());
    // Sizes that are not a multiple of the block width, and 0-size tensors.
    CHECK(draw(lz::make_generator(1), {5}).numel() == 5);
    CHECK(draw(lz::make_generator(1), {0, 3}).numel() == 0);
    CHECK(draw(lz::make_generator(1), {}).dim() == 0);
  }
}

// rand, randn and dropout compute Philox blocks in batches, in parallel:
// element i must still come from block i / 4 (float32) of the stream,
// whatever the thread count, at batch and chunk edges too.
TEST_CASE("random kernels draw block i / 4 for element i at any thread count", "[eager][factories][random]") {
  const int saved = lz::get_num_threads();
  const int64_t n = 4 * 4096 * 3 + 7;  // several parallel chunks, a partial block
  std::vector<Tensor> by_threads;
  for (int threads : {1, 2}) {
    lz::set_num_threads(threads);
    by_threads.push_back(lz::rand({n}, lz::make_generator(11)));
    by_threads.push_back(lz::randn({n}, lz::make_generator(12)));
    lz::manual_seed(13);
    by_threads.push_back(lz::dropout(lz::ones({n}), 0.5, true));
  }
  lz::set_num_threads(saved);
  for (size_t i = 0; i < 3; ++i) {
    INFO("result " << i);
    CHECK(lzt::same_values(by_threads[i], by_threads[i + 3]) == "");
  }
  const float* u = by_threads[0].data_ptr<float>();
  for (int64_t i : {int64_t{0}, int64_t{63}, int64_t{64}, int64_t{16383}, int64_t{16384}, n - 1}) {
    INFO("element " << i);
    const lz::PhiloxBlock block = lz::philox4x32_10(11, static_cast<uint64_t>(i / 4));
    CHECK(u[i] == lz::uint32_to_unit_float(block[static_cast<size_t>(i % 4)]));
  }
}

TEST_CASE("the default generator is seeded by manual_seed", "[eager][factories][random]") {
  lz::manual_seed(123);
  const Tensor a = lz::randn({10});
  const Tensor r1 = lz::rand({10});
  lz::manual_seed(123);
  const Tensor b = lz::randn({10});
  const Tensor r2 = lz::rand({10});
  CHECK(lzt::same_values(a, b) == "");
  CHECK(lzt::same_values(r1, r2) == "");
  CHECK(a.dtype() == kFloat32);
  lz::manual_seed(124);
  CHECK(lzt::mismatch(lz::randn({10}), values(a), 0, 0) != "");
}

TEST_CASE("randn samples a standard normal distribution", "[eager][factories][random]") {
  const ScalarType dtype = GENERATE(kFloat32, kFloat64, kFloat16, kBFloat16);
  INFO(dtype);
  const Tensor x = lz::randn({100000}, lz::make_generator(2024), dtype);
  const auto v = values(x);
  double mean = 0;
  for (double s : v) mean += s;
  mean /= static_cast<double>(v.size());
  double var = 0;
  int64_t within_one = 0;
  bool all_finite = true;
  for (double s : v) {
    var += (s - mean) * (s - mean);
    within_one += std::fabs(s) < 1.0;
    all_finite = all_finite && std::isfinite(s);
  }
  CHECK(all_finite);
  const double stddev = std::sqrt(var / static_cast<double>(v.size() - 1));
  CHECK(std::fabs(mean) < 0.02);
  CHECK(std::fabs(stddev - 1.0) < 0.02);
  // About 68.3% of the mass lies within one standard deviation.
  CHECK(std::fabs(static_cast<double>(within_one) / 100000.0 - 0.6827) < 0.01);
  // The sample is symmetric: about half negative.
  const auto negatives = std::count_if(v.begin(), v.end(), [](double s) { return s < 0; });
  CHECK(std::fabs(static_cast<double>(negatives) / 100000.0 - 0.5) < 0.01);
}

TEST_CASE("rand samples the unit interval uniformly", "[eager][factories][random]") {
  const ScalarType dtype = GENERATE(kFloat32, kFloat64, kFloat16, kBFloat16);
  INFO(dtype);
  const Tensor x = lz::rand({100000}, lz::make_generator(99), dtype);
  const auto v = values(x);
  double mean = 0, lo = 1, hi = 0;
  for (double s : v) {
    mean += s;
    lo = std::min(lo, s);
    hi = std::max(hi, s);
  }
  mean /= static_cast<double>(v.size());
  double var = 0;
  for (double s : v) var += (s - mean) * (s - mean);
  var /= static_cast<double>(v.size() - 1);
  CHECK(lo >= 0.0);
  CHECK(hi < 1.0);
  CHECK(std::fabs(mean - 0.5) < 0.01);
  CHECK(std::fabs(var - 1.0 / 12.0) < 0.005);
  // Each tenth of the interval gets about a tenth of the samples.
  std::vector<int64_t> bins(10, 0);
  for (double s : v) ++bins[std::min<int64_t>(9, static_cast<int64_t>(s * 10))];
  for (int64_t count : bins) CHECK(std::fabs(count / 100000.0 - 0.1) < 0.01);
}

TEST_CASE("randint draws every integer of its range about equally often", "[eager][factories][random]") {
  const Tensor x = lz::randint(-3, 7, {100000}, lz::make_generator(5));
  CHECK(x.dtype() == kInt64);  // as libtorch
  std::vector<int64_t> counts(10, 0);
  for (double s : values(x)) {
    REQUIRE(s >= -3);
    REQUIRE(s < 7);
    ++counts[static_cast<size_t>(s + 3)];
  }
  for (int64_t c : counts) CHECK(std::fabs(c / 100000.0 - 0.1) < 0.01);
  // randint(high, size) is randint(0, high, size); the default generator.
  lz::manual_seed(3);
  const Tensor a = lz::randint(4, {64});
  lz::manual_seed(3);
  const Tensor b = lz::randint(0, 4, {64});
  CHECK(lz::equal(a, b));
  CHECK(a.min().item<int64_t>() >= 0);
  CHECK(a.max().item<int64_t>() == 3);
  // A float dtype holds the same integers.
  const Tensor f = lz::randint(0, 4, {64}, lz::make_generator(8), kFloat32);
  CHECK(lz::equal(f, lz::randint(0, 4, {64}, lz::make_generator(8)).to(kFloat32)));
}

TEST_CASE("randint rejects an empty range and dtypes too small for it", "[eager][factories][random][errors]") {
  REQUIRE_THROWS_AS(lz::randint(5, 5, {2}), ValueError);
  REQUIRE_THROWS_WITH(lz::randint(5, 2, {2}), Catch::Contains("[randint] low, high: expected low < high, got low=5 high=2"));
  REQUIRE_THROWS_WITH(lz::randint(-1, 3, {2}, kUInt8), Catch::Contains("[-1, 3) does not fit dtype uint8"));
  REQUIRE_THROWS_WITH(lz::randint(0, 3, {2}, kBool), Catch::Contains("does not fit dtype bool"));
  CHECK(lz::randint(0, 2, {8}, kBool).dtype() == kBool);
  CHECK_THROWS_AS(lz::randint(0, 3, {-1}), ValueError);
}

TEST_CASE("random factories need a floating dtype", "[eager][factories][random][errors]") {
  const ScalarType dtype = GENERATE(kBool, kUInt8, kInt32, kInt64);
  INFO(dtype);
  REQUIRE_THROWS_AS(lz::randn({3}, dtype), TypeError);
  REQUIRE_THROWS_WITH(lz::randn({3}, dtype), Catch::Contains("[randn]") &&
                                                 Catch::Contains(std::string(lz::to_string(dtype))));
  REQUIRE_THROWS_AS(lz::rand({3}, dtype), TypeError);
  REQUIRE_THROWS_WITH(lz::rand({3}, dtype), Catch::Contains("[rand]") &&
                                                Catch::Contains(std::string(lz::to_string(dtype))));
  CHECK_THROWS_AS(lz::randn_like(lz::zeros({2}, dtype)), TypeError);
  CHECK_THROWS_AS(lz::randn({-1}), ValueError);
}

TEST_CASE("like factories keep shape and dtype", "[eager][factories]") {
  const ScalarType dtype = GENERATE(kInt32, kFloat16, kFloat64, kBool);
  INFO(dtype);
  const Tensor src = lzt::sample_tensor({3, 4}, dtype, 1).t();  // [4, 3], non-contiguous
  auto check_meta = [&](const Tensor& t) {
    CHECK_SHAPE(t, {4, 3});
    CHECK(t.dtype() == dtype);
    CHECK(t.device() == src.device());
    CHECK(t.storage_offset() == 0);
    CHECK(t.data_ptr() != src.data_ptr());
  };
  const Tensor z = lz::zeros_like(src);
  check_meta(z);
  CHECK_VALUES(z, std::vector<double>(12, 0.0));
  const Tensor o = lz::ones_like(src);
  check_meta(o);
  CHECK_VALUES(o, std::vector<double>(12, 1.0));
  check_meta(lz::empty_like(src));
  const Tensor f = lz::full_like(src, 1);
  check_meta(f);
  CHECK_VALUES(f, std::vector<double>(12, 1.0));
  if (lzt::is_float(dtype)) {
    const Tensor r = lz::randn_like(src);
    check_meta(r);
    const Tensor f2 = lz::full_like(src, 2.5);
    CHECK_VALUES(f2, std::vector<double>(12, 2.5));
  }
  // dtype overrides.
  CHECK(lz::zeros_like(src, kFloat64).dtype() == kFloat64);
  CHECK(lz::ones_like(src, kUInt8).dtype() == kUInt8);
  CHECK(lz::empty_like(src, kInt64).dtype() == kInt64);
  const Tensor fi = lz::full_like(src, 7, kInt64);
  CHECK(fi.dtype() == kInt64);
  CHECK(lzt::int_values(fi) == std::vector<int64_t>(12, 7));
  CHECK(lz::randn_like(src, kFloat32).dtype() == kFloat32);
  CHECK_SHAPE(lz::randn_like(src, kFloat32), {4, 3});
  // 0-dim and 0-size sources.
  CHECK(lz::zeros_like(lz::scalar_tensor(3.0)).dim() == 0);
  CHECK_SHAPE(lz::ones_like(lz::empty({2, 0})), {2, 0});
}

TEST_CASE("scalar_tensor", "[eager][factories]") {
  const Tensor f = lz::scalar_tensor(2.5);
  CHECK(f.dim() == 0);
  CHECK(f.dtype() == kFloat32);
  CHECK(f.item<double>() == 2.5);
  const Tensor i = lz::scalar_tensor(3);
  CHECK(i.dtype() == kInt64);
  CHECK(i.item<int64_t>() == 3);
  const Tensor b = lz::scalar_tensor(true);
  CHECK(b.dtype() == kBool);
  CHECK(b.item<bool>());
  const Tensor d = lz::scalar_tensor(0.1, kFloat64);
  CHECK(d.item<double>() == 0.1);
  // Not a wrapped number: it promotes like a 0-dim tensor.
  CHECK(!f.unsafe_get_impl()->is_wrapped_number());
}

TEST_CASE("lz::tensor from initializer lists", "[eager][factories][tensor]") {
  SECTION("dtype inference") {
    const Tensor f = lz::tensor({1.0, 2.5});
    CHECK(f.dtype() == kFloat32);
    CHECK_SHAPE(f, {2});
    CHECK_VALUES(f, std::vector<double>{1.0, 2.5});
    CHECK(lz::tensor({1.5f}).dtype() == kFloat32);
    const Tensor i = lz::tensor({1, 2, 3});
    CHECK(i.dtype() == kInt64);
    CHECK(lzt::int_values(i) == std::vector<int64_t>{1, 2, 3});
    const Tensor b = lz::tensor({true, false});
    CHECK(b.dtype() == kBool);
    CHECK(lzt::int_values(b) == std::vector<int64_t>{1, 0});
    const Tensor big = lz::tensor({int64_t{1} << 62});
    CHECK(lzt::int_values(big) == std::vector<int64_t>{int64_t{1} << 62});
  }
  SECTION("explicit dtype converts") {
    const Tensor i = lz::tensor({1, 2}, kInt32);
    CHECK(i.dtype() == kInt32);
    CHECK(lzt::int_values(i) == std::vector<int64_t>{1, 2});
    const Tensor t = lz::tensor({1.7, -1.7}, kInt64);
    CHECK(lzt::int_values(t) == std::vector<int64_t>{1, -1});
    const Tensor d = lz::tensor({0.1}, kFloat64);
    CHECK(values(d)[0] == 0.1);  // not rounded through float32
    const Tensor h = lz::tensor({0.1}, kFloat16);
    CHECK(lzt::bits16(h) == std::vector<uint16_t>{0x2E66});
  }
  SECTION("nested lists") {
    const Tensor m = lz::tensor({{1, 2, 3}, {4, 5, 6}});
    CHECK_SHAPE(m, {2, 3});
    CHECK(m.dtype() == kInt64);
    CHECK(lzt::int_values(m) == std::vector<int64_t>{1, 2, 3, 4, 5, 6});
    const Tensor c = lz::tensor({{{1.0, 2.0}, {3.0, 4.0}, {5.0, 6.0}}, {{7.0, 8.0}, {9.0, 10.0}, {11.0, 12.0}}});
    CHECK_SHAPE(c, {2, 3, 2});
    CHECK(c.dtype() == kFloat32);
    CHECK_VALUES(c, std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    CHECK(c.is_contiguous());
    const Tensor mi = lz::tensor({{1, 2}, {3, 4}}, kInt32);
    CHECK(mi.dtype() == kInt32);
  }
  SECTION("ragged rows") {
    REQUIRE_THROWS_AS(lz::tensor({{1, 2}, {3}}), ShapeError);
    REQUIRE_THROWS_WITH(lz::tensor({{1.0, 2.0}, {3.0}}), Catch::Contains("[tensor]"));
    CHECK_THROWS_AS(lz::tensor({{{1, 2}, {3, 4}}, {{5, 6}}}), ShapeError);
    CHECK_THROWS_AS(lz::tensor({{{1, 2}, {3, 4}}, {{5, 6}, {7}}}), ShapeError);
  }
}

TEST_CASE("from_vector and from_blob", "[eager][factories][tensor]") {
  const Tensor d = lz::from_vector(std::vector<double>{1.5, 2.5, 3.5, 4.5, 5.5, 6.5}, {2, 3});
  CHECK(d.dtype() == kFloat64);
  CHECK_SHAPE(d, {2, 3});
  CHECK_VALUES(d, std::vector<double>{1.5, 2.5, 3.5, 4.5, 5.5, 6.5});
  const Tensor i = lz::from_vector(std::vector<int32_t>{1, -2}, {2});
  CHECK(i.dtype() == kInt32);
  CHECK(lzt::int_values(i) == std::vector<int64_t>{1, -2});
  const Tensor u = lz::from_vector(std::vector<uint8_t>{255, 0}, {2, 1});
  CHECK(u.dtype() == kUInt8);
  CHECK(lzt::int_values(u) == std::vector<int64_t>{255, 0});
  const Tensor b = lz::from_vector(std::vector<bool>{true, false, true}, {3});
  CHECK(b.dtype() == kBool);
  CHECK(lzt::int_values(b) == std::vector<int64_t>{1, 0, 1});
  const Tensor f = lz::from_vector(std::vector<float>{1.5f}, {});
  CHECK(f.dim() == 0);
  CHECK(f.dtype() == kFloat32);
  const Tensor conv = lz::from_vector(std::vector<double>{1.5, 2.5}, {2}, kInt32);
  CHECK(conv.dtype() == kInt32);
  CHECK(lzt::int_values(conv) == std::vector<int64_t>{1, 2});
  REQUIRE_THROWS_AS(lz::from_vector(std::vector<double>{1, 2, 3}, {2, 2}), ShapeError);
  REQUIRE_THROWS_WITH(lz::from_vector(std::vector<double>{1, 2, 3}, {2, 2}),
                      Catch::Contains("[from_vector]") && Catch::Contains("[2, 2]"));

  // from_blob shares the caller's memory; the deleter runs with the last user.
  float buffer[6] = {1, 2, 3, 4, 5, 6};
  {
    Tensor t = lz::from_blob(buffer, {2, 3}, kFloat32);
    CHECK(t.data_ptr() == buffer);
    CHECK_VALUES(t, std::vector<double>{1, 2, 3, 4, 5, 6});
    t.select(0, 1).fill_(0);
    CHECK(buffer[4] == 0.0f);
  }
  bool deleted = false;
  {
    Tensor t = lz::from_blob(buffer, {6}, [&deleted](void*) { deleted = true; }, kFloat32);
    Tensor view = t.slice(0, 1, 3);
    t = Tensor();
    CHECK(!deleted);
    CHECK_VALUES(view, std::vector<double>{2, 3});
  }
  CHECK(deleted);
}

TEST_CASE("linspace hits both ends exactly and defaults to float32", "[eager][factories][linspace]") {
  const Tensor a = lz::linspace(0, 1, 5);
  CHECK(a.dtype() == kFloat32);
  CHECK(values(a) == std::vector<double>{0, 0.25, 0.5, 0.75, 1});
  // The last value is `end` itself, not start + 6 * step rounded.
  const Tensor b = lz::linspace(0.1, 0.7, 7, kFloat32);
  CHECK(values(b).back() == static_cast<double>(0.7f));
  CHECK(values(b).front() == static_cast<double>(0.1f));
  // Symmetric around the middle: both halves are computed from their end.
  const Tensor c = lz::linspace(-1.0, 1.0, 9, kFloat64);
  const std::vector<double> v = values(c);
  for (size_t i = 0; i < v.size(); ++i) CHECK(v[i] == -v[v.size() - 1 - i]);
  CHECK(lz::linspace(3, 3, 1).item<float>() == 3.0f);
  CHECK(lz::linspace(0, 1, 0).numel() == 0);
  // Integral dtypes truncate: 2, 4.333, 6.667, 9 -> 2, 4, 6, 9.
  CHECK(values(lz::linspace(2, 9, 4, kInt32)) == std::vector<double>{2, 4, 6, 9});
  REQUIRE_THROWS_AS(lz::linspace(0, 1, -2), ValueError);
  REQUIRE_THROWS_AS(lz::linspace(0, 1, 3, kBool), TypeError);
}

TEST_CASE("eye of square and rectangular shapes", "[eager][factories][eye]") {
  const Tensor i3 = lz::eye(3);
  CHECK(i3.dtype() == kFloat32);
  CHECK(values(i3) == std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0, 1});
  CHECK(values(lz::eye(2, 3, kInt64)) == std::vector<double>{1, 0, 0, 0, 1, 0});
  CHECK(values(lz::eye(3, 1, kBool)) == std::vector<double>{1, 0, 0});
  CHECK_SHAPE(lz::eye(0), {0, 0});
  CHECK_SHAPE(lz::eye(4, 0), {4, 0});
  REQUIRE_THROWS_WITH(lz::eye(-1), Catch::Contains("[eye] n: must be greater or equal to 0, got -1"));
  REQUIRE_THROWS_WITH(lz::eye(2, -5), Catch::Contains("[eye] m: must be greater or equal to 0, got -5"));
}
