// Writes through views of tensors with history (autograd/copy_slices.h):
// the base's gradient goes through the in-place operator for the part the
// view covers, views read the base's new value, eagerly and lazily.
#include <cmath>

#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/autograd/autograd_test_util.h"

using lz::Tensor;
using lzt::leaf;

namespace {

// A float64 tensor of row-major values, lazy when `lazy`.
Tensor input(const std::vector<double>& v, lz::IntArrayRef sizes, bool lazy) {
  const Tensor t = lzt::make_tensor(v, sizes, lz::kFloat64);
  return lazy ? t.to_lazy() : t;
}

struct Grads {
  Tensor x, w;
};

// b = 2x; b[1] *= w (through a view); loss = sum(b * c), c = [[1,2,3],[4,5,6]].
// Leaves are made lazy before they require grad (to_lazy is not differentiable).
Grads write_through_row(bool lazy) {
  Tensor x = input({1, 2, 3, 4, 5, 6}, {2, 3}, lazy).requires_grad_();
  Tensor w = input({10, 20, 30}, {3}, lazy).requires_grad_();
  const Tensor c = input({1, 2, 3, 4, 5, 6}, {2, 3}, lazy);
  Tensor b = x * 2;
  Tensor row = b.select(0, 1);
  row.mul_(w);
  (b * c).sum().backward();
  return {lazy ? x.grad().to_eager() : x.grad(), lazy ? w.grad().to_eager() : w.grad()};
}

}  // namespace

TEST_CASE("a write through a view reaches the base's gradient", "[autograd][copy_slices]") {
  const Grads g = write_through_row(false);
  // d/dx: 2c, times w in row 1; d/dw: b's old row 1 (2x[1]) times c[1].
  CHECK_VALUES(g.x, {2, 4, 6, 4 * 2 * 10, 5 * 2 * 20, 6 * 2 * 30});
  CHECK_VALUES(g.w, {8 * 4, 10 * 5, 12 * 6});
}

TEST_CASE("a write through a view reaches the base's gradient lazily as eagerly", "[autograd][copy_slices][lazy]") {
  const Grads eager = write_through_row(false), lazy = write_through_row(true);
  CHECK(lz::allclose(lazy.x, eager.x));
  CHECK(lz::allclose(lazy.w, eager.w));
}

TEST_CASE("the view written in place reads the base's new history", "[autograd][copy_slices]") {
  Tensor x = leaf({1, 2, 3, 4}, {4});
  Tensor b = x * 1;
  Tensor v = b.narrow(0, 1, 2);
  v.add_(x.narrow(0, 0, 2).detach() * 0 + 5);
  CHECK(v.grad_fn() != nullptr);
  (v * v).sum().backward();  // v = x[1:3] + 5: d/dx[1:3] = 2v
  CHECK_VALUES(x.grad(), {0, 2 * 7, 2 * 8, 0});
}

TEST_CASE("a view taken before its base was written in place sees the write", "[autograd][copy_slices]") {
  Tensor x = leaf({1, 2, 3, 4}, {4});
  Tensor b = x * 2;
  Tensor v = b.narrow(0, 0, 2);  // taken first
  b.mul_(3);                     // the base changes under the view
  v.sum().backward();            // v = 6 x[0:2]
  CHECK_VALUES(x.grad(), {6, 6, 0, 0});
}

TEST_CASE("two writes through two views of one base", "[autograd][copy_slices]") {
  Tensor x = leaf({1, 2, 3, 4}, {2, 2});
  Tensor w = leaf({3}, {1});
  Tensor b = x + 0;
  b.select(1, 0).mul_(w);  // column 0 times w
  b.select(0, 1).pow_(2);  // row 1 squared (its column 0 already times w)
  b.sum().backward();
  // b = [[3x00, x01], [(3x10)^2, x11^2]]
  CHECK_VALUES(x.grad(), {3, 1, 2 * 9 * 3, 2 * 4});
  CHECK_VALUES(w.grad(), {1 + 2 * 3 * 3 * 3});
}

