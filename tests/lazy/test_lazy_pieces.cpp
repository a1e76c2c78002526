// Concatenations of unequal parts and constant_pad_nd (issue 30): one
// kernel over the output's shape, each operand placed in its piece (the
// launch runs the pieces box by box). Each lazy result is compared with
// eager, through the interpreter and through compiled code; the metrics
// show that nothing ran as an eager step.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/lazy/lazy_test_util.h"

#include <cstdint>
#include <string>
#include <vector>

using lz::Scalar;
using lz::Tensor;

using namespace lazy_test;

namespace {

// Runs `body` once interpreted and once compiled at the first launch.
template <class F>
void for_each_codegen(F&& body) {
  for (const auto codegen : {lzl::Settings::Codegen::Interpreter, lzl::Settings::Codegen::Llvm}) {
    SettingsGuard guard;
    lzl::Settings s = lzl::settings();
    s.codegen = codegen;
    s.jit_threshold = 1;
    lzl::set_settings(s);
    INFO("codegen " << (codegen == lzl::Settings::Codegen::Llvm ? "llvm" : "interpreter"));
    fresh_start();
    body();
  }
}

}  // namespace

TEST_CASE("lazy cat of unequal parts runs as one kernel over the output", "[lazy]") {
  for_each_codegen([] {
    const Tensor a = lz::randn({6, 5}), b = lz::randn({6, 3}), c = lz::randn({2, 5});
    // Along the last dim, the parts computed in the kernel (a transcendental too).
    auto last = [](const Tensor& x, const Tensor& y) { return lz::cat({x * 2, y.sin(), x.slice(1, 1, 3)}, -1); };
    check_same(last(a.to_lazy(), b.to_lazy()), last(a, b));
    CHECK(lzl::metrics().kernels_launched == 1);
    CHECK(lzl::metrics().eager_steps_total == 0);
    // Along dim 0, a transposed part, an input loaded as a part, a 0-size part between.
    auto first = [](const Tensor& x, const Tensor& z) {
      return lz::cat({x + 1, z.slice(0, 0, 0), x.t().cos().t().slice(0, 0, 4), z}, 0);
    };
    check_same(first(a.to_lazy(), c.to_lazy()), first(a, c));
    // A middle dim of a rank-3 output; a part broadcast inside its piece (rotary with unequal halves).
    const Tensor x = lz::randn({2, 7, 3, 10});
    const Tensor cos = lz::randn({7, 1, 6}), sin = lz::randn({7, 1, 4});
    auto rotary = [&](const Tensor& v) {
      return lz::cat({v.slice(-1, 0, 6) * cos, v.slice(-1, 6, 10) * sin + 1}, -1);
    };
    check_same(rotary(x.to_lazy()), rotary(x));
    auto middle = [](const Tensor& v) { return lz::cat({v.slice(1, 0, 2).exp(), v * 3}, 1); };
    check_same(middle(x.to_lazy()), middle(x));
    CHECK(lzl::metrics().eager_steps_total == 0);
    // Mixed dtypes promote as eager's; bool and float16 parts.
    const Tensor i = lz::arange(0, 30, lz::kInt32).reshape({6, 5});
    auto mixed = [](const Tensor& iv, const Tensor& fv) { return lz::cat({iv * 3, fv.gt(0.5)}, 1); };
    check_same(mixed(i.to_lazy(), b.to_lazy()), mixed(i, b));
    auto with_float = [](const Tensor& iv, const Tensor& fv) { return lz::cat({iv * 3, fv, iv.gt(4)}, 1); };
    check_same(with_float(i.to_lazy(), b.to_lazy()), with_float(i, b));
    const Tensor h = a.to(lz::kFloat16), h2 = b.to(lz::kFloat16);
    check_same(lz::cat({h.to_lazy() * 3, h2.to_lazy() + 1}, 1), lz::cat({h * 3, h2 + 1}, 1), 0, 0);
    CHECK(lzl::metrics().eager_steps_total == 0);
    // A consumer reads the output back in a kernel of its own.
    check_same((lz::cat({a.to_lazy().exp(), c.to_lazy()}, 0) * 2).sum(0), (lz::cat({a.exp(), c}, 0) * 2).sum(0));
    // Every part empty along dim but one; an empty output.
    const Tensor e = lz::randn({6, 0});
    check_same(lz::cat({e.to_lazy() + 1, b.to_lazy() * 2, e.to_lazy()}, 1), lz::cat({e + 1, b * 2, e}, 1));
    const Tensor z = lz::randn({0, 4});
    const Tensor z2 = lz::randn({0, 2});
    check_same(lz::cat({z.to_lazy() + 1, z2.to_lazy()}, 1), lz::cat({z + 1, z2}, 1));
    CHECK(lzl::metrics().eager_steps_total == 0);
  });
}

