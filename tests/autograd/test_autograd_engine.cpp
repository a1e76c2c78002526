// The backward engine and the Tensor autograd API on eager tensors:
// accumulation, retain_graph, grad mode, detach, hooks, in-place rules,
// saved-tensor versions, lz::autograd::grad and higher derivatives.
#include <thread>

#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/autograd/autograd_test_util.h"

using lz::Tensor;
using lzt::leaf;
using lzt::values;

namespace {

template <class E>
void check_throws(const std::function<void()>& f, const std::string& message) {
  try {
    f();
    FAIL("no exception; expected one containing: " << message);
  } catch (const E& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains(message));
  }
}

}  // namespace

TEST_CASE("backward of a scalar accumulates into leaves", "[autograd]") {
  Tensor x = leaf({1, 2, 3}, {3});
  CHECK(x.requires_grad());
  CHECK(x.is_leaf());
  Tensor y = (x * x).sum();
  CHECK(y.requires_grad());
  CHECK_FALSE(y.is_leaf());
  REQUIRE(y.grad_fn() != nullptr);
  CHECK(y.grad_fn()->name() == "SumBackward");
  y.backward();
  CHECK_VALUES(x.grad(), {2, 4, 6});
  // A second graph adds to grad().
  (x * 3.0).sum().backward();
  CHECK_VALUES(x.grad(), {5, 7, 9});
  CHECK_FALSE(x.grad().requires_grad());
}

TEST_CASE("gradients of broadcast inputs are summed to their shapes", "[autograd]") {
  Tensor a = leaf({1, 2, 3}, {3, 1});
  Tensor b = leaf({10, 20, 30, 40}, {4});
  (a * b).sum().backward();
  CHECK_SHAPE(a.grad(), {3, 1});
  CHECK_VALUES(a.grad(), {100, 100, 100});
  CHECK_SHAPE(b.grad(), {4});
  CHECK_VALUES(b.grad(), {6, 6, 6, 6});
}

// A Linear layer multiplies by W.t(): the product's gradient for W.t() is
// computed transposed, so that W's own gradient is contiguous (no strided
// copy when it is accumulated, no strided reads in an optimizer's kernel).
TEST_CASE("a weight used transposed in mm and addmm gets a contiguous gradient", "[autograd]") {
  for (const bool lazy : {false, true}) {
    for (const bool with_bias : {false, true}) {
      INFO((lazy ? "lazy" : "eager") << (with_bias ? " addmm" : " mm"));
      Tensor x = leaf({1, 2, 3, 4, 5, 6}, {2, 3});      // [batch, in]
      Tensor w = leaf({1, -1, 2, 0, 3, 1, -2, 1, 0.5, 2, -1, 1}, {4, 3});  // [out, in]
      Tensor b = leaf({0.5, -0.5, 1, 2}, {4});
      if (lazy) {
        x = x.detach().to_lazy().requires_grad_();
        w = w.detach().to_lazy().requires_grad_();
        b = b.detach().to_lazy().requires_grad_();
      }
      const Tensor y = with_bias ? lz::addmm(b, x, w.t()) : lz::mm(x, w.t());
      const Tensor g = lzt::make_tensor({1, 2, 3, 4, 5, 6, 7, 8}, {2, 4}, lz::kFloat64);
      const std::vector<Tensor> grads =
          lz::autograd::grad({y}, {x, w}, {lazy ? g.to_lazy() : g}, std::nullopt, false, false);
      CHECK(grads[1].is_contiguous());
      CHECK(grads[0].is_contiguous());
      // d w = g^T x: row o of w's gradient is sum_b g[b][o] * x[b].
      CHECK_VALUES(grads[1].to_eager(), {21, 27, 33, 26, 34, 42, 31, 41, 51, 36, 48, 60});
      // d x = g w.
      const Tensor expected_dx = lz::mm(g, w.detach().to_eager());
      CHECK(lz::allclose(grads[0].to_eager(), expected_dx));
    }
  }
}

TEST_CASE("a float32 leaf used with float64 values gets a float32 gradient", "[autograd]") {
  Tensor a = lzt::make_tensor({1, 2}, {2}, lz::kFloat32);
  a.requires_grad_();
  Tensor b = lzt::make_tensor({3, 4}, {2}, lz::kFloat64);
  (a * b).sum().backward();
  CHECK(a.grad().dtype() == lz::kFloat32);
  CHECK_VALUES(a.grad(), {3, 4});
}

