// Table entries: losses (nll_loss, nll_loss_nd, cross_entropy, and the
// element-wise mse_loss, l1_loss, smooth_l1_loss, binary_cross_entropy(_with_logits)).
// References are float64 loops over the inputs' values.
#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <limits>

#include "tests/op_table/entry_builders.h"
#include "tests/op_table/nn_helpers.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

using lz::Tensor;

// Class indices in [0, classes), every `ignore_every`-th one set to ignore.
Tensor class_targets(lz::IntArrayRef sizes, int64_t classes, int64_t ignore_index, int ignore_every,
                     uint32_t seed, lz::ScalarType dtype = lz::kInt64) {
  std::vector<double> v = domain_values(lz::kInt64, numel_of(sizes), seed, Domain{0, static_cast<double>(classes - 1)});
  if (ignore_every > 0) {
    for (size_t i = 0; i < v.size(); i += static_cast<size_t>(ignore_every)) v[i] = static_cast<double>(ignore_index);
  }
  return make_tensor(v, sizes, dtype);
}

int64_t reduction_of(const SampleInput& s) { return s.int_arg("reduction"); }

// Loss samples: tensors {self, target, weight}; kwargs has_weight,
// reduction, ignore_index.
std::vector<SampleInput> loss_samples(lz::ScalarType t, bool nd) {
  struct Case {
    lz::SizeVec self, target;
    int64_t ignore_index;
    int ignore_every;
  };
  std::vector<Case> cases;
  if (!nd) {
    cases = {{{6, 5}, {6}, -100, 4}, {{5}, {}, -100, 0}, {{0, 5}, {0}, -100, 0}, {{4, 3}, {4}, 2, 0},
             {{4, 3}, {4}, 1, 1}, {{300, 257}, {300}, -100, 7}};
  } else {
    cases = {{{6, 5}, {6}, -100, 4}, {{5}, {}, -100, 0}, {{2, 5, 3}, {2, 3}, -100, 4},
             {{2, 4, 3, 2}, {2, 3, 2}, 0, 5}, {{0, 4, 3}, {0, 3}, -100, 0}};
  }
  std::vector<SampleInput> out;
  uint32_t seed = 1100;
  for (const Case& c : cases) {
    const int64_t classes = c.self.size() == 1 ? c.self[0] : c.self[1];
    const Tensor self = domain_tensor(c.self, t, seed, {});
    const Tensor target = class_targets(c.target, classes, c.ignore_index, c.ignore_every, seed + 1);
    const Tensor weight = domain_tensor({classes}, t, seed + 2, kPositive);
    seed += 3;
    for (int64_t reduction : {0, 1, 2}) {
      for (bool has_weight : {false, true}) {
        out.push_back(SampleInput{{self, target, weight},
                                  {{"has_weight", lz::IValue(has_weight)},
                                   {"reduction", lz::IValue(reduction)},
                                   {"ignore_index", lz::IValue(c.ignore_index)}},
                                  lz::shape_str(c.self) + " with target " + lz::shape_str(c.target) +
                                      ", ignore_index " + std::to_string(c.ignore_index)});
      }
    }
  }
  // A transposed input and uint8 targets.
  out.push_back(SampleInput{{domain_tensor({5, 6}, t, 1, {}).t(), class_targets({6}, 5, -100, 0, 2, lz::kUInt8),
                             domain_tensor({5}, t, 3, kPositive)},
                            {{"has_weight", lz::IValue(true)}, {"reduction", lz::IValue(int64_t{1})}, {"ignore_index", lz::IValue(int64_t{-100})}},
                            "[6, 5] transposed, uint8 targets"});
  return out;
}

// The values of a class-index loss: per target position, (nll, weight of the
// target, smoothing term -sum_c w[c] * lsm[c]) with lsm = x or log_softmax(x).
struct IndexLoss {
  std::vector<double> nll, target_weight, smooth;
  std::vector<bool> valid;
};

// self's values as [positions, classes] (class dim 1, or 0 for 1-D self).
std::vector<std::vector<double>> class_rows(const Tensor& self) {
  const std::vector<double> v = values(self);
  std::vector<std::vector<double>> rows;
  if (self.dim() == 1) {
    rows.push_back(v);
    return rows;
  }
  const int64_t n = self.size(0), c = self.size(1);
  int64_t inner = 1;
  for (int64_t d = 2; d < self.dim(); ++d) inner *= self.size(d);
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < inner; ++j) {
      std::vector<double> row;
      for (int64_t k = 0; k < c; ++k) row.push_back(v[(i * c + k) * inner + j]);
      rows.push_back(row);
    }
  }
  return rows;
}

