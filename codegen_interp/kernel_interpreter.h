// The reference interpreter of the kernel IR: runs a kernel with exactly the
// semantics written in ir/kernel_ir.h, evaluating each expression over
// batches of points (codegen_interp/batch_eval.h). It is the oracle the code
// generators are tested against and the executor's backend until they
// exist: correct everywhere, a few times slower than a compiled kernel.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/kernel_ir.h"
#include "ir/kernel_launch.h"

namespace lz::codegen_interp {

using ir::BoundAccess;
using ir::KernelLaunch;

// Runs `k`; throws lz::ValueError when the launch does not match the kernel
// (ranks, counts), naming the kernel and what differs.
void run_kernel(const ir::Kernel& k, const KernelLaunch& launch);

}  // namespace lz::codegen_interp
