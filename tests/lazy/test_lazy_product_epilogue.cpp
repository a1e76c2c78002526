// A pointwise kernel over a 16-bit matrix product runs on each finished
// block of the product, inside the product's pass (passes/product_epilogue.h,
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

// Where the CPU runs the packed GEMM, every such product runs its epilogue.
uint64_t epilogues_expected(uint64_t products) { return lz::cpu::packed_gemm_supported() ? products : 0; }

// float32 products stay with OpenBLAS and the kernel after them
// (passes/product_epilogue.cpp).
bool takes_epilogue(lz::ScalarType dt) { return dt != lz::kFloat32; }

// One rounding to the 16-bit dtype apart (lazy keeps float32 inside a
// kernel).
double rtol_of(lz::ScalarType dt) { return dt == lz::kBFloat16 ? 1.0 / 64 : dt == lz::kFloat16 ? 1.0 / 512 : 1e-5; }

}  // namespace

TEST_CASE("a 16-bit product's epilogue runs on its blocks in parallel as the kernel after it would", "[lazy]") {
  struct Shape {
    int64_t m, k, n;
  };
  // Several column blocks and partial row tiles; a row split (narrow); one point.
  const std::vector<Shape> shapes{{37, 300, 2100}, {600, 64, 120}, {1, 1, 1}};
  for (lz::ScalarType dt : {lz::kBFloat16, lz::kFloat16, lz::kFloat32}) {
    for (const Shape& s : shapes) {
      INFO(dt << " " << s.m << "x" << s.k << "x" << s.n);
      const Tensor x = lz::randn({s.m, s.k}, lz::TensorOptions(dt));
      const Tensor w = lz::randn({s.k, s.n}, lz::TensorOptions(dt)) * 0.05;
      const Tensor b = lz::randn({s.n}, lz::TensorOptions(dt));
      auto mlp = [](const Tensor& p, const Tensor& bias) { return lz::gelu(p + bias); };
      fresh_start();
      const Tensor fused = mlp(lz::mm(x.to_lazy(), w.to_lazy()), b.to_lazy()).to_eager();
      const uint64_t planned = takes_epilogue(dt) ? 1 : 0;
      CHECK(lzl::metrics().product_epilogues == epilogues_expected(planned));
      CHECK(lzl::metrics().product_epilogues_declined == planned - epilogues_expected(planned));
      CHECK(lzl::metrics().kernels_launched == 1);
      // The same kernel over the product computed eagerly (the same GEMM):
      // the same bits.
      const Tensor product = lz::mm(x, w);
      check_same(fused, mlp(product.to_lazy(), b.to_lazy()).to_eager(), 0, 0);
      check_same(fused, mlp(product, b), rtol_of(dt), rtol_of(dt));
    }
  }
}

TEST_CASE("addmm and linear run their epilogue with alpha, beta and a transposed weight", "[lazy]") {
  const lz::TensorOptions bf16(lz::kBFloat16);
  const Tensor x = lz::randn({45, 200}, bf16);
  const Tensor w = lz::randn({1500, 200}, bf16) * 0.05;  // [out, in]: linear reads it transposed
  const Tensor b = lz::randn({1500}, bf16);
  fresh_start();
  const Tensor relu = lz::relu(lz::linear(x.to_lazy(), w.to_lazy(), b.to_lazy())).to_eager();
  CHECK(lzl::metrics().product_epilogues == epilogues_expected(1));
  check_same(relu, lz::relu(lz::linear(x, w, b)), rtol_of(lz::kBFloat16), rtol_of(lz::kBFloat16));
  const Tensor c = lz::randn({45, 1500}, bf16);
  auto scaled = [](const Tensor& p) { return lz::sigmoid(p * 0.5); };
  fresh_start();
  const Tensor fused = scaled(lz::addmm(c.to_lazy(), x.to_lazy(), w.to_lazy().t(), 0.5, 2.0)).to_eager();
  CHECK(lzl::metrics().product_epilogues == epilogues_expected(1));
  check_same(fused, scaled(lz::addmm(c, x, w.t(), 0.5, 2.0).to_lazy()).to_eager(), 0, 0);
}

TEST_CASE("an executable reused at other sizes still runs the epilogue, float32 products do not", "[lazy]") {
  const lz::TensorOptions bf16(lz::kBFloat16);
  const Tensor w = lz::randn({64, 96}, bf16);
  fresh_start();
  for (int64_t m : {16, 40}) {
    INFO("m " << m);
    const Tensor x = lz::randn({m, 64}, bf16);
    const uint64_t hits = lzl::metrics().cache_hits, epilogues = lzl::metrics().product_epilogues;
    const Tensor y = lz::exp(lz::mm(x.to_lazy(), w.to_lazy()) * 0.1).to_eager();
    CHECK(lzl::metrics().cache_hits == hits + (m == 16 ? 0 : 1));
    CHECK(lzl::metrics().product_epilogues == epilogues + epilogues_expected(1));
    check_same(y, lz::exp(lz::mm(x, w).to_lazy() * 0.1).to_eager(), 0, 0);
  }
  // float32 products stay with OpenBLAS and the kernel's own pass.
  fresh_start();
  const Tensor x32 = lz::randn({16, 64}), w32 = lz::randn({64, 96});
  check_same(lz::exp(lz::mm(x32.to_lazy(), w32.to_lazy()) * 0.1), lz::exp(lz::mm(x32, w32) * 0.1));
  CHECK(lzl::metrics().product_epilogues == 0);
  CHECK(lzl::metrics().kernels_launched == 1);
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
  CHECK(lzl::metrics().product_epilogues == epilogues_expected(1));
  check_same(y, lz::mm(x, w) + tiny, 0, 0);
}
