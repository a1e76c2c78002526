// Neural-network operators beyond the operator table: the composites other
// dispatch keys see agree with the dedicated CPU kernels, numerical
// stability (huge, -inf and NaN inputs, large offsets), the fast float32 exp,
// the streaming-store path, thread-count independence, rms_norm's default
// eps, dropout's generator and in-place form, and the cross_entropy API.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "core/dispatcher.h"
#include "core/local_dispatch_key_set.h"
#include "core/op_registration.h"
#include "eager_kernels/cpu/nn_kernels_math.h"
#include "operator_recorder.h"
#include "test_util.h"
#include "tests/float_constants.h"

using namespace lz;
using lzt::make_tensor;
using lzt::values;
using lzt::contains;
using lzt::recorded;
using lzt::recording_fallback;
using lzt::ThreadCountGuard;

namespace {

using lzt::kInf;

// Runs f with TestingOnlyMode included (a key without kernels whose fallback
// records each operator and passes it on): composites run instead of the
// CPU kernels, as they will for the Lazy key.
template <class F>
Tensor through_composite(F&& f) {
  Library lib("test_nn_recording");
  lib.fallback(DispatchKey::TestingOnlyMode, KernelFunction::from_boxed(&recording_fallback));
  recorded().clear();
  IncludeDispatchKeyGuard mode(DispatchKey::TestingOnlyMode);
  return f();
}

std::vector<double> softmax_row(const std::vector<double>& x, bool log) {
  double m = -kInf;
  for (double v : x) m = std::max(m, v);
  double s = 0;
  for (double v : x) s += std::exp(v - m);
  std::vector<double> out;
  for (double v : x) out.push_back(log ? v - m - std::log(s) : std::exp(v - m) / s);
  return out;
}

// ulp distance of two finite floats.
int64_t ulp_distance(float a, float b) {
  auto key = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, 4);
    return i < 0 ? int64_t{INT32_MIN} - i : int64_t{i};
  };
  return std::llabs(key(a) - key(b));
}

}  // namespace

TEST_CASE("softmax and log_softmax composites agree with the CPU kernels", "[eager][nn]") {
  for (ScalarType dt : {kFloat32, kFloat64, kBFloat16}) {
    const Tensor x = randn({7, 33, 5}, make_generator(21), dt);
    for (int64_t dim : {-1, 0, 1}) {
      const Tensor kernel = softmax(x, dim), log_kernel = log_softmax(x, dim);
      const Tensor composite = through_composite([&] { return softmax(x, dim); });
      CHECK(contains(recorded(), "amax"));
      CHECK(contains(recorded(), "exp"));
      CHECK(contains(recorded(), "div.Tensor"));
      CHECK_FALSE(contains(recorded(), "softmax.int"));
      const Tensor log_composite = through_composite([&] { return log_softmax(x, dim); });
      CHECK(contains(recorded(), "log"));
      CHECK_FALSE(contains(recorded(), "log_softmax.int"));
      const double tol = dt == kBFloat16 ? 2e-2 : dt == kFloat32 ? 1e-6 : 1e-14;
      CHECK(composite.dtype() == dt);
      CHECK_VALUES_TOL(composite, values(kernel), tol, tol);
      CHECK_VALUES_TOL(log_composite, values(log_kernel), tol, 4 * tol);
    }
  }
  // With a dtype conversion.
  const Tensor h = randn({4, 9}, make_generator(22), kFloat16);
  const Tensor c = through_composite([&] { return softmax(h, 1, kFloat32); });
  CHECK(c.dtype() == kFloat32);
  CHECK_VALUES_TOL(c, values(softmax(h, 1, kFloat32)), 1e-6, 1e-7);
}

