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

#include "tests/autograd/gradcheck_util.h"
#include "tests/op_table/op_info.h"
#include "tests/op_table/tensor_access.h"

using lz::Tensor;

namespace {

// Entries of operators whose formulas are still missing (see
// test_derivative_coverage.cpp): gradcheck expects their NotImplementedError.
const std::set<std::string> kKnownMissing = {"as_strided"};

constexpr int64_t kElementsChecked = 48;

// "" when analytic and numeric gradients agree; "missing: ..." for a
// NotImplementedError; "skip: ..." when the sample cannot be checked.
std::string gradcheck(const lzt::OpInfo& op, const lzt::SampleInput& sample, bool lazy) {
  const std::vector<size_t> inputs = lzt::float64_inputs(sample);
  if (inputs.empty()) return "skip: no float64 input";
  for (size_t i : inputs) {
    if (!lzt::all_finite(sample.tensors[i])) return "skip: non-finite input";
  }

  // Analytic: the sample's own tensors (views keep their strides) as leaves.
  lzt::SampleInput s = sample;
  std::vector<Tensor> leaves;
  for (size_t i : inputs) {
    Tensor t = lazy ? sample.tensors[i].to_lazy() : lz::Tensor(sample.tensors[i].detach());
    t.requires_grad_();
    s.tensors[i] = t;
    leaves.push_back(t);
  }
  std::vector<Tensor> weights;
  Tensor total;
  std::vector<Tensor> analytic;
  try {
    total = lzt::weighted_sum(op, s, &weights);
    if (!total.defined() || !total.requires_grad()) return "skip: no differentiable float64 output";
    analytic = lz::autograd::grad({total}, leaves, {}, std::nullopt, false, /*allow_unused=*/true);
  } catch (const lz::NotImplementedError& e) {
    return std::string("missing: ") + e.what();
  }
  const double value = total.item<double>();
  if (!std::isfinite(value)) return "skip: non-finite result";

  // Numeric: central differences of the eager call.
  lz::NoGradGuard no_grad;
  double magnitude = 0;  // the size of the sum's terms, for its rounding error
  {
    std::vector<Tensor> outs = op.op(sample);
    for (size_t k = 0; k < outs.size() && k < weights.size(); ++k) {
      if (weights[k].defined()) magnitude += (outs[k] * weights[k]).abs().sum().item<double>();
    }
  }
  const auto f = [&](const lzt::SampleInput& p) {
    std::vector<Tensor> w = weights;
    return lzt::weighted_sum(op, p, &w).item<double>();
  };
  return lzt::compare_with_differences(f, sample, inputs, analytic, value, magnitude, kElementsChecked);
}

// The gradients autograd computes with the sample's float64 tensors made
// float32 against the float64 ones ("" when they agree): the formulas keep
// the input's dtype and lose no more than float32's rounding.
std::string float32_matches_float64(const lzt::OpInfo& op, const lzt::SampleInput& sample) {
  const std::vector<size_t> inputs = lzt::float64_inputs(sample);
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
    if (g64[n].numel() == 0 || !lzt::all_finite(g64[n])) continue;
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

// Every entry checked (more than 100), and the ones without a formula
// are the known ones.
void check_coverage(const lzt::TableCoverage& coverage, const char* label) {
  std::cout << "gradcheck (" << label << "): " << coverage.checked.size() << " table entries checked, "
            << coverage.missing.size() << " without a formula\n";
  for (const auto& [name, why] : coverage.missing) {
    INFO(name << " (" << label << "): " << why);
    CHECK(kKnownMissing.contains(name));
  }
  CHECK(coverage.checked.size() > 100);
}

}  // namespace

TEST_CASE("gradcheck: every differentiable table entry, eagerly", "[autograd][gradcheck]") {
  lzt::TableCoverage coverage;
  lzt::check_table([](const lzt::OpInfo& op, const lzt::SampleInput& s) { return gradcheck(op, s, false); }, "eager",
                   {}, &coverage);
  check_coverage(coverage, "eager");
}

TEST_CASE("gradcheck: every differentiable table entry, lazily", "[autograd][gradcheck][lazy]") {
  lzt::TableCoverage coverage;
  lzt::check_table([](const lzt::OpInfo& op, const lzt::SampleInput& s) { return gradcheck(op, s, true); }, "lazy",
                   {}, &coverage);
  check_coverage(coverage, "lazy");
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
