// Table entries: neural-network operators (softmax, log_softmax, layer_norm,
// rms_norm, dropout, native_dropout; the losses are in entries_losses.cpp).
// References are float64 loops over the inputs' values; dropout, whose
// values no reference predicts, is checked by its properties.
#include <cmath>
#include <limits>

#include "tests/op_table/entry_builders.h"
#include "tests/op_table/nn_helpers.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

std::vector<double> softmax_values(const std::vector<double>& x, bool log) {
  double m = -std::numeric_limits<double>::infinity();
  for (double v : x) m = std::max(m, v);
  double s = 0;
  for (double v : x) s += std::exp(v - m);
  std::vector<double> out;
  for (double v : x) out.push_back(log ? (v - m) - std::log(s) : std::exp(v - m) / s);
  return out;
}

Tolerance norm_tolerance(lz::ScalarType t) {
  switch (t) {
    case lz::kFloat16: return {3e-3, 3e-3};
    case lz::kBFloat16: return {1.6e-2, 3e-2};
    case lz::kFloat32: return {2e-5, 2e-5};
    case lz::kFloat64: return {1e-12, 1e-12};
    default: return {0, 0};
  }
}

namespace {

using lz::Tensor;

// Applies f to every 1-D slice of x's values along `dim` (row-major result).
std::vector<double> along_dim(const Tensor& x, int64_t dim,
                              const std::function<std::vector<double>(const std::vector<double>&)>& f) {
  const std::vector<double> v = values(x);
  if (x.dim() == 0) return f(v);
  const int64_t nd = x.dim();
  const int64_t d = (dim % nd + nd) % nd;
  int64_t outer = 1, inner = 1;
  for (int64_t i = 0; i < d; ++i) outer *= x.size(i);
  for (int64_t i = d + 1; i < nd; ++i) inner *= x.size(i);
  const int64_t n = x.size(d);
  std::vector<double> out(v.size());
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      std::vector<double> slice;
      for (int64_t l = 0; l < n; ++l) slice.push_back(v[(o * n + l) * inner + i]);
      const std::vector<double> r = f(slice);
      for (int64_t l = 0; l < n; ++l) out[(o * n + l) * inner + i] = r[l];
    }
  }
  return out;
}


std::optional<lz::ScalarType> dtype_kwarg(const SampleInput& s) {
  if (!s.has("dtype") || s.arg("dtype").is_none()) return std::nullopt;
  return s.arg("dtype").to_scalar_type();
}

// ---- softmax / log_softmax --------------------------------------------------------

std::vector<SampleInput> softmax_samples(lz::ScalarType t) {
  std::vector<SampleInput> out;
  for (const SampleInput& s : unary_samples(t)) {
    const int64_t nd = s[0].dim();
    std::vector<int64_t> dims = {-1};
    if (nd >= 2) dims.push_back(0);
    if (nd >= 3) dims.push_back(1);
    for (int64_t d : dims) {
      SampleInput c = s;
      c.kwargs["dim"] = lz::IValue(d);
      out.push_back(std::move(c));
    }
  }
  // Large rows (several threads, streaming stores) and an explicit dtype.
  out.push_back(SampleInput{{domain_tensor({64, 4100}, t, 20, {})}, {{"dim", lz::IValue(int64_t{1})}}, "[64, 4100] rows"});
  out.push_back(SampleInput{{domain_tensor({4, 5}, t, 21, {})}, {{"dim", lz::IValue(int64_t{-1})}, {"dtype", lz::IValue(t)}},
                            "dtype equal to the input's"});
  if (t == lz::kFloat32) {
    out.push_back(SampleInput{{domain_tensor({3, 4}, lz::kInt64, 22, {})}, {{"dim", lz::IValue(int64_t{1})}, {"dtype", lz::IValue(t)}},
                              "int64 input computed in float32"});
    out.push_back(SampleInput{{domain_tensor({3, 4}, lz::kFloat16, 23, {})}, {{"dim", lz::IValue(int64_t{0})}, {"dtype", lz::IValue(t)}},
                              "float16 input computed in float32"});
  }
  if (t == lz::kFloat64) {
    out.push_back(SampleInput{{domain_tensor({3, 4}, lz::kInt32, 24, {})}, {{"dim", lz::IValue(int64_t{1})}, {"dtype", lz::IValue(t)}},
                              "int32 input computed in float64"});
  }
  return out;
}

