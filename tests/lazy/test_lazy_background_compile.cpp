// Compiling off the critical path (Settings::compile_in_background): a
// kernel whose code is not compiled yet starts its compile on the
// background thread and runs meanwhile as its eager steps (large launches)
// or interpreted (small ones); later runs use the compiled code. The
// results are eager's either way, and the metrics say which path ran.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "codegen_llvm/compile_queue.h"
#include "codegen_llvm/jit_engine.h"
#include "tests/lazy/lazy_test_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <future>
#include <random>
#include <string>

using lz::Tensor;

using namespace lazy_test;

namespace {

// Background compiles on, kernels compiled at their first launch, and no
// disk cache (a kernel found there runs at once: the last test case).
struct Background {
  SettingsGuard guard;
  explicit Background(bool on = true) {
    lzl::Settings s = lzl::settings();
    s.codegen = lzl::Settings::Codegen::Llvm;
    s.compile_in_background = on;
    s.jit_threshold = 1;
    lzl::set_settings(s);
    lz::lazy::wait_for_compiles();
    lz::codegen_llvm::JitEngine::instance().set_disk_cache(false);
    fresh_start();
  }
  ~Background() {
    lz::lazy::wait_for_compiles();
    lz::codegen_llvm::JitEngine::instance().set_disk_cache(true);
  }
};

// One kernel, new to the process for each `variant` (its code has
// `variant` more operations; scalars are runtime parameters).
Tensor program(const Tensor& x, int variant) {
  Tensor y = (x * 1.5).sin() + x.exp() * 0.5;
  for (int i = 0; i < variant; ++i) y = y * 0.75 + 0.25;
  return y.relu() - 2;
}

// A directory of its own, removed at scope exit.
struct TempDir {
  std::string path;
  TempDir() {
    path = (std::filesystem::temp_directory_path() / ("lz_background_" + std::to_string(::getpid()) + "_" +
                                                      std::to_string(std::random_device{}())))
               .string();
    std::filesystem::create_directories(path);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

// Counts the bytes handed out and not given back yet, and their peak.
class PeakAllocator final : public lz::Allocator {
 public:
  lz::DataPtr allocate(size_t nbytes, lz::Device device) override {
    if (nbytes == 0) return lz::DataPtr(nullptr, 0, nullptr, nullptr, device);
    const size_t cap = (nbytes + lz::kAllocAlignment - 1) / lz::kAllocAlignment * lz::kAllocAlignment;
    const size_t now = live.fetch_add(cap) + cap;
    for (size_t p = peak.load(); now > p && !peak.compare_exchange_weak(p, now);) {
    }
    return lz::DataPtr(std::aligned_alloc(lz::kAllocAlignment, cap), cap, this, &PeakAllocator::release, device);
  }
  static void release(void* self, void* data, size_t cap) {
    static_cast<PeakAllocator*>(self)->live.fetch_sub(cap);
    std::free(data);
  }
  std::atomic<size_t> live{0};
  std::atomic<size_t> peak{0};
};

}  // namespace

TEST_CASE("lazy eager steps run while compiling release each temporary after its last reader", "[lazy]") {
  const Background background;
  // The compile thread is busy until `release`: the kernel's first launch
  // runs as its eager steps (mul, sin, add, exp: three temporaries).
  std::promise<void> release;
  std::shared_future<void> released = release.get_future().share();
  lz::codegen_llvm::compile_later([released] { released.wait(); });
  const Tensor x = lz::randn({300, 1000});
  const size_t bytes = 300 * 1000 * sizeof(float);
  const Tensor expected = ((x * 1.5).sin() + 0.25).exp();
  Tensor y = ((x.to_lazy() * 1.5).sin() + 0.25).exp();
  PeakAllocator counted;
  {
    const lz::AllocatorGuard guard(lz::DeviceType::CPU, &counted);
    y = y.to_eager();
  }
  release.set_value();
  check_same(y, expected);
  CHECK(lzl::metrics().launches_while_compiling == 1);
  // One step's operand and result at a time (all three temporaries and the
  // output would be four).
  CHECK(counted.peak.load() <= 2 * bytes + 4096);
  CHECK(counted.peak.load() >= bytes);
}

TEST_CASE("lazy first runs of a large kernel take its eager steps while the compile thread builds its code", "[lazy]") {
  const Background background;
  const Tensor x = lz::randn({300, 1000});  // past the interpreter's 65536 points
  const Tensor expected = program(x, 1);
  check_same(program(x.to_lazy(), 1), expected);
  const lzl::LazyMetrics first = lzl::metrics();
  CHECK(first.launches_while_compiling == 1);
  CHECK(first.eager_steps_while_compiling == 9);  // mul, sin, exp, mul, add, mul, add, relu, sub
  CHECK(first.eager_steps_total == 0);             // not steps of the plan: the kernel's stand-ins
  CHECK(first.kernels_launched == 1);
  lz::lazy::wait_for_compiles();
  CHECK(lzl::metrics().jit_compiles_pending == 0);
  check_same(program(x.to_lazy(), 1), expected);
  const lzl::LazyMetrics later = lzl::metrics();
  CHECK(later.launches_while_compiling == 1);  // the compiled code ran
  CHECK(later.cache_hits == 1);
  CHECK(later.kernels_interpreted == 0);
}

TEST_CASE("lazy a kernel whose eager steps would take longer than its compile waits for its code", "[lazy]") {
  const Background background;
  // 8M points and 9 eager steps (past 64M point-steps): ~40 ms of eager
  // work, more than the kernel takes to compile.
  const Tensor x = lz::randn({8192, 1024});
  check_same(program(x.to_lazy(), 6), program(x, 6));
  CHECK(lzl::metrics().launches_while_compiling == 0);
  CHECK(lzl::metrics().kernels_interpreted == 0);
  CHECK(lzl::metrics().jit_compiles_pending == 0);
}

TEST_CASE("lazy a kernel with pieces runs every box compiled or all as eager steps while the compile thread builds them", "[lazy]") {
  const Background background;
  // cat of unequal parts along rows: boxes of several variants.
  const Tensor a = lz::randn({600, 333}), b = lz::randn({600, 668});
  const auto program = [](const Tensor& p, const Tensor& q) { return lz::cat({p * 2, q.exp(), p.sin()}, 1); };
  check_same(program(a.to_lazy(), b.to_lazy()), program(a, b));
  CHECK(lzl::metrics().launches_while_compiling == 1);
  lz::lazy::wait_for_compiles();
  check_same(program(a.to_lazy(), b.to_lazy()), program(a, b));
  CHECK(lzl::metrics().launches_while_compiling == 1);
  CHECK(lzl::metrics().kernels_interpreted == 0);
  CHECK(lzl::metrics().eager_steps_total == 0);
}

TEST_CASE("lazy small kernels are interpreted while the compile thread builds their code", "[lazy]") {
  const Background background;
  const Tensor x = lz::randn({64});
  check_same(program(x.to_lazy(), 2), program(x, 2));
  CHECK(lzl::metrics().launches_while_compiling == 1);
  CHECK(lzl::metrics().eager_steps_while_compiling == 0);
  CHECK(lzl::metrics().kernels_interpreted == 1);
  lz::lazy::wait_for_compiles();
  check_same(program(x.to_lazy(), 2), program(x, 2));
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
  check_same(program(x.to_lazy(), 3), program(x, 3));
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
    const Tensor y = program(x.to_lazy(), 4).to_eager();
    std::exit(lzl::metrics().launches_while_compiling == 1 && y.defined() ? 0 : 3);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
}

TEST_CASE("lazy kernels in the disk cache run compiled at their first launch", "[lazy]") {
  const Background background;
  const TempDir dir;
  lz::codegen_llvm::JitEngine::instance().set_disk_cache(true, dir.path);
  const Tensor x = lz::randn({300, 1000});
  check_same(program(x.to_lazy(), 5), program(x, 5));
  CHECK(lzl::metrics().launches_while_compiling == 1);
  lz::lazy::wait_for_compiles();
  // A new executable (as in a new process): its kernel's code is linked
  // from the disk cache at the launch, without waiting for a compile.
  lz::lazy::clear_executable_cache();  // the code is unlinked with its last holder
  fresh_start();
  check_same(program(x.to_lazy(), 5), program(x, 5));
  CHECK(lzl::metrics().launches_while_compiling == 0);
  CHECK(lzl::metrics().jit_disk_hits == 1);
  CHECK(lzl::metrics().jit_compiled == 0);
}
