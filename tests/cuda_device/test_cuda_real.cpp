// The eager CUDA checks on a real GPU. Without one (no driver, the
// toolkit's stub, no device) every test says why and passes; CI machines
// have none, so tests/cuda_device/test_cuda_emulated.cpp runs the same
// checks on the emulated driver.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "codegen_cuda/device_kernel.h"
#include "core/cuda_allocator.h"
#include "core/cuda_device.h"
#include "tests/cuda_device/cuda_device_checks.h"

namespace {

// Whether a real device is present; otherwise warns with the reason.
bool have_real_device() {
  if (!lz::cuda::is_available()) {
    WARN("skipped: no CUDA device: " << lz::cuda::unavailable_reason());
    return false;
  }
  if (lz::cuda::device_properties(0).emulated) {
    WARN("skipped: LZ_CUDA_DRIVER names the emulated driver, not a GPU");
    return false;
  }
  return true;
}

TEST_CASE("cuda device: eager operators match the CPU", "[cuda][cuda_device]") {
  if (!have_real_device()) return;
  INFO(lz::cuda::device_properties(0).name << " (" << lz::cuda::device_properties(0).arch() << ")");
  for (const lz_cuda_test::Case& c : lz_cuda_test::eager_cases()) {
    lz_cuda_test::check_against_cpu(c, lz::Device("cuda:0"));
  }
}

TEST_CASE("cuda device: large transfers round-trip and memory is reused", "[cuda][cuda_device]") {
  if (!have_real_device()) return;
  const lz::Device cuda0("cuda:0");
  const lz::Tensor large = lz::arange(10'000'000, lz::TensorOptions(lz::kFloat));
  CHECK(lz::equal(large.to(cuda0).to(lz::Device(lz::kCPU)), large));
  const uint64_t hits = lz::cuda::memory_stats(0).cache_hits;
  CHECK(lz::equal(large.to(cuda0).to(lz::Device(lz::kCPU)), large));
  CHECK(lz::cuda::memory_stats(0).cache_hits > hits);
  lz::cuda::synchronize();
}

TEST_CASE("cuda device: kernels are compiled once and then found", "[cuda][cuda_device]") {
  if (!have_real_device()) return;
  const lz::Device cuda0("cuda:0");
  const auto run = [&](int64_t n) { return (lz::ones({n}, lz::TensorOptions().device(cuda0)) * 2).sum().item<float>(); };
  CHECK(run(1000) == 2000.0f);
  const int64_t compiles = lz::codegen_cuda::device_kernel_stats().compiles;
  CHECK(run(3000) == 6000.0f);
  CHECK(lz::codegen_cuda::device_kernel_stats().compiles == compiles);
}

}  // namespace