TEST_CASE("layer_norm and rms_norm composites agree with the CPU kernels", "[eager][nn]") {
  for (ScalarType dt : {kFloat32, kFloat64, kFloat16}) {
    const Tensor x = randn({6, 5, 40}, make_generator(23), dt);
    const Tensor w = randn({5, 40}, make_generator(24), dt);
    const Tensor b = randn({5, 40}, make_generator(25), dt);
    const double tol = dt == kFloat16 ? 4e-3 : dt == kFloat32 ? 1e-5 : 1e-12;
    const Tensor ln = through_composite([&] { return layer_norm(x, {5, 40}, w, b, 1e-5); });
    CHECK(contains(recorded(), "mean.dim"));
    CHECK(contains(recorded(), "rsqrt"));
    CHECK_FALSE(contains(recorded(), "layer_norm"));
    CHECK(ln.dtype() == dt);
    CHECK_VALUES_TOL(ln, values(layer_norm(x, {5, 40}, w, b, 1e-5)), tol, tol);
    const Tensor ln_plain = through_composite([&] { return layer_norm(x, {40}); });
    CHECK_VALUES_TOL(ln_plain, values(layer_norm(x, {40})), tol, tol);

    const Tensor rms = through_composite([&] { return rms_norm(x, {40}, w.select(0, 0)); });
    CHECK(contains(recorded(), "rsqrt"));
    CHECK_FALSE(contains(recorded(), "rms_norm"));
    CHECK_VALUES_TOL(rms, values(rms_norm(x, {40}, w.select(0, 0))), tol, tol);
    const Tensor rms_eps = through_composite([&] { return rms_norm(x, {5, 40}, std::nullopt, 0.5); });
    CHECK_VALUES_TOL(rms_eps, values(rms_norm(x, {5, 40}, std::nullopt, 0.5)), tol, tol);
  }
}

TEST_CASE("softmax is stable for huge, infinite and NaN inputs", "[eager][nn]") {
  for (ScalarType dt : {kFloat32, kFloat64, kFloat16, kBFloat16}) {
    // Shifting a row does not change softmax; exp(1000) (exp(100) for the
    // 16-bit types, which hold these integers exactly) would overflow.
    const bool narrow = dt == kFloat16 || dt == kBFloat16;
    const double base = narrow ? 100 : 1000;
    const std::vector<double> expected = softmax_row({0, 1, 2}, false);
    const double tol = dt == kFloat16 ? 2e-3 : dt == kBFloat16 ? 1e-2 : 1e-6;
    CHECK_VALUES_TOL(softmax(make_tensor({base, base + 1, base + 2}, {1, 3}, dt), 1), expected, tol, 1e-7);
    CHECK_VALUES_TOL(softmax(make_tensor({-base, 1 - base, 2 - base}, {3}, dt), 0), expected, tol, 1e-7);
    CHECK_VALUES_TOL(log_softmax(make_tensor({-base, 0}, {2}, dt), 0), {-base, 0}, tol, 1e-6);
    // -inf entries are masked out: probability 0, log-probability -inf.
    const Tensor masked = make_tensor({0, -kInf, 0}, {3}, dt);
    CHECK_VALUES_TOL(softmax(masked, 0), {0.5, 0, 0.5}, tol, 0);
    CHECK_VALUES_TOL(log_softmax(masked, 0), {-std::log(2.0), -kInf, -std::log(2.0)}, tol, 0);
    // A NaN poisons its row only; a row of -inf has no distribution (NaN, as in PyTorch).
    const Tensor bad = make_tensor({1, NAN, 2, 3, -kInf, -kInf, 4, 5}, {4, 2}, dt);
    const std::vector<double> s = values(softmax(bad, 1));
    CHECK(std::isnan(s[0]));
    CHECK(std::isnan(s[1]));
    CHECK(std::fabs(s[2] - softmax_row({2, 3}, false)[0]) < tol);
    CHECK(std::isnan(s[4]));
    CHECK(std::isnan(s[5]));
    CHECK(std::fabs(s[7] - softmax_row({4, 5}, false)[1]) < tol);
  }
}

