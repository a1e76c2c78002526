// The kernels the lazy layer builds for the operator test table (functional
// and in-place forms), generated as CUDA C++ and compiled by NVRTC for two
// architectures: a kernel the GPU compiler rejects fails here with its
// source and NVRTC's log, on machines without a GPU. Kernels are compiled in
// batches (one translation unit each); a failing batch is split to name
// the kernel.
//
// CI compiles the kernels of the first sample of every entry and dtype to
// PTX for compute_80 and compute_90 (NVRTC's front end and optimiser, about
// 50 ms a kernel; a cubin costs 130 ms, and test_codegen_cuda builds cubins
// for every sample kernel). Every sample of every entry, several thousand
// kernels, to cubins for sm_80 and sm_90:
//   ./build/tests/lazy/test_lazy_kernels_nvrtc "[nvrtc_all]"
#include <catch2/catch.hpp>

#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "codegen_cuda/cuda_source.h"
#include "codegen_cuda/nvrtc.h"
#include "core/error.h"
#include "lazy/config.h"
#include "lazy/kernel_launch.h"
#include "tests/op_table/op_info.h"

namespace {

using lz::codegen_cuda::CudaSource;

lzt::SampleInput lazy_sample(const lzt::SampleInput& s) {
  lzt::SampleInput l = s;
  for (lz::Tensor& t : l.tensors) {
    if (t.defined()) t = t.to_lazy();
  }
  return l;
}

// Runs every entry's functional and in-place forms lazily, on the first
// sample of each dtype or on all; errors (wrong inputs on purpose,
// unsupported forms) do not matter here, only kernels.
void run_op_table(bool all_samples) {
  for (const lzt::OpInfo& op : lzt::op_table()) {
    for (lz::ScalarType dtype : op.dtypes) {
      std::vector<lzt::SampleInput> samples = op.samples(dtype);
      if (!all_samples && samples.size() > 1) samples.resize(1);
      for (const lzt::SampleInput& sample : samples) {
        try {
          for (const lz::Tensor& t : op.op(lazy_sample(sample))) {
            if (t.defined() && t.is_lazy()) t.to_eager();
          }
          if (op.inplace) {
            lzt::SampleInput l = lazy_sample(sample);
            lz::Tensor self = l.tensors[0];
            op.inplace(self, l);
            self.to_eager();
          }
        } catch (const lz::Error&) {
        }
      }
    }
  }
}

// "" when the batch compiles; else the first failing kernel's source and log.
std::string first_failure(const std::vector<CudaSource>& sources, const std::string& arch) {
  const lz::codegen_cuda::NvrtcResult r =
      lz::codegen_cuda::nvrtc_compile(lz::codegen_cuda::combined_source(sources), "op_table", arch);
  if (r.ok) return "";
  if (sources.size() == 1) return "kernel " + sources[0].entry + " (" + arch + "):\n" + r.log + "\n" + sources[0].code;
  const auto half = sources.begin() + static_cast<std::ptrdiff_t>(sources.size() / 2);
  std::string f = first_failure({sources.begin(), half}, arch);
  return f.empty() ? first_failure({half, sources.end()}, arch) : f;
}

void check_op_table_kernels(bool all_samples, const std::vector<std::string>& archs, size_t at_least) {
  if (!lz::codegen_cuda::nvrtc_info().available) {
    WARN("skipped: NVRTC unavailable: " << lz::codegen_cuda::nvrtc_info().reason);
    return;
  }
  // The kernels are only generated here: the interpreter runs them (no LLVM
  // compile per kernel), and graphs are planned as usual.
  const lz::lazy::Settings saved = lz::lazy::settings();
  lz::lazy::Settings interp = saved;
  interp.codegen = lz::lazy::Settings::Codegen::Interpreter;
  interp.recompile_warn = 1 << 30;
  lz::lazy::set_settings(interp);
  std::map<std::string, CudaSource> kernels;  // by entry: one per distinct kernel
  size_t not_expressible = 0;
  lz::lazy::set_kernel_observer([&](const lz::ir::Kernel& k) {
    try {
      CudaSource s = lz::codegen_cuda::generate_cuda_source(k);
      kernels.emplace(s.entry, std::move(s));
    } catch (const lz::NotImplementedError&) {
      ++not_expressible;
    }
  });
  run_op_table(all_samples);
  lz::lazy::set_kernel_observer(nullptr);
  lz::lazy::set_settings(saved);
  INFO(kernels.size() << " distinct kernels, " << not_expressible << " the CUDA generator cannot express");
  REQUIRE(kernels.size() >= at_least);
  // Batches of kBatch kernels: NVRTC's time and memory grow faster than
  // linearly with the size of one translation unit.
  constexpr size_t kBatch = 64;
  std::vector<CudaSource> batch;
  size_t compiled = 0;
  const auto flush = [&] {
    for (const std::string& arch : archs) {
      const std::string failure = first_failure(batch, arch);
      if (!failure.empty()) FAIL_CHECK(failure);
    }
    compiled += batch.size();
    batch.clear();
  };
  for (auto& [entry, s] : kernels) {
    batch.push_back(std::move(s));
    if (batch.size() == kBatch) flush();
  }
  if (!batch.empty()) flush();
  CHECK(compiled == kernels.size());
  std::cout << "nvrtc: " << compiled << " kernels (" << not_expressible
            << " kernels the CUDA generator cannot express) compiled for";
  for (const std::string& arch : archs) std::cout << " " << arch;
  std::cout << "\n";
}

TEST_CASE("nvrtc: a kernel of every operator and dtype compiles for compute_80 and compute_90", "[lazy][nvrtc]") {
  check_op_table_kernels(false, {"compute_80", "compute_90"}, 300);
}

TEST_CASE("nvrtc: every kernel of the operator table compiles for sm_80 and sm_90", "[.][nvrtc_all]") {
  check_op_table_kernels(true, {"sm_80", "sm_90"}, 1000);
}

}  // namespace