Tolerance softmax_tolerance(lz::ScalarType t) {
  switch (t) {
    case lz::kFloat16: return {3e-3, 1e-5};
    case lz::kBFloat16: return {1.6e-2, 1e-5};
    case lz::kFloat32: return {1e-5, 1e-9};
    case lz::kFloat64: return {1e-12, 1e-300};
    default: return {0, 0};
  }
}

Tolerance log_softmax_tolerance(lz::ScalarType t) {
  switch (t) {
    case lz::kFloat16: return {3e-3, 3e-3};
    case lz::kBFloat16: return {1.6e-2, 2e-2};
    case lz::kFloat32: return {1e-6, 1e-5};
    case lz::kFloat64: return {1e-13, 1e-12};
    default: return {0, 0};
  }
}

OpInfo softmax_entry(bool log) {
  OpInfo op;
  const std::string name = log ? "log_softmax" : "softmax";
  op.name = name;
  op.dtypes = float_types();
  op.samples = softmax_samples;
  op.op = [log](const SampleInput& s) {
    const int64_t dim = s.int_arg("dim");
    return std::vector<Tensor>{log ? lz::log_softmax(s[0], dim, dtype_kwarg(s))
                                   : lz::softmax(s[0], dim, dtype_kwarg(s))};
  };
  op.reference = [log](const SampleInput& s) {
    const lz::ScalarType result = dtype_kwarg(s).value_or(s[0].dtype());
    Expected e{lz::SizeVec(s[0].sizes().begin(), s[0].sizes().end()), result, {}};
    e.values = along_dim(s[0], s.int_arg("dim"), [log](const std::vector<double>& x) {
      return softmax_values(x, log);
    });
    return std::vector<Expected>{e};
  };
  op.out = [log](std::vector<Tensor>& outs, const SampleInput& s) {
    if (log) {
      lz::log_softmax_out(outs[0], s[0], s.int_arg("dim"), dtype_kwarg(s));
    } else {
      lz::softmax_out(outs[0], s[0], s.int_arg("dim"), dtype_kwarg(s));
    }
  };
  op.tolerance = log ? log_softmax_tolerance : softmax_tolerance;
  op.errors = [name] {
    auto sample = [](const Tensor& x, int64_t dim, std::optional<lz::ScalarType> dtype, std::string what) {
      SampleInput s{{x}, {{"dim", lz::IValue(dim)}}, std::move(what)};
      if (dtype) s.kwargs["dtype"] = lz::IValue(*dtype);
      return s;
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(IndexError, sample(lz::zeros({2, 3}), 2, std::nullopt, "dim 2 of a 2-D tensor"),
                         "[" + name + "] dim: 2 is out of range for a 2-D tensor"),
        LZT_EXPECT_ERROR(TypeError, sample(lz::zeros({2, 3}, lz::kInt64), 1, std::nullopt, "int64 input"),
                         "[" + name + "] self: " + name + " is only implemented for floating dtypes, got int64"),
        LZT_EXPECT_ERROR(TypeError, sample(lz::zeros({2, 3}), 1, lz::kInt32, "dtype int32"),
                         "[" + name + "] dtype: " + name + " is only implemented for floating dtypes, got dtype=int32"),
        LZT_EXPECT_ERROR(ValueError, sample(Tensor(), 0, std::nullopt, "undefined"), "self: expected a defined tensor")};
  };
  return op;
}

// ---- layer_norm / rms_norm --------------------------------------------------------

