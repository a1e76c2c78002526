// The cubin cache of the CUDA launcher: NVRTC compiles a kernel once; the
// next request (this process or another) reads the cubin from disk; a
// corrupt entry is rebuilt, never loaded.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "codegen_cuda/device_kernel.h"
#include "codegen_cuda/nvrtc.h"
#include "core/error.h"
#include "cuda_test_kernels.h"

namespace lz {
namespace {

namespace fs = std::filesystem;
using codegen_cuda::cached_device_code;
using codegen_cuda::device_kernel_stats;

bool nvrtc_present() {
  if (codegen_cuda::nvrtc_info().available) return true;
  WARN("skipped: NVRTC unavailable: " << codegen_cuda::nvrtc_info().reason);
  return false;
}

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("lz-cubin-test-" + std::to_string(::getpid()));
  TempDir() { fs::remove_all(path); }
  ~TempDir() { fs::remove_all(path); }
};

TEST_CASE("cubin cache: compiled once, then read from disk, and a corrupt entry is rebuilt", "[codegen_cuda][cubin]") {
  if (!nvrtc_present()) return;
  const codegen_cuda::CudaSource source = codegen_cuda::generate_cuda_source(cuda_testing::elementwise_kernels()[0].kernel);
  TempDir dir;
  const int64_t compiles = device_kernel_stats().compiles;
  const std::string first = cached_device_code(source, "sm_80", dir.path.string(), "test");
  CHECK(first.substr(0, 4) == "\x7f" "ELF");
  CHECK(device_kernel_stats().compiles == compiles + 1);

  const int64_t hits = device_kernel_stats().disk_hits;
  CHECK(cached_device_code(source, "sm_80", dir.path.string(), "test") == first);
  CHECK(device_kernel_stats().disk_hits == hits + 1);
  CHECK(device_kernel_stats().compiles == compiles + 1);

  // Another architecture is another entry.
  CHECK(cached_device_code(source, "sm_90", dir.path.string(), "test") != first);
  CHECK(device_kernel_stats().compiles == compiles + 2);

  // Flip a byte in the middle of every entry: each reads as a miss and is rebuilt.
  for (const fs::directory_entry& e : fs::directory_iterator(dir.path)) {
    if (!e.is_regular_file() || e.file_size() < 64) continue;
    std::fstream f(e.path(), std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(e.file_size() / 2));
    char c = 0;
    f.get(c);
    f.seekp(static_cast<std::streamoff>(e.file_size() / 2));
    f.put(static_cast<char>(c ^ 0x5a));
  }
  CHECK(cached_device_code(source, "sm_80", dir.path.string(), "test") == first);
  CHECK(device_kernel_stats().compiles == compiles + 3);
}

TEST_CASE("cubin cache: a source NVRTC rejects is an error with the log and the source", "[codegen_cuda][cubin]") {
  if (!nvrtc_present()) return;
  codegen_cuda::CudaSource bad;
  bad.entry = "broken";
  bad.code = "extern \"C\" __global__ void broken() { this is not cuda; }\n";
  CHECK_THROWS_AS(cached_device_code(bad, "sm_80", "", "broken_kernel"), InternalError);
  CHECK_THROWS_WITH(cached_device_code(bad, "sm_80", "", "broken_kernel"),
                    Catch::Contains("[cuda kernel broken_kernel] NVRTC (sm_80) rejects") &&
                        Catch::Contains("this is not cuda"));
}

TEST_CASE("cubin cache: a virtual architecture gives PTX, cached like a cubin", "[codegen_cuda][cubin]") {
  if (!nvrtc_present()) return;
  const codegen_cuda::CudaSource source = codegen_cuda::generate_cuda_source(cuda_testing::elementwise_kernels()[0].kernel);
  TempDir dir;
  const std::string ptx = cached_device_code(source, "compute_90", dir.path.string(), "test");
  CHECK(ptx.find(".target sm_90") != std::string::npos);
  CHECK(ptx.find(".entry " + source.entry) != std::string::npos);
  REQUIRE(!ptx.empty());
  CHECK(ptx.back() == '\0');  // cuModuleLoadData reads PTX as a C string
  const int64_t hits = device_kernel_stats().disk_hits;
  CHECK(cached_device_code(source, "compute_90", dir.path.string(), "test") == ptx);
  CHECK(device_kernel_stats().disk_hits == hits + 1);
}

TEST_CASE("nvrtc target: the device's architecture, PTX for a newer device, an error for an older one",
          "[codegen_cuda][cubin]") {
  using codegen_cuda::nvrtc_target;
  const std::vector<int> supported = {75, 80, 86, 89, 90, 100, 120};
  CHECK(nvrtc_target(80, supported) == "sm_80");
  CHECK(nvrtc_target(120, supported) == "sm_120");
  CHECK(nvrtc_target(87, supported) == "compute_86");   // between two supported ones
  CHECK(nvrtc_target(130, supported) == "compute_120");  // newer than this NVRTC
  CHECK_THROWS_AS(nvrtc_target(70, supported), DeviceError);
  CHECK_THROWS_WITH(nvrtc_target(70, supported),
                    Catch::Contains("compute capability 7.0") && Catch::Contains("sm_75 to sm_120"));
  CHECK_THROWS_WITH(nvrtc_target(80, {}), Catch::Contains("(none)"));
  if (!nvrtc_present()) return;
  // This NVRTC's list: ascending, and it covers the architectures CI compiles for.
  const std::vector<int>& archs = codegen_cuda::nvrtc_supported_archs();
  CHECK(std::is_sorted(archs.begin(), archs.end()));
  CHECK(std::binary_search(archs.begin(), archs.end(), 80));
  CHECK(std::binary_search(archs.begin(), archs.end(), 90));
}

}  // namespace
}  // namespace lz
