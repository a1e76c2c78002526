// The cubin cache of the CUDA launcher: NVRTC compiles a kernel once; the
// next request (this process or another) reads the cubin from disk; a
// corrupt entry is rebuilt, never loaded.
#include <catch2/catch.hpp>

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
using codegen_cuda::cached_cubin;
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
  const std::string first = cached_cubin(source, "sm_80", dir.path.string(), "test");
  CHECK(first.substr(0, 4) == "\x7f" "ELF");
  CHECK(device_kernel_stats().compiles == compiles + 1);

  const int64_t hits = device_kernel_stats().disk_hits;
  CHECK(cached_cubin(source, "sm_80", dir.path.string(), "test") == first);
  CHECK(device_kernel_stats().disk_hits == hits + 1);
  CHECK(device_kernel_stats().compiles == compiles + 1);

  // Another architecture is another entry.
  CHECK(cached_cubin(source, "sm_90", dir.path.string(), "test") != first);
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
  CHECK(cached_cubin(source, "sm_80", dir.path.string(), "test") == first);
  CHECK(device_kernel_stats().compiles == compiles + 3);
}

TEST_CASE("cubin cache: a source NVRTC rejects is an error with the log and the source", "[codegen_cuda][cubin]") {
  if (!nvrtc_present()) return;
  codegen_cuda::CudaSource bad;
  bad.entry = "broken";
  bad.code = "extern \"C\" __global__ void broken() { this is not cuda; }\n";
  CHECK_THROWS_AS(cached_cubin(bad, "sm_80", "", "broken_kernel"), InternalError);
  CHECK_THROWS_WITH(cached_cubin(bad, "sm_80", "", "broken_kernel"),
                    Catch::Contains("[cuda kernel broken_kernel] NVRTC (sm_80) rejects") &&
                        Catch::Contains("this is not cuda"));
}

}  // namespace
}  // namespace lz
