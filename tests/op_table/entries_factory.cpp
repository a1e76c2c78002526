// Table entries: factory operators. Deterministic factories compare with
// values computed here; empty checks shape and dtype only; random ones check
// shape, dtype, range, moments and reproducibility with a seeded generator.
#include <cmath>
#include <limits>
#include <optional>
#include <set>
#include <utility>

#include "tests/op_table/entry_builders.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/shape_reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

using lz::IValue;
using lz::ScalarType;
using lz::Tensor;

const std::vector<std::vector<int64_t>>& factory_shapes() {
  static const std::vector<std::vector<int64_t>> shapes = {{}, {0}, {3}, {2, 3}, {2, 0, 4}, {300, 257}};
  return shapes;
}

// One sample per shape, with the dtype as a kwarg.
std::vector<SampleInput> size_samples(ScalarType t) {
  std::vector<SampleInput> out;
  for (const auto& shape : factory_shapes()) {
    out.push_back(SampleInput{{}, {{"size", IValue(shape)}, {"dtype", IValue(t)}}, lz::shape_str(shape)});
  }
  return out;
}

ScalarType dtype_arg(const SampleInput& s) { return s.arg("dtype").to_scalar_type(); }

Expected filled(lz::IntArrayRef sizes, ScalarType t, double v) {
  return Expected{lz::SizeVec(sizes.begin(), sizes.end()), t,
                  std::vector<double>(static_cast<size_t>(numel_of(sizes)), v)};
}

// "" when t has the expected sizes and dtype.
std::string check_meta(const Tensor& t, lz::IntArrayRef sizes, ScalarType dtype) {
  if (t.sizes() != sizes) return "shape " + lz::shape_str(t.sizes()) + ", expected " + lz::shape_str(sizes);
  if (t.dtype() != dtype) {
    return "dtype " + std::string(lz::to_string(t.dtype())) + ", expected " + std::string(lz::to_string(dtype));
  }
  if (!t.is_contiguous()) return "not contiguous";
  return "";
}

std::vector<ErrorInput> negative_size_error(const std::string& name) {
  return {LZT_EXPECT_ERROR(ValueError,
                           (SampleInput{{}, {{"size", IValue(std::vector<int64_t>{2, -1})}, {"dtype", IValue(lz::kFloat32)}}, "negative size"}),
                           "[" + name + "] size: negative dimension -1 in [2, -1]")};
}

OpInfo constant_entry(std::string name, double value, std::function<Tensor(lz::IntArrayRef, ScalarType)> fn) {
  OpInfo op;
  op.name = name;
  op.dtypes = all_types();
  op.samples = size_samples;
  op.op = [fn](const SampleInput& s) { return std::vector<Tensor>{fn(s.int_list_arg("size"), dtype_arg(s))}; };
  op.reference = [value](const SampleInput& s) { return one(filled(s.int_list_arg("size"), dtype_arg(s), value)); };
  op.errors = [name] { return negative_size_error(name); };
  return op;
}

lz::Scalar fill_value(ScalarType t) {
  if (t == lz::kBool) return lz::Scalar(true);
  if (t == lz::kUInt8) return lz::Scalar(int64_t{200});
  if (is_int(t)) return lz::Scalar(int64_t{-7});
  return lz::Scalar(-2.75);
}