IndexLoss index_loss(const std::vector<std::vector<double>>& lsm, const Tensor& target,
                     const std::vector<double>& w, int64_t ignore_index) {
  IndexLoss r;
  const std::vector<int64_t> tv = int_values(target);
  for (size_t p = 0; p < tv.size(); ++p) {
    const int64_t t = tv[p];
    const bool valid = t != ignore_index;
    r.valid.push_back(valid);
    const std::vector<double>& row = lsm[p];
    double smooth = 0;
    for (size_t c = 0; c < row.size(); ++c) smooth -= (w.empty() ? 1.0 : w[c]) * row[c];
    if (!valid) {
      r.nll.push_back(0);
      r.target_weight.push_back(0);
      r.smooth.push_back(0);
      continue;
    }
    const double wt = w.empty() ? 1.0 : w[static_cast<size_t>(t)];
    r.nll.push_back(-wt * row[static_cast<size_t>(t)]);
    r.target_weight.push_back(wt);
    r.smooth.push_back(smooth);
  }
  return r;
}

double total(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

Expected reduce_loss(const std::vector<double>& per_position, double denominator, int64_t reduction,
                     lz::IntArrayRef target_sizes, lz::ScalarType dtype) {
  if (reduction == 0) return Expected{lz::SizeVec(target_sizes.begin(), target_sizes.end()), dtype, per_position};
  const double s = total(per_position);
  return Expected{{}, dtype, {reduction == 2 ? s : s / denominator}};
}

std::vector<double> weight_values(const SampleInput& s) {
  return s.bool_arg("has_weight") ? values(s[2]) : std::vector<double>();
}

std::optional<Tensor> weight_arg(const SampleInput& s) {
  return s.bool_arg("has_weight") ? std::optional<Tensor>(s[2]) : std::nullopt;
}

Tolerance loss_tolerance(lz::ScalarType t) {
  switch (t) {
    case lz::kFloat16: return {4e-3, 4e-3};
    case lz::kBFloat16: return {3e-2, 3e-2};
    case lz::kFloat32: return {1e-5, 1e-5};
    case lz::kFloat64: return {1e-12, 1e-12};
    default: return {0, 0};
  }
}

std::vector<ErrorInput> nll_errors(const std::string& name) {
  auto sample = [](const Tensor& x, const Tensor& t, std::optional<Tensor> w, int64_t reduction, std::string what) {
    const bool has_w = w.has_value();
    return SampleInput{{x, t, has_w ? *w : lz::zeros({1})},
                       {{"has_weight", lz::IValue(has_w)}, {"reduction", lz::IValue(reduction)}, {"ignore_index", lz::IValue(int64_t{-100})}},
                       std::move(what)};
  };
  const Tensor t = make_tensor({0, 7, 1}, {3}, lz::kInt64);
  return std::vector<ErrorInput>{
      LZT_EXPECT_ERROR(IndexError, sample(lz::zeros({3, 5}), t, std::nullopt, 1, "target 7 of 5 classes"),
                       "[nll_loss] target: Target 7 is out of bounds"),
      LZT_EXPECT_ERROR(TypeError, sample(lz::zeros({3, 5}), lz::zeros({3}), std::nullopt, 1, "float32 target"),
                       "[nll_loss] target: expected class indices of dtype int64 (or uint8), got float32"),
      LZT_EXPECT_ERROR(ShapeError, sample(lz::zeros({3, 5}), make_tensor({0, 1, 1}, {3}, lz::kInt64), lz::ones({4}), 1, "weight [4]"),
                       "[nll_loss] weight: weight tensor should be defined either for all 5 classes or no classes but got weight tensor of shape: [4]"),
      LZT_EXPECT_ERROR(ValueError, sample(lz::zeros({3, 5}), make_tensor({0, 1, 1}, {3}, lz::kInt64), std::nullopt, 3, "reduction 3"),
                       "reduction: 3 is not a valid value for reduction"),
      name == "nll_loss"
          ? LZT_EXPECT_ERROR(ShapeError, sample(lz::zeros({3, 5}), make_tensor({0, 1}, {2}, lz::kInt64), std::nullopt, 1, "4 targets for 3 rows"),
                             "[nll_loss] size mismatch (got input: [3, 5], target: [2])")
          : LZT_EXPECT_ERROR(ValueError, sample(lz::zeros({3, 5}), make_tensor({0, 1}, {2}, lz::kInt64), std::nullopt, 1, "2 targets for 3 rows"),
                             "[nll_loss_nd] target: Expected input batch_size (3) to match target batch_size (2)")};
}

OpInfo nll_loss_entry(bool nd) {
  OpInfo op;
  op.name = nd ? "nll_loss_nd" : "nll_loss";
  op.dtypes = float_types();
  op.samples = [nd](lz::ScalarType t) { return loss_samples(t, nd); };
  op.op = [nd](const SampleInput& s) {
    const auto f = nd ? &lz::nll_loss_nd : &lz::nll_loss;
    return std::vector<Tensor>{f(s[0], s[1], weight_arg(s), reduction_of(s), s.int_arg("ignore_index"))};
  };
  op.reference = [](const SampleInput& s) {
    const IndexLoss r = index_loss(class_rows(s[0]), s[1], weight_values(s), s.int_arg("ignore_index"));
    return std::vector<Expected>{reduce_loss(r.nll, total(r.target_weight), reduction_of(s), s[1].sizes(), s[0].dtype())};
  };
  op.tolerance = loss_tolerance;
  op.errors = [name = op.name] {
    std::vector<ErrorInput> e = nll_errors(name);
    if (name == "nll_loss_nd") {
      e.push_back(LZT_EXPECT_ERROR(ShapeError,
                                   (SampleInput{{lz::zeros({2, 5, 4}), make_tensor({0, 1, 2, 3, 4, 0}, {2, 3}, lz::kInt64), lz::zeros({1})},
                                                {{"has_weight", lz::IValue(false)}, {"reduction", lz::IValue(int64_t{1})}, {"ignore_index", lz::IValue(int64_t{-100})}},
                                                "target [2, 3] for input [2, 5, 4]"}),
                                   "[nll_loss_nd] target: expected target size [2, 4], got [2, 3]"));
    }
    return e;
  };
  return op;
}

// cross_entropy: tensors {input, target, weight}; kwargs has_weight,
// reduction, ignore_index, label_smoothing (and reduction_name to pass a string).
std::vector<SampleInput> cross_entropy_samples(lz::ScalarType t) {
  std::vector<SampleInput> out;
  uint32_t seed = 1300;
  auto add_all = [&](const Tensor& x, const Tensor& target, int64_t classes, int64_t ignore_index, std::string what) {
    const Tensor weight = domain_tensor({classes}, t, seed++, kPositive);
    for (int64_t reduction : {0, 1, 2}) {
      for (double smoothing : {0.0, 0.2}) {
        for (bool has_weight : {false, true}) {
          out.push_back(SampleInput{{x, target, weight},
                                    {{"has_weight", lz::IValue(has_weight)},
                                     {"reduction", lz::IValue(reduction)},
                                     {"ignore_index", lz::IValue(ignore_index)},
                                     {"label_smoothing", lz::IValue(smoothing)}},
                                    what});
        }
      }
    }
  };
  add_all(domain_tensor({4, 5}, t, seed, {}), class_targets({4}, 5, -100, 3, seed + 1), 5, -100, "[4, 5] class indices");
  add_all(domain_tensor({4, 5}, t, seed + 2, {}), class_targets({4}, 5, 2, 0, seed + 3), 5, 2, "[4, 5] class indices, ignore_index 2");
  add_all(domain_tensor({5}, t, seed + 4, {}), class_targets({}, 5, -100, 0, seed + 5), 5, -100, "[5] with a 0-dim class index");
  add_all(domain_tensor({2, 5, 3}, t, seed + 6, {}), class_targets({2, 3}, 5, -100, 4, seed + 7), 5, -100, "[2, 5, 3] class indices");
  add_all(domain_tensor({4, 5}, t, seed + 8, {}), domain_tensor({4, 5}, t, seed + 9, Domain{0, 1}), 5, -100, "[4, 5] probabilities");
  add_all(domain_tensor({5}, t, seed + 10, {}), domain_tensor({5}, t, seed + 11, Domain{0, 1}), 5, -100, "[5] probabilities");
  add_all(domain_tensor({2, 4, 3}, t, seed + 12, {}), domain_tensor({2, 4, 3}, t, seed + 13, Domain{0, 1}), 4, -100, "[2, 4, 3] probabilities");
  add_all(domain_tensor({300, 257}, t, seed + 14, {}), class_targets({300}, 257, -100, 9, seed + 15), 257, -100, "[300, 257] class indices");
  return out;
}

Expected cross_entropy_reference(const SampleInput& s) {
  const Tensor& x = s[0];
  const Tensor& target = s[1];
  const int64_t reduction = reduction_of(s);
  const double ls = s.double_arg("label_smoothing");
  std::vector<std::vector<double>> lsm = class_rows(x);
  for (auto& row : lsm) row = softmax_values(row, /*log=*/true);
  const std::vector<double> w = weight_values(s);
  const int64_t classes = static_cast<int64_t>(lsm.empty() ? 0 : lsm[0].size());
  if (x.sizes() == target.sizes()) {
    const std::vector<std::vector<double>> tr = class_rows(target);
    std::vector<double> per;
    for (size_t p = 0; p < lsm.size(); ++p) {
      double l = 0;
      for (int64_t c = 0; c < classes; ++c) {
        const double tc = ls > 0 ? tr[p][c] * (1 - ls) + ls / static_cast<double>(classes) : tr[p][c];
        l -= (w.empty() ? 1.0 : w[c]) * lsm[p][c] * tc;
      }
      per.push_back(l);
    }
    lz::SizeVec sizes(x.sizes().begin(), x.sizes().end());
    sizes.erase(sizes.begin() + (x.dim() == 1 ? 0 : 1));
    const lz::ScalarType result = lz::promote_types(x.dtype(), target.dtype());
    return reduce_loss(per, static_cast<double>(per.size()), reduction, sizes, result);
  }
  const IndexLoss r = index_loss(lsm, target, w, s.int_arg("ignore_index"));
  std::vector<double> per;
  for (size_t p = 0; p < r.nll.size(); ++p) per.push_back(r.nll[p]);
  if (ls <= 0) return reduce_loss(per, total(r.target_weight), reduction, target.sizes(), x.dtype());
  const double tw = total(r.target_weight);
  if (reduction == 0) {
    std::vector<double> mixed;
    for (size_t p = 0; p < per.size(); ++p) mixed.push_back((1 - ls) * per[p] + ls / static_cast<double>(classes) * r.smooth[p]);
    return Expected{lz::SizeVec(target.sizes().begin(), target.sizes().end()), x.dtype(), mixed};
  }
  const double nll = reduction == 2 ? total(per) : total(per) / tw;
  const double smooth = reduction == 2 ? total(r.smooth) : total(r.smooth) / tw;
  return Expected{{}, x.dtype(), {(1 - ls) * nll + ls / static_cast<double>(classes) * smooth}};
}

OpInfo cross_entropy_entry() {
  OpInfo op;
  op.name = "cross_entropy";
  op.dtypes = float_types();
  op.samples = cross_entropy_samples;
  op.op = [](const SampleInput& s) {
    static const char* const kNames[] = {"none", "mean", "sum"};
    const std::string reduction = s.has("reduction_name") ? std::string(s.arg("reduction_name").to_string_view())
                                                          : kNames[reduction_of(s)];
    return std::vector<Tensor>{lz::cross_entropy(s[0], s[1], weight_arg(s), reduction, s.int_arg("ignore_index"),
                                                 s.double_arg("label_smoothing"))};
  };
  op.reference = [](const SampleInput& s) { return std::vector<Expected>{cross_entropy_reference(s)}; };
  op.tolerance = loss_tolerance;
  op.errors = [] {
    auto sample = [](const Tensor& x, const Tensor& t, int64_t ignore_index, double ls, std::string what) {
      return SampleInput{{x, t, lz::zeros({1})},
                         {{"has_weight", lz::IValue(false)},
                          {"reduction", lz::IValue(int64_t{1})},
                          {"ignore_index", lz::IValue(ignore_index)},
                          {"label_smoothing", lz::IValue(ls)}},
                         std::move(what)};
    };
    SampleInput bad_reduction = sample(lz::zeros({2, 3}), make_tensor({0, 1}, {2}, lz::kInt64), -100, 0, "reduction \"avg\"");
    bad_reduction.kwargs["reduction_name"] = lz::IValue("avg");
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(IndexError, sample(lz::zeros({2, 3}), make_tensor({0, 9}, {2}, lz::kInt64), -100, 0, "target 9 of 3 classes"),
                         "Target 9 is out of bounds"),
        LZT_EXPECT_ERROR(TypeError, sample(lz::zeros({2, 3}), lz::zeros({2, 3}, lz::kInt64), -100, 0, "int64 target of the input's shape"),
                         "[cross_entropy] target: expected floating point type for target with class probabilities, got int64"),
        LZT_EXPECT_ERROR(ValueError, sample(lz::zeros({2, 3}), lz::zeros({2, 3}), 1, 0, "ignore_index with probabilities"),
                         "[cross_entropy] ignore_index: ignore_index is not supported for floating point target"),
        LZT_EXPECT_ERROR(ValueError, sample(lz::zeros({2, 3}), make_tensor({0, 1}, {2}, lz::kInt64), -100, 1.5, "label_smoothing 1.5"),
                         "[cross_entropy] label_smoothing: label_smoothing must be between 0.0 and 1.0. Got: 1.5"),
        LZT_EXPECT_ERROR(ValueError, bad_reduction, "[cross_entropy] reduction: \"avg\" is not a valid value for reduction"),
        LZT_EXPECT_ERROR(ShapeError, sample(lz::zeros({2, 3, 4}), lz::zeros({2, 5}, lz::kInt64), -100, 0.1, "target [2, 5] for [2, 3, 4]"),
                         "[cross_entropy] target: expected target size [2, 4], got [2, 5]"),
        LZT_EXPECT_ERROR(TypeError, sample(lz::zeros({2, 3}, lz::kInt64), make_tensor({0, 1}, {2}, lz::kInt64), -100, 0, "int64 scores"),
                         "[cross_entropy] self: expected floating point class scores, got int64")};
  };
  return op;
}

