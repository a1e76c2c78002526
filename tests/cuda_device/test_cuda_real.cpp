// The CUDA checks on a real GPU: eager operators against the CPU, large
// transfers and memory reuse, compile-once, and (hidden, run by the device
// kit: scripts/device_check.sh) the whole operator test table on cuda:0.
// Without a GPU, main() (cuda_real_main.cpp) reports every test as skipped;
// test_cuda_emulated runs the same checks on the emulated driver in CI.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "codegen_cuda/device_kernel.h"
#include "core/cuda/allocator.h"
#include "core/cuda/device.h"
#include "tests/cuda_device/cuda_device_checks.h"
#include "tests/cuda_device/cuda_op_table.h"
#include "tests/op_table/entry_tests.h"

namespace {

using lz_cuda_test::cuda0;

TEST_CASE("cuda device: eager operators match the CPU", "[cuda][cuda_device]") {
  INFO(lz::cuda::device_properties(0).name << " (" << lz::cuda::device_properties(0).arch() << ")");
  for (const lz_cuda_test::Case& c : lz_cuda_test::eager_cases()) lz_cuda_test::check_against_cpu(c, cuda0);
}

TEST_CASE("cuda device: large transfers round-trip and memory is reused", "[cuda][cuda_device]") {
  const lz::Tensor large = lz::arange(10'000'000, lz::TensorOptions(lz::kFloat));
  CHECK(lz::equal(large.to(cuda0).to(lz::Device(lz::kCPU)), large));
  const uint64_t hits = lz::cuda::memory_stats(0).cache_hits;
  CHECK(lz::equal(large.to(cuda0).to(lz::Device(lz::kCPU)), large));
  CHECK(lz::cuda::memory_stats(0).cache_hits > hits);
  lz::cuda::synchronize();
}

TEST_CASE("cuda device: kernels are compiled once and then found", "[cuda][cuda_device]") {
  const auto run = [&](int64_t n) { return (lz::ones({n}, lz::TensorOptions().device(cuda0)) * 2).sum().item<float>(); };
  CHECK(run(1000) == 2000.0f);
  const int64_t compiles = lz::codegen_cuda::device_kernel_stats().compiles;
  CHECK(run(3000) == 6000.0f);
  CHECK(lz::codegen_cuda::device_kernel_stats().compiles == compiles);
}

TEST_CASE("cuda device: lazy graphs run fused on the device", "[cuda][cuda_device]") {
  lz::manual_seed(3);
  const lz::Tensor x = lz::randn({256, 384});
  const lz::Tensor expected = lz::softmax(x * 2, -1).sum({0});
  const lz::Tensor lazy = lz::softmax(x.to(cuda0).to_lazy() * 2, -1).sum({0});
  const lz::Tensor got = lazy.to_eager();
  CHECK(got.is_cuda());
  CHECK(lz::allclose(got.to(lz::Device(lz::kCPU)), expected, 1e-4, 1e-5));
}

// Hidden ('.'): each entry is its own test case, so the device kit runs
// them in parallel processes: test_cuda_real "cuda device op table: add".
void run_entry(const lzt::OpInfo& op) { lz_cuda_test::check_op_table_entry(op, cuda0); }
const bool registered = lzt::register_entry_tests("cuda device op table: ", "[.][cuda_op_table]", &run_entry);

}  // namespace