TEST_CASE("backward without a gradient needs a one-element output", "[autograd]") {
  Tensor x = leaf({1, 2}, {2});
  Tensor y = x * 2.0;
  check_throws<lz::ValueError>([&] { y.backward(); }, "implicitly created only for one-element outputs");
  y.backward(lzt::make_tensor({1, 10}, {2}, lz::kFloat64));
  CHECK_VALUES(x.grad(), {2, 20});
  check_throws<lz::ShapeError>([&] { (x * 2.0).backward(lzt::make_tensor({1, 2, 3}, {3}, lz::kFloat64)); },
                               "gradient 0 has shape [3]");
}

TEST_CASE("backward of a tensor without history is an error", "[autograd]") {
  Tensor x = lzt::make_tensor({1, 2}, {2}, lz::kFloat64);
  check_throws<lz::ValueError>([&] { x.sum().backward(); }, "does not require grad");
}

TEST_CASE("retain_graph keeps saved values for a second backward", "[autograd]") {
  Tensor x = leaf({1, 2}, {2});
  Tensor y = (x * x).sum();
  y.backward({}, /*retain_graph=*/true);
  y.backward();
  CHECK_VALUES(x.grad(), {4, 8});
  check_throws<lz::ValueError>([&] { y.backward(); }, "backward through the graph a second time");
}

TEST_CASE("grad mode off records nothing", "[autograd]") {
  Tensor x = leaf({1, 2}, {2});
  {
    lz::NoGradGuard no_grad;
    Tensor y = x * 2.0;
    CHECK_FALSE(y.requires_grad());
    CHECK(y.grad_fn() == nullptr);
    CHECK_FALSE(y.key_set().has(lz::DispatchKey::Autograd));
    // In-place updates of leaves are allowed without grad mode (optimizer steps).
    x.sub_(y * 0.5);
    {
      lz::AutoGradMode enabled(true);
      CHECK((x * 2.0).requires_grad());
    }
  }
  CHECK(lz::GradMode::is_enabled());
  CHECK_VALUES(x, {0, 0});
  CHECK(x.requires_grad());
}

TEST_CASE("detach shares values without history", "[autograd]") {
  Tensor x = leaf({1, 2}, {2});
  Tensor y = x * 2.0;
  Tensor d = y.detach();
  CHECK_FALSE(d.requires_grad());
  CHECK(d.is_leaf());
  CHECK(d.data_ptr() == y.data_ptr());
  CHECK(y.requires_grad());
  (d * x).sum().backward();
  CHECK_VALUES(x.grad(), {2, 4});
  y.detach_();
  CHECK_FALSE(y.requires_grad());
}

TEST_CASE("requires_grad_ checks its tensor", "[autograd]") {
  check_throws<lz::ValueError>([] { lz::arange(3).requires_grad_(); }, "floating-point");
  Tensor x = leaf({1}, {1});
  check_throws<lz::ValueError>([&] { (x * 2.0).requires_grad_(false); }, "leaf");
  x.requires_grad_(false);
  CHECK_FALSE(x.requires_grad());
  CHECK_FALSE(x.key_set().has(lz::DispatchKey::Autograd));
}

TEST_CASE("hooks see and may replace gradients, retain_grad keeps a non-leaf gradient", "[autograd]") {
  Tensor x = leaf({1, 2}, {2});
  Tensor y = x * 3.0;
  y.retain_grad();
  std::vector<double> seen;
  y.register_hook([&](const Tensor& g) { seen = values(g); });
  x.register_hook([](const Tensor& g) { return g * 10.0; });
  (y * y).sum().backward();
  CHECK(seen == std::vector<double>{6, 12});
  CHECK(y.retains_grad());
  CHECK_VALUES(y.grad(), {6, 12});
  CHECK_VALUES(x.grad(), {180, 360});
}

TEST_CASE("in-place operators: leaves refuse, non-leaves rebase their history", "[autograd]") {
  Tensor x = leaf({1, 2}, {2});
  check_throws<lz::ValueError>([&] { x.add_(1.0); }, "a leaf tensor that requires grad is being used in an in-place operation");
  Tensor y = x * 2.0;
  y.mul_(3.0);
  CHECK(y.grad_fn()->name() == "MulBackward");
  y.exp_();
  y.sum().backward();
  // d/dx exp(6x) = 6 exp(6x)
  CHECK_VALUES_TOL(x.grad(), {6 * std::exp(6.0), 6 * std::exp(12.0)}, 1e-12, 0);
  // An in-place write into a tensor without history gives it history.
  Tensor buffer = lzt::make_tensor({0, 0}, {2}, lz::kFloat64);
  Tensor w = leaf({5, 6}, {2});
  buffer.copy_(w * w);
  CHECK(buffer.requires_grad());
  buffer.sum().backward();
  CHECK_VALUES(w.grad(), {10, 12});
}