// ---- element-wise losses (eager_kernels/register_losses.cpp) -----------------------

// The loss per element reduced as `reduction` says: the mean of no elements
// is NaN (as mean() of an empty tensor), and a float16 sum of the large
// samples overflows (to inf, as in PyTorch).
std::vector<Expected> reduced(Expected loss, int64_t reduction) {
  if (reduction == lz::Reduction::None) return {loss};
  double sum = 0;
  for (double v : loss.values) sum += v;
  const double n = static_cast<double>(loss.values.size());
  double value = reduction == lz::Reduction::Sum ? sum : n == 0 ? std::nan("") : sum / n;
  if (loss.dtype == lz::kFloat16 && std::fabs(value) >= 65520) value = std::numeric_limits<double>::infinity();
  return {Expected{{}, loss.dtype, {value}}};
}

std::vector<lz::IValue> reductions() { return {lz::IValue(int64_t{0}), lz::IValue(int64_t{1}), lz::IValue(int64_t{2})}; }

// The errors every element-wise loss shares (its checks are one function).
std::vector<ErrorInput> loss_input_errors(const std::string& name) {
  const auto sample = [](const Tensor& a, const Tensor& b, int64_t reduction, std::string what) {
    return SampleInput{{a, b}, {{"reduction", lz::IValue(reduction)}}, std::move(what)};
  };
  return std::vector<ErrorInput>{
      expect_error<lz::ValueError>(sample(lz::zeros({3}), lz::zeros({3}), 3, "reduction 3"), "lz::ValueError",
                                   "[" + name + "] reduction: 3 is not a valid value for reduction"),
      expect_error<lz::TypeError>(sample(lz::zeros({3}, lz::kInt64), lz::zeros({3}, lz::kInt64), 1, "int64"),
                                  "lz::TypeError",
                                  "[" + name + "] self, target: expected floating point tensors, got int64 and int64"),
      expect_error<lz::ShapeError>(sample(lz::zeros({3}), lz::zeros({2}), 1, "[3] and [2]"), "lz::ShapeError",
                                   "[" + name + "] self shape [3] and target shape [2] are not broadcastable")};
}