OpInfo full_entry() {
  OpInfo op;
  op.name = "full";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) {
    std::vector<SampleInput> out = size_samples(t);
    for (SampleInput& s : out) s.kwargs["value"] = IValue(fill_value(t));
    // The dtype inferred from the value: bool, int64 or float32.
    if (t == lz::kFloat32) {
      for (const lz::Scalar& v : {lz::Scalar(true), lz::Scalar(int64_t{5}), lz::Scalar(1.5)}) {
        out.push_back(SampleInput{{}, {{"size", IValue(std::vector<int64_t>{2, 2})}, {"value", IValue(v)}, {"dtype", IValue(std::nullopt)}},
                                  "dtype from the value"});
      }
    }
    return out;
  };
  op.op = [](const SampleInput& s) {
    const lz::TensorOptions o = s.arg("dtype").is_none() ? lz::TensorOptions() : lz::TensorOptions(dtype_arg(s));
    return std::vector<Tensor>{lz::full(s.int_list_arg("size"), s.scalar_arg("value"), o)};
  };
  op.reference = [](const SampleInput& s) {
    const lz::Scalar v = s.scalar_arg("value");
    ScalarType t;
    if (!s.arg("dtype").is_none()) {
      t = dtype_arg(s);
    } else {
      t = v.is_bool() ? lz::kBool : v.is_floating_point() ? lz::kFloat32 : lz::kInt64;
    }
    return one(filled(s.int_list_arg("size"), t, v.to_double()));
  };
  op.errors = [] {
    return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
        ValueError,
        (SampleInput{{}, {{"size", IValue(std::vector<int64_t>{2})}, {"value", IValue(int64_t{300})}, {"dtype", IValue(lz::kUInt8)}}, "300 as uint8"}),
        "300 cannot be converted to uint8")};
  };
  return op;
}

OpInfo empty_entry() {
  OpInfo op;
  op.name = "empty";
  op.dtypes = all_types();
  op.samples = size_samples;
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::empty(s.int_list_arg("size"), dtype_arg(s))}; };
  op.reference = [](const SampleInput& s) { return one(filled(s.int_list_arg("size"), dtype_arg(s), 0)); };
  op.check = [](const SampleInput& s, const std::vector<Tensor>& outs) {
    if (outs.size() != 1) return std::string("expected one output");
    return check_meta(outs[0], s.int_list_arg("size"), dtype_arg(s));
  };
  op.errors = [] { return negative_size_error("empty"); };
  return op;
}

// ---- arange / linspace -----------------------------------------------------------------

OpInfo arange_entry() {
  OpInfo op;
  op.name = "arange";
  op.dtypes = numeric_types();
  op.samples = [](ScalarType t) {
    std::vector<SampleInput> out;
    auto add = [&](lz::Scalar start, lz::Scalar end, lz::Scalar step, std::string desc) {
      out.push_back(SampleInput{{}, {{"start", IValue(start)}, {"end", IValue(end)}, {"step", IValue(step)}, {"dtype", IValue(t)}},
                                std::move(desc)});
    };
    using S = lz::Scalar;
    add(S(int64_t{0}), S(int64_t{10}), S(int64_t{1}), "0..10");
    add(S(int64_t{2}), S(int64_t{11}), S(int64_t{3}), "step 3, end not reached exactly");
    add(S(int64_t{5}), S(int64_t{5}), S(int64_t{1}), "empty");
    // float16 holds integers up to 65504 (rounded above 2048).
    add(S(int64_t{0}), S(int64_t{t == lz::kFloat16 ? 60000 : 100000}), S(int64_t{1}), "large");
    if (t != lz::kUInt8) add(S(int64_t{6}), S(int64_t{-6}), S(int64_t{-4}), "descending");
    if (is_float(t)) {
      add(S(0.5), S(3.0), S(0.25), "fractional step");
      add(S(-1.0), S(1.0), S(0.5), "negative start");
    }
    return out;
  };
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::arange(s.scalar_arg("start"), s.scalar_arg("end"), s.scalar_arg("step"), dtype_arg(s))};
  };
  op.reference = [](const SampleInput& s) {
    const double start = s.double_arg("start"), end = s.double_arg("end"), step = s.double_arg("step");
    const int64_t n = static_cast<int64_t>(std::ceil((end - start) / step));
    Expected e{{n}, dtype_arg(s), {}};
    for (int64_t i = 0; i < n; ++i) e.values.push_back(as_stored(dtype_arg(s), start + static_cast<double>(i) * step));
    return one(std::move(e));
  };
  op.tolerance = [](ScalarType t) {
    // Large float16/bfloat16 ranges round to the dtype's spacing.
    Tolerance tol = default_tolerance(t);
    if (t == lz::kFloat16) tol.rtol = 1e-3;
    if (t == lz::kBFloat16) tol.rtol = 8e-3;
    return tol;
  };
  op.errors = [] {
    auto in = [](double start, double end, double step, std::string desc) {
      return SampleInput{{}, {{"start", IValue(start)}, {"end", IValue(end)}, {"step", IValue(step)}, {"dtype", IValue(lz::kFloat32)}},
                         std::move(desc)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ValueError, in(0, 1, 0, "step 0"), "[arange] step: must be nonzero"),
        LZT_EXPECT_ERROR(ValueError, in(0, 1, -1, "wrong sign"), "[arange] upper bound and lower bound inconsistent with step sign")};
  };
  return op;
}