TEST_CASE("lazy cat of unequal parts at large sizes streams each piece", "[lazy]") {
  for_each_codegen([] {
    // Pieces not a multiple of the vector width, along the contiguous dim and the outer one.
    const Tensor x = lz::randn({300, 1001});
    auto along_rows = [](const Tensor& v) { return lz::cat({v.slice(1, 0, 333) * 2, v.slice(1, 333, 1001).exp()}, 1); };
    check_same(along_rows(x.to_lazy()), along_rows(x));
    auto along_columns = [](const Tensor& v) { return lz::cat({v.slice(0, 0, 17) - 1, v, v.slice(0, 5, 6)}, 0); };
    check_same(along_columns(x.to_lazy()), along_columns(x));
    CHECK(lzl::metrics().eager_steps_total == 0);
  });
}

TEST_CASE("lazy cat of unequal parts serves other sizes with one plan", "[lazy]") {
  fresh_start();
  auto program = [](const Tensor& p, const Tensor& q) { return lz::cat({p.exp(), q * 2}, 1); };
  for (int64_t w : {3, 5, 2, 7}) {
    const Tensor p = lz::randn({4, w}), q = lz::randn({4, 9 - w});
    check_same(program(p.to_lazy(), q.to_lazy()), program(p, q));
  }
  CHECK(lzl::metrics().eager_steps_total == 0);
  CHECK(lzl::metrics().cache_hits >= 3);
}

TEST_CASE("lazy constant_pad_nd runs as one kernel with the pad value outside its input", "[lazy]") {
  for_each_codegen([] {
    const Tensor a = lz::randn({5, 6});
    // Pads before and after, a crop (negative), several dims, a runtime value and 0.
    for (const std::vector<int64_t>& pad : std::vector<std::vector<int64_t>>{
             {1, 2}, {0, 3, 2, 0}, {-1, 2, 3, -2}, {0, 0}, {-2, -3}}) {
      INFO("pad " << lz::shape_str(pad));
      for (double value : {0.0, 7.5}) {
        auto padded = [&](const Tensor& v) { return lz::constant_pad_nd(v.exp() + 1, pad, value) * 2; };
        check_same(padded(a.to_lazy()), padded(a));
      }
    }
    CHECK(lzl::metrics().eager_steps_total == 0);
    const Tensor c = lz::randn({3, 4, 5});
    check_same(lz::constant_pad_nd(c.to_lazy() - 1, {2, 2, 1, 1, 1, 0}, 3), lz::constant_pad_nd(c - 1, {2, 2, 1, 1, 1, 0}, 3));
    // A transposed input; int and bool dtypes (the value converts as eager's); float16.
    check_same(lz::constant_pad_nd(a.to_lazy().t(), {1, 1}, -1), lz::constant_pad_nd(a.t(), {1, 1}, -1));
    const Tensor i = lz::arange(0, 12, lz::kInt64).reshape({3, 4});
    check_same(lz::constant_pad_nd(i.to_lazy() * 5, {2, 1}, 9), lz::constant_pad_nd(i * 5, {2, 1}, 9));
    check_same(lz::constant_pad_nd(i.to_lazy().gt(5), {1, 0, 0, 1}, 1), lz::constant_pad_nd(i.gt(5), {1, 0, 0, 1}, 1));
    const Tensor h = a.to(lz::kFloat16);
    check_same(lz::constant_pad_nd(h.to_lazy() * 3, {1, 1}, 0.1), lz::constant_pad_nd(h * 3, {1, 1}, 0.1), 0, 0);
    // Empty inputs and outputs.
    const Tensor e = lz::randn({0, 3});
    check_same(lz::constant_pad_nd(e.to_lazy() + 1, {1, 1, 2, 0}, 4), lz::constant_pad_nd(e + 1, {1, 1, 2, 0}, 4));
    check_same(lz::constant_pad_nd(a.to_lazy() + 1, {-3, -3}), lz::constant_pad_nd(a + 1, {-3, -3}));
    CHECK(lzl::metrics().eager_steps_total == 0);
    // Large: compiled boxes along both dims.
    const Tensor big = lz::randn({257, 513});
    auto big_pad = [](const Tensor& v) { return lz::constant_pad_nd(v * v, {3, 5, 7, 1}, 0.5); };
    check_same(big_pad(big.to_lazy()), big_pad(big));
    CHECK(lzl::metrics().eager_steps_total == 0);
  });
}

TEST_CASE("lazy constant_pad_nd with a pad eager rejects raises eager's error", "[lazy]") {
  fresh_start();
  const Tensor a = lz::randn({2, 3});
  for (const std::vector<int64_t>& pad : std::vector<std::vector<int64_t>>{{1}, {1, 1, 1, 1, 1, 1}, {-2, -2}}) {
    const std::string eager = message_of<lz::Error>([&] { (void)lz::constant_pad_nd(a, pad); });
    REQUIRE_FALSE(eager.empty());
    CHECK(message_of<lz::Error>([&] { (void)lz::constant_pad_nd(a.to_lazy(), pad).to_eager(); }) == eager);
  }
  // A value the dtype cannot hold.
  const Tensor h = a.to(lz::kFloat16);
  const std::string eager = message_of<lz::Error>([&] { (void)lz::constant_pad_nd(h, {1, 1}, 70000); });
  REQUIRE_FALSE(eager.empty());
  CHECK(message_of<lz::Error>([&] { (void)lz::constant_pad_nd(h.to_lazy() * 2, {1, 1}, 70000).to_eager(); }) == eager);
}
