// Fusion of the patterns models are made of beyond the element-wise chains
// (issue 30): integer division by a number, factories as kernel values,
// checked fills, concatenations. Each lazy result is compared with eager;
// the metrics show what fused. (Gathers: test_lazy_gathers.cpp.)
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/lazy/lazy_test_util.h"

#include <cstdint>
#include <string>
#include <vector>

using lz::Scalar;
using lz::Tensor;

using namespace lazy_test;

TEST_CASE("lazy integer remainder and division by a number fuse, by zero raise as eager", "[lazy]") {
  fresh_start();
  const Tensor i = lz::arange(-3000, 3000, lz::kInt64).mul(Scalar(int64_t{1} << 40)).add(Scalar(12345));
  auto hash = [](const Tensor& x) { return x.mul(Scalar(31)).add(Scalar(17)).remainder(Scalar(257)).lt(Scalar(16)).sum(); };
  check_same(hash(i.to_lazy()), hash(i));
  CHECK(lzl::metrics().kernels_launched == 1);
  CHECK(lzl::metrics().eager_steps_total == 0);
  // Another divisor reuses the plan; floor and trunc division and fmod too.
  fresh_start();
  check_same(i.to_lazy().remainder(Scalar(-1000003)), i.remainder(Scalar(-1000003)));
  check_same(i.to_lazy().div(Scalar(7), "floor"), i.div(Scalar(7), "floor"));
  check_same(i.to_lazy().fmod(Scalar(-9)), i.fmod(Scalar(-9)));
  CHECK(lzl::metrics().eager_steps_total == 0);
  // By 0, or by a number that is 0 in the dtype (256 in uint8), the eager error.
  const Tensor u = lz::arange(0, 10, lz::kUInt8);
  const std::string by_zero = message_of<lz::ValueError>([&] { (void)i.remainder(Scalar(0)); });
  REQUIRE_FALSE(by_zero.empty());
  CHECK(message_of<lz::ValueError>([&] { (void)i.to_lazy().remainder(Scalar(0)).to_eager(); }) == by_zero);
  const std::string wrapped = message_of<lz::ValueError>([&] { (void)u.remainder(Scalar(256)); });
  REQUIRE_FALSE(wrapped.empty());
  CHECK(message_of<lz::ValueError>([&] { (void)u.to_lazy().remainder(Scalar(256)).to_eager(); }) == wrapped);
  check_same(u.to_lazy().remainder(Scalar(3)), u.remainder(Scalar(3)));
}

TEST_CASE("lazy factories are values inside the kernel that reads them", "[lazy]") {
  fresh_start();
  const Tensor x = lz::randn({64, 33});
  auto accumulate = [](const Tensor& v) {
    Tensor acc = lz::zeros_like(v);
    acc += v * 2;
    acc.add_(lz::full_like(v, 0.25));
    return acc * lz::ones_like(v, lz::TensorOptions(lz::kFloat64));
  };
  check_same(accumulate(x.to_lazy()), accumulate(x));
  CHECK(lzl::metrics().kernels_launched == 1);
  CHECK(lzl::metrics().eager_steps_total == 0);
  // A fill value rounds to the dtype (float16, here to 1) as eager's.
  const lz::TensorOptions half(lz::kFloat16), int32(lz::kInt32);
  const Tensor ones_half = lz::full_like(x.to_lazy(), 1.0001, half) * 4096;
  check_same(ones_half, lz::full_like(x, 1.0001, half) * 4096, 0, 0);
  check_same(lz::full_like(x.to_lazy(), 7, int32) * 3, lz::full_like(x, 7, int32) * 3);
}

TEST_CASE("lazy masked_fill with a value tensor that does not fit the dtype raises as eager", "[lazy]") {
  fresh_start();
  const Tensor u = lz::arange(0, 6, lz::kUInt8);
  const Tensor minus_three = lz::scalar_tensor(-3.0);
  const std::string expected = message_of<lz::ValueError>([&] { (void)lz::masked_fill(u, u.gt(2), minus_three); });
  REQUIRE_FALSE(expected.empty());
  CHECK(message_of<lz::ValueError>([&] {
          (void)lz::masked_fill(u.to_lazy(), u.to_lazy().gt(2), minus_three).to_eager();
        }) == expected);
  // Values of a dtype that always fits fuse.
  fresh_start();
  const Tensor x = lz::randn({5, 4});
  const Tensor seven = lz::scalar_tensor(7, lz::TensorOptions(lz::kInt32));
  check_same(lz::masked_fill(x.to_lazy() * 2, x.to_lazy().gt(0), seven), lz::masked_fill(x * 2, x.gt(0), seven));
  check_same(lz::masked_fill(u.to_lazy() + 1, u.to_lazy().gt(2), lz::scalar_tensor(true, lz::TensorOptions(lz::kBool))),
             lz::masked_fill(u + 1, u.gt(2), lz::scalar_tensor(true, lz::TensorOptions(lz::kBool))));
  CHECK(lzl::metrics().eager_steps_total == 0);
}