// Tensors {input, weight, bias}; kwargs normalized_shape, eps, has_weight, has_bias.
std::vector<SampleInput> norm_samples(lz::ScalarType t, bool rms) {
  struct Case {
    lz::SizeVec input, normalized;
  };
  const std::vector<Case> cases = {{{3, 4}, {4}}, {{2, 3, 4}, {3, 4}}, {{2, 3, 4}, {4}}, {{5}, {5}},
                                   {{0, 4}, {4}}, {{1, 1}, {1}},       {{2, 0}, {0}},   {{300, 257}, {257}}};
  const std::vector<std::pair<bool, bool>> params = {{false, false}, {true, true}, {true, false}, {false, true}};
  std::vector<SampleInput> out;
  uint32_t seed = 900;
  auto add = [&](const Tensor& x, const lz::SizeVec& ns, bool w, bool b, lz::IValue eps, std::string what,
                 lz::ScalarType param_dtype) {
    if (rms && b) return;
    SampleInput s{{x, domain_tensor(ns, param_dtype, seed, {}), domain_tensor(ns, param_dtype, seed + 1, {})},
                  {{"normalized_shape", lz::IValue(lz::IntArrayRef(ns))},
                   {"eps", std::move(eps)},
                   {"has_weight", lz::IValue(w)},
                   {"has_bias", lz::IValue(b)}},
                  std::move(what)};
    seed += 2;
    out.push_back(std::move(s));
  };
  const lz::IValue default_eps = rms ? lz::IValue() : lz::IValue(1e-5);
  for (const Case& c : cases) {
    for (const auto& [w, b] : params) {
      add(domain_tensor(c.input, t, seed + 7, {}), c.normalized, w, b, default_eps,
          lz::shape_str(c.input) + " over " + lz::shape_str(c.normalized) + (w ? " weight" : "") + (b ? " bias" : ""), t);
    }
  }
  for (auto& [name, x] : layouts({3, 4}, t, 950, {})) add(x, {4}, true, true, default_eps, name, t);
  add(domain_tensor({3, 4}, t, 960, {}), {4}, true, true, lz::IValue(0.5), "eps 0.5", t);
  if (t == lz::kFloat16 || t == lz::kBFloat16) {
    add(domain_tensor({3, 4}, t, 970, {}), {4}, true, true, default_eps, "float32 weight and bias", lz::kFloat32);
  }
  return out;
}

std::optional<Tensor> param(const SampleInput& s, const char* flag, size_t index) {
  return s.bool_arg(flag) ? std::optional<Tensor>(s[index]) : std::nullopt;
}

// One normalised row per leading index: f(row values, weight, bias) -> row.
Expected norm_reference(const SampleInput& s, bool rms) {
  const Tensor& x = s[0];
  const lz::IntArrayRef ns = s.int_list_arg("normalized_shape");
  int64_t n = 1;
  for (int64_t v : ns) n *= v;
  const std::vector<double> v = values(x);
  const std::vector<double> w = values(s[1]), b = values(s[2]);
  const bool has_w = s.bool_arg("has_weight"), has_b = s.has("has_bias") && s.bool_arg("has_bias");
  double eps;
  if (!s.arg("eps").is_none()) {
    eps = s.double_arg("eps");
  } else {
    eps = x.dtype() == lz::kFloat64 ? std::ldexp(1.0, -52) : std::ldexp(1.0, -23);
  }
  Expected e{lz::SizeVec(x.sizes().begin(), x.sizes().end()), x.dtype(), {}};
  const int64_t rows = n == 0 ? 0 : static_cast<int64_t>(v.size()) / n;
  for (int64_t r = 0; r < rows; ++r) {
    const double* row = v.data() + r * n;
    double mean = 0, ms = 0;
    if (!rms) {
      for (int64_t i = 0; i < n; ++i) mean += row[i];
      mean /= static_cast<double>(n);
    }
    for (int64_t i = 0; i < n; ++i) ms += (row[i] - mean) * (row[i] - mean);
    ms /= static_cast<double>(n);
    const double inv = 1.0 / std::sqrt(ms + eps);
    for (int64_t i = 0; i < n; ++i) {
      double y = (row[i] - mean) * inv;
      if (has_w) y *= w[i];
      if (has_b) y += b[i];
      e.values.push_back(y);
    }
  }
  return e;
}


OpInfo layer_norm_entry() {
  OpInfo op;
  op.name = "layer_norm";
  op.dtypes = float_types();
  op.samples = [](lz::ScalarType t) { return norm_samples(t, false); };
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::layer_norm(s[0], s.int_list_arg("normalized_shape"), param(s, "has_weight", 1),
                                              param(s, "has_bias", 2), s.double_arg("eps"))};
  };
  op.reference = [](const SampleInput& s) { return std::vector<Expected>{norm_reference(s, false)}; };
  op.tolerance = norm_tolerance;
  op.errors = [] {
    auto sample = [](const Tensor& x, std::vector<int64_t> ns, std::optional<Tensor> w, std::string what) {
      const bool has_w = w.has_value();
      return SampleInput{{x, has_w ? *w : lz::zeros({1}), lz::zeros({1})},
                         {{"normalized_shape", lz::IValue(ns)}, {"eps", lz::IValue(1e-5)}, {"has_weight", lz::IValue(has_w)}, {"has_bias", lz::IValue(false)}},
                         std::move(what)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ShapeError, sample(lz::zeros({3, 4}), {5}, std::nullopt, "[3, 4] over [5]"),
                         "[layer_norm] input: given normalized_shape=[5], expected input with shape [*, 5], but got input of size [3, 4]"),
        LZT_EXPECT_ERROR(ShapeError, sample(lz::zeros({4}), {3, 4}, std::nullopt, "[4] over [3, 4]"),
                         "expected input with shape [*, 3, 4], but got input of size [4]"),
        LZT_EXPECT_ERROR(ShapeError, sample(lz::zeros({3, 4}), {4}, lz::zeros({3}), "weight [3]"),
                         "[layer_norm] weight: expected weight to be of same shape as normalized_shape, but got weight of shape [3] and normalized_shape = [4]"),
        LZT_EXPECT_ERROR(ValueError, sample(lz::zeros({3, 4}), {}, std::nullopt, "empty normalized_shape"),
                         "[layer_norm] normalized_shape: expected normalized_shape to be at least 1-dimensional"),
        LZT_EXPECT_ERROR(TypeError, sample(lz::zeros({3, 4}, lz::kInt64), {4}, std::nullopt, "int64 input"),
                         "[layer_norm] input: layer_norm is only implemented for floating dtypes, got int64"),
        LZT_EXPECT_ERROR(TypeError, sample(lz::zeros({3, 4}), {4}, lz::zeros({4}, lz::kFloat64), "float64 weight"),
                         "[layer_norm] weight: expected dtype float32 like the input, got float64")};
  };
  return op;
}

