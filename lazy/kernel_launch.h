// Running one fused kernel of an executable: its accesses' view chains are
// resolved on the bound tensors with the eager view rules (no copy, except
// a reshape the strides cannot express), aligned to the domain, and the
// kernel runs through its backend: the LLVM-compiled kernel, or the
// reference interpreter (LZ_CODEGEN=interp, or a kernel that failed to compile).
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/scalar.h"
#include "core/tensor.h"
#include "ir/kernel_ir.h"

namespace lz::codegen_llvm {
class CompiledKernel;
}
namespace lz::codegen_cuda {
class DeviceKernel;
}

namespace lz::lazy {

// What runs a kernel: on the CPU the LLVM-compiled kernel (null: the
// reference interpreter), on a CUDA device the kernel compiled for it.
struct KernelCode {
  std::shared_ptr<const codegen_llvm::CompiledKernel> cpu;
  std::shared_ptr<const codegen_cuda::DeviceKernel> cuda;
};

// The compiled form of `k` for `device` under the current settings; when
// the code generator cannot emit `k`, empty and *failure says why (the
// caller plans eager steps instead).
KernelCode compile_kernel(const ir::Kernel& k, Device device, std::string* failure);

// For tests: `observer` is called with every kernel compile_kernel is asked
// for (every new executable's kernels, any device); null removes it.
void set_kernel_observer(std::function<void(const ir::Kernel&)> observer);

// `buffers`: one tensor per kernel buffer (outputs already allocated);
// `shapes`: the sizes of each shape reference; `params`: one per kernel
// parameter. Throws InternalError when an access does not line up with the
// domain (a fusion bug, never a wrong answer). On the CPU, a variant
// failing to compile at run time falls back to the interpreter, counted and
// warned once; on a CUDA device the kernel is queued on the device's stream.
void launch_kernel(const ir::Kernel& k, const KernelCode& code, std::span<const Tensor> buffers,
                   std::span<const SizeVec> shapes, std::vector<Scalar> params);

}  // namespace lz::lazy
