// The vector math emitters (codegen_llvm/vector_math.h), JIT-compiled through
// the math probe at widths 16, 8 and 1 and measured in float32 ulps against
// float64 libm: every function in both modes, over the whole float range
// (every 4099th bit pattern: both signs, subnormals, huge values, inf, NaN),
// a dense sweep of [-12, 12], random values and special points. Also: the
// Precise results against the eager kernels (vec_math.h), vector widths
// against scalar IR, float64 against std::, and the special cases of pow
// and atan2. The "error table" test prints the measured maxima quoted in
// vector_math.h.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <random>
#include <string>
#include <sstream>
#include <vector>

#include "codegen_llvm/math_probe.h"
#include "eager_kernels/cpu/vec_math.h"

using namespace lz::codegen_llvm;
namespace vm = lz::cpu::vm;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr double kPi = 3.14159265358979323846;

// One float32 ulp at the magnitude of `r` (the subnormal spacing below FLT_MIN).
double ulp_of(double r) {
  const double a = std::fabs(r);
  if (a < FLT_MIN) return std::ldexp(1.0, -149);
  int e;
  std::frexp(a, &e);
  return std::ldexp(1.0, e - 24);
}

// |res - ref| in ulps. NaN must match NaN, infinities must be equal, a zero
// must carry the reference's sign. With `flush`, a result below FLT_MIN
// where the reference is below FLT_MIN too counts as exact (Fast mode's
// flushed subnormals).
double ulp_error(float res, double ref, bool flush = false) {
  if (std::isnan(ref) || std::isnan(res)) return std::isnan(ref) && std::isnan(res) ? 0 : 1e30;
  const float rf = static_cast<float>(ref);
  if (std::isinf(rf) || std::isinf(res)) return rf == res ? 0 : 1e30;
  if (flush && std::fabs(ref) < FLT_MIN && std::fabs(res) < FLT_MIN) return 0;
  if (res == 0 && ref == 0) return std::signbit(res) == std::signbit(ref) ? 0 : 1e30;
  return std::fabs(static_cast<double>(res) - ref) / ulp_of(ref);
}

// Distance of two floats in representable steps (NaN equals NaN only).
double ulp_distance(float a, float b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b) ? 0 : 1e30;
  auto ordered = [](float f) {
    int32_t i;
    std::memcpy(&i, &f, 4);
    return i < 0 ? -static_cast<int64_t>(i & 0x7fffffff) : static_cast<int64_t>(i);
  };
  return static_cast<double>(std::llabs(ordered(a) - ordered(b)));
}

bool same_bits_or_nan(double a, double b) {
  return (std::isnan(a) && std::isnan(b)) || std::memcmp(&a, &b, sizeof a) == 0;
}

const std::vector<float>& special_points() {
  static const std::vector<float> v = {
      0.0f, -0.0f, kInf, -kInf, kNaN, 1e-45f, -1e-45f, 1.1754942e-38f, -1.1754942e-38f, FLT_MIN, -FLT_MIN,
      FLT_MAX, -FLT_MAX, 88.72283f, 88.7228394f, 88.8f, -87.33654f, -87.33655f, -88.72f, 88.72f, -103.0f,
      -103.972f, -103.9721f, -104.0f, 103.0f, -150.0f, -149.0f, -149.5f, -150.5f, -126.0f, 127.99f, 128.0f, 1.0f,
      -1.0f, 0.5f, -0.5f, 0.5625f, -0.5625f, 1e-7f, -1e-7f, 1.5707964f, 3.1415927f, -3.1415927f, 6.2831855f, 1e10f,
      -1e10f, 134217728.0f, -134217728.0f, 134217720.0f, 1e22f, -1e22f, 1e30f, -1e30f, 1.6e38f, 9.01f, -9.01f,
      3.92f, 10.1f, -10.1f, 30.0f, -30.0f, 9.0f, -9.0f};
  return v;
}