// A loss of (self - target) per element: mse_loss, l1_loss, smooth_l1_loss.
OpInfo distance_loss_entry(std::string name, std::vector<lz::IValue> betas,
                           std::function<Tensor(const Tensor&, const Tensor&, int64_t, double)> call,
                           std::function<double(double, double)> per_element) {
  OpInfo op;
  op.name = name;
  op.dtypes = float_types();
  op.samples = [betas](lz::ScalarType t) {
    std::vector<SampleInput> out = with_kwarg(binary_samples(t), "reduction", reductions());
    return betas.empty() ? out : with_kwarg(out, "beta", betas);
  };
  op.op = [call](const SampleInput& s) {
    return std::vector<Tensor>{call(s[0], s[1], s.int_arg("reduction"), s.has("beta") ? s.double_arg("beta") : 0)};
  };
  op.reference = [per_element](const SampleInput& s) {
    const double beta = s.has("beta") ? s.double_arg("beta") : 0;
    return reduced(map_reference(s[0], s[1], s[0].dtype(), [&](double a, double b) { return per_element(a - b, beta); }),
                   s.int_arg("reduction"));
  };
  // Each element rounds to the dtype before the sum.
  op.tolerance = norm_tolerance;
  op.errors = [name] {
    std::vector<ErrorInput> errors = loss_input_errors(name);
    for (ErrorInput& e : errors) e.input.kwargs["beta"] = lz::IValue(1.0);
    return errors;
  };
  return op;
}

