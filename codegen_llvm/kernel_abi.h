// The calling convention between compiled kernels and their launcher
// (plain C layout: the generated code reads these fields by offset).
//
// The launcher reorders a kernel's domain into `outer` axes (the kept
// ones) followed by `inner` axes (the reduction axes), drops extent-1 axes
// and merges neighbours every access walks contiguously, so most kernels
// see one or two axes. The last axis of a group is its *segment* axis: the
// generated loops run along it with vectors; the other axes are walked by
// index arithmetic once per segment.
//
// Entry points of one compiled variant (symbol prefix + suffix):
//   _run(args, begin, end)      pointwise kernels: element range [begin, end) of
//                               the outer space; reductions: outer points [begin, end)
//   _partial(args, o, b, e, acc) reductions of outer point o over inner points
//                               [b, e) into acc[r] (only kernels whose stages are
//                               all reductions first, then reduced stores)
//   _finish(args, o, acc)       the reduced stores of outer point o from acc
// Partial accumulators are 8 bytes: double for floating reductions, int64
// otherwise (bool as 0/1).
#pragma once

#include <cstdint>

namespace lz::codegen_llvm {

// A runtime scalar for one kernel parameter, converted by the kernel to
// each dtype it is used in (as the eager Scalar conversion does).
struct ParamSlot {
  double d = 0;        // the value when floating
  int64_t i = 0;       // the value when integral or bool (0/1)
  int64_t is_float = 0;
};

struct KernelArgs {
  int64_t num_outer = 0;          // outer axes (>= 1; a unit axis when there are none)
  int64_t num_inner = 0;          // inner (reduction) axes; 0 for pointwise kernels
  const int64_t* sizes = nullptr;    // num_outer + num_inner extents
  const int64_t* strides = nullptr;  // per access, num_outer + num_inner strides in elements
  char* const* data = nullptr;       // per access: address of the element at index 0
  const ParamSlot* params = nullptr;
  int64_t inner_count = 1;        // product of the inner extents (ReduceCount)
  // Per calling thread: inner_count * stage_cache_bytes_per_point(kernel)
  // bytes, for variants that keep values of one stage for later stages.
  char* scratch = nullptr;
  // Per access: the stride and extent of its gathered axis (0 when not gathered).
  const int64_t* gathers = nullptr;
  // Set to non-zero by a gather whose index is outside [0, extent).
  int64_t* fault = nullptr;
};

using RunFn = void (*)(const KernelArgs*, int64_t, int64_t);
using PartialFn = void (*)(const KernelArgs*, int64_t, int64_t, int64_t, int64_t*);
using FinishFn = void (*)(const KernelArgs*, int64_t, const int64_t*);

// How an access moves along the segment axis; each variant of a kernel is
// compiled for one class per access.
enum class StrideClass : uint8_t { Broadcast = 0, Unit = 1, Strided = 2 };

}  // namespace lz::codegen_llvm
