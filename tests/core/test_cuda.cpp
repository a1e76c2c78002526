// CUDA availability without a GPU: the driver is probed with dlopen, and
// every way it can be missing is reported as a reason, never a crash.
#include <catch2/catch.hpp>

#include <filesystem>

#include "core/allocator.h"
#include "core/cuda/runtime.h"
#include "core/error.h"

namespace lz {
namespace {

using Catch::Contains;

TEST_CASE("cuda: availability, its reason and the device count agree", "[cuda]") {
  if (cuda::is_available()) {
    CHECK(cuda::unavailable_reason().empty());
    CHECK(cuda::device_count() > 0);
    CHECK(cuda::driver_version() > 0);
    CHECK_NOTHROW(cuda::detail::require_available("test"));
  } else {
    INFO("reason: " << cuda::unavailable_reason());
    CHECK_FALSE(cuda::unavailable_reason().empty());
    CHECK(cuda::device_count() == 0);
    CHECK_THROWS_AS(cuda::detail::require_available("to"), DeviceError);
    CHECK_THROWS_WITH(cuda::detail::require_available("to"),
                      Contains("[to] CUDA unavailable: ") && Contains(cuda::unavailable_reason()));
  }
}

TEST_CASE("cuda: a driver library that does not exist is a reason naming it", "[cuda]") {
  const cuda::detail::DriverProbe p = cuda::detail::probe_driver("/nonexistent/libcuda.so.1");
  CHECK_FALSE(p.available);
  CHECK(p.devices == 0);
  CHECK_THAT(p.reason, Contains("/nonexistent/libcuda.so.1"));
}

TEST_CASE("cuda: a library that is not a CUDA driver is refused", "[cuda]") {
  const cuda::detail::DriverProbe p = cuda::detail::probe_driver("libm.so.6");
  CHECK_FALSE(p.available);
  CHECK_THAT(p.reason, Contains("not a CUDA driver"));
}

TEST_CASE("cuda: the toolkit's stub driver fails cuInit with its error name", "[cuda]") {
#ifdef LZ_TEST_CUDA_STUB_DRIVER
  if (!std::filesystem::exists(LZ_TEST_CUDA_STUB_DRIVER)) {
    WARN("no stub driver at " << LZ_TEST_CUDA_STUB_DRIVER);
    return;
  }
  const cuda::detail::DriverProbe p = cuda::detail::probe_driver(LZ_TEST_CUDA_STUB_DRIVER);
  CHECK_FALSE(p.available);
  CHECK_THAT(p.reason, Contains("cuInit: CUDA_ERROR_"));
#else
  WARN("the CUDA toolkit was not found at configure time: no stub driver to probe");
#endif
}

TEST_CASE("cuda: allocating on a CUDA device without CUDA says why", "[cuda]") {
  if (cuda::is_available()) return;  // a device runtime would allocate
  Allocator* a = get_allocator(DeviceType::CUDA);
  CHECK_THROWS_WITH(a->allocate(16, Device("cuda:0")),
                    Contains("CUDA unavailable: ") && Contains(cuda::unavailable_reason()));
}

}  // namespace
}  // namespace lz
