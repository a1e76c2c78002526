// A pointwise kernel over a matrix product runs on each finished block of
// the product, inside the product's pass (passes/product_epilogue.h,
// lazy/product_epilogue.cpp): the same values as the kernel run after the
// product, and as eager; counted in the metrics.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "eager_kernels/cpu/packed_gemm.h"
#include "tests/lazy/lazy_test_util.h"

#include <cstdint>
#include <vector>

using lz::Scalar;
using lz::Tensor;

using namespace lazy_test;

namespace {

// float32 products run their epilogue between OpenBLAS calls; 16-bit ones
// where the CPU runs the packed GEMM.
uint64_t epilogues_expected(lz::ScalarType dt, uint64_t products) {
  return dt == lz::kFloat32 || lz::cpu::packed_gemm_supported() ? products : 0;
}

// One rounding to the 16-bit dtype apart (lazy keeps float32 inside a
// kernel).
double rtol_of(lz::ScalarType dt) { return dt == lz::kBFloat16 ? 1.0 / 64 : dt == lz::kFloat16 ? 1.0 / 512 : 1e-5; }

}  // namespace

TEST_CASE("a product's epilogue runs on its blocks in parallel as the kernel after it would", "[lazy]") {
  struct Shape {
    int64_t m, k, n;
  };
  // Several column blocks and partial row tiles (column strips for
  // OpenBLAS); a row split (narrow; row strips); one point; blocks of the
  // float32 path's 1 Mi-float bound, two per thread.
  const std::vector<Shape> shapes{{37, 300, 2100}, {600, 64, 120}, {1, 1, 1}, {640, 24, 4000}};
  for (lz::ScalarType dt : {lz::kBFloat16, lz::kFloat16, lz::kFloat32}) {
    for (const Shape& s : shapes) {
      INFO(dt << " " << s.m << "x" << s.k << "x" << s.n);
      const Tensor x = lz::randn({s.m, s.k}, lz::TensorOptions(dt));
      const Tensor w = lz::randn({s.k, s.n}, lz::TensorOptions(dt)) * 0.05;
      const Tensor b = lz::randn({s.n}, lz::TensorOptions(dt));
      auto mlp = [](const Tensor& p, const Tensor& bias) { return lz::gelu(p + bias); };
      fresh_start();
      const Tensor fused = mlp(lz::mm(x.to_lazy(), w.to_lazy()), b.to_lazy()).to_eager();
      CHECK(lzl::metrics().product_epilogues == epilogues_expected(dt, 1));
      CHECK(lzl::metrics().product_epilogues_declined == 1 - epilogues_expected(dt, 1));
      CHECK(lzl::metrics().kernels_launched == 1);
      // The same kernel over the product computed eagerly (the same GEMM):
      // the same bits.
      const Tensor product = lz::mm(x, w);
      check_same(fused, mlp(product.to_lazy(), b.to_lazy()).to_eager(), 0, 0);
      check_same(fused, mlp(product, b), rtol_of(dt), rtol_of(dt));
    }
  }
}

TEST_CASE("addmm and linear run their epilogue with alpha, beta and transposed operands", "[lazy]") {
  for (lz::ScalarType dt : {lz::kBFloat16, lz::kFloat32}) {
    INFO(dt);
    const lz::TensorOptions opts(dt);
    const double tol = rtol_of(dt);
    const Tensor x = lz::randn({45, 200}, opts);
    const Tensor w = lz::randn({1500, 200}, opts) * 0.05;  // [out, in]: linear reads it transposed
    const Tensor b = lz::randn({1500}, opts);
    fresh_start();
    const Tensor relu = lz::relu(lz::linear(x.to_lazy(), w.to_lazy(), b.to_lazy())).to_eager();
    CHECK(lzl::metrics().product_epilogues == epilogues_expected(dt, 1));
    check_same(relu, lz::relu(lz::linear(x, w, b)), tol, tol);
    const Tensor c = lz::randn({45, 1500}, opts);
    auto scaled = [](const Tensor& p) { return lz::sigmoid(p * 0.5); };
    fresh_start();
    const Tensor fused = scaled(lz::addmm(c.to_lazy(), x.to_lazy(), w.to_lazy().t(), 0.5, 2.0)).to_eager();
    CHECK(lzl::metrics().product_epilogues == epilogues_expected(dt, 1));
    check_same(fused, scaled(lz::addmm(c, x, w.t(), 0.5, 2.0).to_lazy()).to_eager(), 0, 0);
    // A transposed left factor split in row strips (more rows than columns),
    // a bias row broadcast down them.
    const Tensor xt = lz::randn({100, 900}, opts), v = lz::randn({100, 60}, opts), bias = lz::randn({60}, opts);
    fresh_start();
    const Tensor tall = lz::tanh(lz::addmm(bias.to_lazy(), xt.to_lazy().t(), v.to_lazy())).to_eager();
    CHECK(lzl::metrics().product_epilogues == epilogues_expected(dt, 1));
    check_same(tall, lz::tanh(lz::addmm(bias, xt.t(), v)), tol, tol);
  }
}

TEST_CASE("an executable reused at other sizes still runs the epilogue", "[lazy]") {
  const lz::TensorOptions bf16(lz::kBFloat16);
  const Tensor w = lz::randn({64, 96}, bf16);
  fresh_start();
  for (int64_t m : {16, 40}) {
    INFO("m " << m);
    const Tensor x = lz::randn({m, 64}, bf16);
    const uint64_t hits = lzl::metrics().cache_hits, epilogues = lzl::metrics().product_epilogues;
    const Tensor y = lz::exp(lz::mm(x.to_lazy(), w.to_lazy()) * 0.1).to_eager();
    CHECK(lzl::metrics().cache_hits == hits + (m == 16 ? 0 : 1));
    CHECK(lzl::metrics().product_epilogues == epilogues + epilogues_expected(lz::kBFloat16, 1));
    check_same(y, lz::exp(lz::mm(x, w).to_lazy() * 0.1).to_eager(), 0, 0);
  }
}

// The product flushes subnormals (flush_denormals.h); its epilogue computes
// as the kernel after it would: a subnormal bias over a zero product stays.
TEST_CASE("a product's epilogue keeps subnormal values as the kernel after it would", "[lazy]") {
  const lz::TensorOptions bf16(lz::kBFloat16);
  const Tensor x = lz::zeros({4, 8}, bf16), w = lz::randn({8, 64}, bf16);
  const Tensor tiny = lz::full({64}, 1e-39, bf16);  // subnormal in float32 and bfloat16
  REQUIRE(lz::all(tiny.to(lz::kFloat32).gt(0)).item().to_bool());
  fresh_start();
  const Tensor y = (lz::mm(x.to_lazy(), w.to_lazy()) + tiny.to_lazy()).to_eager();
  CHECK(lzl::metrics().product_epilogues == epilogues_expected(lz::kBFloat16, 1));
  check_same(y, lz::mm(x, w) + tiny, 0, 0);
}
