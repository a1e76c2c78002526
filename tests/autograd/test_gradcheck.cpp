// gradcheck over the operator table: for every entry with float64 samples,
// the gradient autograd computes (eagerly, and with the inputs lazy) against
// central finite differences of the same call, for a random weighting of
// its outputs (so the whole Jacobian is exercised, not only its column
// sums). Samples include broadcasting, non-contiguous and expanded inputs,
// 0-dim and 0-size tensors, as the table generates them.
#include <cmath>
#include <iostream>
#include <set>

#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/op_table/op_info.h"
#include "tests/op_table/tensor_access.h"

using lz::Tensor;

namespace {

// Entries of operators whose formulas are still missing (see
// test_derivative_coverage.cpp): gradcheck expects their NotImplementedError.
const std::set<std::string> kKnownMissing = {"index_select", "gather", "as_strided"};

constexpr double kEps = 1e-6;
constexpr double kAtol = 1e-5;
constexpr double kRtol = 1e-4;
constexpr int64_t kElementsChecked = 48;

bool all_finite(const Tensor& t) {
  for (double v : lzt::values(t)) {
    if (!std::isfinite(v)) return false;
  }
  return true;
}

struct Call {
  const lzt::OpInfo& op;
  std::vector<size_t> inputs;   // float64 tensors of the sample: the differentiated ones
  std::vector<Tensor> weights;  // one per output (undefined: not a float64 output)
};

// sum_k <w_k, out_k> of the call on `sample`.
Tensor weighted_sum(const Call& call, const lzt::SampleInput& sample, std::vector<Tensor>* weights) {
  std::vector<Tensor> outs = call.op.op(sample);
  Tensor total;
  for (size_t k = 0; k < outs.size(); ++k) {
    if (!outs[k].defined() || outs[k].dtype() != lz::kFloat64) continue;
    if (weights->size() <= k) weights->resize(k + 1);
    Tensor& w = (*weights)[k];
    if (!w.defined()) w = lzt::sample_tensor(outs[k].sizes(), lz::kFloat64, 100 + static_cast<uint32_t>(k));
    Tensor term = (outs[k] * (outs[k].is_lazy() ? w.to_lazy() : w)).sum();
    total = total.defined() ? total + term : term;
  }
  return total;
}

// "" when analytic and numeric gradients agree; "missing: ..." for a
// NotImplementedError; "skip: ..." when the sample cannot be checked.
std::string gradcheck(const lzt::OpInfo& op, const lzt::SampleInput& sample, bool lazy) {
  Call call{op, {}, {}};
  for (size_t i = 0; i < sample.tensors.size(); ++i) {
    const Tensor& t = sample.tensors[i];
    if (!t.defined() || t.dtype() != lz::kFloat64) continue;
    if (!all_finite(t)) return "skip: non-finite input";
    call.inputs.push_back(i);
  }
  if (call.inputs.empty()) return "skip: no float64 input";

  // Analytic: the sample's own tensors (views keep their strides) as leaves.
  lzt::SampleInput s = sample;
  std::vector<Tensor> leaves;
  for (size_t i : call.inputs) {
    Tensor t = lazy ? sample.tensors[i].to_lazy() : lz::Tensor(sample.tensors[i].detach());
    t.requires_grad_();
    s.tensors[i] = t;
    leaves.push_back(t);
  }
  std::vector<Tensor> weights;
  Tensor total;
  std::vector<Tensor> analytic;
  try {
    total = weighted_sum(call, s, &weights);
    if (!total.defined() || !total.requires_grad()) return "skip: no differentiable float64 output";
    analytic = lz::autograd::grad({total}, leaves, {}, std::nullopt, false, /*allow_unused=*/true);
  } catch (const lz::NotImplementedError& e) {
    return std::string("missing: ") + e.what();
  }
  const double value = total.item<double>();
  if (!std::isfinite(value)) return "skip: non-finite result";
  call.weights = weights;

  // The size of the sum's terms, for its rounding error.
  double magnitude = 0;
  {
    lz::NoGradGuard no_grad;
    std::vector<Tensor> outs = op.op(sample);
    for (size_t k = 0; k < outs.size() && k < weights.size(); ++k) {
      if (weights[k].defined()) magnitude += (outs[k] * weights[k]).abs().sum().item<double>();
    }
  }

  // Numeric: central differences of the eager call, one element at a time.
  lz::NoGradGuard no_grad;
  for (size_t n = 0; n < call.inputs.size(); ++n) {
    const size_t i = call.inputs[n];
    const Tensor base = sample.tensors[i].contiguous().clone();
    const std::vector<double> got = analytic[n].defined() ? lzt::values(analytic[n].to_eager())
                                                           : std::vector<double>(static_cast<size_t>(base.numel()), 0.0);
    if (analytic[n].defined() && analytic[n].sizes() != base.sizes()) {
      return "gradient of input " + std::to_string(i) + " has shape " + lz::shape_str(analytic[n].sizes());
    }
    double* data = base.data_ptr<double>();
    // Up to kElementsChecked elements, spread over the tensor (the large
    // samples exercise the large-kernel paths of the analytic side).
    const int64_t numel = base.numel();
    const int64_t stride = std::max<int64_t>(1, numel / kElementsChecked);
    for (int64_t j = 0; j < numel; j += stride) {
      const double x = data[j];
      auto at = [&](double v) {
        data[j] = v;
        lzt::SampleInput p = sample;
        p.tensors[i] = base.clone();
        std::vector<Tensor> w = call.weights;
        return weighted_sum(call, p, &w).item<double>();
      };
      const double plus = at(x + kEps), minus = at(x - kEps);
      const double near_plus = at(x + kEps / 8), near_minus = at(x - kEps / 8);
      data[j] = x;
      const double left = (value - minus) / kEps, right = (plus - value) / kEps;
      const double numeric = (plus - minus) / (2 * kEps);
      const double closer = (near_plus - near_minus) / (kEps / 4);
      if (!std::isfinite(numeric) || !std::isfinite(closer)) continue;
      // Rounding of the weighted sum, amplified by the division by eps.
      const double rounding = 1e-14 * magnitude / kEps;
      // A kink or a jump at x (relu or abs at 0, ties of max, a step of
      // floor): the one-sided differences disagree, or the estimate grows
      // as eps shrinks. Not differentiable there; the formula's choice
      // (PyTorch's subgradient) is accepted.
      const double scale = std::max({1.0, std::abs(left), std::abs(right)});
      if (std::abs(left - right) > 1e-3 * scale + 8 * rounding) continue;
      if (std::abs(numeric - closer) > 1e-3 * scale + 64 * rounding) continue;
      const double actual = got[static_cast<size_t>(j)];
      if (std::abs(actual - numeric) > kAtol + kRtol * std::abs(numeric) + rounding) {
        return "input " + std::to_string(i) + " element " + std::to_string(j) + ": autograd " + lzt::fmt(actual) +
               ", finite differences " + lzt::fmt(numeric);
      }
    }
  }
  return "";
}

// The gradients autograd computes with the sample's float64 tensors made
// float32 against the float64 ones ("" when they agree): the formulas keep
// the input's dtype and lose no more than float32's rounding.
std::string float32_matches_float64(const lzt::OpInfo& op, const lzt::SampleInput& sample) {
  std::vector<size_t> inputs;
  for (size_t i = 0; i < sample.tensors.size(); ++i) {
    const Tensor& t = sample.tensors[i];
    if (t.defined() && t.dtype() == lz::kFloat64) inputs.push_back(i);
  }
  if (inputs.empty()) return "skip: no float64 input";
  const auto gradients = [&](lz::ScalarType dtype, std::vector<Tensor>* grads) -> std::string {
    lzt::SampleInput s = sample;
    std::vector<Tensor> leaves;
    for (size_t i : inputs) {
      Tensor t = sample.tensors[i].detach().to(dtype);
      t.requires_grad_();
      s.tensors[i] = t;
      leaves.push_back(t);
    }
    Tensor total;
    std::vector<Tensor> outs = op.op(s);
    for (size_t k = 0; k < outs.size(); ++k) {
      if (!outs[k].defined() || !outs[k].is_floating_point() || !outs[k].requires_grad()) continue;
      const Tensor w = lzt::sample_tensor(outs[k].sizes(), lz::kFloat64, 100 + static_cast<uint32_t>(k)).to(dtype);
      Tensor term = (outs[k] * w).sum();
      total = total.defined() ? total + term : term;
    }
    if (!total.defined()) return "skip: no differentiable output";
    if (!std::isfinite(total.item<double>())) return "skip: non-finite result";
    *grads = lz::autograd::grad({total}, leaves, {}, std::nullopt, false, /*allow_unused=*/true);
    return "";
  };
  std::vector<Tensor> g64, g32;
  if (std::string why = gradients(lz::kFloat64, &g64); !why.empty()) return why;
  if (std::string why = gradients(lz::kFloat32, &g32); !why.empty()) return why;
  for (size_t n = 0; n < inputs.size(); ++n) {
    if (g64[n].defined() != g32[n].defined()) return "input " + std::to_string(inputs[n]) + ": defined in one dtype only";
    if (!g64[n].defined()) continue;
    if (g32[n].dtype() != lz::kFloat32) {
      return "input " + std::to_string(inputs[n]) + ": float32 gradient is " + std::string(lz::to_string(g32[n].dtype()));
    }
    if (g32[n].sizes() != g64[n].sizes()) return "input " + std::to_string(inputs[n]) + ": the gradients' shapes differ";
    if (g64[n].numel() == 0 || !all_finite(g64[n])) continue;
    // float32 rounds inputs and intermediates to ~6e-8 relative: allow a
    // thousandth of the gradient's largest element.
    const Tensor diff = (g32[n].to(lz::kFloat64) - g64[n]).abs();
    const double scale = std::max(1.0, g64[n].abs().max().item<double>());
    if (scale > 1e30) continue;  // beyond what float32 holds (prod of many elements)
    if (diff.max().item<double>() > 1e-3 * scale) {
      return "input " + std::to_string(inputs[n]) + ": float32 and float64 gradients differ by " +
             lzt::fmt(diff.max().item<double>()) + " (largest float64 element " + lzt::fmt(scale) + ")";
    }
  }
  return "";
}

struct Coverage {
  std::set<std::string> checked, missing;
};

void run_table(bool lazy, Coverage* coverage) {
  for (const lzt::OpInfo& op : lzt::op_table()) {
    if (op.check) continue;  // random operators: no reference values, no differences either
    if (std::find(op.dtypes.begin(), op.dtypes.end(), lz::kFloat64) == op.dtypes.end()) continue;
    for (const lzt::SampleInput& sample : op.samples(lz::kFloat64)) {
      std::string problem;
      try {
        problem = gradcheck(op, sample, lazy);
      } catch (const std::exception& e) {
        problem = std::string("threw: ") + e.what();
      }
      if (problem.rfind("skip:", 0) == 0) continue;
      if (problem.rfind("missing:", 0) == 0) {
        coverage->missing.insert(op.name);
        INFO(op.name << " (" << (lazy ? "lazy" : "eager") << "): " << problem);
        CHECK(kKnownMissing.contains(op.name));
        continue;
      }
      coverage->checked.insert(op.name);
      INFO(op.name << " (" << (lazy ? "lazy" : "eager") << ") on " << sample.str());
      CHECK(problem == "");
    }
  }
}

}  // namespace