TEST_CASE("lazy concatenations of equal parts are stored by the kernel computing the parts", "[lazy]") {
  // A rotary embedding: both halves and their cat in one kernel.
  fresh_start();
  const Tensor x = lz::randn({2, 5, 3, 8});
  const Tensor cos = lz::randn({5, 1, 4});
  const Tensor sin = lz::randn({5, 1, 4});
  auto rotary = [&](const Tensor& v) {
    const Tensor x1 = v.slice(-1, 0, 4);
    const Tensor x2 = v.slice(-1, 4, 8);
    return lz::cat({x1 * cos - x2 * sin, x2 * cos + x1 * sin}, -1);
  };
  check_same(rotary(x.to_lazy()), rotary(x));
  CHECK(lzl::metrics().kernels_launched == 1);
  CHECK(lzl::metrics().eager_steps_total == 0);
  // Every dim, stack's new dim, parts of a transposed input, an input loaded as a part.
  fresh_start();
  const Tensor a = lz::randn({4, 6});
  for (int64_t dim : {0, 1, -1, -2}) {
    auto parts = [&](const Tensor& v) { return std::vector<Tensor>{v.exp(), v.t().t().sin(), v}; };
    check_same(lz::cat(parts(a.to_lazy()), dim), lz::cat(parts(a), dim));
  }
  for (int64_t dim : {0, 1, 2, -1, -3}) {
    auto parts = [&](const Tensor& v) { return std::vector<Tensor>{v.t() * 2, v.t().cos()}; };
    check_same(lz::stack(parts(a.to_lazy()), dim), lz::stack(parts(a), dim));
  }
  CHECK(lzl::metrics().eager_steps_total == 0);
  // Mixed dtypes promote as eager's; bool and float16 parts; one part.
  const Tensor i = lz::arange(0, 24, lz::kInt32).reshape({4, 6});
  auto mixed = [&](const Tensor& iv, const Tensor& fv) { return lz::cat({iv * 3, fv.gt(0.5), fv * 2}, 1); };
  check_same(mixed(i.to_lazy(), a.to_lazy()), mixed(i, a));
  const Tensor h = a.to(lz::kFloat16);
  check_same(lz::stack({h.to_lazy() * 3, h.to_lazy() + 1}), lz::stack({h * 3, h + 1}), 0, 0);
  check_same(lz::cat({a.to_lazy().exp()}, 1), lz::cat({a.exp()}, 1));
  CHECK(lzl::metrics().eager_steps_total == 0);
  // A consumer of the output reads it back in a kernel of its own.
  check_same((lz::cat({a.to_lazy().exp(), a.to_lazy()}, 0) * 2).sum(0), (lz::cat({a.exp(), a}, 0) * 2).sum(0));
  // 0-size parts and 0-dim parts.
  const Tensor empty = lz::randn({0, 3});
  check_same(lz::cat({empty.to_lazy() + 1, empty.to_lazy()}, 1), lz::cat({empty + 1, empty}, 1));
  check_same(lz::cat({empty.to_lazy() + 1, empty.to_lazy()}, 0), lz::cat({empty + 1, empty}, 0));
  const Tensor s = lz::scalar_tensor(0.25);
  check_same(lz::stack({s.to_lazy().exp(), s.to_lazy()}), lz::stack({s.exp(), s}));
  CHECK(lzl::metrics().eager_steps_total == 0);
}

TEST_CASE("lazy concatenation reused at other sizes checks that its parts stay equal", "[lazy]") {
  // One program, so one executable for every size: equal parts fuse, and
  // parts that become unequal must not reuse the equal parts' plan.
  fresh_start();
  auto program = [](const Tensor& p, const Tensor& q) { return lz::cat({p.exp(), q * 2}, 1); };
  const Tensor p4 = lz::randn({3, 4}), q4 = lz::randn({3, 4});
  check_same(program(p4.to_lazy(), q4.to_lazy()), program(p4, q4));
  const Tensor p6 = lz::randn({3, 6}), q6 = lz::randn({3, 6});
  check_same(program(p6.to_lazy(), q6.to_lazy()), program(p6, q6));
  CHECK(lzl::metrics().eager_steps_total == 0);
  CHECK(lzl::metrics().cache_hits >= 1);
  const Tensor q2 = lz::randn({3, 2});
  check_same(program(p4.to_lazy(), q2.to_lazy()), program(p4, q2));
  CHECK(lzl::metrics().eager_steps_total == 0);  // the unequal cat: another plan (test_lazy_pieces.cpp)
  // Parts of other shapes in any order after that still give eager's answer.
  check_same(program(p6.to_lazy(), q6.to_lazy()), program(p6, q6));
  check_same(program(q2.to_lazy(), p4.to_lazy()), program(q2, p4));
}