TEST_CASE("the float32 exp of the softmax kernels is within 2 ulp", "[eager][nn]") {
  int64_t worst = 0;
  float worst_x = 0;
  for (double x = -87.3; x <= 88.7; x += 0.000731) {
    const float xf = static_cast<float>(x);
    const float got = cpu::nn::exp_f32(xf);
    const float want = static_cast<float>(std::exp(static_cast<double>(xf)));
    const int64_t d = ulp_distance(got, want);
    if (d > worst) {
      worst = d;
      worst_x = xf;
    }
  }
  INFO("worst at x = " << worst_x);
  CHECK(worst <= 2);
  CHECK(cpu::nn::exp_f32(0.0f) == 1.0f);
  CHECK(cpu::nn::exp_f32(-std::numeric_limits<float>::infinity()) == 0.0f);
  CHECK(cpu::nn::exp_f32(-104.0f) == 0.0f);
  // Denormal results: exp(-100) = 3.72e-44 is 26 times the smallest denormal.
  CHECK(ulp_distance(cpu::nn::exp_f32(-100.0f), static_cast<float>(std::exp(-100.0))) <= 1);
  CHECK(std::isinf(cpu::nn::exp_f32(std::numeric_limits<float>::infinity())));
  CHECK(std::isinf(cpu::nn::exp_f32(88.8f)));
  CHECK(std::isnan(cpu::nn::exp_f32(std::numeric_limits<float>::quiet_NaN())));
  // Just below overflow: finite and accurate.
  const float near_max = cpu::nn::exp_f32(88.72f);
  CHECK(std::isfinite(near_max));
  CHECK(ulp_distance(near_max, static_cast<float>(std::exp(static_cast<double>(88.72f)))) <= 2);
}

TEST_CASE("large softmax rows written with streaming stores are correct", "[eager][nn]") {
  // 1100 x 4096 float32 is 18 MB: above the streaming-store threshold.
  const Tensor x = randn({1100, 4096}, make_generator(26));
  const Tensor s = softmax(x, 1), ls = log_softmax(x, 1);
  const std::vector<double> xv = values(x), sv = values(s), lv = values(ls);
  for (int64_t r : {0, 517, 1099}) {
    const std::vector<double> row(xv.begin() + r * 4096, xv.begin() + (r + 1) * 4096);
    const std::vector<double> ref = softmax_row(row, false), log_ref = softmax_row(row, true);
    CHECK(lzt::mismatch(std::vector<double>(sv.begin() + r * 4096, sv.begin() + (r + 1) * 4096), ref, 1e-5, 1e-9) == "");
    CHECK(lzt::mismatch(std::vector<double>(lv.begin() + r * 4096, lv.begin() + (r + 1) * 4096), log_ref, 1e-6, 1e-5) == "");
  }
  // Every row sums to 1.
  const std::vector<double> sums = values(sum(s, {1}, false, kFloat64));
  for (double v : sums) CHECK(std::fabs(v - 1) < 1e-5);
  const Tensor ln = layer_norm(x, {4096});
  const std::vector<double> lnv = values(ln);
  double mean = 0;
  for (int64_t i = 0; i < 4096; ++i) mean += lnv[static_cast<size_t>(700 * 4096 + i)];
  CHECK(std::fabs(mean / 4096) < 1e-5);
}

// Softmax over a dim other than the last: columns processed in chunks of
// adjacent columns (more columns than one chunk, a partial last chunk and
// vector tail, several outer slices), each against a float64 reference.
TEST_CASE("softmax over leading dims matches a float64 reference per column", "[eager][nn]") {
  for (ScalarType dt : {kFloat32, kFloat64, kBFloat16}) {
    INFO(dt);
    const Tensor x = randn({3, 9, 1037}, make_generator(29), dt);
    const std::vector<double> xv = values(x);
    const std::vector<double> sv = values(softmax(x, 1)), lv = values(log_softmax(x, 1));
    const double tol = dt == kBFloat16 ? 1e-2 : dt == kFloat32 ? 1e-6 : 1e-13;
    for (int64_t o : {0, 2}) {
      for (int64_t c : {0, 15, 16, 1023, 1024, 1036}) {
        std::vector<double> col, s_col, l_col;
        for (int64_t l = 0; l < 9; ++l) {
          const size_t at = static_cast<size_t>((o * 9 + l) * 1037 + c);
          col.push_back(xv[at]);
          s_col.push_back(sv[at]);
          l_col.push_back(lv[at]);
        }
        INFO("slice " << o << " column " << c);
        CHECK(lzt::mismatch(s_col, softmax_row(col, false), tol, tol) == "");
        CHECK(lzt::mismatch(l_col, softmax_row(col, true), tol, 4 * tol) == "");
      }
    }
  }
}

