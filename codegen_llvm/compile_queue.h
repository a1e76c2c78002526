// The background compile thread: kernel variants a first launch asked
// for compile here, in order, while that launch and later ones run
// without them (the executor runs the kernel's eager steps, or the
// interpreter, until the variant is in). One thread: compiles are
// serialised by the JIT anyway, and the other core keeps running the
// program. Pending jobs are dropped at process exit (the running one
// finishes first).
#pragma once

#include <cstdint>
#include <functional>

namespace lz::codegen_llvm {

// Runs `job` on the compile thread (started on first use).
void compile_later(std::function<void()> job);
// Blocks until every job queued so far has finished.
void wait_for_compiles();
// Jobs queued or running now.
int64_t compiles_pending();

}  // namespace lz::codegen_llvm
