// Kernel IR -> LLVM IR for one variant of a kernel: the entry points of
// codegen_llvm/kernel_abi.h with explicit vector loops along the segment
// axis (one compiled variant per combination of the accesses' stride
// classes there), a scalar loop for the remainder, and index arithmetic
// for the other axes. Internal to codegen_llvm.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "codegen_llvm/jit_engine.h"
#include "codegen_llvm/kernel_abi.h"
#include "codegen_llvm/stage_plan.h"
#include "codegen_llvm/vector_math.h"
#include "ir/kernel_ir.h"

namespace llvm {
class LLVMContext;
class Module;
}  // namespace llvm

namespace lz::codegen_llvm {

struct VariantSpec {
  std::vector<StrideClass> classes;  // per access, along the segment axis
  unsigned vector_bits = 512;        // register width the vector loops target
  MathMode math = MathMode::Precise;
  // Unit-stride vector stores bypass the caches (non-temporal), after a
  // scalar prologue aligns them: for outputs far larger than the caches,
  // where a normal store would first read the line it overwrites. The
  // launcher asks for it only when every unit-stride output is aligned
  // alike (same element size, strides and address modulo 64).
  bool streaming = false;
  // Values an earlier stage computes at every inner point and a later stage
  // needs again (exp(x - max) in softmax) are kept in the caller's scratch
  // row instead of being recomputed (see stage_cache_bytes_per_point).
  bool cache_stages = false;
  // The variant for the partial path: `_partial` and `_finish` instead of
  // `_run` (only for is_splittable kernels).
  bool split = false;
  // Reductions over leading axes (a column mean): `_run` walks bands of
  // outer points along the last outer axis (`classes` are along it) and,
  // per band, every inner point in order, into an accumulator per outer
  // point held in L1 arrays (kernel_emitter_columns.cpp). Only for kernels
  // with reductions.
  bool columns = false;
  // Tiled variants (pointwise kernels whose accesses disagree on the
  // contiguous axis: x.t() + y) are those with `transposed` set. `_run`
  // walks blocks of kTileRows rows (outer points over all axes but the
  // last), each in tiles of kTileColumns along the last axis; the accesses
  // marked (contiguous along the rows) are copied per tile into an L1 block
  // laid out along the columns, from which the vector loops read them with
  // unit stride (their `classes` say Unit) (kernel_emitter_tiles.cpp).
  // `begin`/`end` count row blocks.
  std::vector<bool> transposed = {};  // per access; empty: not tiled
  bool tiled() const { return !transposed.empty(); }
  // Per kernel piece: whether the launched box lies in it (constant per
  // box, so InPiece folds and a select keeps only its piece's operand).
  std::vector<bool> in_piece = {};
};

inline constexpr int64_t kTileRows = 32;
inline constexpr int64_t kTileColumns = 64;

// Outer points per band of a column variant of `k` (a power of two of at
// least 64, so a multiple of every vector width): the launcher hands
// threads whole bands.
int64_t column_band_points(const ir::Kernel& k);

// Emits the module; its functions are `<prefix>_run`, or for a split
// variant `<prefix>_partial` and `<prefix>_finish`. Throws
// UnsupportedKernel (codegen_llvm/value_ops.h) for an operation the
// generator cannot emit.
std::unique_ptr<llvm::Module> emit_kernel(const ir::Kernel& k, const VariantSpec& spec, const std::string& prefix,
                                          llvm::LLVMContext& context);
// emit_kernel bound to its arguments (the kernel by reference), as a
// JitEngine::EmitFn: for callers that hold no LLVM header (benchmarks).
JitEngine::EmitFn kernel_emit_fn(const ir::Kernel& k, VariantSpec spec, std::string prefix);

}  // namespace lz::codegen_llvm