TEST_CASE("gradcheck: every differentiable table entry, eagerly", "[autograd][gradcheck]") {
  Coverage coverage;
  run_table(false, &coverage);
  std::cout << "gradcheck (eager): " << coverage.checked.size() << " table entries checked, "
            << coverage.missing.size() << " without a formula\n";
  CHECK(coverage.checked.size() > 100);
}

TEST_CASE("gradcheck: every differentiable table entry, lazily", "[autograd][gradcheck][lazy]") {
  Coverage coverage;
  run_table(true, &coverage);
  std::cout << "gradcheck (lazy): " << coverage.checked.size() << " table entries checked, "
            << coverage.missing.size() << " without a formula\n";
  CHECK(coverage.checked.size() > 100);
}

TEST_CASE("gradcheck: float32 gradients match float64 over the table", "[autograd][gradcheck]") {
  size_t checked = 0;
  for (const lzt::OpInfo& op : lzt::op_table()) {
    if (op.check || kKnownMissing.contains(op.name)) continue;
    if (std::find(op.dtypes.begin(), op.dtypes.end(), lz::kFloat64) == op.dtypes.end()) continue;
    if (std::find(op.dtypes.begin(), op.dtypes.end(), lz::kFloat32) == op.dtypes.end()) continue;
    for (const lzt::SampleInput& sample : op.samples(lz::kFloat64)) {
      std::string problem;
      try {
        problem = float32_matches_float64(op, sample);
      } catch (const std::exception& e) {
        problem = std::string("threw: ") + e.what();
      }
      if (problem.rfind("skip:", 0) == 0) continue;
      ++checked;
      INFO(op.name << " on " << sample.str());
      CHECK(problem == "");
    }
  }
  std::cout << "gradcheck (float32 against float64): " << checked << " samples\n";
  CHECK(checked > 100);
}