OpInfo rms_norm_entry() {
  OpInfo op;
  op.name = "rms_norm";
  op.dtypes = float_types();
  op.samples = [](lz::ScalarType t) {
    std::vector<SampleInput> s = norm_samples(t, true);
    SampleInput with_eps = s[1];
    with_eps.kwargs["eps"] = lz::IValue(1e-3);
    with_eps.description += ", eps 1e-3";
    s.push_back(with_eps);
    return s;
  };
  op.op = [](const SampleInput& s) {
    const std::optional<double> eps =
        s.arg("eps").is_none() ? std::nullopt : std::optional<double>(s.double_arg("eps"));
    return std::vector<Tensor>{lz::rms_norm(s[0], s.int_list_arg("normalized_shape"), param(s, "has_weight", 1), eps)};
  };
  op.reference = [](const SampleInput& s) { return std::vector<Expected>{norm_reference(s, true)}; };
  op.tolerance = norm_tolerance;
  op.errors = [] {
    auto sample = [](const Tensor& x, std::vector<int64_t> ns, std::optional<Tensor> w, std::string what) {
      const bool has_w = w.has_value();
      return SampleInput{{x, has_w ? *w : lz::zeros({1}), lz::zeros({1})},
                         {{"normalized_shape", lz::IValue(ns)}, {"eps", lz::IValue()}, {"has_weight", lz::IValue(has_w)}, {"has_bias", lz::IValue(false)}},
                         std::move(what)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ShapeError, sample(lz::zeros({3, 4}), {3}, std::nullopt, "[3, 4] over [3]"),
                         "[rms_norm] input: given normalized_shape=[3], expected input with shape [*, 3], but got input of size [3, 4]"),
        LZT_EXPECT_ERROR(ShapeError, sample(lz::zeros({3, 4}), {4}, lz::zeros({2, 2}), "weight [2, 2]"),
                         "[rms_norm] weight: expected weight to be of same shape as normalized_shape"),
        LZT_EXPECT_ERROR(TypeError, sample(lz::zeros({3, 4}, lz::kInt32), {4}, std::nullopt, "int32 input"),
                         "[rms_norm] input: rms_norm is only implemented for floating dtypes, got int32")};
  };
  return op;
}

// ---- dropout ------------------------------------------------------------------------

std::vector<SampleInput> dropout_samples(lz::ScalarType t) {
  std::vector<SampleInput> out;
  for (double p : {0.0, 0.25, 1.0}) {
    for (bool train : {true, false}) {
      for (SampleInput s : unary_samples(t)) {
        s.kwargs["p"] = lz::IValue(p);
        s.kwargs["train"] = lz::IValue(train);
        out.push_back(std::move(s));
      }
    }
  }
  SampleInput big{{domain_tensor({512, 300}, t, 30, kPositive)}, {{"p", lz::IValue(0.4)}, {"train", lz::IValue(true)}},
                  "[512, 300] positive, p 0.4"};
  out.push_back(big);
  return out;
}

