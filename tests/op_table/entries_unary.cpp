// Table entries: unary element-wise operators. References are float64 /
// int64 functions of the input values (std:: math, never Lazuli); floating
// entries also get a sample of special values (±0, ±inf, NaN, large
// magnitudes), whose reference is rounded to the result dtype so that
// overflow to inf in float16/bfloat16/float32 is expected.
#include <algorithm>
#include <cmath>
#include <functional>
#include <utility>
#include <limits>

#include "tests/float_constants.h"
#include "tests/op_table/entry_builders.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

using lz::Tensor;

namespace {

std::vector<lz::ScalarType> int_and_bool_types() { return {lz::kBool, lz::kUInt8, lz::kInt8, lz::kInt16, lz::kInt32, lz::kInt64}; }

// fns for a plain unary operator with in-place and out= forms.
#define LZT_UNARY_FNS(name)                                                     \
  UnaryFns {                                                                    \
    [](const Tensor& x) { return lz::name(x); },                                \
        [](Tensor& x) -> Tensor& { return lz::name##_(x); },                    \
        [](Tensor& o, const Tensor& x) -> Tensor& { return lz::name##_out(o, x); } \
  }

// A special-values sample for floating dtypes (also the large magnitudes
// where float32 and the 16-bit types overflow).
std::vector<double> special_values() {
  return {0.0, -0.0, kInf, -kInf, kNaN, 0.5, -3.0, 20.0, -20.0, 100.0, -100.0, 1e-3, 60000.0};
}

// Samples of unary_samples(domain) plus the special values for floating dtypes.
std::vector<SampleInput> samples_with_specials(lz::ScalarType t, const Domain& domain) {
  std::vector<SampleInput> s = unary_samples(t, domain);
  if (is_float(t)) s.push_back(SampleInput{{make_tensor(special_values(), t)}, {}, "special values"});
  return s;
}

// The reference rounded to the result dtype (16-bit and 32-bit floats
// overflow to inf as the kernels do).
double rounded(lz::ScalarType result, double v) { return is_float(result) ? round_to(result, v) : v; }

// An element-wise entry with special values and a rounded reference.
OpInfo entry(std::string name, std::vector<lz::ScalarType> dtypes, UnaryFns fns,
             std::function<double(double)> reference, ResultRule result = same_dtype, Domain domain = {}) {
  OpInfo op = unary_entry(std::move(name), std::move(dtypes), std::move(fns), reference, result, domain);
  op.samples = [domain](lz::ScalarType t) { return samples_with_specials(t, domain); };
  op.reference = [reference, result](const SampleInput& s) {
    const lz::ScalarType rt = result(s[0].dtype());
    return std::vector<Expected>{map_reference(s[0], rt, [&](double v) { return rounded(rt, reference(v)); })};
  };
  return op;
}

// TypeError for a tensor of `dtype`, the message naming op and dtype.
ErrorInput dtype_error(const std::string& op, lz::ScalarType dtype) {
  return expect_error<lz::TypeError>(SampleInput{{lz::zeros({2}, dtype)}, {}, std::string(lz::to_string(dtype))},
                                     "lz::TypeError",
                                     "[" + op + "] self: not implemented for dtype " + std::string(lz::to_string(dtype)));
}

void add_errors(OpInfo& op, std::vector<lz::ScalarType> rejected) {
  op.errors = [name = op.name, rejected] {
    std::vector<ErrorInput> out;
    for (lz::ScalarType t : rejected) out.push_back(dtype_error(name, t));
    return out;
  };
}

// A floating activation with parameters: samples with specials, each
// parameter at its first value, then at its second (one at a time).
using ActivationFn = std::function<Tensor(const Tensor&, const SampleInput&)>;
using ActivationRef = std::function<double(double, const SampleInput&)>;
OpInfo activation_entry(std::string name, std::vector<std::pair<std::string, std::vector<double>>> params,
                        ActivationFn fn, ActivationRef reference) {
  OpInfo op;
  op.name = name;
  op.dtypes = float_types();
  op.samples = [params](lz::ScalarType t) {
    std::vector<SampleInput> base = samples_with_specials(t, {});
    for (SampleInput& s : base) {
      for (const auto& [param, values] : params) s.kwargs[param] = lz::IValue(values.front());
    }
    std::vector<SampleInput> out = base;
    for (const auto& [param, values] : params) {
      for (size_t v = 1; v < values.size(); ++v) {
        for (SampleInput s : base) {
          s.kwargs[param] = lz::IValue(values[v]);
          s.description += ", " + param + " " + fmt(values[v]);
          out.push_back(std::move(s));
        }
      }
    }
    return out;
  };
  op.op = [fn](const SampleInput& s) { return std::vector<Tensor>{fn(s[0], s)}; };
  op.reference = [reference](const SampleInput& s) {
    const lz::ScalarType rt = s[0].dtype();
    return std::vector<Expected>{map_reference(s[0], rt, [&](double v) { return rounded(rt, reference(v, s)); })};
  };
  add_errors(op, {lz::kBool, lz::kUInt8, lz::kInt8, lz::kInt16, lz::kInt32, lz::kInt64});
  op.errors = [errors = op.errors, params] {
    std::vector<ErrorInput> out = errors();
    for (ErrorInput& e : out) {
      for (const auto& [param, values] : params) e.input.kwargs[param] = lz::IValue(values.front());
    }
    return out;
  };
  return op;
}

double sigmoid_ref(double x) { return 1.0 / (1.0 + std::exp(-x)); }
double gelu_ref(double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); }
double gelu_tanh_ref(double x) {
  return 0.5 * x * (1.0 + std::tanh(std::sqrt(2.0 / M_PI) * (x + 0.044715 * x * x * x)));
}

}  // namespace

void add_unary_ops(std::vector<OpInfo>& t) {
  // ---- Sign and magnitude ---------------------------------------------------
  {
    OpInfo op = entry("neg", numeric_types(), LZT_UNARY_FNS(neg), [](double x) { return -x; });
    op.errors = [] {
      return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
          TypeError, (SampleInput{{lz::zeros({2}, lz::kBool)}, {}, "bool"}), "[neg] self: negation")};
    };
    t.push_back(std::move(op));
  }
  {
    OpInfo op = entry("abs", numeric_types(), LZT_UNARY_FNS(abs), [](double x) { return std::fabs(x); });
    add_errors(op, {lz::kBool});
    t.push_back(std::move(op));
  }
  t.push_back(entry("sign", all_types(), LZT_UNARY_FNS(sign),
                    [](double x) { return static_cast<double>((x > 0) - (x < 0)); }));
  t.push_back(entry("square", all_types(), LZT_UNARY_FNS(square), [](double x) { return x * x; },
                    [](lz::ScalarType d) { return d == lz::kBool ? lz::kInt64 : d; }));
  {
    OpInfo op = entry("relu", numeric_types(), LZT_UNARY_FNS(relu), [](double x) { return x < 0 ? 0.0 : x; });
    add_errors(op, {lz::kBool});
    t.push_back(std::move(op));
  }

  // ---- Floating functions (integral and bool inputs give float32) -----------
  t.push_back(entry("reciprocal", all_types(), LZT_UNARY_FNS(reciprocal), [](double x) { return 1.0 / x; }, to_float));
  t.push_back(entry("exp", all_types(), LZT_UNARY_FNS(exp), [](double x) { return std::exp(x); }, to_float));
  t.push_back(entry("exp2", all_types(), LZT_UNARY_FNS(exp2), [](double x) { return std::exp2(x); }, to_float));
  t.push_back(entry("expm1", all_types(), LZT_UNARY_FNS(expm1), [](double x) { return std::expm1(x); }, to_float));
  // The default domain [-8, 8] covers log(0) = -inf and log(x < 0) = NaN.
  t.push_back(entry("log", all_types(), LZT_UNARY_FNS(log), [](double x) { return std::log(x); }, to_float));
  t.push_back(entry("log2", all_types(), LZT_UNARY_FNS(log2), [](double x) { return std::log2(x); }, to_float));
  t.push_back(entry("log1p", all_types(), LZT_UNARY_FNS(log1p), [](double x) { return std::log1p(x); }, to_float));
  t.push_back(entry("sqrt", all_types(), LZT_UNARY_FNS(sqrt), [](double x) { return std::sqrt(x); }, to_float));
  t.push_back(entry("rsqrt", all_types(), LZT_UNARY_FNS(rsqrt), [](double x) { return 1.0 / std::sqrt(x); }, to_float));
  t.push_back(entry("sin", all_types(), LZT_UNARY_FNS(sin), [](double x) { return std::sin(x); }, to_float));
  t.push_back(entry("cos", all_types(), LZT_UNARY_FNS(cos), [](double x) { return std::cos(x); }, to_float));
  t.push_back(entry("tan", all_types(), LZT_UNARY_FNS(tan), [](double x) { return std::tan(x); }, to_float));
  t.push_back(entry("tanh", all_types(), LZT_UNARY_FNS(tanh), [](double x) { return std::tanh(x); }, to_float));
  t.push_back(entry("sigmoid", all_types(), LZT_UNARY_FNS(sigmoid), sigmoid_ref, to_float));
  t.push_back(entry("erf", all_types(), LZT_UNARY_FNS(erf), [](double x) { return std::erf(x); }, to_float));

  // ---- Activations on floating dtypes only ----------------------------------
  {
    OpInfo op = entry("silu", float_types(), LZT_UNARY_FNS(silu), [](double x) { return x / (1.0 + std::exp(-x)); });
    add_errors(op, {lz::kBool, lz::kUInt8, lz::kInt8, lz::kInt16, lz::kInt32, lz::kInt64});
    t.push_back(std::move(op));
  }
  {
    OpInfo op = entry("hardswish", float_types(), LZT_UNARY_FNS(hardswish),
                      [](double x) { return x <= -3 ? 0.0 * x : x >= 3 ? x : x * (x + 3) / 6; });
    add_errors(op, {lz::kBool, lz::kUInt8, lz::kInt8, lz::kInt16, lz::kInt32, lz::kInt64});
    t.push_back(std::move(op));
  }
  // Composites (eager_kernels/register_activations.cpp), each with its
  // parameters at their defaults and at other values.
  {
    OpInfo op = activation_entry("leaky_relu", {{"negative_slope", {0.01, 0.2}}},
                                 [](const Tensor& x, const SampleInput& s) {
                                   return lz::leaky_relu(x, s.double_arg("negative_slope"));
                                 },
                                 [](double x, const SampleInput& s) { return x > 0 ? x : x * s.double_arg("negative_slope"); });
    t.push_back(std::move(op));
  }
  {
    OpInfo op = activation_entry(
        "elu", {{"alpha", {1.0, 0.5}}, {"scale", {1.0, 2.0}}, {"input_scale", {1.0, 0.5}}},
        [](const Tensor& x, const SampleInput& s) {
          return lz::elu(x, s.double_arg("alpha"), s.double_arg("scale"), s.double_arg("input_scale"));
        },
        [](double x, const SampleInput& s) {
          const double scale = s.double_arg("scale");
          return x > 0 ? scale * x : scale * s.double_arg("alpha") * std::expm1(x * s.double_arg("input_scale"));
        });
    t.push_back(std::move(op));
  }
  {
    OpInfo op = activation_entry(
        "softplus", {{"beta", {1.0, 2.0}}, {"threshold", {20.0, 1.0}}},
        [](const Tensor& x, const SampleInput& s) {
          return lz::softplus(x, s.double_arg("beta"), s.double_arg("threshold"));
        },
        [](double x, const SampleInput& s) {
          const double beta = s.double_arg("beta");
          return x * beta > s.double_arg("threshold") ? x : std::log1p(std::exp(x * beta)) / beta;
        });
    t.push_back(std::move(op));
  }
  {
    OpInfo op = activation_entry(
        "hardtanh", {{"min_val", {-1.0, -0.5}}, {"max_val", {1.0, 2.0}}},
        [](const Tensor& x, const SampleInput& s) {
          return lz::hardtanh(x, s.double_arg("min_val"), s.double_arg("max_val"));
        },
        [](double x, const SampleInput& s) {
          return std::isnan(x) ? x : std::min(std::max(x, s.double_arg("min_val")), s.double_arg("max_val"));
        });
    t.push_back(std::move(op));
  }
  {
    OpInfo op;
    op.name = "gelu";
    op.dtypes = float_types();
    op.samples = [](lz::ScalarType dt) {
      return with_kwarg(samples_with_specials(dt, {}), "approximate", {lz::IValue("none"), lz::IValue("tanh")});
    };
    op.op = [](const SampleInput& s) {
      return std::vector<Tensor>{lz::gelu(s[0], s.arg("approximate").to_string_view())};
    };
    op.reference = [](const SampleInput& s) {
      const bool tanh_form = s.arg("approximate").to_string_view() == "tanh";
      const lz::ScalarType rt = s[0].dtype();
      return std::vector<Expected>{map_reference(
          s[0], rt, [&](double v) { return rounded(rt, tanh_form ? gelu_tanh_ref(v) : gelu_ref(v)); })};
    };
    op.inplace = [](Tensor& self, const SampleInput& s) { lz::gelu_(self, s.arg("approximate").to_string_view()); };
    op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
      lz::gelu_out(outs[0], s[0], s.arg("approximate").to_string_view());
    };
    op.errors = [] {
      std::vector<ErrorInput> errors{dtype_error("gelu", lz::kInt64), dtype_error("gelu", lz::kBool)};
      for (ErrorInput& e : errors) e.input.kwargs["approximate"] = lz::IValue("none");
      errors.push_back(
          LZT_EXPECT_ERROR(ValueError, (SampleInput{{lz::zeros({2})}, {{"approximate", lz::IValue("sigmoid")}}, "bad approximate"}),
                           "[gelu] approximate: expected 'none' or 'tanh', got 'sigmoid'"));
      return errors;
    };
    t.push_back(std::move(op));
  }

  // ---- Rounding: identities on integers, half to even for round -------------
  {
    OpInfo op = entry("floor", numeric_types(), LZT_UNARY_FNS(floor), [](double x) { return std::floor(x); });
    add_errors(op, {lz::kBool});
    t.push_back(std::move(op));
  }
  {
    OpInfo op = entry("ceil", numeric_types(), LZT_UNARY_FNS(ceil), [](double x) { return std::ceil(x); });
    add_errors(op, {lz::kBool});
    t.push_back(std::move(op));
  }
  {
    // std::nearbyint rounds half to even in the default rounding mode.
    OpInfo op = entry("round", numeric_types(), LZT_UNARY_FNS(round), [](double x) { return std::nearbyint(x); });
    add_errors(op, {lz::kBool});
    t.push_back(std::move(op));
  }
  {
    OpInfo op = entry("trunc", numeric_types(), LZT_UNARY_FNS(trunc), [](double x) { return std::trunc(x); });
    add_errors(op, {lz::kBool});
    t.push_back(std::move(op));
  }

  // ---- Logic and classification (bool results) -----------------------------
  t.push_back(entry("logical_not", all_types(), LZT_UNARY_FNS(logical_not),
                    [](double x) { return x == 0 ? 1.0 : 0.0; }, to_bool));
  {
    OpInfo op = entry("isnan", all_types(),
                      UnaryFns{[](const Tensor& x) { return lz::isnan(x); }, nullptr,
                               [](Tensor& o, const Tensor& x) -> Tensor& { return lz::isnan_out(o, x); }},
                      [](double x) { return std::isnan(x) ? 1.0 : 0.0; }, to_bool);
    op.inplace = nullptr;
    t.push_back(std::move(op));
  }
  {
    OpInfo op = entry("isinf", all_types(),
                      UnaryFns{[](const Tensor& x) { return lz::isinf(x); }, nullptr,
                               [](Tensor& o, const Tensor& x) -> Tensor& { return lz::isinf_out(o, x); }},
                      [](double x) { return std::isinf(x) ? 1.0 : 0.0; }, to_bool);
    op.inplace = nullptr;
    t.push_back(std::move(op));
  }
  {
    // ~x on the int64 value; the reference's as_stored wraps it to the
    // dtype (uint8 ~5 == 250). Bool is logical not.
    OpInfo op;
    op = unary_entry("bitwise_not", int_and_bool_types(), LZT_UNARY_FNS(bitwise_not), nullptr);
    op.reference = [](const SampleInput& s) {
      const lz::ScalarType dt = s[0].dtype();
      Expected e{lz::SizeVec(s[0].sizes().begin(), s[0].sizes().end()), dt, {}};
      for (int64_t v : int_values(s[0])) {
        e.values.push_back(dt == lz::kBool ? (v == 0 ? 1.0 : 0.0) : as_stored(dt, static_cast<double>(~v)));
      }
      return std::vector<Expected>{e};
    };
    add_errors(op, {lz::kFloat32, lz::kFloat64, lz::kFloat16, lz::kBFloat16});
    t.push_back(std::move(op));
  }
}

#undef LZT_UNARY_FNS

}  // namespace lzt