OpInfo linspace_entry() {
  OpInfo op;
  op.name = "linspace";
  op.dtypes = numeric_types();
  op.samples = [](ScalarType t) {
    std::vector<SampleInput> out;
    auto add = [&](lz::Scalar start, lz::Scalar end, int64_t steps, std::string desc) {
      out.push_back(SampleInput{{}, {{"start", IValue(start)}, {"end", IValue(end)}, {"steps", IValue(steps)}, {"dtype", IValue(t)}},
                                std::move(desc)});
    };
    using S = lz::Scalar;
    add(S(int64_t{0}), S(int64_t{8}), 5, "0..8 in 5");
    add(S(int64_t{2}), S(int64_t{9}), 4, "non-integral step");
    add(S(int64_t{3}), S(int64_t{3}), 1, "one step");
    add(S(int64_t{0}), S(int64_t{5}), 0, "no steps");
    add(S(int64_t{0}), S(int64_t{100}), 300001, "large");
    if (t != lz::kUInt8) add(S(int64_t{6}), S(int64_t{-6}), 7, "descending");
    if (is_float(t)) add(S(-1.0), S(1.5), 11, "fractional bounds");
    return out;
  };
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::linspace(s.scalar_arg("start"), s.scalar_arg("end"), s.int_arg("steps"), dtype_arg(s))};
  };
  op.reference = [](const SampleInput& s) {
    const ScalarType t = dtype_arg(s);
    const double start = s.double_arg("start"), end = s.double_arg("end");
    const int64_t steps = s.int_arg("steps");
    Expected e{{steps}, t, {}};
    for (int64_t i = 0; i < steps; ++i) {
      // Exact value for floats; integers truncate the value PyTorch computes
      // (start + i * step from the front, end - (steps - 1 - i) * step from the back).
      const double step = steps > 1 ? (end - start) / static_cast<double>(steps - 1) : 0;
      double v;
      if (is_float(t)) {
        v = steps > 1 ? start + (end - start) * static_cast<double>(i) / static_cast<double>(steps - 1) : start;
      } else {
        v = i < steps / 2 ? start + step * static_cast<double>(i) : end - step * static_cast<double>(steps - i - 1);
        v = std::trunc(v);
      }
      e.values.push_back(as_stored(t, v));
    }
    return one(std::move(e));
  };
  op.tolerance = [](ScalarType t) {
    Tolerance tol = default_tolerance(t);
    if (t == lz::kFloat32) tol = {1e-6, 1e-5};  // float32 arithmetic, values up to 100
    if (t == lz::kFloat64) tol = {1e-13, 1e-12};
    return tol;
  };
  op.errors = [] {
    auto in = [](int64_t steps, ScalarType t, std::string desc) {
      return SampleInput{{}, {{"start", IValue(0.0)}, {"end", IValue(1.0)}, {"steps", IValue(steps)}, {"dtype", IValue(t)}}, std::move(desc)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ValueError, in(-1, lz::kFloat32, "negative steps"), "[linspace] steps: number of steps must be non-negative, got -1"),
        LZT_EXPECT_ERROR(TypeError, in(3, lz::kBool, "bool"), "[linspace] dtype: bool is not supported")};
  };
  return op;
}

// ---- eye -------------------------------------------------------------------------------------

