// The CUDA generator's output compiles with NVRTC for the architectures we
// ship for (sm_80, sm_90), for every sample kernel. Kernels are compiled in
// batches (one translation unit, one prelude); a batch that fails is
// recompiled kernel by kernel so the failure names its kernel, source and log.
#include <catch2/catch.hpp>

#include <bit>
#include <string>
#include <vector>

#include "codegen_cuda/cuda_source.h"
#include "codegen_cuda/kernel_args.h"
#include "codegen_cuda/nvrtc.h"
#include "cuda_test_kernels.h"

namespace lz {
namespace {

using codegen_cuda::CudaSource;
using codegen_cuda::generate_cuda_source;
using cuda_testing::NamedKernel;

void require_compiles(const std::vector<NamedKernel>& kernels, const std::string& arch) {
  constexpr size_t kBatch = 64;
  for (size_t first = 0; first < kernels.size(); first += kBatch) {
    const size_t last = std::min(kernels.size(), first + kBatch);
    std::vector<CudaSource> sources;
    for (size_t i = first; i < last; ++i) sources.push_back(generate_cuda_source(kernels[i].kernel));
    const codegen_cuda::NvrtcResult r = codegen_cuda::nvrtc_compile(codegen_cuda::combined_source(sources), "batch", arch);
    if (r.ok) {
      CHECK(!r.cubin.empty());
      continue;
    }
    for (size_t i = first; i < last; ++i) {
      const codegen_cuda::NvrtcResult one = codegen_cuda::nvrtc_compile(sources[i - first].code, "one", arch);
      INFO(kernels[i].label << " (" << arch << ")\n" << sources[i - first].code << "\n--- NVRTC log ---\n" << one.log);
      CHECK(one.ok);
    }
  }
}

bool have_nvrtc() {
  const codegen_cuda::NvrtcInfo& info = codegen_cuda::nvrtc_info();
  if (!info.available) WARN("NVRTC not found, compile checks skipped: " << info.reason);
  return info.available;
}

TEST_CASE("cuda source: every sample kernel compiles with NVRTC for sm_80 and sm_90", "[codegen_cuda]") {
  if (!have_nvrtc()) return;
  const std::vector<NamedKernel> kernels = cuda_testing::all_sample_kernels();
  REQUIRE(kernels.size() > 200);
  for (const char* arch : {"sm_80", "sm_90"}) require_compiles(kernels, arch);
}

TEST_CASE("cuda source: a compile error comes back with NVRTC's log, not an exception", "[codegen_cuda]") {
  if (!have_nvrtc()) return;
  const codegen_cuda::NvrtcResult r =
      codegen_cuda::nvrtc_compile("extern \"C\" __global__ void k() { undeclared_name = 1; }", "broken", "sm_80");
  CHECK_FALSE(r.ok);
  CHECK(r.cubin.empty());
  CHECK_THAT(r.log, Catch::Contains("undeclared_name"));
}

TEST_CASE("cuda source: kernels are named by their content and declare their argument block", "[codegen_cuda]") {
  const std::vector<NamedKernel> kernels = cuda_testing::row_kernels();
  const CudaSource softmax = generate_cuda_source(kernels[0].kernel);
  const CudaSource again = generate_cuda_source(kernels[0].kernel);
  const CudaSource centred = generate_cuda_source(kernels[1].kernel);
  CHECK(softmax.entry == again.entry);
  CHECK(softmax.code == again.code);
  CHECK(softmax.entry != centred.entry);
  CHECK(softmax.row_kernel);
  CHECK_THAT(softmax.code, Catch::Contains("extern \"C\" __global__ void " + softmax.entry + "("));
  CHECK_THAT(softmax.code, Catch::Contains("lz_block_reduce<LZ_MAX>"));
  CHECK_THAT(softmax.code, Catch::Contains("lz_block_reduce<LZ_SUM>"));
  // Two access arrays of rank 2: 4 strides.
  CHECK_THAT(softmax.code, Catch::Contains("lz_i64 stride[4];"));
  const CudaSource pointwise = generate_cuda_source(cuda_testing::elementwise_kernels()[0].kernel);
  CHECK_FALSE(pointwise.row_kernel);
  CHECK_THAT(pointwise.code, Catch::Contains("gridDim.x"));
}

TEST_CASE("cuda source: the argument block packs sizes, strides, pointers and parameters", "[codegen_cuda]") {
  ir::Kernel k = cuda_testing::param_kernels()[0].kernel;  // rank 1, 2 accesses, 1 param
  float in[3] = {1, 2, 3}, out[3] = {};
  ir::KernelLaunch launch;
  launch.domain = {3};
  launch.accesses = {{in, {1}}, {out, {1}}};
  launch.params = {Scalar(2.5)};
  const codegen_cuda::ArgsLayout l = codegen_cuda::args_layout(k);
  const std::vector<uint64_t> w = codegen_cuda::pack_kernel_args(k, launch);
  REQUIRE(w.size() == l.words());
  CHECK(w[0] == 3);                                        // size[0]
  CHECK(w[1] == 1);                                        // stride of a0
  CHECK(w[2] == 1);                                        // stride of a1
  CHECK(w[3] == reinterpret_cast<uintptr_t>(in));         // data[0]
  CHECK(w[4] == reinterpret_cast<uintptr_t>(out));        // data[1]
  CHECK(std::bit_cast<double>(w[5]) == 2.5);              // fparam[0]
  CHECK(w[7] == 1);                                        // pfloat[0]
  launch.params = {Scalar(int64_t{-4})};
  const std::vector<uint64_t> wi = codegen_cuda::pack_kernel_args(k, launch);
  CHECK(static_cast<int64_t>(wi[6]) == -4);  // iparam[0]
  CHECK(wi[7] == 0);
  launch.params.clear();
  CHECK_THROWS_WITH(codegen_cuda::pack_kernel_args(k, launch), Catch::Contains("0 params"));
}

}  // namespace
}  // namespace lz
