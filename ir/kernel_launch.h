// A kernel bound to memory for one run: what the executor hands to a
// backend (the reference interpreter or a compiled kernel). The IR itself
// never holds sizes, pointers or strides (kernels are shape-generic).
#pragma once

#include <cstdint>
#include <vector>

#include "core/scalar.h"

namespace lz::ir {

// One access bound to memory: the address of the element at domain index
// (0, ..., 0) and, per domain axis, the stride in elements (0 where the
// access broadcasts along that axis, and on reduction axes for reduced stores).
struct BoundAccess {
  void* data = nullptr;
  std::vector<int64_t> strides;
};

struct KernelLaunch {
  std::vector<int64_t> domain;          // extent of each domain axis
  std::vector<BoundAccess> accesses;    // one per kernel access, in order
  std::vector<Scalar> params;           // one per kernel parameter
};

}  // namespace lz::ir