OpInfo eye_entry(bool with_m) {
  OpInfo op;
  op.name = with_m ? "eye.m" : "eye";
  op.dtypes = all_types();
  op.samples = [with_m](ScalarType t) {
    std::vector<SampleInput> out;
    for (int64_t n : {0, 1, 3, 300}) {
      std::vector<int64_t> ms = with_m ? std::vector<int64_t>{0, 2, n + 2} : std::vector<int64_t>{n};
      for (int64_t m : ms) {
        out.push_back(SampleInput{{}, {{"n", IValue(n)}, {"m", IValue(m)}, {"dtype", IValue(t)}}, "eye"});
      }
    }
    return out;
  };
  op.op = [with_m](const SampleInput& s) {
    return std::vector<Tensor>{with_m ? lz::eye(s.int_arg("n"), s.int_arg("m"), dtype_arg(s)) : lz::eye(s.int_arg("n"), dtype_arg(s))};
  };
  op.reference = [](const SampleInput& s) {
    const int64_t n = s.int_arg("n"), m = s.int_arg("m");
    return one(build_expected(std::vector<int64_t>{n, m}, dtype_arg(s), [](const Coord& c) { return c[0] == c[1] ? 1.0 : 0.0; }));
  };
  op.errors = [with_m] {
    std::vector<ErrorInput> e{LZT_EXPECT_ERROR(
        ValueError, (SampleInput{{}, {{"n", IValue(int64_t{-1})}, {"m", IValue(int64_t{2})}, {"dtype", IValue(lz::kFloat32)}}, "n -1"}),
        "[eye] n: must be greater or equal to 0, got -1")};
    if (with_m) {
      e.push_back(LZT_EXPECT_ERROR(
          ValueError, (SampleInput{{}, {{"n", IValue(int64_t{2})}, {"m", IValue(int64_t{-3})}, {"dtype", IValue(lz::kFloat32)}}, "m -3"}),
          "[eye] m: must be greater or equal to 0, got -3"));
    }
    return e;
  };
  return op;
}

// ---- random ----------------------------------------------------------------------------------

// Shape, dtype, range and moments of a sample of n values; "" when plausible.
std::string check_moments(const Tensor& t, bool normal) {
  const std::vector<double> v = values(t);
  if (v.empty()) return "";
  double sum = 0, sq = 0;
  for (double x : v) {
    if (!std::isfinite(x)) return "non-finite value " + fmt(x);
    if (!normal && (x < 0 || x >= 1)) return "value " + fmt(x) + " outside [0, 1)";
    sum += x;
    sq += x * x;
  }
  const double n = static_cast<double>(v.size());
  const double mean = sum / n, var = sq / n - mean * mean;
  const double want_mean = normal ? 0.0 : 0.5, want_var = normal ? 1.0 : 1.0 / 12;
  // Six standard errors, plus the dtype's rounding for the 16-bit types.
  const double se = std::sqrt(want_var / n);
  const double slack = t.dtype() == lz::kBFloat16 ? 0.01 : t.dtype() == lz::kFloat16 ? 0.002 : 0.0;
  if (std::fabs(mean - want_mean) > 6 * se + slack) return "mean " + fmt(mean) + " far from " + fmt(want_mean);
  if (n >= 1000 && std::fabs(var - want_var) > 0.05 * want_var + 6 * want_var * std::sqrt(2.0 / n) + slack) {
    return "variance " + fmt(var) + " far from " + fmt(want_var);
  }
  return "";
}