// The unary sweep: whole range, dense [-12, 12], random values, specials.
const std::vector<float>& sweep() {
  static const std::vector<float> xs = [] {
    std::vector<float> v;
    for (uint64_t u = 0; u < (uint64_t{1} << 32); u += 4099) {
      const uint32_t b = static_cast<uint32_t>(u);
      float f;
      std::memcpy(&f, &b, 4);
      v.push_back(f);
    }
    for (float f = -12.0f; f < 12.0f; f += 1.0f / 1024) v.push_back(f);
    std::mt19937 rng(42);
    std::uniform_real_distribution<float> wide(-110.0f, 110.0f), unit(-1.0f, 1.0f);
    for (int i = 0; i < 20000; ++i) v.push_back(wide(rng));
    for (int i = 0; i < 20000; ++i) v.push_back(unit(rng));
    for (float f : special_points()) v.push_back(f);
    while (v.size() % 16 != 3) v.push_back(0.25f);  // a remainder for the scalar loop
    return v;
  }();
  return xs;
}

// Binary inputs: every pair of special values, then random families.
struct Pairs {
  std::vector<float> x, y;
};

const Pairs& pow_pairs() {
  static const Pairs p = [] {
    Pairs p;
    const std::vector<float> s = {0.0f, -0.0f, kInf, -kInf, kNaN, 1.0f, -1.0f, 0.5f, -0.5f, 2.0f, -2.0f, 3.0f,
                                  -3.0f, 2.5f, -2.5f, 1e-45f, FLT_MIN, FLT_MAX, -FLT_MAX, 1e-30f, 1e30f, -1e30f,
                                  16777218.0f, -16777218.0f, 16777217.0f * 2, 0.3333333f, -7.0f, 1.0000001f,
                                  0.99999994f, 127.0f, 128.0f, -149.0f, -150.0f};
    for (float a : s)
      for (float b : s) p.x.push_back(a), p.y.push_back(b);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> lg(-20.0, 20.0), ys(-30.0, 30.0), u01(0.0, 1.0), scale(0.9, 1.05);
    for (int i = 0; i < 40000; ++i) {  // |x| log-uniform in [2^-20, 2^20], y in [-30, 30]
      const float x = static_cast<float>(std::exp2(lg(rng)));
      p.x.push_back(x), p.y.push_back(static_cast<float>(ys(rng)));
      p.x.push_back(-x), p.y.push_back(std::round(static_cast<float>(ys(rng))));  // negative x, integer y
    }
    for (int i = 0; i < 20000; ++i) {  // x near 1, large y: needs the extra precision
      const float x = 1.0f + static_cast<float>(static_cast<int>(u01(rng) * 2000) - 1000) * 0x1p-23f;
      p.x.push_back(x), p.y.push_back(static_cast<float>((u01(rng) - 0.5) * 2e7));
    }
    for (int i = 0; i < 20000; ++i) {  // results near overflow and underflow
      const float x = static_cast<float>(0.01 + u01(rng) * 20);
      const double t = (u01(rng) < 0.5 ? 128.0 : -149.0) / std::log2(static_cast<double>(x));
      p.x.push_back(x), p.y.push_back(static_cast<float>(t * scale(rng)));
    }
    return p;
  }();
  return p;
}

const Pairs& atan2_pairs() {
  static const Pairs p = [] {
    Pairs p;
    const std::vector<float> s = {0.0f, -0.0f, kInf, -kInf, kNaN, 1.0f, -1.0f, 1e-45f, -1e-45f, FLT_MIN, FLT_MAX,
                                  -FLT_MAX, 0.41421356f, 2.4142137f, -3.0f, 1e30f, 1e-30f};
    for (float a : s)
      for (float b : s) p.x.push_back(a), p.y.push_back(b);
    std::mt19937 rng(9);
    std::uniform_real_distribution<double> lg(-140.0, 126.0), narrow(-4.0, 4.0), sign(-1.0, 1.0);
    for (int i = 0; i < 50000; ++i) {
      const bool near = i % 2 == 0;  // comparable magnitudes: every octant boundary
      const double ex = near ? narrow(rng) : lg(rng), ey = near ? narrow(rng) : lg(rng);
      p.x.push_back(static_cast<float>(std::copysign(std::exp2(ey), sign(rng))));
      p.y.push_back(static_cast<float>(std::copysign(std::exp2(ex), sign(rng))));
    }
    return p;
  }();
  return p;
}

