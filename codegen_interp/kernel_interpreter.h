// The reference interpreter of the kernel IR: runs a kernel with exactly the
// semantics written in ir/kernel_ir.h, evaluating each expression over
// batches of points (codegen_interp/batch_eval.h). It is the oracle the code
// generators are tested against and the executor's backend until they
// exist: correct everywhere, a few times slower than a compiled kernel.
#pragma once

#include <cstdint>
#include <vector>

#include "core/scalar.h"
#include "ir/kernel_ir.h"

namespace lz::codegen_interp {

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

// Runs `k`; throws lz::ValueError when the launch does not match the kernel
// (ranks, counts), naming the kernel and what differs.
void run_kernel(const ir::Kernel& k, const KernelLaunch& launch);

}  // namespace lz::codegen_interp
