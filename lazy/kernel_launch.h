// Running one fused kernel of an executable: its accesses' view chains are
// resolved on the bound tensors with the eager view rules (no copy, except
// a reshape the strides cannot express), aligned to the domain, and the
// kernel runs through its backend: the LLVM-compiled kernel, or the
// reference interpreter (LZ_CODEGEN=interp, or a kernel that failed to compile).
#pragma once

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

namespace lz::lazy {

// The compiled form of `k` under the current settings: nullptr when kernels
// run through the interpreter; when the code generator cannot emit `k`,
// nullptr and *failure says why (the caller plans eager steps instead).
std::shared_ptr<const codegen_llvm::CompiledKernel> compile_kernel(const ir::Kernel& k, std::string* failure);

// `buffers`: one tensor per kernel buffer (outputs already allocated);
// `shapes`: the sizes of each shape reference; `params`: one per kernel
// parameter. Throws InternalError when an access does not line up with the
// domain (a fusion bug, never a wrong answer).
// `compiled` (may be null: interpreter) runs it; a variant failing to
// compile at run time falls back to the interpreter, counted and warned once.
void launch_kernel(const ir::Kernel& k, const codegen_llvm::CompiledKernel* compiled, std::span<const Tensor> buffers,
                   std::span<const SizeVec> shapes, std::vector<Scalar> params);

}  // namespace lz::lazy