double sigmoid_ref(double x) { return 1 / (1 + std::exp(-x)); }
double rsqrt_ref(double x) { return 1 / std::sqrt(x); }

struct Fn {
  MathFn fn;
  double (*ref1)(double) = nullptr;          // unary reference
  double (*ref2)(double, double) = nullptr;  // binary reference
  float (*eager)(float) = nullptr;           // vm:: counterpart, if any
  double precise_bound;
  double fast_bound;
  bool fast_flushes = false;                 // Fast flushes results below FLT_MIN
  double fast_max_abs = std::numeric_limits<double>::infinity();  // Fast's accurate domain |x| <
};

std::vector<Fn> functions() {
  return {
      {MathFn::Exp, [](double x) { return std::exp(x); }, nullptr, vm::exp, 1.0, 1.0, true},
      {MathFn::Exp2, [](double x) { return std::exp2(x); }, nullptr, vm::exp2, 1.5, 1.5, true},
      {MathFn::Expm1, [](double x) { return std::expm1(x); }, nullptr, vm::expm1, 1.5, 1.5},
      {MathFn::Log, [](double x) { return std::log(x); }, nullptr, vm::log, 1.0, 1.0},
      {MathFn::Log2, [](double x) { return std::log2(x); }, nullptr, vm::log2, 2.0, 2.0},
      {MathFn::Log1p, [](double x) { return std::log1p(x); }, nullptr, vm::log1p, 1.0, 1.0},
      {MathFn::Sqrt, [](double x) { return std::sqrt(x); }, nullptr, vm::sqrt, 0.5, 0.5},
      {MathFn::Rsqrt, rsqrt_ref, nullptr, vm::rsqrt, 0.501, 1.5},
      {MathFn::Sin, [](double x) { return std::sin(x); }, nullptr, vm::sin, 0.75, 0.75, false, 134217728.0},
      {MathFn::Cos, [](double x) { return std::cos(x); }, nullptr, vm::cos, 0.75, 0.75, false, 134217728.0},
      {MathFn::Tan, [](double x) { return std::tan(x); }, nullptr, vm::tan, 0.75, 0.75, false, 134217728.0},
      {MathFn::Tanh, [](double x) { return std::tanh(x); }, nullptr, vm::tanh, 1.5, 2.0},
      {MathFn::Sigmoid, sigmoid_ref, nullptr, vm::sigmoid, 1.5, 2.5, true},
      {MathFn::Erf, [](double x) { return std::erf(x); }, nullptr, vm::erf, 1.5, 1.5},
      {MathFn::Pow, nullptr, [](double x, double y) { return std::pow(x, y); }, nullptr, 0.75, 0.75},
      {MathFn::Atan2, nullptr, [](double x, double y) { return std::atan2(x, y); }, nullptr, 0.75, 0.75},
  };
}

struct Inputs {
  std::vector<float> x, y;  // y empty for unary functions
  std::vector<double> ref;
};

Inputs inputs_for(const Fn& f) {
  Inputs in;
  if (f.ref2) {
    const Pairs& p = f.fn == MathFn::Pow ? pow_pairs() : atan2_pairs();
    in.x = p.x, in.y = p.y;
  } else {
    in.x = sweep();
  }
  in.ref.resize(in.x.size());
  for (size_t i = 0; i < in.x.size(); ++i)
    in.ref[i] = f.ref2 ? f.ref2(in.x[i], in.y[i]) : f.ref1(in.x[i]);
  return in;
}

