// Fused kernels against eager on the patterns fusion rewrites: views of
// values computed inside a kernel, broadcasts of reduced values, reductions
// over leading dims, mixed dtypes, 16-bit types, 0-size and 0-dim tensors.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <functional>

#include "lazy/metrics.h"

namespace {

using lz::Scalar;
using lz::Tensor;

// f on lazy inputs == f on eager inputs; returns the kernels launched.
uint64_t check_fused(const std::vector<Tensor>& inputs, const std::function<Tensor(const std::vector<Tensor>&)>& f,
                     double rtol = 1e-5, double atol = 1e-6) {
  const Tensor expected = f(inputs);
  std::vector<Tensor> lazy;
  for (const Tensor& t : inputs) lazy.push_back(t.to_lazy());
  lz::lazy::reset_metrics();
  const Tensor got = f(lazy).to_eager();
  REQUIRE(got.sizes() == expected.sizes());
  REQUIRE(got.dtype() == expected.dtype());
  INFO("got:      " << got.to_string());
  INFO("expected: " << expected.to_string());
  if (got.is_floating_point()) {
    CHECK(lz::allclose(got.to(lz::kFloat64), expected.to(lz::kFloat64), rtol, atol, true));
  } else {
    CHECK(lz::equal(got, expected));
  }
  return lz::lazy::metrics().kernels_launched;
}

TEST_CASE("fused transpose, slice and select of values computed in the kernel", "[fusion]") {
  const Tensor x = lz::randn({6, 5});
  const Tensor y = lz::randn({5, 6});
  CHECK(check_fused({x, y}, [](auto& in) { return in[0].exp().t() + in[1]; }) == 1);
  CHECK(check_fused({x}, [](auto& in) { return (in[0] * 2).slice(1, 1, 5, 2).sin(); }) >= 1);
  CHECK(check_fused({x}, [](auto& in) { return in[0].sigmoid().select(0, 3) + 1; }) >= 1);
  CHECK(check_fused({x}, [](auto& in) { return in[0].abs().reshape({5, 6}) * in[0].reshape({5, 6}); }) >= 1);
}

TEST_CASE("fused reductions over leading and several dims", "[fusion]") {
  const Tensor x = lz::randn({4, 5, 6});
  const int64_t d0[] = {0};
  const int64_t d02[] = {0, 2};
  check_fused({x}, [&](auto& in) { return lz::sum(in[0] * in[0], d0).exp(); }, 1e-5, 1e-5);
  check_fused({x}, [&](auto& in) { return lz::sum(in[0], d02, true) / 3 + in[0]; }, 1e-5, 1e-5);
  check_fused({x}, [](auto& in) { return in[0] - lz::amax(in[0], {-1}, true); });
  check_fused({x}, [](auto& in) { return lz::mean(in[0].abs()); });
}

TEST_CASE("fused reduced value broadcast along another axis stays correct", "[fusion]") {
  const Tensor x = lz::randn({4, 4});
  const int64_t d1[] = {1};
  check_fused({x}, [&](auto& in) { return in[0] + lz::sum(in[0], d1); });
}

TEST_CASE("fused mixed dtypes, integer and boolean math", "[fusion]") {
  const Tensor i = (lz::randn({3, 7}) * 4).to(lz::kInt32);
  const Tensor f = lz::randn({3, 7});
  check_fused({i, f}, [](auto& in) { return in[0] * 3 + in[1]; });
  check_fused({i}, [](auto& in) { return (in[0] * in[0] - 7).abs(); });
  check_fused({i, f}, [](auto& in) { return lz::where(in[0] > 0, in[1], in[1].neg()); });
  check_fused({f}, [](auto& in) { return (in[0] > 0.5).logical_and(in[0] < 1.5); });
  check_fused({i}, [](auto& in) { return lz::sum(in[0] > 0); });
}

TEST_CASE("fused 16-bit inputs compute in float32 and round at the store", "[fusion]") {
  const Tensor h = lz::randn({8, 16}).to(lz::kFloat16);
  const Tensor b = lz::randn({8, 16}).to(lz::kBFloat16);
  check_fused({h}, [](auto& in) { return lz::softmax(in[0], -1); }, 1e-2, 1e-3);
  check_fused({b}, [](auto& in) { return (in[0] * 2).exp() + 1; }, 2e-2, 1e-2);
  check_fused({h}, [](auto& in) { return in[0].to(lz::kFloat32).to(lz::kFloat16).to(lz::kFloat32) * 3; }, 1e-3, 1e-3);
}

TEST_CASE("fused 0-size and 0-dim tensors", "[fusion]") {
  const Tensor empty = lz::randn({0, 5});
  const Tensor scalar = lz::randn({});
  check_fused({empty}, [](auto& in) { return in[0].exp() + 1; });
  check_fused({empty}, [](auto& in) { return lz::sum(in[0]); });
  check_fused({empty}, [](auto& in) { return lz::sum(in[0], {0}); });
  check_fused({scalar}, [](auto& in) { return in[0].sin() * 2; });
  check_fused({scalar}, [](auto& in) { return lz::sum(in[0] * in[0]); });
}

TEST_CASE("fused kernels read strided and broadcast eager inputs", "[fusion]") {
  const Tensor base = lz::randn({6, 8});
  const Tensor strided = base.t();              // non-contiguous
  const Tensor expanded = lz::randn({8, 1}).expand({8, 6});  // stride 0
  check_fused({strided, expanded}, [](auto& in) { return in[0].exp() * in[1]; });
  check_fused({strided}, [](auto& in) { return lz::softmax(in[0], 0); });
}

}  // namespace
