// Accuracy of the branch-free float32 math (eager_kernels/cpu/vec_math.h):
// max error in float32 ulps against float64 libm (correctly rounded for
// these purposes: its error is ~2^-29 of a float ulp), over a sweep of the
// whole float range (every 2^16+1-th bit pattern: both signs, subnormals,
// huge magnitudes, inf, NaN), a dense sweep of [-12, 12] and a list of
// special points (±0, overflow/underflow thresholds, ...). Each function is
// checked twice: called directly from this file (baseline x86-64 code, no
// FMA) and through its tensor operator (the kernels' AVX-512 clone on CPUs
// that have it, where GCC contracts a*b+c into FMAs).
//
// Measured maximum (whole 2^32 range every 257th pattern, no FMA / FMA):
//   exp 0.93 / 0.97   exp2 1.03 / 0.76   expm1 1.38 / 1.22   log 0.75 / 0.75
//   log2 1.59 / 0.86  log1p 0.76 / 0.76  tanh 1.21 / 1.21    sigmoid 1.29 / 1.29
//   erf 1.18 / 0.95   silu 1.91 / 1.91   gelu_tanh 1.87      gelu 4.3 / 3.8
//   sin, cos, tan 0.50 (Payne-Hanek above 2^27)   sqrt, rsqrt 0 (correctly
//   rounded: checked exhaustively over all 2^32 inputs while developing).
// The bounds below leave a little room above those numbers.
#include "test_util.h"

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

#include "eager_kernels/cpu/vec_math.h"

using namespace lz;
namespace vm = lz::cpu::vm;

namespace {

constexpr float kInfF = std::numeric_limits<float>::infinity();
constexpr float kNaNF = std::numeric_limits<float>::quiet_NaN();

// One float32 ulp at the magnitude of `r` (subnormal spacing below FLT_MIN).
double ulp_of(double r) {
  const double a = std::fabs(r);
  if (a < 1.1754943508222875e-38) return std::ldexp(1.0, -149);
  int e;
  std::frexp(a, &e);
  return std::ldexp(1.0, e - 24);
}

// |res - ref| in ulps; NaN must match NaN, infinities must be equal, a
// zero must carry the reference's sign; a result that the reference says
// overflows (or must not) is an infinite error.
double ulp_error(float res, double ref) {
  if (std::isnan(ref) || std::isnan(res)) return std::isnan(ref) && std::isnan(res) ? 0 : 1e30;
  const float rf = static_cast<float>(ref);
  if (std::isinf(rf) || std::isinf(res)) return rf == res ? 0 : 1e30;
  if (res == 0 && ref == 0) return std::signbit(res) == std::signbit(ref) ? 0 : 1e30;
  return std::fabs(static_cast<double>(res) - ref) / ulp_of(ref);
}

std::vector<float> sweep() {
  std::vector<float> xs;
  for (uint64_t u = 0; u < (uint64_t{1} << 32); u += 65537) {
    const uint32_t b = static_cast<uint32_t>(u);
    float f;
    std::memcpy(&f, &b, 4);
    xs.push_back(f);
  }
  for (float f = -12.0f; f < 12.0f; f += 1.0f / 1024) xs.push_back(f);
  for (float f : {0.0f, -0.0f, kInfF, -kInfF, kNaNF, 1e-45f, -1e-45f, 1.17549435e-38f, -1.17549435e-38f,
                  88.72283f, 88.7228394f, 88.8f, -87.33654f, -103.972f, -103.9721f, -104.0f, -150.0f,
                  127.99f, 128.0f, -149.0f, -149.5f, -150.5f, 1.0f, -1.0f, 0.5625f, -0.5625f,
                  3.40282347e38f, -3.40282347e38f, 1e-7f, -1e-7f, 1.5707964f, 3.1415927f, 1e10f,
                  -1e10f, 134217728.0f, 134217720.0f, 1.6e38f, 9.01f, -9.01f, 3.92f, 10.1f, -10.1f})
    xs.push_back(f);
  return xs;
}

struct Result {
  double max_ulp = 0;
  float worst = 0;
};

Result measure(const std::vector<float>& xs, const std::vector<float>& got, const std::function<double(double)>& ref,
               double lo, double hi) {
  Result r;
  for (size_t i = 0; i < xs.size(); ++i) {
    const double x = xs[i];
    if (!std::isnan(x) && (x < lo || x > hi)) continue;
    const double e = ulp_error(got[i], ref(x));
    if (e > r.max_ulp) {
      r.max_ulp = e;
      r.worst = xs[i];
    }
  }
  return r;
}

struct Case {
  const char* name;
  float (*scalar)(float);
  std::function<Tensor(const Tensor&)> op;
  double (*ref)(double);
  double bound;
  double lo = -std::numeric_limits<double>::infinity();
  double hi = std::numeric_limits<double>::infinity();
};

double sigmoid_ref(double x) { return 1 / (1 + std::exp(-x)); }
double silu_ref(double x) { return x / (1 + std::exp(-x)); }
double gelu_ref(double x) { return 0.5 * x * std::erfc(-x / std::sqrt(2.0)); }
double gelu_tanh_ref(double x) {
  const double u = std::sqrt(2 / M_PI) * (x + 0.044715 * x * x * x);
  return x / (1 + std::exp(-2 * u));  // = x/2 (1 + tanh(u)), without cancellation
}
double rsqrt_ref(double x) { return 1 / std::sqrt(x); }

std::vector<Case> cases() {
  return {
      {"exp", vm::exp, [](const Tensor& t) { return lz::exp(t); }, [](double x) { return std::exp(x); }, 1.0},
      {"exp2", vm::exp2, [](const Tensor& t) { return lz::exp2(t); }, [](double x) { return std::exp2(x); }, 1.5},
      {"expm1", vm::expm1, [](const Tensor& t) { return lz::expm1(t); }, [](double x) { return std::expm1(x); }, 1.5},
      {"log", vm::log, [](const Tensor& t) { return lz::log(t); }, [](double x) { return std::log(x); }, 1.0},
      {"log2", vm::log2, [](const Tensor& t) { return lz::log2(t); }, [](double x) { return std::log2(x); }, 2.0},
      {"log1p", vm::log1p, [](const Tensor& t) { return lz::log1p(t); }, [](double x) { return std::log1p(x); }, 1.0},
      {"tanh", vm::tanh, [](const Tensor& t) { return lz::tanh(t); }, [](double x) { return std::tanh(x); }, 1.5},
      {"sigmoid", vm::sigmoid, [](const Tensor& t) { return lz::sigmoid(t); }, sigmoid_ref, 1.5},
      {"erf", vm::erf, [](const Tensor& t) { return lz::erf(t); }, [](double x) { return std::erf(x); }, 1.5},
      // Below -80 the result is subnormal (or 0) and e^x loses bits there.
      {"silu", vm::silu, [](const Tensor& t) { return lz::silu(t); }, silu_ref, 2.0, -80},
      {"gelu_tanh", vm::gelu_tanh, [](const Tensor& t) { return lz::gelu(t, "tanh"); }, gelu_tanh_ref, 2.0, -10},
      {"gelu", vm::gelu, [](const Tensor& t) { return lz::gelu(t); }, gelu_ref, 5.0, -10},
      {"sin", vm::sin, [](const Tensor& t) { return lz::sin(t); }, [](double x) { return std::sin(x); }, 0.75},
      {"cos", vm::cos, [](const Tensor& t) { return lz::cos(t); }, [](double x) { return std::cos(x); }, 0.75},
      {"tan", vm::tan, [](const Tensor& t) { return lz::tan(t); }, [](double x) { return std::tan(x); }, 0.75},
      {"sqrt", vm::sqrt, [](const Tensor& t) { return lz::sqrt(t); }, [](double x) { return std::sqrt(x); }, 0.5},
      {"rsqrt", vm::rsqrt, [](const Tensor& t) { return lz::rsqrt(t); }, rsqrt_ref, 0.5},
  };
}

}  // namespace