std::vector<float> run(const Fn& f, MathMode mode, int width, const Inputs& in) {
  const FloatMathLoop loop = compile_math_probe_f32(f.fn, mode, width);
  std::vector<float> out(in.x.size());
  loop(in.x.data(), in.y.empty() ? nullptr : in.y.data(), out.data(), static_cast<int64_t>(in.x.size()));
  return out;
}

struct Measured {
  double max_ulp = 0;
  float worst_x = 0, worst_y = 0;
};

Measured measure(const Fn& f, MathMode mode, const Inputs& in, const std::vector<float>& got) {
  const bool fast = mode == MathMode::Fast;
  Measured m;
  for (size_t i = 0; i < got.size(); ++i) {
    if (fast && std::fabs(in.x[i]) >= f.fast_max_abs) continue;
    const double e = ulp_error(got[i], in.ref[i], fast && f.fast_flushes);
    if (e > m.max_ulp) m = Measured{e, in.x[i], in.y.empty() ? 0.0f : in.y[i]};
  }
  return m;
}

std::string describe(const Fn& f, MathMode mode, int width, const Measured& m) {
  std::ostringstream s;
  s << math_fn_name(f.fn) << (mode == MathMode::Fast ? " fast" : " precise") << " width " << width << ": max "
    << m.max_ulp << " ulp at x = " << m.worst_x;
  if (f.ref2) s << ", y = " << m.worst_y;
  return s.str();
}

void check_accuracy(MathMode mode) {
  for (const Fn& f : functions()) {
    const Inputs in = inputs_for(f);
    for (int width : {16, 8, 1}) {
      const Measured m = measure(f, mode, in, run(f, mode, width, in));
      INFO(describe(f, mode, width, m));
      CHECK(m.max_ulp <= (mode == MathMode::Fast ? f.fast_bound : f.precise_bound));
    }
  }
}

}  // namespace

TEST_CASE("vector math precise float32 stays within its ulp bounds", "[llvm][vector_math]") {
  check_accuracy(MathMode::Precise);
}

TEST_CASE("vector math fast float32 stays within its ulp bounds", "[llvm][vector_math]") {
  check_accuracy(MathMode::Fast);
}

TEST_CASE("vector math precise float32 matches the eager kernels", "[llvm][vector_math]") {
  for (const Fn& f : functions()) {
    if (!f.eager) continue;
    const Inputs in = inputs_for(f);
    const std::vector<float> got = run(f, MathMode::Precise, 16, in);
    double worst = 0;
    float at = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      const double d = ulp_distance(got[i], f.eager(in.x[i]));
      if (d > worst) worst = d, at = in.x[i];
    }
    INFO(math_fn_name(f.fn) << ": " << worst << " ulp from vm:: at x = " << at);
    CHECK(worst <= 2);
  }
}

TEST_CASE("vector math widths give the scalar results", "[llvm][vector_math]") {
  for (MathMode mode : {MathMode::Precise, MathMode::Fast}) {
    for (const Fn& f : functions()) {
      const Inputs in = inputs_for(f);
      const std::vector<float> scalar = run(f, mode, 1, in);
      for (int width : {4, 8, 16}) {
        const std::vector<float> vec = run(f, mode, width, in);
        size_t mismatches = 0, first = 0;
        for (size_t i = 0; i < vec.size(); ++i)
          if (!same_bits_or_nan(vec[i], scalar[i]) && mismatches++ == 0) first = i;
        INFO(math_fn_name(f.fn) << (mode == MathMode::Fast ? " fast" : " precise") << " width " << width << ": "
                                << mismatches << " differ, first at x = " << in.x[first]);
        CHECK(mismatches == 0);
      }
    }
  }
}

