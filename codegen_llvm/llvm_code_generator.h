// The LLVM JIT behind the code-generator interface (ir/code_generator.h):
// registered as the CPU generator "llvm".
#pragma once

namespace lz::codegen_llvm {

void register_code_generator();

}  // namespace lz::codegen_llvm
