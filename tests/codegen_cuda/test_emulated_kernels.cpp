// Generated CUDA kernels, run on the CPU under the emulator, against the
// reference interpreter: every sample kernel on odd shapes (partial blocks,
// rows shorter and longer than a block, several grid-stride rounds), on
// strided and broadcast inputs, and on empty domains.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "codegen_cuda/emulated_kernel.h"
#include "cuda_test_kernels.h"
#include "tests/codegen_llvm/compiled_test_util.h"

namespace lz {
namespace {

using codegen_cuda::EmulatedKernel;
using codegen_cuda::EmulatorOptions;
using compiled_testing::Case;
using compiled_testing::Layout;
using compiled_testing::Tol;
using cuda_testing::NamedKernel;

// One directory for the whole test run: kernels compile once.
EmulatorOptions options() {
  static const std::string dir = [] {
    const auto d = std::filesystem::temp_directory_path() / ("lz-emu-test-" + std::to_string(getpid()));
    std::filesystem::create_directories(d);
    return d.string();
  }();
  EmulatorOptions o;
  o.cache_dir = dir;
  return o;
}

// The reduction mask of the store writing buffer b (0 for inputs and
// elementwise stores).
uint64_t reduce_mask_of(const ir::Kernel& k, uint32_t b) {
  for (const ir::Store& s : k.stores) {
    if (k.accesses[s.access].buffer == b && s.reduced) return k.reduce_axes;
  }
  return 0;
}

// Floats from libm on the host may differ from the interpreter's
// double-evaluated functions by an ulp or two; sums add in another order.
std::vector<Tol> tolerances(const ir::Kernel& k) {
  std::vector<Tol> t;
  for (const ir::KernelBuffer& b : k.buffers) {
    Tol tol;
    if (is_floating_point(b.dtype)) {
      tol.ulps = 4;
      if (k.is_reduction()) tol.rel = b.dtype == ScalarType::Double ? 1e-12 : 1e-6;
    }
    t.push_back(tol);
  }
  return t;
}

Case make_case(const ir::Kernel& k, std::vector<int64_t> domain, bool strided, std::mt19937_64& rng) {
  Case c;
  c.domain = std::move(domain);
  bool first = true;
  for (uint32_t b = 0; b < k.buffers.size(); ++b) {
    if (k.buffers[b].output) {
      c.add_output(k.buffers[b].dtype, reduce_mask_of(k, b));
    } else {
      const Layout layout = !strided ? Layout::Contiguous : first ? Layout::Transposed : Layout::BcastOuter;
      c.add_input(k.buffers[b].dtype, layout, rng);
      first = false;
    }
  }
  for (uint32_t p = 0; p < k.num_params; ++p) {
    c.params.push_back(p % 2 == 0 ? Scalar(1.75) : Scalar(int64_t{-3}));
  }
  return c;
}

std::vector<std::vector<int64_t>> domains_for(const ir::Kernel& k) {
  if (k.rank == 1) return {{1}, {203}, {0}};
  return {{5, 37}, {3, 200}, {1, 1}, {0, 4}, {4, 0}};
}

// Compiles `kernels` together, then runs each on its domains, with
// contiguous and with strided / broadcast inputs.
void check_kernels(const std::vector<NamedKernel>& kernels) {
  std::vector<ir::Kernel> ks;
  for (const NamedKernel& nk : kernels) ks.push_back(nk.kernel);
  const std::vector<std::unique_ptr<EmulatedKernel>> emulated = EmulatedKernel::compile_all(ks, options());
  std::mt19937_64 rng(7);
  for (size_t i = 0; i < kernels.size(); ++i) {
    const NamedKernel& nk = kernels[i];
    const EmulatedKernel& ek = *emulated[i];
    for (const std::vector<int64_t>& d : domains_for(nk.kernel)) {
      for (bool strided : {false, true}) {
        const Case c = make_case(nk.kernel, d, strided, rng);
        INFO(nk.label << " on " << compiled_testing::describe(d) << (strided ? " (strided inputs)" : "") << "\n"
                      << ek.source().code);
        CHECK(compiled_testing::compare_backend_with_interpreter(
                  nk.kernel, [&](const ir::KernelLaunch& l) { ek.run(l); }, c, tolerances(nk.kernel)) == "");
      }
    }
  }
}

TEST_CASE("cuda emulator: elementwise kernels of every op and dtype match the interpreter", "[codegen_cuda]") {
  check_kernels(cuda_testing::elementwise_kernels());
}

TEST_CASE("cuda emulator: casts between every pair of dtypes match the interpreter", "[codegen_cuda]") {
  check_kernels(cuda_testing::cast_kernels());
}

TEST_CASE("cuda emulator: runtime parameters and special constants match the interpreter", "[codegen_cuda]") {
  check_kernels(cuda_testing::param_kernels());
}

TEST_CASE("cuda emulator: block reductions of every op and dtype match the interpreter", "[codegen_cuda]") {
  check_kernels(cuda_testing::reduction_kernels());
}

TEST_CASE("cuda emulator: multi-stage row kernels match the interpreter", "[codegen_cuda]") {
  check_kernels(cuda_testing::row_kernels());
}

TEST_CASE("cuda emulator: a row reduction does not depend on the grid size", "[codegen_cuda]") {
  const NamedKernel softmax = cuda_testing::row_kernels()[0];
  std::mt19937_64 rng(3);
  const Case c = make_case(softmax.kernel, {9, 300}, false, rng);
  std::vector<compiled_testing::Array> results;
  for (uint32_t grid : {1u, 4u, 9u}) {
    EmulatorOptions o = options();
    o.max_grid = grid;
    const std::unique_ptr<EmulatedKernel> ek = EmulatedKernel::compile(softmax.kernel, o);
    std::vector<compiled_testing::Array> mem = c.buffers;
    ek->run(c.launch(mem));
    results.push_back(mem[1]);
  }
  CHECK(results[0].words == results[1].words);
  CHECK(results[0].words == results[2].words);
}

TEST_CASE("cuda emulator: a block size that is not a multiple of 32 is rejected", "[codegen_cuda]") {
  EmulatorOptions o = options();
  o.block_threads = 48;
  CHECK_THROWS_WITH(EmulatedKernel::compile(cuda_testing::row_kernels()[0].kernel, o),
                    Catch::Contains("block_threads") && Catch::Contains("48"));
}

}  // namespace
}  // namespace lz