// out is x * keep / (1 - p) element-wise with keep in {0, 1} (and `mask`
// the keep values when given); "" when it holds.
std::string check_dropped(const Tensor& x, const Tensor& out, const Tensor* mask, double p) {
  if (out.sizes() != x.sizes()) return "shape " + lz::shape_str(out.sizes()) + " vs input " + lz::shape_str(x.sizes());
  if (out.dtype() != x.dtype()) return "dtype changed";
  const std::vector<double> xv = values(x), ov = values(out);
  const std::vector<double> mv = mask ? values(*mask) : std::vector<double>();
  if (mask && mask->dtype() != lz::kBool) return "mask is not bool";
  const double scale = p == 1 ? 0 : 1 / (1 - p);
  const double rtol = rtol_for(x.dtype());
  int64_t dropped = 0, nonzero = 0;
  for (size_t i = 0; i < xv.size(); ++i) {
    const double kept = xv[i] * scale;
    const bool is_kept = std::fabs(ov[i] - kept) <= rtol * std::fabs(kept);
    const bool is_dropped = ov[i] == 0;
    if (!is_kept && !is_dropped) return "element " + std::to_string(i) + ": " + fmt(ov[i]) + " is neither 0 nor " + fmt(kept);
    if (mask) {
      const bool m = mv[i] != 0;
      if (m ? !is_kept : !is_dropped) return "element " + std::to_string(i) + " disagrees with its mask";
    }
    if (xv[i] != 0) {
      ++nonzero;
      if (is_dropped) ++dropped;
    }
  }
  if (nonzero >= 10000 && p > 0 && p < 1) {
    const double frac = static_cast<double>(dropped) / static_cast<double>(nonzero);
    if (std::fabs(frac - p) > 0.02) return "dropped fraction " + fmt(frac) + " for p = " + fmt(p);
  }
  if (p == 1 && dropped != nonzero) return "p = 1 kept elements";
  return "";
}

OpInfo dropout_entry() {
  OpInfo op;
  op.name = "dropout";
  op.dtypes = float_types();
  op.samples = dropout_samples;
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::dropout(s[0], s.double_arg("p"), s.bool_arg("train"))};
  };
  op.check = [](const SampleInput& s, const std::vector<Tensor>& outs) -> std::string {
    if (outs.size() != 1) return "expected one output";
    const Tensor& x = s[0];
    const double p = s.double_arg("p");
    const bool train = s.bool_arg("train");
    if (!train || p == 0 || x.numel() == 0) {
      return outs[0].is_same(x) ? "" : "expected the input itself (train=false, p=0 or empty)";
    }
    if (const std::string m = check_dropped(x, outs[0], nullptr, p); !m.empty()) return m;
    // Reproducible from the default generator's seed.
    lz::manual_seed(1234);
    const Tensor a = lz::dropout(x, p, true);
    lz::manual_seed(1234);
    const Tensor b = lz::dropout(x, p, true);
    if (const std::string m = same_values(a, b); !m.empty()) return "not reproducible after manual_seed: " + m;
    return "";
  };
  op.errors = [] {
    auto sample = [](const Tensor& x, double p, bool train, std::string what) {
      return SampleInput{{x}, {{"p", lz::IValue(p)}, {"train", lz::IValue(train)}}, std::move(what)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ValueError, sample(lz::ones({3}), 1.5, true, "p 1.5"),
                         "[dropout] p: dropout probability has to be between 0 and 1, but got 1.5"),
        LZT_EXPECT_ERROR(ValueError, sample(lz::ones({3}), -0.5, false, "p -0.5, not training"),
                         "[dropout] p: dropout probability has to be between 0 and 1, but got -0.5"),
        LZT_EXPECT_ERROR(TypeError, sample(lz::ones({3}, lz::kInt64), 0.5, true, "int64 input"),
                         "[native_dropout] input: dropout is only implemented for floating dtypes, got int64")};
  };
  return op;
}

OpInfo native_dropout_entry() {
  OpInfo op;
  op.name = "native_dropout";
  op.dtypes = float_types();
  op.samples = dropout_samples;
  op.op = [](const SampleInput& s) {
    auto [out, mask] = lz::native_dropout(s[0], s.double_arg("p"), s.bool_arg("train"));
    return std::vector<Tensor>{out, mask};
  };
  op.check = [](const SampleInput& s, const std::vector<Tensor>& outs) -> std::string {
    if (outs.size() != 2) return "expected two outputs";
    const Tensor& x = s[0];
    if (outs[1].sizes() != x.sizes()) return "mask shape " + lz::shape_str(outs[1].sizes());
    if (!s.bool_arg("train")) {
      if (const std::string m = same_values(outs[0], x); !m.empty()) return "train=false changed the values: " + m;
      if (outs[0].numel() > 0 && outs[0].data_ptr() == x.data_ptr()) return "train=false must return a copy";
      for (double v : values(outs[1])) {
        if (v != 1) return "train=false must keep every element";
      }
      return "";
    }
    return check_dropped(x, outs[0], &outs[1], s.double_arg("p"));
  };
  op.errors = [] {
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ValueError, (SampleInput{{lz::ones({3})}, {{"p", lz::IValue(2.0)}, {"train", lz::IValue(true)}}, "p 2"}),
                         "[native_dropout] p: dropout probability has to be between 0 and 1, but got 2")};
  };
  return op;
}

