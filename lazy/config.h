// Settings of the lazy layer. Each starts from an environment variable read
// once at start-up and can be changed from code:
//   LZ_LAZY_NODE_LIMIT=n   a trace with n nodes is materialised automatically
//                          before the next operator (default 100000)
//   LZ_LAZY_CACHE_SIZE=n   executables kept in the LRU cache (default 1024)
//   LZ_FORCE_EAGER=op,...  these operators are never traced: each call
//                          materialises its inputs and runs eagerly (counted
//                          as eager fallbacks); names match "add" or "add.Tensor"
//   LZ_LAZY_STRICT=1       an operator that cannot be traced raises
//                          NotImplementedError naming it instead of falling back
//   LZ_NO_FUSION=1         no kernels: every node runs its eager kernel
//   LZ_CODEGEN=llvm|interp|cuda-emu  how fused kernels run: compiled by LLVM
//                          (default), through the reference interpreter
//                          (codegen_interp/), or as generated CUDA C++ under
//                          the CUDA emulator (codegen_cuda/; tests the CUDA
//                          generator without a GPU; slow)
//   LZ_CUDA_ARCHS=sm_80,.. the architectures NVRTC compiles every generated
//                          CUDA kernel for under cuda-emu (default sm_80,sm_90;
//                          empty: no NVRTC check)
//   LZ_JIT_THRESHOLD=n     a kernel launched on fewer than 65536 points is
//                          interpreted until its n-th launch (default 2), so
//                          one-off small graphs do not wait for LLVM; 1 compiles
//                          every kernel at its first launch
//   LZ_JIT_ASYNC=0         a kernel's first launches wait for its code to
//                          compile; by default (1) they start the compile on
//                          a background thread and run meanwhile as the
//                          kernel's eager steps (small launches: interpreted),
//                          so a new graph costs about its eager time; the
//                          test binaries default to 0 (deterministic metrics)
//   LZ_FAST_MATH=1         compiled kernels use the faster, less accurate math
//                          (codegen_llvm/vector_math.h documents both modes)
//   LZ_KERNEL_CACHE=0      no on-disk cache of compiled kernels; LZ_CACHE_DIR
//                          moves it (default ~/.cache/lazuli/kernels) and
//                          LZ_CACHE_MAX_MB caps its size (default 512)
//   LZ_PASSES=spec         the graph pass pipeline ("default", "none", "dce,cse")
//   LZ_DEBUG=1..4          on stderr: 1 a line per materialisation, 2 also each
//                          kernel's time and GB/s, 3 also fusion decisions,
//                          4 also each kernel's IR
//   LZ_DUMP=dir            every compiled graph dumped into dir (lazy/graph_dump.h)
//   LZ_RECOMPILE_WARN=n    warn when one graph compiles more than n variants (8)
//   LZ_JIT_FAULT=text      fault injection: every fused kernel whose name
//                          contains text fails to compile (tests the
//                          fallback to eager steps and its counting)
//   LZ_CHECK_EAGER=1       every materialised graph is run a second time,
//                          node by node through the eager kernels, and a
//                          disagreement raises InternalError naming the
//                          first node that differs (lazy/eager_check.h)
//   LZ_PROFILE_STEPS=1     every executable step is timed: metrics().step_ms
//                          holds the milliseconds per eager operator and for
//                          the fused kernels together (host wall time: on
//                          CUDA a kernel's time is its launch)
//   LZ_LOWERING_FAULT=text fault injection: every fused kernel whose name
//                          contains text stores its results plus one (a
//                          wrong lowering, for testing LZ_CHECK_EAGER)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace lz::lazy {

struct Settings {
  size_t node_limit = 100000;
  size_t cache_capacity = 1024;
  std::vector<std::string> force_eager;
  bool strict = false;
  bool fusion = true;
  enum class Codegen : uint8_t { Llvm, Interpreter, CudaEmulator };
  Codegen codegen = Codegen::Llvm;
  bool fast_math = false;
  int64_t jit_threshold = 2;
  bool compile_in_background = true;
  std::string pipeline = "default";
  int debug_level = 0;
  std::string dump_dir;
  size_t recompile_warn = 8;
  std::vector<std::string> cuda_archs = {"sm_80", "sm_90"};
  std::string jit_fault;
  bool check_eager = false;
  std::string lowering_fault;
  bool profile_steps = false;
};

Settings settings();
// ValueError for a zero node limit or cache capacity.
void set_settings(const Settings& s);

namespace detail {
size_t node_limit();
bool strict();
int debug_level();
Settings::Codegen codegen();
bool fast_math();
int64_t jit_threshold();
bool compile_in_background();
std::vector<std::string> cuda_archs();
// Whether LZ_JIT_FAULT makes the kernel named `kernel` fail to compile.
bool jit_fault(std::string_view kernel);
// Whether LZ_LOWERING_FAULT makes the kernel named `kernel` compute wrong values.
bool lowering_fault(std::string_view kernel);
bool check_eager();
bool profile_steps();
// Whether `op` ("add.Tensor", base name "add") is forced to run eagerly.
bool forced_eager(std::string_view full_name, std::string_view base_name);
}  // namespace detail

}  // namespace lz::lazy
