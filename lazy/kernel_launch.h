// Running one fused kernel of an executable: its accesses' view chains are
// resolved on the bound tensors with the eager view rules (no copy, except
// a reshape the strides cannot express), aligned to the domain, and the
// kernel runs through the code its device's code generator compiled
// (lazy/code_generators.h), or through the reference interpreter when that
// code declines the launch.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/scalar.h"
#include "core/tensor.h"
#include "ir/code_generator.h"
#include "ir/kernel_ir.h"
#include "ir/kernel_launch.h"

namespace lz::lazy {

// What runs a kernel: the code its device's code generator compiled.
using KernelCode = std::shared_ptr<const ir::CompiledCode>;

// The compiled form of `k` for `device` under the current settings; when
// the code generator cannot emit `k`, null and *failure says why (the
// caller plans eager steps instead).
KernelCode compile_kernel(const ir::Kernel& k, Device device, std::string* failure);

// For tests: `observer` is called with every kernel compile_kernel is asked
// for (every new executable's kernels, any device); null removes it.
void set_kernel_observer(std::function<void(const ir::Kernel&)> observer);

// `buffers`: one tensor per kernel buffer (outputs already allocated);
// `shapes`: the sizes of each shape reference; `params`: one per kernel
// parameter. Throws InternalError when an access does not line up with the
// domain (a fusion bug, never a wrong answer). Code that declines a launch
// (a small CPU kernel not yet worth compiling; a variant failing to compile
// at run time: counted and warned once) leaves it to the interpreter; on a
// CUDA device the kernel is queued on the device's stream. Returns false
// when nothing ran because the kernel's code is compiling in the
// background (ir::Launched::Compiling): the caller computes its values
// with the kernel's eager steps. `wait_for_code`: the launch waits for its
// code instead (ir::KernelLaunch::wait_for_code).
bool launch_kernel(const ir::Kernel& k, const KernelCode& code, std::span<const Tensor> buffers,
                   std::span<const SizeVec> shapes, std::vector<Scalar> params, bool wait_for_code = false);

// A 2-D kernel without pieces bound to its tensors once and run block by
// block of its domain, each block's accesses offset to its first point: a
// matrix product's epilogue (passes/product_epilogue.h) runs on each block
// of the product as soon as it is final. Blocks may run concurrently; each
// waits for the kernel's code when it is still compiling.
class BlockLauncher {
 public:
  BlockLauncher(const ir::Kernel& k, KernelCode code, std::span<const Tensor> buffers,
                std::span<const SizeVec> shapes, std::vector<Scalar> params);
  // The points [r0, r1) x [c0, c1).
  void run(int64_t r0, int64_t r1, int64_t c0, int64_t c1) const;

 private:
  const ir::Kernel& kernel_;
  KernelCode code_;
  ir::KernelLaunch whole_;
  std::vector<Tensor> viewed_;  // what the accesses point into
};

}  // namespace lz::lazy
