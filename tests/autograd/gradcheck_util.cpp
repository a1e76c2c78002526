#include "tests/autograd/gradcheck_util.h"

#include <algorithm>
#include <cmath>

#include <catch2/catch.hpp>

#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

constexpr double kEps = 1e-6;
constexpr double kAtol = 1e-5;
constexpr double kRtol = 1e-4;

}  // namespace

bool all_finite(const lz::Tensor& t) {
  for (double v : values(t)) {
    if (!std::isfinite(v)) return false;
  }
  return true;
}

std::vector<size_t> float64_inputs(const SampleInput& sample) {
  std::vector<size_t> inputs;
  for (size_t i = 0; i < sample.tensors.size(); ++i) {
    const lz::Tensor& t = sample.tensors[i];
    if (t.defined() && t.dtype() == lz::kFloat64) inputs.push_back(i);
  }
  return inputs;
}

lz::Tensor weighted_sum(const OpInfo& op, const SampleInput& sample, std::vector<lz::Tensor>* weights) {
  std::vector<lz::Tensor> outs = op.op(sample);
  lz::Tensor total;
  for (size_t k = 0; k < outs.size(); ++k) {
    if (!outs[k].defined() || outs[k].dtype() != lz::kFloat64) continue;
    if (weights->size() <= k) weights->resize(k + 1);
    lz::Tensor& w = (*weights)[k];
    if (!w.defined()) w = sample_tensor(outs[k].sizes(), lz::kFloat64, 100 + static_cast<uint32_t>(k));
    lz::Tensor term = (outs[k] * (outs[k].is_lazy() ? w.to_lazy() : w)).sum();
    total = total.defined() ? total + term : term;
  }
  return total;
}

std::string compare_with_differences(const SampleFunction& f, const SampleInput& sample,
                                     const std::vector<size_t>& inputs,
                                     const std::vector<lz::Tensor>& analytic, double value,
                                     double magnitude, int64_t elements) {
  for (size_t n = 0; n < inputs.size(); ++n) {
    const size_t i = inputs[n];
    const lz::Tensor base = sample.tensors[i].contiguous().clone();
    if (analytic[n].defined() && analytic[n].sizes() != base.sizes()) {
      return "gradient of input " + std::to_string(i) + " has shape " + lz::shape_str(analytic[n].sizes());
    }
    const std::vector<double> got = analytic[n].defined()
                                        ? values(analytic[n].to_eager())
                                        : std::vector<double>(static_cast<size_t>(base.numel()), 0.0);
    double* data = base.data_ptr<double>();
    // Elements spread over the tensor (the large samples exercise the
    // large-kernel paths of the analytic side).
    const int64_t numel = base.numel();
    const int64_t stride = std::max<int64_t>(1, numel / elements);
    for (int64_t j = 0; j < numel; j += stride) {
      const double x = data[j];
      auto at = [&](double v) {
        data[j] = v;
        SampleInput p = sample;
        p.tensors[i] = base.clone();
        return f(p);
      };
      const double plus = at(x + kEps), minus = at(x - kEps);
      const double near_plus = at(x + kEps / 8), near_minus = at(x - kEps / 8);
      data[j] = x;
      const double left = (value - minus) / kEps, right = (plus - value) / kEps;
      const double numeric = (plus - minus) / (2 * kEps);
      const double closer = (near_plus - near_minus) / (kEps / 4);
      if (!std::isfinite(numeric) || !std::isfinite(closer)) continue;
      // Rounding of f, amplified by the division by eps.
      const double rounding = 1e-14 * magnitude / kEps;
      // A kink or a jump at x (relu or abs at 0, ties of max, a step of
      // floor): the one-sided differences disagree, or the estimate grows
      // as eps shrinks.
      const double scale = std::max({1.0, std::abs(left), std::abs(right)});
      if (std::abs(left - right) > 1e-3 * scale + 8 * rounding) continue;
      if (std::abs(numeric - closer) > 1e-3 * scale + 64 * rounding) continue;
      const double actual = got[static_cast<size_t>(j)];
      if (std::abs(actual - numeric) > kAtol + kRtol * std::abs(numeric) + rounding) {
        return "input " + std::to_string(i) + " element " + std::to_string(j) + ": autograd " + fmt(actual) +
               ", finite differences " + fmt(numeric);
      }
    }
  }
  return "";
}

void check_table(const SampleCheck& check, const std::string& label, const std::set<std::string>& only,
                 TableCoverage* coverage) {
  for (const OpInfo& op : op_table()) {
    if (op.check) continue;  // random operators: no reference values, no differences either
    if (!only.empty() && !only.contains(op.name)) continue;
    if (std::find(op.dtypes.begin(), op.dtypes.end(), lz::kFloat64) == op.dtypes.end()) continue;
    for (const SampleInput& sample : op.samples(lz::kFloat64)) {
      std::string problem;
      try {
        problem = check(op, sample);
      } catch (const std::exception& e) {
        problem = std::string("threw: ") + e.what();
      }
      if (problem.rfind("skip:", 0) == 0) continue;
      if (problem.rfind("missing:", 0) == 0) {
        coverage->missing.emplace(op.name, problem);
        continue;
      }
      coverage->checked.insert(op.name);
      INFO(op.name << " (" << label << ") on " << sample.str());
      CHECK(problem == "");
    }
  }
}

}  // namespace lzt
