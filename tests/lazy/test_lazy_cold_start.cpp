// A process's first kernel: starting the LLVM JIT maps much of LLVM into
// the process (10-60 ms), so the launch that finds the JIT not started
// leaves that to the compile thread and runs the kernel's eager steps.
// Its own binary: in any other, an earlier test has started the JIT.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <future>

#include "codegen_llvm/compile_queue.h"
#include "codegen_llvm/jit_engine.h"
#include "tests/lazy/lazy_test_util.h"

using lz::Tensor;
using lz::codegen_llvm::JitEngine;

using namespace lazy_test;

TEST_CASE("lazy the first launch of a process leaves the JIT's start to the compile thread", "[lazy]") {
  const SettingsGuard guard;
  lzl::Settings s = lzl::settings();
  s.codegen = lzl::Settings::Codegen::Llvm;
  s.compile_in_background = true;
  s.jit_threshold = 1;
  lzl::set_settings(s);
  fresh_start();
  REQUIRE_FALSE(JitEngine::started());  // nothing in this process has used the JIT yet

  // The compile thread is busy until `release`: whatever starts the JIT
  // before then started it on this thread.
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  lz::codegen_llvm::compile_later([released] { released.wait(); });

  const Tensor x = lz::randn({300, 1000});
  const auto program = [](const Tensor& t) { return (t * 1.5).sin() + t.exp() * 0.5; };
  check_same(program(x.to_lazy()).to_eager(), program(x));
  CHECK(lzl::metrics().launches_while_compiling == 1);
  CHECK_FALSE(JitEngine::started());

  release.set_value();
  lz::lazy::wait_for_compiles();
  CHECK(JitEngine::started());
  check_same(program(x.to_lazy()).to_eager(), program(x));
  CHECK(lzl::metrics().launches_while_compiling == 1);  // the second launch ran compiled
  CHECK(lzl::metrics().kernels_launched == 2);
}