OpInfo smooth_l1_loss_entry() {
  OpInfo op = distance_loss_entry(
      // Betas no sample difference (a multiple of 1/4) equals: at |d| == beta the
      // second derivative jumps, which finite differences cannot check.
      "smooth_l1_loss", {lz::IValue(0.9), lz::IValue(0.3), lz::IValue(0.0)},
      [](const Tensor& a, const Tensor& b, int64_t r, double beta) { return lz::smooth_l1_loss(a, b, r, beta); },
      [](double d, double beta) {
        const double m = std::fabs(d);
        return m < beta ? 0.5 * d * d / beta : m - 0.5 * beta;
      });
  // 0.5 / beta is not exact: each of the many float64 terms rounds once more.
  op.tolerance = [](lz::ScalarType t) {
    return t == lz::kFloat64 ? Tolerance{1e-10, 1e-10} : norm_tolerance(t);
  };
  const auto errors = op.errors;
  op.errors = [errors] {
    std::vector<ErrorInput> out = errors();
    out.push_back(LZT_EXPECT_ERROR(
        ValueError, (SampleInput{{lz::zeros({3}), lz::zeros({3})}, {{"reduction", lz::IValue(int64_t{1})}, {"beta", lz::IValue(-1.0)}}, "beta -1"}),
        "[smooth_l1_loss] beta: expected a non-negative beta, got -1"));
    return out;
  };
  return op;
}

