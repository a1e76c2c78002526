// A kernel bound to memory for one run: what the executor hands to a
// backend (the reference interpreter or a compiled kernel). The IR itself
// never holds sizes, pointers or strides (kernels are shape-generic).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "core/scalar.h"

namespace lz::ir {

// One access bound to memory: the address of the element at domain index
// (0, ..., 0) and, per domain axis, the stride in elements (0 where the
// access broadcasts along that axis, and on reduction axes for reduced stores).
// A gathered access (ir::Access::gathered) records its Gathered step's dim:
// the Gather reading it adds index * gather_stride after checking the index
// against gather_extent.
struct BoundAccess {
  void* data = nullptr;
  std::vector<int64_t> strides;
  int64_t gather_stride = 0;
  int64_t gather_extent = 0;
};

// A launch of at least this many points compiles its kernel at once (a
// smaller one only at its jit_threshold-th launch) and, while its code
// compiles, runs the kernel's eager steps; a smaller one is interpreted.
inline constexpr int64_t kCompileAtOncePoints = 65536;

// The points of a domain: the product of its extents (1 for rank 0).
inline int64_t num_points(std::span<const int64_t> domain) {
  int64_t n = 1;
  for (int64_t d : domain) n *= d;
  return n;
}

struct KernelLaunch {
  std::vector<int64_t> domain;          // extent of each domain axis
  std::vector<BoundAccess> accesses;    // one per kernel access, in order
  std::vector<Scalar> params;           // one per kernel parameter
  std::vector<uint8_t> in_piece = {};   // per kernel piece: whether this (box of the) domain lies in it
  // A box of a larger launch (lazy/launch_pieces.h): that launch's points,
  // which decide whether its code is worth compiling at once (0: whole).
  int64_t whole_points = 0;
  // Code compiled on demand (CPU JIT): this launch waits for its code even
  // when compiles run in the background (the caller's stand-in would cost more).
  bool wait_for_code = false;
};

}  // namespace lz::ir
