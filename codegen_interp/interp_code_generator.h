// The reference interpreter behind the code-generator interface
// (ir/code_generator.h): registered as the CPU generator "interp"
// (LZ_CODEGEN=interp). It compiles nothing; each launch interprets.
#pragma once

namespace lz::codegen_interp {

void register_code_generator();

}  // namespace lz::codegen_interp