OpInfo random_entry(bool normal) {
  OpInfo op;
  op.name = normal ? "randn" : "rand";
  op.dtypes = float_types();
  op.samples = [](ScalarType t) {
    std::vector<SampleInput> out = size_samples(t);
    uint64_t seed = 11;
    for (SampleInput& s : out) s.kwargs["seed"] = IValue(static_cast<int64_t>(seed++));
    return out;
  };
  auto call = [normal](const SampleInput& s, int64_t seed) {
    const lz::Generator g = lz::make_generator(static_cast<uint64_t>(seed));
    return normal ? lz::randn(s.int_list_arg("size"), g, dtype_arg(s)) : lz::rand(s.int_list_arg("size"), g, dtype_arg(s));
  };
  op.op = [call](const SampleInput& s) { return std::vector<Tensor>{call(s, s.int_arg("seed"))}; };
  op.reference = [](const SampleInput& s) { return one(filled(s.int_list_arg("size"), dtype_arg(s), 0)); };
  op.check = [call, normal](const SampleInput& s, const std::vector<Tensor>& outs) -> std::string {
    if (outs.size() != 1) return "expected one output";
    const Tensor& t = outs[0];
    std::string m = check_meta(t, s.int_list_arg("size"), dtype_arg(s));
    if (!m.empty()) return m;
    m = check_moments(t, normal);
    if (!m.empty()) return m;
    // The same seed gives the same bits; another seed other values.
    const Tensor again = call(s, s.int_arg("seed"));
    m = ::lzt::mismatch(values(again), values(t), 0, 0);
    if (!m.empty()) return "not reproducible with the same seed: " + m;
    if (t.numel() >= 16 && values(call(s, s.int_arg("seed") + 1000)) == values(t)) {
      return "another seed gave the same values";
    }
    return "";
  };
  op.errors = [normal] {
    return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
        TypeError, (SampleInput{{}, {{"size", IValue(std::vector<int64_t>{2})}, {"dtype", IValue(lz::kInt32)}, {"seed", IValue(int64_t{1})}}, "int32"}),
        std::string("[") + (normal ? "randn" : "rand") + "] dtype: random sampling needs a floating dtype")};
  };
  return op;
}

// The [low, high) each dtype's randint samples draw from: the whole of the
// small types, a range with negatives for the others.
std::pair<int64_t, int64_t> randint_bounds(ScalarType t) {
  if (t == lz::kBool) return {0, 2};
  if (t == lz::kByte) return {0, 256};
  if (t == lz::kBFloat16) return {-256, 257};
  return {-5, 7};
}

// Integers in [low, high) whose mean is that of a uniform draw (within six
// standard errors), every value drawn when there are few and many draws.
std::string check_uniform_integers(const std::vector<double>& v, double low, double high) {
  std::set<double> seen;
  double sum = 0;
  for (double x : v) {
    if (x < low || x >= high || x != std::floor(x)) return "value " + fmt(x) + " is not an integer in [low, high)";
    seen.insert(x);
    sum += x;
  }
  const double n = static_cast<double>(v.size()), count = high - low;
  const double se = std::sqrt((count * count - 1) / 12 / std::max(n, 1.0));
  if (n > 0 && std::fabs(sum / n - (low + high - 1) / 2) > 6 * se) return "mean " + fmt(sum / n) + " is off";
  if (count <= 16 && n >= 1000 && static_cast<double>(seen.size()) != count) return "not every value drawn";
  return "";
}

