// Compiling off the critical path (Settings::compile_in_background): a
// kernel whose code is not compiled yet starts its compile on the
// background thread and runs meanwhile as its eager steps (large launches)
// or interpreted (small ones); later runs use the compiled code. The
// results are eager's either way, and the metrics say which path ran.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/lazy/lazy_test_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

using lz::Tensor;

using namespace lazy_test;

namespace {

struct Background {
  SettingsGuard guard;
  explicit Background(bool on = true) {
    lzl::Settings s = lzl::settings();
    s.codegen = lzl::Settings::Codegen::Llvm;
    s.compile_in_background = on;
    s.jit_threshold = 1;
    lzl::set_settings(s);
    fresh_start();
    lz::lazy::wait_for_compiles();
  }
};

// One kernel (its scalars are runtime parameters of the kernel).
Tensor program(const Tensor& x, double salt) { return ((x * salt).sin() + x.exp() * 0.5).relu() - salt; }

}  // namespace

TEST_CASE("lazy first runs of a large kernel take its eager steps while the compile thread builds its code", "[lazy]") {
  const Background background;
  const Tensor x = lz::randn({300, 1000});  // past the interpreter's 65536 points
  const double salt = 1.5;
  const Tensor expected = program(x, salt);
  check_same(program(x.to_lazy(), salt), expected);
  const lzl::LazyMetrics first = lzl::metrics();
  CHECK(first.launches_while_compiling == 1);
  CHECK(first.eager_steps_while_compiling >= 5);  // mul, sin, exp, mul, add, relu, sub
  CHECK(first.eager_steps_total == 0);             // not steps of the plan: the kernel's stand-ins
  CHECK(first.kernels_launched == 1);
  lz::lazy::wait_for_compiles();
  CHECK(lzl::metrics().jit_compiles_pending == 0);
  check_same(program(x.to_lazy(), salt), expected);
  const lzl::LazyMetrics later = lzl::metrics();
  CHECK(later.launches_while_compiling == 1);  // the compiled code ran
  CHECK(later.cache_hits == 1);
  CHECK(later.kernels_interpreted == 0);
}

TEST_CASE("lazy small kernels are interpreted while the compile thread builds their code", "[lazy]") {
  const Background background;
  const Tensor x = lz::randn({64});
  const double salt = 2.5;
  check_same(program(x.to_lazy(), salt), program(x, salt));
  CHECK(lzl::metrics().launches_while_compiling == 1);
  CHECK(lzl::metrics().eager_steps_while_compiling == 0);
  CHECK(lzl::metrics().kernels_interpreted == 1);
  lz::lazy::wait_for_compiles();
  check_same(program(x.to_lazy(), salt), program(x, salt));
  CHECK(lzl::metrics().kernels_interpreted == 1);
}

TEST_CASE("lazy runs before the compile thread finishes give eager's values, outputs and temporaries", "[lazy]") {
  const Background background;
  // Several outputs, an input written in place, a reduction, views folded
  // into the kernel's loads: every run until the code is in computes them
  // with eager steps, each one correct.
  const Tensor a = lz::randn({400, 300}), b = lz::randn({300, 400});
  for (int run = 0; run < 4; ++run) {
    Tensor la = a.clone().to_lazy();
    const Tensor lb = b.to_lazy();
    Tensor ea = a.clone();
    const auto step = [](Tensor& p, const Tensor& q) {
      Tensor y = p * 3 + q.t().tanh();
      p.add_(y, 0.5);
      return std::vector<Tensor>{y.sum(1), (y - 1).abs(), p};
    };
    const std::vector<Tensor> lazy_out = step(la, lb), eager_out = step(ea, b);
    for (size_t i = 0; i < eager_out.size(); ++i) check_same(lazy_out[i], eager_out[i], 1e-5, 1e-5);
  }
  lz::lazy::wait_for_compiles();
  CHECK(lzl::metrics().eager_steps_total == 0);
}

TEST_CASE("lazy with compile_in_background off, the first launch waits for its code", "[lazy]") {
  const Background waiting(false);
  const Tensor x = lz::randn({300, 1000});
  const double salt = 3.5;
  check_same(program(x.to_lazy(), salt), program(x, salt));
  CHECK(lzl::metrics().launches_while_compiling == 0);
  CHECK(lzl::metrics().kernels_interpreted == 0);
  CHECK(lzl::metrics().kernels_launched == 1);
}

TEST_CASE("lazy a process may exit while a kernel compiles in the background", "[lazy]") {
  const Background background;
  const pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    // The child traces a new program, leaves its compile queued or running
    // and exits through the static destructors.
    const Tensor x = lz::randn({300, 1000});
    const Tensor y = program(x.to_lazy(), 4.25).to_eager();
    std::exit(lzl::metrics().launches_while_compiling == 1 && y.defined() ? 0 : 3);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}