TEST_CASE("a saved tensor modified in place since is an error at backward", "[autograd]") {
  Tensor x = leaf({1, 2}, {2});
  Tensor a = x * 2.0;
  Tensor b = a * a;  // saves a
  a.add_(1.0);
  check_throws<lz::ValueError>([&] { b.sum().backward(); },
                               "modified by an inplace operation: argument 'self'");
  // The in-place operator's own saved input is a copy: mul_ by a tensor is fine.
  Tensor c = x * 1.0;
  Tensor w = leaf({3, 4}, {2});
  c.mul_(w);
  c.sum().backward();
  CHECK_VALUES(w.grad(), {1, 2});
  CHECK_VALUES(x.grad(), {3, 4});
}

TEST_CASE("out= forms refuse inputs that require grad", "[autograd]") {
  Tensor x = leaf({1, 2}, {2});
  Tensor out = lz::empty({2}, lz::kFloat64);
  check_throws<lz::ValueError>([&] { lz::exp_out(out, x); }, "out= forms do not support automatic differentiation");
  lz::NoGradGuard no_grad;
  lz::exp_out(out, x);
  CHECK_VALUES_TOL(out, {std::exp(1.0), std::exp(2.0)}, 1e-12, 0);
}

TEST_CASE("operators without a formula say so", "[autograd]") {
  Tensor x = leaf({1, 2, 3}, {3});
  check_throws<lz::NotImplementedError>([&] { lz::as_strided(x, {2}, {1}); },
                                        "[as_strided] the derivative of this operator is not implemented");
  // Non-differentiable operators run and give results without history.
  Tensor m = lz::argmax(x);
  CHECK_FALSE(m.requires_grad());
  CHECK_FALSE((x > 1.0).requires_grad());
}

TEST_CASE("autograd::grad returns gradients without accumulating", "[autograd]") {
  Tensor x = leaf({1, 2}, {2});
  Tensor w = leaf({3, 4}, {2});
  Tensor unused = leaf({0}, {1});
  Tensor y = (x * w).sum();
  lz::autograd::GradList g = lz::autograd::grad({y}, {x}, {}, /*retain_graph=*/true);
  REQUIRE(g.size() == 1);
  CHECK_VALUES(g[0], {3, 4});
  CHECK_FALSE(x.grad().defined());
  CHECK_FALSE(w.grad().defined());
  check_throws<lz::ValueError>([&] { lz::autograd::grad({y}, {unused}, {}, true); }, "allow_unused");
  g = lz::autograd::grad({y}, {w, unused}, {}, true, false, /*allow_unused=*/true);
  CHECK_VALUES(g[0], {1, 2});
  CHECK_FALSE(g[1].defined());
  // A non-leaf input: the gradient arriving at it.
  Tensor h = x * 2.0;
  g = lz::autograd::grad({(h * h).sum()}, {h});
  CHECK_VALUES(g[0], {4, 8});
}

TEST_CASE("create_graph gives second derivatives", "[autograd]") {
  Tensor x = leaf({1, 2, 3}, {3});
  Tensor y = (x * x * x).sum();
  lz::autograd::GradList g = lz::autograd::grad({y}, {x}, {}, std::nullopt, /*create_graph=*/true);
  CHECK_VALUES(g[0], {3, 12, 27});
  REQUIRE(g[0].requires_grad());
  g[0].sum().backward();
  CHECK_VALUES(x.grad(), {6, 12, 18});

  // Through a formula that saves its result (exp), a reduction and a matrix product.
  Tensor a = leaf({0.5, -1.0}, {1, 2});
  Tensor b = leaf({1, 2, 3, 4}, {2, 2});
  Tensor z = lz::mm(a.exp(), b).sum();
  lz::autograd::GradList ga = lz::autograd::grad({z}, {a}, {}, std::nullopt, true);
  // dz/da_j = exp(a_j) * sum_k b_jk; d/da_j of that = the same.
  CHECK_VALUES_TOL(ga[0], {std::exp(0.5) * 3, std::exp(-1.0) * 7}, 1e-12, 0);
  ga[0].sum().backward();
  CHECK_VALUES_TOL(a.grad(), {std::exp(0.5) * 3, std::exp(-1.0) * 7}, 1e-12, 0);
}

TEST_CASE("each thread records its own graph", "[autograd]") {
  std::vector<std::vector<double>> grads(4);
  std::vector<std::thread> threads;
  for (int i = 0; i < 4; ++i) {
    threads.emplace_back([i, &grads] {
      Tensor x = leaf({1.0 * i, 2.0 * i}, {2});
      for (int step = 0; step < 20; ++step) (x * x).sum().backward();
      grads[static_cast<size_t>(i)] = values(x.grad());
    });
  }
  for (auto& t : threads) t.join();
  for (int i = 0; i < 4; ++i) CHECK(grads[static_cast<size_t>(i)] == std::vector<double>{40.0 * i, 80.0 * i});
}