OpInfo randint_entry() {
  OpInfo op;
  op.name = "randint";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) {
    std::vector<SampleInput> out = size_samples(t);
    const auto [low, high] = randint_bounds(t);
    int64_t seed = 31;
    for (SampleInput& s : out) {
      s.kwargs["low"] = IValue(low);
      s.kwargs["high"] = IValue(high);
      s.kwargs["seed"] = IValue(seed++);
    }
    if (t == lz::kLong) {  // ranges beyond 32 bits take two words per sample
      SampleInput wide = out.back();
      wide.kwargs["low"] = IValue(std::numeric_limits<int64_t>::min() / 2);
      wide.kwargs["high"] = IValue(std::numeric_limits<int64_t>::max() / 2);
      wide.description += ", a 63-bit range";
      out.push_back(std::move(wide));
    }
    return out;
  };
  auto call = [](const SampleInput& s, int64_t seed) {
    return lz::randint(s.int_arg("low"), s.int_arg("high"), s.int_list_arg("size"),
                       lz::make_generator(static_cast<uint64_t>(seed)), dtype_arg(s));
  };
  op.op = [call](const SampleInput& s) { return std::vector<Tensor>{call(s, s.int_arg("seed"))}; };
  op.reference = [](const SampleInput& s) { return one(filled(s.int_list_arg("size"), dtype_arg(s), 0)); };
  op.check = [call](const SampleInput& s, const std::vector<Tensor>& outs) -> std::string {
    if (outs.size() != 1) return "expected one output";
    const Tensor& t = outs[0];
    std::string m = check_meta(t, s.int_list_arg("size"), dtype_arg(s));
    if (!m.empty()) return m;
    const std::vector<double> v = values(t);
    m = check_uniform_integers(v, static_cast<double>(s.int_arg("low")), static_cast<double>(s.int_arg("high")));
    if (!m.empty()) return m;
    const double n = static_cast<double>(v.size());
    m = ::lzt::mismatch(values(call(s, s.int_arg("seed"))), v, 0, 0);
    if (!m.empty()) return "not reproducible with the same seed: " + m;
    if (n >= 16 && values(call(s, s.int_arg("seed") + 1000)) == v) return "another seed gave the same values";
    return "";
  };
  op.errors = [] {
    const auto sample = [](int64_t low, int64_t high, ScalarType t) {
      return SampleInput{{},
                         {{"size", IValue(std::vector<int64_t>{2})}, {"dtype", IValue(t)}, {"low", IValue(low)},
                          {"high", IValue(high)}, {"seed", IValue(int64_t{1})}},
                         "[" + std::to_string(low) + ", " + std::to_string(high) + ")"};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ValueError, sample(3, 3, lz::kLong), "[randint] low, high: expected low < high, got low=3 high=3"),
        LZT_EXPECT_ERROR(ValueError, sample(0, 300, lz::kByte), "[randint] low, high: [0, 300) does not fit dtype uint8"),
        LZT_EXPECT_ERROR(ValueError, sample(0, (int64_t{1} << 24) + 2, lz::kFloat32), "does not fit dtype float32")};
  };
  return op;
}

// ---- *_like ----------------------------------------------------------------------------------

// Tensors of every shape and layout; half the samples name a dtype (the
// next one in the list), the others keep self's.
std::vector<SampleInput> like_samples(ScalarType t, const std::vector<ScalarType>& targets) {
  std::vector<SampleInput> out;
  size_t k = 0;
  for (SampleInput s : unary_samples(t)) {
    const bool named = k++ % 2 == 1;
    s.kwargs["dtype"] = named ? IValue(targets[k % targets.size()]) : IValue(std::nullopt);
    out.push_back(std::move(s));
  }
  return out;
}

ScalarType like_dtype(const SampleInput& s) { return s.arg("dtype").is_none() ? s[0].dtype() : dtype_arg(s); }

lz::TensorOptions like_options(const SampleInput& s) {
  return s.arg("dtype").is_none() ? lz::TensorOptions() : lz::TensorOptions(dtype_arg(s));
}

OpInfo like_entry(std::string name, std::optional<double> value,
                  std::function<Tensor(const Tensor&, const lz::TensorOptions&)> fn) {
  OpInfo op;
  op.name = name;
  op.dtypes = all_types();
  op.samples = [](ScalarType t) { return like_samples(t, all_types()); };
  op.op = [fn](const SampleInput& s) { return std::vector<Tensor>{fn(s[0], like_options(s))}; };
  op.reference = [value](const SampleInput& s) { return one(filled(s[0].sizes(), like_dtype(s), value.value_or(0))); };
  if (!value) {
    op.check = [](const SampleInput& s, const std::vector<Tensor>& outs) {
      return check_meta(outs.at(0), s[0].sizes(), like_dtype(s));
    };
  }
  return op;
}

