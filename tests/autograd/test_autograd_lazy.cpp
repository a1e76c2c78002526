// Autograd on lazy tensors: the backward pass and the update trace into the
// same graph as the forward, give eager's values, and a training step is
// compiled once.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/eager/test_util.h"

using lz::Tensor;

namespace {

Tensor parameter(lz::IntArrayRef sizes, uint32_t seed, bool lazy) {
  Tensor t = lzt::sample_tensor(sizes, lz::kFloat64, seed) * 0.5;
  if (lazy) t = t.to_lazy();
  t.requires_grad_();
  return t;
}

// A two-layer MLP trained with SGD for `steps` steps; the losses.
std::vector<double> train(bool lazy, int steps, std::vector<lz::lazy::LazyMetrics>* metrics = nullptr) {
  Tensor w1 = parameter({4, 8}, 1, lazy);
  Tensor b1 = parameter({8}, 2, lazy);
  Tensor w2 = parameter({8, 1}, 3, lazy);
  Tensor x = lzt::sample_tensor({16, 4}, lz::kFloat64, 4) * 0.25;
  Tensor target = lzt::sample_tensor({16, 1}, lz::kFloat64, 5) * 0.25;
  if (lazy) {
    x = x.to_lazy();
    target = target.to_lazy();
  }
  std::vector<double> losses;
  for (int step = 0; step < steps; ++step) {
    Tensor hidden = lz::relu(lz::matmul(x, w1) + b1);
    Tensor loss = (lz::matmul(hidden, w2) - target).square().mean();
    loss.backward();
    {
      lz::NoGradGuard no_grad;
      for (Tensor* p : {&w1, &b1, &w2}) {
        p->sub_(p->grad() * 0.01);
        p->mutable_grad() = Tensor();
      }
    }
    if (lazy) lz::sync({loss, w1, b1, w2});
    losses.push_back(loss.item<double>());
    if (metrics != nullptr) metrics->push_back(lz::lazy::metrics());
  }
  return losses;
}

}  // namespace

TEST_CASE("lazy: gradients match eager and stay lazy", "[autograd][lazy]") {
  for (bool lazy : {false, true}) {
    Tensor x = lzt::make_tensor({0.5, -1.0, 2.0}, {3}, lz::kFloat64);
    if (lazy) x = x.to_lazy();
    x.requires_grad_();
    Tensor y = (x.exp() * x + x.sin()).sum();
    y.backward();
    CHECK(x.grad().is_lazy() == lazy);
    std::vector<double> expected;
    for (double v : {0.5, -1.0, 2.0}) expected.push_back(std::exp(v) * (v + 1) + std::cos(v));
    CHECK_VALUES_TOL(x.grad().to_eager(), expected, 1e-12, 0);
  }
}

TEST_CASE("lazy: a mixed graph (lazy activations, eager parameter) differentiates", "[autograd][lazy]") {
  Tensor w = lzt::make_tensor({1, 2}, {2}, lz::kFloat64);
  w.requires_grad_();
  Tensor x = lzt::make_tensor({3, 4}, {2}, lz::kFloat64).to_lazy();
  (x * w).sum().backward();
  CHECK_VALUES(w.grad().to_eager(), {3, 4});
}

TEST_CASE("lazy: zeros_like and ones_like of a lazy tensor are lazy", "[autograd][lazy]") {
  Tensor x = lzt::make_tensor({1, 2}, {2}, lz::kFloat32).to_lazy();
  CHECK(lz::zeros_like(x).is_lazy());
  CHECK(lz::ones_like(x).is_lazy());
  CHECK(lz::full_like(x, 3).is_lazy());
  CHECK_VALUES(lz::full_like(x, 3).to_eager(), {3, 3});
}

TEST_CASE("lazy: an MLP training step gives eager's losses and compiles once", "[autograd][lazy]") {
  const int steps = 6;
  const std::vector<double> eager = train(false, steps);
  lz::lazy::clear_executable_cache();
  lz::lazy::reset_metrics();
  std::vector<lz::lazy::LazyMetrics> metrics;
  const std::vector<double> lazy = train(true, steps, &metrics);
  REQUIRE(lazy.size() == eager.size());
  for (size_t i = 0; i < eager.size(); ++i) CHECK(lazy[i] == Approx(eager[i]).epsilon(1e-9));
  CHECK(eager.back() < eager.front());
  // Steps after the second are cache hits: no new misses, no compiles.
  CHECK(metrics.back().cache_misses == metrics[1].cache_misses);
  CHECK(metrics.back().cache_hits > metrics[1].cache_hits);
}
