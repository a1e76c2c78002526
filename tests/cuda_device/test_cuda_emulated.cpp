// The CUDA device runtime against the emulated driver (device memory is
// host memory; see emulated_cuda_driver.cpp): devices, the caching
// allocator, host/device copies through pinned staging, errors.
#include <catch2/catch.hpp>

#include <dlfcn.h>

#include <cstdlib>
#include <utility>
#include <vector>

#include <lazuli/lazuli.h>

#include "core/cuda/allocator.h"
#include "core/cuda/copy.h"
#include "core/cuda/device.h"
#include "tests/cuda_device/cuda_device_checks.h"

namespace {

using Catch::Contains;

// Before anything asks whether CUDA is available (the probe runs once).
const bool driver_selected = [] {
  setenv("LZ_CUDA_DRIVER", LZ_EMULATED_CUDA_DRIVER, 1);
  setenv("LZ_CUBLAS_LIBRARY", LZ_EMULATED_CUBLAS, 1);
  return true;
}();

long driver_calls(const char* name) {
  void* lib = dlopen(LZ_EMULATED_CUDA_DRIVER, RTLD_NOW | RTLD_NOLOAD);
  REQUIRE(lib != nullptr);
  const auto count = reinterpret_cast<long (*)(const char*)>(dlsym(lib, "lzEmulatedCallCount"));
  REQUIRE(count != nullptr);
  return count(name);
}

using lz_cuda_test::cuda0;
const lz::Device cuda1("cuda:1");

TEST_CASE("emulated cuda: two devices, their properties", "[cuda]") {
  REQUIRE(lz::cuda::is_available());
  CHECK(lz::cuda::device_count() == 2);
  CHECK(lz::cuda::unavailable_reason().empty());
  const lz::cuda::DeviceProperties& p = lz::cuda::device_properties(1);
  CHECK_THAT(p.name, Contains("emulated CUDA device 1"));
  CHECK(p.emulated);
  CHECK(p.arch() == "sm_80");
  CHECK(p.total_memory > 0);
}

TEST_CASE("emulated cuda: a device that does not exist is an error naming it", "[cuda]") {
  CHECK_THROWS_AS(lz::zeros({3}, lz::TensorOptions().device(lz::Device("cuda:5"))), lz::DeviceError);
  CHECK_THROWS_WITH(lz::zeros({3}, lz::TensorOptions().device(lz::Device("cuda:5"))),
                    Contains("cuda:5 does not exist (2 CUDA devices)"));
  CHECK_THROWS_WITH(lz::cuda::device_properties(-1), Contains("does not exist"));
}

TEST_CASE("emulated cuda: the caching allocator reuses freed blocks", "[cuda]") {
  lz::cuda::empty_cache();
  const lz::cuda::MemoryStats before = lz::cuda::memory_stats(0);
  { lz::Tensor t = lz::empty({1000}, lz::TensorOptions().device(cuda0)); }
  const lz::cuda::MemoryStats first = lz::cuda::memory_stats(0);
  CHECK(first.driver_allocations == before.driver_allocations + 1);
  CHECK(first.allocated_bytes == before.allocated_bytes);
  CHECK(first.cached_bytes == lz::cuda::CachingAllocator::size_class(4000));
  {
    lz::Tensor t = lz::empty({900}, lz::TensorOptions().device(cuda0));  // the same size class
    const lz::cuda::MemoryStats during = lz::cuda::memory_stats(0);
    CHECK(during.cache_hits == first.cache_hits + 1);
    CHECK(during.driver_allocations == first.driver_allocations);
    CHECK(during.allocated_bytes == before.allocated_bytes + lz::cuda::CachingAllocator::size_class(4000));
    CHECK(during.peak_allocated_bytes >= during.allocated_bytes);
  }
  lz::cuda::empty_cache();
  const lz::cuda::MemoryStats after = lz::cuda::memory_stats(0);
  CHECK(after.cached_bytes == 0);
  CHECK(after.driver_frees > first.driver_frees);
}

TEST_CASE("emulated cuda: size classes", "[cuda]") {
  using A = lz::cuda::CachingAllocator;
  CHECK(A::size_class(1) == 512);
  CHECK(A::size_class(512) == 512);
  CHECK(A::size_class(513) == 1024);
  CHECK(A::size_class((size_t{1} << 20) + 1) == (size_t{2} << 20));
  CHECK(A::size_class(size_t{5} << 20) == (size_t{6} << 20));
}

TEST_CASE("emulated cuda: running out of device memory is OutOfMemoryError", "[cuda]") {
  // The emulated device has 4 GiB.
  CHECK_THROWS_AS(lz::empty({int64_t{3} << 30}, lz::TensorOptions().device(cuda0)), lz::OutOfMemoryError);
  CHECK_THROWS_WITH(lz::empty({int64_t{3} << 30}, lz::TensorOptions().device(cuda0)),
                    Contains("out of memory allocating 12884901888 bytes"));
  // The failure left the device usable.
  CHECK(lz::ones({4}, lz::TensorOptions().device(cuda0)).sum().item<float>() == 4.0f);
}

TEST_CASE("emulated cuda: host and device copies, small and staged", "[cuda]") {
  const lz::Tensor small = lz::arange(1000, lz::TensorOptions(lz::kInt));
  CHECK(lz::equal(small.to(cuda0).to(lz::Device(lz::kCPU)), small));

  // 40 MB: ten chunks through the two pinned staging buffers each way.
  const long pinned_before = driver_calls("cuMemAllocHost_v2");
  const long h2d_before = driver_calls("cuMemcpyHtoDAsync_v2");
  const long d2h_before = driver_calls("cuMemcpyDtoHAsync_v2");
  const lz::Tensor large = lz::arange(10'000'000, lz::TensorOptions(lz::kFloat));
  const lz::Tensor on_device = large.to(cuda0);
  CHECK(on_device.is_cuda());
  const lz::Tensor back = on_device.to(lz::Device(lz::kCPU));
  CHECK(lz::equal(back, large));
  const size_t chunks = (large.nbytes() + lz::cuda::kStagingChunkBytes - 1) / lz::cuda::kStagingChunkBytes;
  CHECK(driver_calls("cuMemcpyHtoDAsync_v2") - h2d_before == static_cast<long>(chunks));
  CHECK(driver_calls("cuMemcpyDtoHAsync_v2") - d2h_before == static_cast<long>(chunks));
  CHECK(driver_calls("cuMemAllocHost_v2") - pinned_before <= 2);  // allocated once per device

  // Between devices, and a dtype conversion on the way.
  const lz::Tensor on1 = on_device.to(cuda1);
  CHECK(on1.device() == cuda1);
  CHECK(lz::equal(on1.to(lz::Device(lz::kCPU)), large));
  CHECK(lz::equal(small.to(cuda0, lz::kDouble).to(lz::Device(lz::kCPU)), small.to(lz::kDouble)));
  lz::cuda::synchronize();
}

// A host-to-device copy per output buffer made every CUDA kernel run at the
// PCIe rate on a real H100 (18 GB/s instead of 1.2 TB/s for W1).
TEST_CASE("emulated cuda: device factories and a cached lazy graph copy nothing from the host", "[cuda]") {
  const lz::TensorOptions on0 = lz::TensorOptions().device(cuda0);
  const lz::Tensor x = lz::randn({4096}).to(cuda0);
  const auto run = [&] { return (x.to_lazy() * 2 + lz::zeros({4096}, on0).to_lazy()).to_eager(); };
  run();  // compiles
  const long h2d_before = driver_calls("cuMemcpyHtoDAsync_v2");
  const lz::Tensor e = lz::empty({1 << 20}, on0);
  const lz::Tensor z = lz::zeros({1 << 20}, on0.dtype(lz::kInt));
  const lz::Tensor o = lz::ones({3, 5}, on0.dtype(lz::kDouble));
  const lz::Tensor f = lz::full({7}, 2.5, on0);
  const lz::Tensor y = run();
  CHECK(driver_calls("cuMemcpyHtoDAsync_v2") == h2d_before);
  CHECK((e.is_cuda() && z.is_cuda() && o.is_cuda() && f.is_cuda() && y.is_cuda()));
  CHECK(z.dtype() == lz::kInt);
  CHECK(lz::equal(z.to(lz::Device(lz::kCPU)), lz::zeros({1 << 20}, lz::kInt)));
  CHECK(lz::equal(o.to(lz::Device(lz::kCPU)), lz::ones({3, 5}, lz::kDouble)));
  CHECK(lz::equal(f.to(lz::Device(lz::kCPU)), lz::full({7}, 2.5)));
  CHECK(lz::allclose(y.to(lz::Device(lz::kCPU)), x.to(lz::Device(lz::kCPU)) * 2));
}

TEST_CASE("emulated cuda: full and fill_ write every dtype on the device as the CPU does", "[cuda]") {
  // 1-, 2-, 4- and 8-byte elements; 8-byte values whose two halves differ
  // take the two strided memsets.
  const std::vector<std::pair<lz::ScalarType, lz::Scalar>> cases = {
      {lz::kBool, true},          {lz::kByte, 200},
      {lz::kInt, -7},             {lz::kLong, (int64_t{1} << 40) + 3},
      {lz::kLong, -1},            {lz::kHalf, 1.5},
      {lz::kBFloat16, -2.25},     {lz::kFloat, 2.5},
      {lz::kDouble, 0.1},         {lz::kDouble, 0.0}};
  for (const auto& [dtype, value] : cases) {
    CAPTURE(dtype, value.to_double());
    const lz::Tensor expected = lz::full({1001}, value, dtype);
    CHECK(lz::equal(lz::full({1001}, value, lz::TensorOptions(dtype).device(cuda0)).to(lz::Device(lz::kCPU)), expected));
    lz::Tensor t = lz::empty({1001}, lz::TensorOptions(dtype).device(cuda0));
    t.fill_(value);
    CHECK(lz::equal(t.to(lz::Device(lz::kCPU)), expected));
  }
  // A strided destination takes the one-op graph; the other elements stay.
  lz::Tensor base = lz::zeros({4, 6}, lz::TensorOptions().device(cuda0));
  base.select(1, 2).fill_(3.0);
  lz::Tensor expected = lz::zeros({4, 6});
  expected.select(1, 2).fill_(3.0);
  CHECK(lz::equal(base.to(lz::Device(lz::kCPU)), expected));
  CHECK_THROWS_AS(lz::empty({3}, lz::TensorOptions(lz::kByte).device(cuda0)).fill_(300), lz::ValueError);
}

TEST_CASE("emulated cuda: a non-contiguous device tensor copies back with its values", "[cuda]") {
  const lz::Tensor x = lz::arange(12, lz::TensorOptions(lz::kFloat)).reshape({3, 4});
  const lz::Tensor t = x.to(cuda0).t();
  CHECK_FALSE(t.is_contiguous());
  CHECK(lz::equal(t.to(lz::Device(lz::kCPU)), x.t()));
  CHECK(lz::equal(t.contiguous().to(lz::Device(lz::kCPU)), x.t().contiguous()));
}

}  // namespace