TEST_CASE("vec_math float32 functions stay within their ulp bounds", "[eager][vec_math]") {
  const std::vector<float> xs = sweep();
  const Tensor input = lzt::make_tensor(std::vector<double>(xs.begin(), xs.end()), kFloat32);
  for (const Case& c : cases()) {
    INFO(c.name);
    std::vector<float> direct(xs.size());
    for (size_t i = 0; i < xs.size(); ++i) direct[i] = c.scalar(xs[i]);
    const Result r1 = measure(xs, direct, c.ref, c.lo, c.hi);
    INFO("direct call: max " << r1.max_ulp << " ulp at " << r1.worst);
    CHECK(r1.max_ulp <= c.bound);

    const Tensor out = c.op(input);
    REQUIRE(out.dtype() == kFloat32);
    const std::vector<double> v = lzt::values(out);
    const std::vector<float> through_op(v.begin(), v.end());
    const Result r2 = measure(xs, through_op, c.ref, c.lo, c.hi);
    INFO("tensor operator: max " << r2.max_ulp << " ulp at " << r2.worst);
    CHECK(r2.max_ulp <= c.bound);
  }
}

TEST_CASE("vec_math special values", "[eager][vec_math]") {
  auto same = [](float a, float b) {
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
  };
  SECTION("exp family") {
    CHECK(same(vm::exp(-kInfF), 0.0f));
    CHECK(same(vm::exp(kInfF), kInfF));
    CHECK(same(vm::exp(kNaNF), kNaNF));
    CHECK(same(vm::exp(-0.0f), 1.0f));
    CHECK(std::isfinite(vm::exp(88.72283f)));  // just below ln(FLT_MAX)
    CHECK(same(vm::exp(88.7228394f), kInfF));  // just above
    CHECK(same(vm::exp(-104.0f), 0.0f));
    CHECK(vm::exp(-103.0f) > 0.0f);            // subnormal, not flushed
    CHECK(vm::exp(-103.0f) < 1.17549435e-38f);
    CHECK(same(vm::exp2(128.0f), kInfF));
    CHECK(same(vm::exp2(-149.0f), 1e-45f));
    CHECK(same(vm::exp2(-150.5f), 0.0f));
    CHECK(same(vm::exp2(10.0f), 1024.0f));
    CHECK(same(vm::expm1(-0.0f), -0.0f));
    CHECK(same(vm::expm1(-kInfF), -1.0f));
    CHECK(same(vm::expm1(kInfF), kInfF));
    CHECK(same(vm::expm1(1e-30f), 1e-30f));
  }
  SECTION("logarithms") {
    for (auto f : {vm::log, vm::log2}) {
      CHECK(same(f(0.0f), -kInfF));
      CHECK(same(f(-0.0f), -kInfF));
      CHECK(same(f(-1.0f), kNaNF));
      CHECK(same(f(kInfF), kInfF));
      CHECK(same(f(-kInfF), kNaNF));
      CHECK(same(f(kNaNF), kNaNF));
      CHECK(same(f(1.0f), 0.0f));
    }
    CHECK(same(vm::log2(8.0f), 3.0f));
    CHECK(same(vm::log2(1e-45f), -149.0f));
    CHECK(same(vm::log1p(-1.0f), -kInfF));
    CHECK(same(vm::log1p(-2.0f), kNaNF));
    CHECK(same(vm::log1p(-0.0f), -0.0f));
    CHECK(same(vm::log1p(1e-30f), 1e-30f));
    CHECK(same(vm::log1p(kInfF), kInfF));
  }
  SECTION("activations") {
    CHECK(same(vm::tanh(kInfF), 1.0f));
    CHECK(same(vm::tanh(-kInfF), -1.0f));
    CHECK(same(vm::tanh(-0.0f), -0.0f));
    CHECK(same(vm::tanh(20.0f), 1.0f));
    CHECK(same(vm::sigmoid(kInfF), 1.0f));
    CHECK(same(vm::sigmoid(-kInfF), 0.0f));
    CHECK(same(vm::sigmoid(0.0f), 0.5f));
    CHECK(same(vm::sigmoid(kNaNF), kNaNF));
    CHECK(same(vm::erf(kInfF), 1.0f));
    CHECK(same(vm::erf(-kInfF), -1.0f));
    CHECK(same(vm::erf(-0.0f), -0.0f));
    CHECK(same(vm::erf(kNaNF), kNaNF));
    CHECK(same(vm::silu(kInfF), kInfF));
    CHECK(same(vm::silu(-0.0f), -0.0f));
    CHECK(std::isnan(vm::silu(-kInfF)));  // -inf * 0, as in PyTorch
    CHECK(same(vm::gelu(kInfF), kInfF));
    CHECK(std::isnan(vm::gelu(-kInfF)));
    CHECK(same(vm::gelu_tanh(kInfF), kInfF));
    CHECK(same(vm::gelu(0.0f), 0.0f));
  }
  SECTION("trigonometry") {
    for (auto f : {vm::sin, vm::cos, vm::tan}) {
      CHECK(std::isnan(f(kInfF)));
      CHECK(std::isnan(f(-kInfF)));
      CHECK(std::isnan(f(kNaNF)));
    }
    CHECK(same(vm::sin(-0.0f), -0.0f));
    CHECK(same(vm::tan(-0.0f), -0.0f));
    CHECK(same(vm::cos(0.0f), 1.0f));
    // A large argument needs the Payne-Hanek reduction: sin(1e22) in double
    // is -0.8522008497671888.
    CHECK(std::fabs(vm::sin(1e22f) - static_cast<float>(std::sin(static_cast<double>(1e22f)))) <= 6e-8f);
  }
  SECTION("square roots and rounding") {
    CHECK(same(vm::sqrt(-0.0f), -0.0f));
    CHECK(same(vm::sqrt(-1.0f), kNaNF));
    CHECK(same(vm::sqrt(kInfF), kInfF));
    CHECK(same(vm::sqrt(1e-45f), static_cast<float>(std::sqrt(static_cast<double>(1e-45f)))));
    CHECK(same(vm::rsqrt(0.0f), kInfF));
    CHECK(same(vm::rsqrt(-0.0f), -kInfF));
    CHECK(same(vm::rsqrt(kInfF), 0.0f));
    CHECK(same(vm::round_half_even(2.5f), 2.0f));
    CHECK(same(vm::round_half_even(-0.5f), -0.0f));
    CHECK(same(vm::round_half_even(3.5f), 4.0f));
    CHECK(same(vm::round_half_even(8388609.0f), 8388609.0f));
    CHECK(same(vm::floor(-0.5f), -1.0f));
    CHECK(same(vm::floor(-0.0f), -0.0f));
    CHECK(same(vm::ceil(-0.5f), -0.0f));
    CHECK(same(vm::ceil(0.25f), 1.0f));
    CHECK(same(vm::trunc(-2.75f), -2.0f));
    CHECK(same(vm::trunc(-0.75f), -0.0f));
    CHECK(vm::floor(4503599627370497.0) == 4503599627370497.0);
    CHECK(vm::round_half_even(-2.5) == -2.0);
  }
}
