// Eager CUDA operators on the emulated device: each computation matches the
// CPU; kernels compile once per structure; an operator without a CUDA path
// names itself; and, as hidden test cases run for a sample by CTest, the
// whole operator test table with its inputs on cuda:0.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <lazuli/lazuli.h>

#include "codegen_cuda/device_kernel.h"
#include "tests/cuda_device/cuda_device_checks.h"
#include "tests/cuda_device/cuda_op_table.h"
#include "tests/op_table/entry_tests.h"

namespace {

using Catch::Contains;
using lz_cuda_test::cuda0;

TEST_CASE("emulated cuda ops: eager operators match the CPU", "[cuda]") {
  for (const lz_cuda_test::Case& c : lz_cuda_test::eager_cases()) lz_cuda_test::check_against_cpu(c, cuda0);
}

TEST_CASE("emulated cuda ops: an operator compiles once, for any sizes", "[cuda]") {
  const auto run = [](int64_t n) {
    return (lz::ones({n, 3}, lz::TensorOptions().device(cuda0)) * 3).sub(1).to(lz::Device(lz::kCPU));
  };
  CHECK(run(5).sum().item<float>() == 30.0f);
  const int64_t compiles = lz::codegen_cuda::device_kernel_stats().compiles;
  CHECK(run(7).sum().item<float>() == 42.0f);
  CHECK(lz::codegen_cuda::device_kernel_stats().compiles == compiles);
}

TEST_CASE("emulated cuda ops: numbers, factories and random numbers", "[cuda]") {
  const lz::Tensor x = lz::arange(6, lz::TensorOptions(lz::kFloat).device(cuda0));
  CHECK(x.is_cuda());
  CHECK(x.sum().item<float>() == 15.0f);
  CHECK(lz::equal(x, x.clone()));
  lz::manual_seed(7);
  const lz::Tensor cpu = lz::randn({4, 4});
  lz::manual_seed(7);
  const lz::Tensor dev = lz::randn({4, 4}, lz::TensorOptions().device(cuda0));
  CHECK(dev.is_cuda());
  CHECK(lz::equal(dev.to(lz::Device(lz::kCPU)), cpu));
}

TEST_CASE("emulated cuda ops: an operator with no CUDA code runs on the host, counted, or strict mode refuses", "[cuda]") {
  // Integer matrix products: cuBLAS has none, and mm is not lowered.
  const lz::Tensor a = lz::arange(6, lz::TensorOptions(lz::kLong)).reshape({2, 3});
  const lz::Tensor b = lz::arange(6, lz::TensorOptions(lz::kLong)).reshape({3, 2});
  const uint64_t before = lz::lazy::count_of(lz::lazy::metrics().eager_fallbacks, "mm");
  const lz::Tensor c = lz::mm(a.to(cuda0), b.to(cuda0));
  CHECK(c.is_cuda());
  CHECK(lz::equal(c.to(lz::Device(lz::kCPU)), lz::mm(a, b)));
  CHECK(lz::lazy::count_of(lz::lazy::metrics().eager_fallbacks, "mm") == before + 1);

  const lz::lazy::Settings saved = lz::lazy::settings();
  lz::lazy::Settings strict = saved;
  strict.strict = true;
  lz::lazy::set_settings(strict);
  CHECK_THROWS_AS(lz::mm(a.to(cuda0), b.to(cuda0)), lz::NotImplementedError);
  CHECK_THROWS_WITH(lz::mm(a.to(cuda0), b.to(cuda0)), Contains("[mm] has no CUDA kernel"));
  lz::lazy::set_settings(saved);
}

TEST_CASE("emulated cuda ops: matrix products go to cuBLAS, operands read in place", "[cuda]") {
  void* lib = dlopen(LZ_EMULATED_CUBLAS, RTLD_NOW);  // the instance Lazuli opens too
  REQUIRE(lib != nullptr);
  const auto gemm_calls = reinterpret_cast<long (*)()>(dlsym(lib, "lzEmulatedGemmCalls"));
  REQUIRE(gemm_calls != nullptr);
  lz::manual_seed(5);
  const lz::Tensor a = lz::randn({5, 7}), b = lz::randn({7, 3}), bt = lz::randn({3, 7}).t();
  const lz::Tensor batch_a = lz::randn({4, 5, 7}), batch_b = lz::randn({4, 7, 3});
  const lz::Tensor bias = lz::randn({3});
  const long calls = gemm_calls();
  const auto host = [](const lz::Tensor& t) { return t.to(lz::Device(lz::kCPU)); };
  CHECK(lz::allclose(host(lz::mm(a.to(cuda0), b.to(cuda0))), lz::mm(a, b), 1e-5, 1e-5));
  // A transposed operand keeps its layout on the device: cuBLAS reads it transposed.
  const lz::Tensor bt_dev = lz_cuda_test::to_device_keeping_layout(bt, cuda0);
  CHECK_FALSE(bt_dev.is_contiguous());
  CHECK(lz::allclose(host(lz::mm(a.to(cuda0), bt_dev)), lz::mm(a, bt), 1e-5, 1e-5));
  CHECK(lz::allclose(host(lz::bmm(batch_a.to(cuda0), batch_b.to(cuda0))), lz::bmm(batch_a, batch_b), 1e-5, 1e-5));
  CHECK(lz::allclose(host(lz::matmul(batch_a.to(cuda0), b.to(cuda0))), lz::matmul(batch_a, b), 1e-5, 1e-5));
  CHECK(lz::allclose(host(lz::addmm(bias.to(cuda0), a.to(cuda0), b.to(cuda0), 0.5, 2.0)),
                     lz::addmm(bias, a, b, 0.5, 2.0), 1e-5, 1e-5));
  CHECK(lz::allclose(host(lz::mm(a.to(cuda0, lz::kHalf), b.to(cuda0, lz::kHalf))).to(lz::kFloat),
                     lz::mm(a.to(lz::kHalf), b.to(lz::kHalf)).to(lz::kFloat), 1e-2, 1e-2));
  CHECK(gemm_calls() - calls >= 6);
  // An empty inner dimension is a sum of nothing.
  CHECK(lz::equal(host(lz::mm(lz::ones({2, 0}).to(cuda0), lz::ones({0, 3}).to(cuda0))), lz::zeros({2, 3})));
}

TEST_CASE("emulated cuda ops: mixing devices is an error naming both", "[cuda]") {
  const lz::Tensor a = lz::ones({3}, lz::TensorOptions().device(cuda0));
  const lz::Tensor b = lz::ones({3});
  CHECK_THROWS(a + b);
}

// ---- The operator test table on cuda:0 -------------------------------------------

void run_entry(const lzt::OpInfo& op) { lz_cuda_test::check_op_table_entry(op, cuda0); }

// Hidden ('.'): CTest runs a sample (tests/cuda_device/CMakeLists.txt); the
// whole table is `./build/tests/cuda_device/test_cuda_emulated "[cuda_op_table]"`.
const bool registered = lzt::register_entry_tests("cuda op table: ", "[.][cuda_op_table]", &run_entry);

}  // namespace