OpInfo full_like_entry() {
  OpInfo op;
  op.name = "full_like";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) {
    std::vector<SampleInput> out = like_samples(t, all_types());
    for (SampleInput& s : out) s.kwargs["value"] = IValue(fill_value(like_dtype(s)));
    return out;
  };
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::full_like(s[0], s.scalar_arg("value"), like_options(s))};
  };
  op.reference = [](const SampleInput& s) {
    return one(filled(s[0].sizes(), like_dtype(s), s.scalar_arg("value").to_double()));
  };
  return op;
}

// randn_like (normal) or rand_like (uniform [0, 1)): self's shape, its dtype
// unless one is named, the draw's moments.
OpInfo random_like_entry(bool normal) {
  OpInfo op;
  op.name = normal ? "randn_like" : "rand_like";
  op.dtypes = float_types();
  op.samples = [](ScalarType t) { return like_samples(t, float_types()); };
  op.op = [normal](const SampleInput& s) {
    return std::vector<Tensor>{normal ? lz::randn_like(s[0], like_options(s)) : lz::rand_like(s[0], like_options(s))};
  };
  op.reference = [](const SampleInput& s) { return one(filled(s[0].sizes(), like_dtype(s), 0)); };
  op.check = [normal](const SampleInput& s, const std::vector<Tensor>& outs) {
    std::string m = check_meta(outs.at(0), s[0].sizes(), like_dtype(s));
    return m.empty() ? check_moments(outs[0], normal) : m;
  };
  return op;
}

// randint_like (high, or low and high): integers, in self's dtype unless one is named.
OpInfo randint_like_entry(bool with_low) {
  OpInfo op;
  op.name = with_low ? "randint_like.low_dtype" : "randint_like";
  op.dtypes = {lz::kUInt8, lz::kInt32, lz::kInt64, lz::kFloat32, lz::kFloat64};
  op.samples = [](ScalarType t) { return like_samples(t, {lz::kInt64, lz::kFloat32, lz::kUInt8}); };
  const int64_t low = with_low ? 3 : 0, high = 10;
  op.op = [with_low, low, high](const SampleInput& s) {
    return std::vector<Tensor>{with_low ? lz::randint_like(s[0], low, high, like_options(s))
                                        : lz::randint_like(s[0], high, like_options(s))};
  };
  op.reference = [](const SampleInput& s) { return one(filled(s[0].sizes(), like_dtype(s), 0)); };
  op.check = [low, high](const SampleInput& s, const std::vector<Tensor>& outs) {
    std::string m = check_meta(outs.at(0), s[0].sizes(), like_dtype(s));
    return m.empty() ? check_uniform_integers(values(outs[0]), static_cast<double>(low), static_cast<double>(high)) : m;
  };
  return op;
}

}  // namespace

void add_factory_ops(std::vector<OpInfo>& t) {
  t.push_back(constant_entry("zeros", 0, [](lz::IntArrayRef size, ScalarType d) { return lz::zeros(size, d); }));
  t.push_back(constant_entry("ones", 1, [](lz::IntArrayRef size, ScalarType d) { return lz::ones(size, d); }));
  t.push_back(full_entry());
  t.push_back(empty_entry());
  t.push_back(arange_entry());
  t.push_back(linspace_entry());
  t.push_back(eye_entry(false));
  t.push_back(eye_entry(true));
  t.push_back(random_entry(true));
  t.push_back(random_entry(false));
  t.push_back(randint_entry());
  t.push_back(like_entry("zeros_like", 0.0, [](const Tensor& x, const lz::TensorOptions& o) { return lz::zeros_like(x, o); }));
  t.push_back(like_entry("ones_like", 1.0, [](const Tensor& x, const lz::TensorOptions& o) { return lz::ones_like(x, o); }));
  t.push_back(like_entry("empty_like", std::nullopt,
                         [](const Tensor& x, const lz::TensorOptions& o) { return lz::empty_like(x, o); }));
  t.push_back(full_like_entry());
  t.push_back(random_like_entry(true));
  t.push_back(random_like_entry(false));
  t.push_back(randint_like_entry(false));
  t.push_back(randint_like_entry(true));
}

}  // namespace lzt