// Probabilities (multiples of 1/4 in [0, 1]: 0 and 1 reach the clamped logs)
// and targets of one shape; tensors {self, target, weight} with weight used
// when has_weight.
std::vector<SampleInput> probability_samples(lz::ScalarType t, const Domain& self_domain) {
  std::vector<SampleInput> out;
  uint32_t seed = 1300;
  for (lz::SizeVec sizes : {lz::SizeVec{6, 5}, lz::SizeVec{}, lz::SizeVec{0, 3}, lz::SizeVec{300, 257}}) {
    for (auto& [layout, self] : layouts(sizes, t, seed, self_domain)) {
      const Tensor target = domain_tensor(sizes, t, seed + 1, Domain{0, 1});
      const Tensor weight = domain_tensor(sizes, t, seed + 2, kPositive);
      for (bool has_weight : {false, true}) {
        out.push_back(SampleInput{{self, target, weight}, {{"has_weight", lz::IValue(has_weight)}},
                                  lz::shape_str(sizes) + " " + layout + (has_weight ? ", weighted" : "")});
      }
    }
    seed += 3;
  }
  return with_kwarg(out, "reduction", reductions());
}

std::optional<Tensor> weight_of(const SampleInput& s) {
  return s.bool_arg("has_weight") ? std::optional<Tensor>(s[2]) : std::nullopt;
}

std::vector<ErrorInput> probability_loss_errors(const std::string& name) {
  std::vector<ErrorInput> errors = loss_input_errors(name);
  errors.push_back(expect_error<lz::ShapeError>(
      SampleInput{{lz::zeros({3}), lz::zeros({1})}, {{"reduction", lz::IValue(int64_t{1})}}, "[3] and [1]"},
      "lz::ShapeError", "[" + name + "] target: expected target of self's shape [3], got [1]"));  // broadcastable is not enough
  for (ErrorInput& e : errors) {
    e.input.kwargs["has_weight"] = lz::IValue(false);
  }
  return errors;
}

