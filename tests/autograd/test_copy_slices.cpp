// Writes through views of tensors with history (autograd/copy_slices.h):
// the base's gradient goes through the in-place operator for the part the
// view covers, views read the base's new value, eagerly and lazily.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/autograd/autograd_test_util.h"

using lz::Tensor;
using lzt::leaf;

namespace {

struct Grads {
  Tensor x, w;
};

// b = 2x; b[1] *= w (through a view); loss = sum(b * c), c = [[1,2,3],[4,5,6]].
// Leaves are made lazy before they require grad (to_lazy is not differentiable).
Grads write_through_row(bool lazy) {
  const auto input = [&](const std::vector<double>& v, lz::IntArrayRef sizes) {
    const Tensor t = lzt::make_tensor(v, sizes, lz::kFloat64);
    return lazy ? t.to_lazy() : t;
  };
  Tensor x = input({1, 2, 3, 4, 5, 6}, {2, 3}).requires_grad_();
  Tensor w = input({10, 20, 30}, {3}).requires_grad_();
  const Tensor c = input({1, 2, 3, 4, 5, 6}, {2, 3});
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
