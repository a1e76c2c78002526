// main() of test_cuda_real. Without a real GPU every test is reported as
// skipped, not passed: the process prints why and exits with 77, CTest's
// SKIP_RETURN_CODE for these tests (listing the tests still works, so CTest
// can discover them). `test_cuda_real --lz-info` prints what CUDA this
// machine has (the device kit's first step, scripts/device_check.sh), and
// --lz-allow-emulated runs the tests on the emulated driver (a dry run).
// Catch2's implementation comes from tests/catch_session.cpp.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string_view>
#include <vector>

#include <lazuli/lazuli.h>

#include "core/cuda/device.h"
#include "codegen_cuda/nvrtc.h"
#include "eager_kernels/cuda/cublas.h"
#include "tests/catch_run.h"

namespace {

constexpr int kSkipped = 77;

// Why the real-device tests cannot run here ("" when they can).
std::string why_no_real_device(bool allow_emulated) {
  if (!lz::cuda::is_available()) return "no CUDA device: " + lz::cuda::unavailable_reason();
  if (lz::cuda::device_properties(0).emulated && !allow_emulated) {
    return "LZ_CUDA_DRIVER names the emulated driver, not a GPU (--lz-allow-emulated runs on it)";
  }
  return "";
}

void print_info() {
  const int version = lz::cuda::driver_version();
  std::printf("CUDA driver: %s", lz::cuda::is_available() ? "" : ("unavailable: " + lz::cuda::unavailable_reason()).c_str());
  if (version > 0) std::printf("%d.%d", version / 1000, version % 1000 / 10);
  std::printf("\n");
  for (int d = 0; d < lz::cuda::device_count(); ++d) {
    const lz::cuda::DeviceProperties& p = lz::cuda::device_properties(d);
    std::printf("cuda:%d: %s, %s, %d multiprocessors, %.1f GiB%s\n", d, p.name.c_str(), p.arch().c_str(),
                p.multiprocessors, static_cast<double>(p.total_memory) / (1 << 30), p.emulated ? " (emulated)" : "");
  }
  const lz::codegen_cuda::NvrtcInfo& nvrtc = lz::codegen_cuda::nvrtc_info();
  if (nvrtc.available) {
    std::printf("NVRTC: %d.%d (%s)\n", nvrtc.major, nvrtc.minor, nvrtc.library.c_str());
  } else {
    std::printf("NVRTC: unavailable: %s\n", nvrtc.reason.c_str());
  }
  const std::string cublas = lz::cuda::blas::unavailable_reason();
  std::printf("cuBLAS: %s\n", cublas.empty() ? "loaded" : ("unavailable: " + cublas).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  bool listing = false, allow_emulated = false;
  std::vector<char*> catch_args;
  for (int i = 0; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--lz-info") {
      print_info();
      return 0;
    }
    if (arg == "--lz-allow-emulated") {  // a dry run of the device checks on the emulated driver
      allow_emulated = true;
      continue;
    }
    listing = listing || arg.rfind("--list", 0) == 0;
    catch_args.push_back(argv[i]);
  }
  if (!listing) {
    if (const std::string why = why_no_real_device(allow_emulated); !why.empty()) {
      std::printf("skipped: %s\n", why.c_str());
      return kSkipped;
    }
  }
  return lzt::run_catch(static_cast<int>(catch_args.size()), catch_args.data());
}