OpInfo binary_cross_entropy_entry() {
  OpInfo op;
  op.name = "binary_cross_entropy";
  op.dtypes = float_types();
  op.samples = [](lz::ScalarType t) { return probability_samples(t, Domain{0, 1}); };
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::binary_cross_entropy(s[0], s[1], weight_of(s), s.int_arg("reduction"))};
  };
  op.reference = [](const SampleInput& s) {
    const bool weighted = s.bool_arg("has_weight");
    const Expected loss = map_reference(s[0], s[1], s[2], s[0].dtype(), [&](double p, double t, double w) {
      const double l = (t - 1) * std::max(std::log1p(-p), -100.0) - t * std::max(std::log(p), -100.0);
      return weighted ? l * w : l;
    });
    return reduced(loss, s.int_arg("reduction"));
  };
  op.tolerance = norm_tolerance;
  op.errors = [] { return probability_loss_errors("binary_cross_entropy"); };
  return op;
}

OpInfo binary_cross_entropy_with_logits_entry() {
  OpInfo op;
  op.name = "binary_cross_entropy_with_logits";
  op.dtypes = float_types();
  op.samples = [](lz::ScalarType t) {
    // pos_weight (when has_pos_weight) scales the positive term per class (the last dim).
    std::vector<SampleInput> out = with_kwarg(probability_samples(t, Domain{}), "has_pos_weight",
                                              {lz::IValue(false), lz::IValue(true)});
    for (SampleInput& s : out) {
      // A 0-dim self takes a 0-dim pos_weight: a [1] one would broadcast the loss to [1].
      const lz::SizeVec classes = s[0].dim() == 0 ? lz::SizeVec{} : lz::SizeVec{s[0].size(-1)};
      s.tensors.push_back(domain_tensor(classes, t, 1400, kPositive));
    }
    return out;
  };
  op.op = [](const SampleInput& s) {
    const std::optional<Tensor> pos_weight =
        s.bool_arg("has_pos_weight") ? std::optional<Tensor>(s[3]) : std::nullopt;
    return std::vector<Tensor>{
        lz::binary_cross_entropy_with_logits(s[0], s[1], weight_of(s), pos_weight, s.int_arg("reduction"))};
  };
  op.reference = [](const SampleInput& s) {
    const bool weighted = s.bool_arg("has_weight"), pos = s.bool_arg("has_pos_weight");
    const std::vector<double> pos_weight = values(s[3]);
    const int64_t classes = static_cast<int64_t>(pos_weight.size());
    int64_t i = 0;  // map_reference visits elements in row-major order
    const Expected loss = map_reference(s[0], s[1], s[2], s[0].dtype(), [&](double x, double t, double w) {
      const double pw = pos ? pos_weight[static_cast<size_t>(i++ % classes)] : 1.0;
      // -(pw * t * log(sigmoid(x)) + (1 - t) * log(1 - sigmoid(x)))
      const double log_sigmoid = -std::log1p(std::exp(-x)), log_not_sigmoid = -std::log1p(std::exp(x));
      const double l = -(pw * t * log_sigmoid + (1 - t) * log_not_sigmoid);
      return weighted ? l * w : l;
    });
    return reduced(loss, s.int_arg("reduction"));
  };
  op.tolerance = norm_tolerance;
  op.errors = [] {
    std::vector<ErrorInput> errors = probability_loss_errors("binary_cross_entropy_with_logits");
    for (ErrorInput& e : errors) e.input.kwargs["has_pos_weight"] = lz::IValue(false);
    return errors;
  };
  return op;
}

}  // namespace

void add_loss_ops(std::vector<OpInfo>& t) {
  t.push_back(nll_loss_entry(false));
  t.push_back(nll_loss_entry(true));
  t.push_back(cross_entropy_entry());
  t.push_back(distance_loss_entry(
      "mse_loss", {}, [](const Tensor& a, const Tensor& b, int64_t r, double) { return lz::mse_loss(a, b, r); },
      [](double d, double) { return d * d; }));
  t.push_back(distance_loss_entry(
      "l1_loss", {}, [](const Tensor& a, const Tensor& b, int64_t r, double) { return lz::l1_loss(a, b, r); },
      [](double d, double) { return std::fabs(d); }));
  t.push_back(smooth_l1_loss_entry());
  t.push_back(binary_cross_entropy_entry());
  t.push_back(binary_cross_entropy_with_logits_entry());
}

}  // namespace lzt