TEST_CASE("a view of a leaf that requires grad refuses an in-place write", "[autograd][copy_slices]") {
  Tensor x = leaf({1, 2, 3}, {3});
  Tensor v = x.narrow(0, 0, 2);
  try {
    v.mul_(2);
    FAIL("no exception");
  } catch (const lz::ValueError& e) {
    CHECK_THAT(e.what(), Catch::Matchers::Contains("mul_") &&
                             Catch::Matchers::Contains("a view of a leaf tensor that requires grad"));
  }
  lz::NoGradGuard no_grad;
  v.mul_(2);  // allowed without recording
  CHECK_VALUES(x.detach(), {2, 4, 3});
}

namespace {

struct BufferGrads {
  Tensor buf, w;
};

// buf = zeros(2, 3), no history; buf[1] = w * 3 (a copy_ through a view);
// loss = sum(buf * c): buf gets history through the write, w its gradient.
BufferGrads write_into_buffer(bool lazy) {
  Tensor w = input({10, 20, 30}, {3}, lazy).requires_grad_();
  const Tensor c = input({1, 2, 3, 4, 5, 6}, {2, 3}, lazy);
  Tensor buf = input({0, 0, 0, 0, 0, 0}, {2, 3}, lazy);
  REQUIRE_FALSE(buf.requires_grad());
  buf.select(0, 1).copy_(w * 3.0);
  CHECK(buf.requires_grad());
  CHECK(buf.grad_fn() != nullptr);
  (buf * c).sum().backward();
  return {lazy ? buf.to_eager() : buf, lazy ? w.grad().to_eager() : w.grad()};
}

}  // namespace

TEST_CASE("a write that requires grad through a view of a tensor without history gives the base history",
          "[autograd][copy_slices]") {
  for (const bool lazy : {false, true}) {
    INFO((lazy ? "lazy" : "eager"));
    const BufferGrads g = write_into_buffer(lazy);
    CHECK_VALUES(g.buf.detach(), {0, 0, 0, 30, 60, 90});
    // d/dw of sum(c[1] * 3w): 3 c[1].
    CHECK_VALUES(g.w, {12, 15, 18});
  }
}

TEST_CASE("a write through a view of a view reaches the tensor at the top", "[autograd][copy_slices]") {
  for (const bool lazy : {false, true}) {
    INFO((lazy ? "lazy" : "eager"));
    Tensor w = lzt::make_tensor({1, 2}, {2}, lz::kFloat64);
    Tensor buf = lz::zeros({3, 4}, lz::TensorOptions().dtype(lz::kFloat64));
    if (lazy) {
      w = w.to_lazy();
      buf = buf.to_lazy();
    }
    w.requires_grad_();
    buf.narrow(0, 1, 2).select(1, 3).copy_(w.exp());  // column 3 of rows 1-2
    REQUIRE(buf.requires_grad());
    (buf * buf).sum().backward();
    // d/dw of sum(exp(w)^2): 2 exp(2w).
    const Tensor expected = (w.detach() * 2.0).exp() * 2.0;
    CHECK(lz::allclose(w.grad().to_eager(), expected.to_eager()));
    CHECK_VALUES(buf.detach().to_eager().select(1, 3), {0, std::exp(1.0), std::exp(2.0)});
  }
}

TEST_CASE("detach() gives an alias whose writes do not reach the original's history", "[autograd][copy_slices]") {
  Tensor w = leaf({1, 2, 3}, {3});
  Tensor buf = lz::zeros({3}, lz::TensorOptions().dtype(lz::kFloat64));
  Tensor alias = buf.detach();
  alias.copy_(w * 2.0);
  CHECK(alias.requires_grad());
  CHECK_FALSE(buf.requires_grad());  // same memory, but no history
  CHECK_VALUES(buf, {2, 4, 6});
}