TEST_CASE("vector math float64 calls libm exactly", "[llvm][vector_math]") {
  std::vector<double> xs, ys;
  for (float f : sweep()) xs.push_back(f);
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> d(-40, 40);
  for (size_t i = 0; i < xs.size(); ++i) ys.push_back(d(rng));
  for (const Fn& f : functions()) {
    for (MathMode mode : {MathMode::Precise, MathMode::Fast}) {
      for (int width : {8, 1}) {
        const DoubleMathLoop loop = compile_math_probe_f64(f.fn, mode, width);
        std::vector<double> out(xs.size());
        loop(xs.data(), ys.data(), out.data(), static_cast<int64_t>(xs.size()));
        size_t mismatches = 0, first = 0;
        for (size_t i = 0; i < xs.size(); ++i) {
          const double ref = f.ref2 ? f.ref2(xs[i], ys[i]) : f.ref1(xs[i]);
          if (!same_bits_or_nan(out[i], ref) && mismatches++ == 0) first = i;
        }
        INFO(math_fn_name(f.fn) << " f64 width " << width << ": " << mismatches << " differ, first at x = "
                                << xs[first]);
        CHECK(mismatches == 0);
      }
    }
  }
}

TEST_CASE("vector math special values", "[llvm][vector_math]") {
  auto eval = [](MathFn fn, MathMode mode, float x, float y = 0) {
    float out;
    compile_math_probe_f32(fn, mode, 1)(&x, &y, &out, 1);
    return out;
  };
  auto same = [](float a, float b) {
    return (std::isnan(a) && std::isnan(b)) || (a == b && std::signbit(a) == std::signbit(b));
  };
  for (MathMode mode : {MathMode::Precise, MathMode::Fast}) {
    INFO((mode == MathMode::Fast ? "fast" : "precise"));
    // Every function keeps NaN and handles the infinities.
    for (const Fn& f : functions()) {
      INFO(math_fn_name(f.fn));
      CHECK(std::isnan(eval(f.fn, mode, kNaN, 1.5f)));
      if (f.ref2) continue;
      CHECK(same(eval(f.fn, mode, kInf), static_cast<float>(f.ref1(kInf))));
      CHECK(same(eval(f.fn, mode, -kInf), static_cast<float>(f.ref1(-kInf))));
    }
    // std::pow's special cases.
    CHECK(same(eval(MathFn::Pow, mode, kNaN, 0.0f), 1.0f));
    CHECK(same(eval(MathFn::Pow, mode, kNaN, -0.0f), 1.0f));
    CHECK(same(eval(MathFn::Pow, mode, 1.0f, kNaN), 1.0f));
    CHECK(same(eval(MathFn::Pow, mode, -1.0f, kInf), 1.0f));
    CHECK(same(eval(MathFn::Pow, mode, -2.0f, 3.0f), -8.0f));
    CHECK(same(eval(MathFn::Pow, mode, -2.0f, -2.0f), 0.25f));
    CHECK(std::isnan(eval(MathFn::Pow, mode, -2.0f, 0.5f)));
    CHECK(same(eval(MathFn::Pow, mode, -0.0f, -3.0f), -kInf));
    CHECK(same(eval(MathFn::Pow, mode, -0.0f, -2.0f), kInf));
    CHECK(same(eval(MathFn::Pow, mode, -0.0f, 3.0f), -0.0f));
    CHECK(same(eval(MathFn::Pow, mode, -0.0f, 0.5f), 0.0f));
    CHECK(same(eval(MathFn::Pow, mode, -kInf, 3.0f), -kInf));
    CHECK(same(eval(MathFn::Pow, mode, -kInf, -3.0f), -0.0f));
    CHECK(same(eval(MathFn::Pow, mode, -kInf, 0.5f), kInf));
    CHECK(same(eval(MathFn::Pow, mode, 0.5f, kInf), 0.0f));
    CHECK(same(eval(MathFn::Pow, mode, 0.5f, -kInf), kInf));
    CHECK(same(eval(MathFn::Pow, mode, -3.0f, kInf), kInf));
    CHECK(same(eval(MathFn::Pow, mode, 2.0f, 128.0f), kInf));
    CHECK(same(eval(MathFn::Pow, mode, 2.0f, -149.0f), 1e-45f));
    CHECK(same(eval(MathFn::Pow, mode, 2.0f, 10.0f), 1024.0f));
    // std::atan2's: the quadrants and the signed zeros.
    CHECK(same(eval(MathFn::Atan2, mode, 0.0f, -0.0f), static_cast<float>(kPi)));
    CHECK(same(eval(MathFn::Atan2, mode, -0.0f, -0.0f), static_cast<float>(-kPi)));
    CHECK(same(eval(MathFn::Atan2, mode, -0.0f, 0.0f), -0.0f));
    CHECK(same(eval(MathFn::Atan2, mode, 1.0f, -0.0f), static_cast<float>(kPi / 2)));
    CHECK(same(eval(MathFn::Atan2, mode, kInf, -kInf), static_cast<float>(3 * kPi / 4)));
    CHECK(same(eval(MathFn::Atan2, mode, -kInf, kInf), static_cast<float>(-kPi / 4)));
    CHECK(same(eval(MathFn::Atan2, mode, -1.0f, -kInf), static_cast<float>(-kPi)));
    CHECK(std::isnan(eval(MathFn::Atan2, mode, 1.0f, kNaN)));
    // Signed zeros of the odd functions, and sqrt/rsqrt.
    for (MathFn fn : {MathFn::Expm1, MathFn::Log1p, MathFn::Sin, MathFn::Tan, MathFn::Tanh, MathFn::Erf,
                      MathFn::Sqrt}) {
      INFO(math_fn_name(fn));
      CHECK(same(eval(fn, mode, -0.0f), -0.0f));
    }
    CHECK(same(eval(MathFn::Rsqrt, mode, -0.0f), -kInf));
    CHECK(same(eval(MathFn::Rsqrt, mode, kInf), 0.0f));
    CHECK(std::isnan(eval(MathFn::Rsqrt, mode, -1.0f)));
  }
  // Fast sin/cos beyond their accurate domain stay in [-1, 1].
  for (float x : {1e10f, 1e20f, 1e30f, -3e38f}) {
    CHECK(std::fabs(eval(MathFn::Sin, MathMode::Fast, x)) <= 1.0f);
    CHECK(std::fabs(eval(MathFn::Cos, MathMode::Fast, x)) <= 1.0f);
  }
}

TEST_CASE("vector math error table", "[llvm][vector_math]") {
  std::ostringstream table;
  table << "max float32 ulp error (width 16); last column: Precise vs the eager vm:: in ulps\n"
        << "  fn        precise   fast     vs eager\n";
  for (const Fn& f : functions()) {
    const Inputs in = inputs_for(f);
    const std::vector<float> precise = run(f, MathMode::Precise, 16, in);
    const Measured p = measure(f, MathMode::Precise, in, precise);
    const Measured q = measure(f, MathMode::Fast, in, run(f, MathMode::Fast, 16, in));
    double eager = 0;
    for (size_t i = 0; f.eager && i < precise.size(); ++i) eager = std::max(eager, ulp_distance(precise[i], f.eager(in.x[i])));
    char line[96];
    std::snprintf(line, sizeof line, "  %-8s  %7.3f  %7.3f  %s\n", math_fn_name(f.fn), p.max_ulp, q.max_ulp,
                  f.eager ? std::to_string(static_cast<int>(eager)).c_str() : "-");
    table << line;
    CHECK(p.max_ulp <= f.precise_bound);
    CHECK(q.max_ulp <= f.fast_bound);
  }
  WARN(table.str());
}