TEST_CASE("softmax and normalisations do not depend on the thread count", "[eager][nn]") {
  ThreadCountGuard guard;
  const Tensor x = randn({300, 513}, make_generator(27));
  const Tensor xt = randn({513, 300}, make_generator(28)).t();
  auto run = [&] {
    return std::vector<Tensor>{softmax(x, 1), log_softmax(x, 0), softmax(xt, 1),
                               layer_norm(x, {513}), rms_norm(x, {513}), dropout(x, 0.3, true)};
  };
  set_num_threads(1);
  manual_seed(99);
  const std::vector<Tensor> one = run();
  set_num_threads(2);
  manual_seed(99);
  const std::vector<Tensor> two = run();
  for (size_t i = 0; i < one.size(); ++i) {
    INFO("result " << i);
    CHECK(lzt::same_values(one[i], two[i]) == "");
  }
}

TEST_CASE("layer_norm is accurate for rows with a large offset", "[eager][nn]") {
  // Values 1e4 + small deviations: a one-pass E[x^2] - E[x]^2 in float32
  // would lose every digit of the variance.
  std::vector<double> v;
  for (int i = 0; i < 1000; ++i) v.push_back(10000.0 + (i % 7) * 0.125 - 0.375);
  const Tensor x = make_tensor(v, {1, 1000}, kFloat32);
  double mean = 0, var = 0;
  for (double a : v) mean += a;
  mean /= 1000;
  for (double a : v) var += (a - mean) * (a - mean);
  var /= 1000;
  std::vector<double> expected;
  for (double a : v) expected.push_back((a - mean) / std::sqrt(var + 1e-5));
  CHECK_VALUES_TOL(layer_norm(x, {1000}), expected, 1e-4, 1e-4);
}

TEST_CASE("rms_norm defaults eps to the machine epsilon of the computation type", "[eager][nn]") {
  // Tiny rows: eps dominates mean(x^2), so the result reveals eps.
  for (ScalarType dt : {kFloat32, kFloat64, kFloat16}) {
    const double x = dt == kFloat16 ? 1e-3 : 1e-5;
    const double eps = dt == kFloat64 ? std::ldexp(1.0, -52) : std::ldexp(1.0, -23);
    const double x_stored = lzt::round_to(dt, x);
    const double expected = x_stored / std::sqrt(x_stored * x_stored + eps);
    const Tensor r = rms_norm(make_tensor({x, x}, {2}, dt), {2});
    CHECK_VALUES_TOL(r, {expected, expected}, dt == kFloat16 ? 2e-3 : 1e-5, 0);
  }
}

TEST_CASE("layer_norm accepts float32 parameters for 16-bit inputs", "[eager][nn]") {
  const Tensor x = make_tensor({1, 2, 3, 4}, {4}, kBFloat16);
  const Tensor w = make_tensor({1, 1, 2, 2}, {4}, kFloat32);
  const Tensor b = make_tensor({0.5, 0.5, 0.5, 0.5}, {4}, kFloat32);
  const Tensor y = layer_norm(x, {4}, w, b, 0);
  CHECK(y.dtype() == kBFloat16);
  // mean 2.5, var 1.25
  const double s = std::sqrt(1.25);
  CHECK_VALUES(y, {-1.5 / s + 0.5, -0.5 / s + 0.5, 2 * 0.5 / s + 0.5, 2 * 1.5 / s + 0.5});
}

TEST_CASE("dropout draws from the default generator", "[eager][nn]") {
  const Tensor x = ones({1000});
  manual_seed(5);
  const Tensor a = dropout(x, 0.5, true);
  manual_seed(5);
  const Tensor b = dropout(x, 0.5, true);
  manual_seed(6);
  const Tensor c = dropout(x, 0.5, true);
  CHECK(lzt::same_values(a, b) == "");
  CHECK(lzt::same_values(a, c) != "");
  // Consecutive calls draw different masks.
  manual_seed(5);
  const Tensor d1 = dropout(x, 0.5, true);
  const Tensor d2 = dropout(x, 0.5, true);
  CHECK(lzt::same_values(d1, d2) != "");
  // Kept elements are scaled by 1 / (1 - p): the sum stays close to 1000.
  double total = 0;
  for (double v : values(dropout(ones({100000}), 0.2, true))) total += v;
  CHECK(std::fabs(total / 100000 - 1) < 0.01);
}