// ---- embedding (a composite of index_select) ------------------------------------------

OpInfo embedding_entry() {
  OpInfo op;
  op.name = "embedding";
  op.dtypes = all_types();
  op.samples = [](lz::ScalarType t) {
    std::vector<SampleInput> out;
    uint32_t seed = 1500;
    for (auto& [layout, weight] : layouts({6, 4}, t, seed, {})) {
      for (lz::SizeVec sizes : {lz::SizeVec{3}, lz::SizeVec{2, 3}, lz::SizeVec{}, lz::SizeVec{0}}) {
        for (lz::ScalarType index_type : {lz::kInt64, lz::kInt32}) {
          // Rows 0-4: padding row 5 is never read, so the gradient (zero for
          // it by design, tests/autograd/test_nn_optim.cpp) is the mathematical one.
          const Tensor indices = domain_tensor(sizes, index_type, ++seed, Domain{0, 4});
          for (int64_t padding_idx : {-1, 5}) {
            out.push_back(SampleInput{{weight, indices}, {{"padding_idx", lz::IValue(padding_idx)}},
                                      "weight " + layout + ", indices " + lz::shape_str(sizes) + " " +
                                          std::string(lz::to_string(index_type)) + ", padding_idx " +
                                          std::to_string(padding_idx)});
          }
        }
      }
    }
    out.push_back(SampleInput{{domain_tensor({300, 64}, t, 1600, {}), domain_tensor({50, 40}, lz::kInt64, 1601, Domain{0, 299})},
                              {{"padding_idx", lz::IValue(int64_t{-1})}}, "a large table"});
    return out;
  };
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::embedding(s[0], s[1], s.int_arg("padding_idx"))}; };
  op.reference = [](const SampleInput& s) {
    const std::vector<double> weight = values(s[0]), indices = values(s[1]);
    const int64_t dim = s[0].size(1);
    Expected e{lz::SizeVec(s[1].sizes().begin(), s[1].sizes().end()), s[0].dtype(), {}};
    e.sizes.push_back(dim);
    for (double i : indices) {
      for (int64_t d = 0; d < dim; ++d) e.values.push_back(weight[static_cast<size_t>(static_cast<int64_t>(i) * dim + d)]);
    }
    return std::vector<Expected>{e};
  };
  op.errors = [] {
    const auto sample = [](const Tensor& w, const Tensor& i, int64_t padding_idx, std::string what) {
      return SampleInput{{w, i}, {{"padding_idx", lz::IValue(padding_idx)}}, std::move(what)};
    };
    const Tensor index = lz::zeros({2}, lz::kInt64);
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ShapeError, sample(lz::zeros({6}), index, -1, "1-D weight"),
                         "[embedding] weight: expected a 2-D weight, got shape [6]"),
        LZT_EXPECT_ERROR(TypeError, sample(lz::zeros({6, 4}), lz::zeros({2}), -1, "float indices"),
                         "[embedding] indices: expected an int64 or int32 tensor, got float32"),
        LZT_EXPECT_ERROR(IndexError, sample(lz::zeros({6, 4}), index, 6, "padding_idx 6"),
                         "[embedding] padding_idx: 6 is out of range for 6 embeddings"),
        LZT_EXPECT_ERROR(IndexError, sample(lz::zeros({6, 4}), lz::full({2}, 6, lz::kInt64), -1, "index 6"),
                         "index 6 is out of bounds for dimension 0 with size 6")};
  };
  return op;
}

}  // namespace

void add_nn_ops(std::vector<OpInfo>& t) {
  t.push_back(softmax_entry(false));
  t.push_back(softmax_entry(true));
  t.push_back(layer_norm_entry());
  t.push_back(rms_norm_entry());
  t.push_back(dropout_entry());
  t.push_back(native_dropout_entry());
  t.push_back(embedding_entry());
  add_loss_ops(t);
}

}  // namespace lzt
