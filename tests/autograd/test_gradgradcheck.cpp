// Second derivatives over the operator table: for every differentiable
// float64 entry, the first gradient is taken with create_graph, reduced with
// random weights v to S = sum_n <v_n, dL/dx_n>, and autograd's gradient of S
// (a Hessian-vector product) is compared with central finite differences of
// S computed by first-order autograd. Formulas are written with lz
// operators, so each is differentiable again unless it calls one without a
// formula of its own; those are listed, not hidden.
#include <iostream>
#include <set>

#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/autograd/gradcheck_util.h"
#include "tests/op_table/op_info.h"
#include "tests/op_table/tensor_access.h"

using lz::Tensor;

namespace {

// Fewer elements than the first-order check: every difference runs a
// backward pass.
constexpr int64_t kSecondOrderElementsChecked = 12;

struct FirstOrder {
  Tensor s;  // sum_n <v_n, g_n>; does not require grad when the g_n are constant
  double magnitude = 0;
};

// S at the sample, with its float64 tensors made fresh leaves (lazy ones
// when `lazy`); create_graph keeps S differentiable.
FirstOrder first_order(const lzt::OpInfo& op, const lzt::SampleInput& sample, const std::vector<size_t>& inputs,
                       std::vector<Tensor>* weights, bool create_graph, bool lazy, std::vector<Tensor>* leaves) {
  lzt::SampleInput s = sample;
  leaves->clear();
  for (size_t i : inputs) {
    Tensor t = lazy ? sample.tensors[i].to_lazy() : Tensor(sample.tensors[i].detach());
    t.requires_grad_();
    s.tensors[i] = t;
    leaves->push_back(t);
  }
  const Tensor total = lzt::weighted_sum(op, s, weights);
  FirstOrder r;
  if (!total.defined() || !total.requires_grad()) return r;
  const std::vector<Tensor> g = lz::autograd::grad({total}, *leaves, {}, std::nullopt, create_graph,
                                                   /*allow_unused=*/true);
  for (size_t n = 0; n < g.size(); ++n) {
    if (!g[n].defined()) continue;
    Tensor v = lzt::sample_tensor(g[n].sizes(), lz::kFloat64, 200 + static_cast<uint32_t>(n));
    if (lazy) v = v.to_lazy();
    const Tensor term = (g[n] * v).sum();
    r.s = r.s.defined() ? r.s + term : term;
    r.magnitude += (g[n] * v).abs().sum().item<double>();
  }
  return r;
}

// "" when autograd's second derivative matches finite differences of the
// first; "missing: ..." when a formula's own operators have no formula;
// "skip: ..." when the sample cannot be checked.
std::string gradgradcheck(const lzt::OpInfo& op, const lzt::SampleInput& sample, bool lazy) {
  const std::vector<size_t> inputs = lzt::float64_inputs(sample);
  if (inputs.empty()) return "skip: no float64 input";
  for (size_t i : inputs) {
    if (!lzt::all_finite(sample.tensors[i])) return "skip: non-finite input";
  }
  std::vector<Tensor> weights, leaves;
  FirstOrder at_sample;
  std::vector<Tensor> analytic(inputs.size());
  try {
    at_sample = first_order(op, sample, inputs, &weights, /*create_graph=*/true, lazy, &leaves);
    if (!at_sample.s.defined()) return "skip: no differentiable float64 output";
    // A gradient that does not depend on the inputs (add, sum): zero.
    if (at_sample.s.requires_grad()) {
      analytic = lz::autograd::grad({at_sample.s}, leaves, {}, std::nullopt, false, /*allow_unused=*/true);
    }
  } catch (const lz::NotImplementedError& e) {
    return std::string("missing: ") + e.what();
  }
  const double value = at_sample.s.item<double>();
  if (!std::isfinite(value)) return "skip: non-finite result";
  const auto f = [&](const lzt::SampleInput& p) {
    std::vector<Tensor> w = weights, l;
    const FirstOrder r = first_order(op, p, inputs, &w, /*create_graph=*/false, /*lazy=*/false, &l);
    return r.s.defined() ? r.s.item<double>() : 0.0;
  };
  return lzt::compare_with_differences(f, sample, inputs, analytic, value, at_sample.magnitude, kSecondOrderElementsChecked);
}

// The families issue 27 names for create_graph: pointwise, reductions and
// matrix products, and the composites built on them.
const std::set<std::string> kMustHaveSecondDerivatives = {
    "add", "sub", "mul", "div", "neg", "exp", "log", "sqrt", "rsqrt", "tanh", "sigmoid", "sin", "cos",
    "pow", "abs", "relu", "gelu", "silu", "sum", "mean", "var", "amax", "logsumexp", "softmax",
    "log_softmax", "mm", "bmm", "matmul", "linear", "layer_norm", "rms_norm", "mse_loss", "cross_entropy"};
// Lazily, one or two of each family (each sample compiles its own graphs).
const std::set<std::string> kLazySecondDerivatives = {"mul", "div", "tanh", "pow", "sum", "amax", "softmax",
                                                      "matmul", "layer_norm", "mse_loss", "cross_entropy"};

}  // namespace

TEST_CASE("gradgradcheck: second derivatives over the table, eagerly", "[autograd][gradcheck]") {
  lzt::TableCoverage coverage;
  lzt::check_table([](const lzt::OpInfo& op, const lzt::SampleInput& s) { return gradgradcheck(op, s, false); },
                   "eager", {}, &coverage);
  std::cout << "gradgradcheck (eager): " << coverage.checked.size() << " table entries checked, "
            << coverage.missing.size() << " without second derivatives:";
  for (const auto& [name, why] : coverage.missing) std::cout << " " << name;
  std::cout << "\n";
  for (const std::string& name : kMustHaveSecondDerivatives) {
    INFO(name << (coverage.missing.contains(name) ? ": " + coverage.missing.at(name) : ""));
    CHECK(coverage.checked.contains(name));
  }
}

TEST_CASE("gradgradcheck: second derivatives lazily for each family", "[autograd][gradcheck][lazy]") {
  lzt::TableCoverage coverage;
  lzt::check_table([](const lzt::OpInfo& op, const lzt::SampleInput& s) { return gradgradcheck(op, s, true); },
                   "lazy", kLazySecondDerivatives, &coverage);
  for (const std::string& name : kLazySecondDerivatives) {
    INFO(name << (coverage.missing.contains(name) ? ": " + coverage.missing.at(name) : ""));
    CHECK(coverage.checked.contains(name));
  }
}