TEST_CASE("dropout with train false or p 0 returns its input, dropout_ writes in place", "[eager][nn]") {
  const Tensor x = randn({4, 5}, make_generator(29));
  CHECK(dropout(x, 0.5, false).is_same(x));
  CHECK(dropout(x, 0.0, true).is_same(x));
  Tensor y = ones({2000});
  Tensor& r = dropout_(y, 0.25, true);
  CHECK(&r == &y);
  int64_t zeros = 0;
  for (double v : values(y)) {
    CHECK((v == 0 || std::fabs(v - 4.0 / 3.0) < 1e-6));
    zeros += v == 0;
  }
  CHECK(zeros > 350);
  CHECK(zeros < 650);
  Tensor z = ones({3});
  dropout_(z, 1.0, true);
  CHECK_VALUES(z, {0, 0, 0});
  Tensor w = ones({3});
  dropout_(w, 0.9, false);
  CHECK_VALUES(w, {1, 1, 1});
  REQUIRE_THROWS_AS(dropout_(w, 2.0, true), ValueError);
}

TEST_CASE("cross_entropy values, reductions and API forms", "[eager][nn]") {
  // Two classes with equal scores: the loss of either target is log 2.
  const Tensor x = make_tensor({0, 0, 0, 0}, {2, 2}, kFloat32);
  const Tensor t = make_tensor({0, 1}, {2}, kInt64);
  CHECK_VALUES(cross_entropy(x, t), {std::log(2.0)});
  CHECK_VALUES(cross_entropy(x, t, std::nullopt, "sum"), {2 * std::log(2.0)});
  CHECK_VALUES(cross_entropy(x, t, std::nullopt, "none"), {std::log(2.0), std::log(2.0)});
  CHECK_VALUES(cross_entropy(x, t, std::nullopt, Reduction::Sum), {2 * std::log(2.0)});
  CHECK_VALUES(cross_entropy_loss(x, t, std::nullopt, Reduction::None), {std::log(2.0), std::log(2.0)});
  // Weighted mean divides by the weights of the targets: (1*l0 + 3*l1) / (1 + 3).
  const Tensor s = make_tensor({2, 0, 0, 2}, {2, 2}, kFloat64);
  const double l_right = std::log(1 + std::exp(-2.0));
  const Tensor w = make_tensor({1, 3}, {2}, kFloat64);
  CHECK_VALUES(cross_entropy(s, t, w), {(1 * l_right + 3 * l_right) / 4});
  const Tensor wrong = make_tensor({1, 0}, {2}, kInt64);  // both wrong: loss 2 + l_right
  CHECK_VALUES(cross_entropy(s, wrong, w), {(3 * (2 + l_right) + 1 * (2 + l_right)) / 4});
  // Ignored targets count for nothing.
  const Tensor ignored = make_tensor({0, -100}, {2}, kInt64);
  CHECK_VALUES(cross_entropy(s, ignored), {l_right});
  // Label smoothing 0.2 over 2 classes: target distribution [0.9, 0.1].
  const double lp_right = -l_right, lp_wrong = -2 - l_right;
  CHECK_VALUES(cross_entropy(s, t, std::nullopt, "mean", -100, 0.2),
               {-(0.9 * lp_right + 0.1 * lp_wrong)});
  // The same through probabilities.
  const Tensor probs = make_tensor({0.9, 0.1, 0.1, 0.9}, {2, 2}, kFloat64);
  CHECK_VALUES(cross_entropy(s, probs), {-(0.9 * lp_right + 0.1 * lp_wrong)});
  REQUIRE_THROWS_AS(cross_entropy(x, t, std::nullopt, "average"), ValueError);
  REQUIRE_THROWS_AS(cross_entropy_loss(x, t, std::nullopt, 7), ValueError);
}

TEST_CASE("nll_loss returns NaN for a mean over no targets, like PyTorch", "[eager][nn]") {
  const Tensor x = make_tensor({-1, -2, -3, -4}, {2, 2}, kFloat32);
  const Tensor all_ignored = make_tensor({-100, -100}, {2}, kInt64);
  CHECK(std::isnan(values(nll_loss(x, all_ignored))[0]));
  CHECK_VALUES(nll_loss(x, all_ignored, std::nullopt, Reduction::Sum), {0});
  const auto [loss, total_weight] = nll_loss_forward(x, make_tensor({1, 0}, {2}, kInt64), std::nullopt, 1, -100);
  CHECK_VALUES(loss, {(2 + 3) / 2.0});
  CHECK_VALUES(total_weight, {2});
}
