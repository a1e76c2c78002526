// The points of a segment past its last whole vector: compiled kernels
// run them as one vector with the lanes beyond the segment masked off
// (codegen_llvm's emit_masked). Each case puts poison right after the
// segment (NaN, out-of-range indices) so that a lane that reads past it
// shows in the result; lengths 1..49 cover every remainder of 16 float32
// and 8 float64/int64 lanes. (Stores past a segment: test_codegen_llvm's
// "compiled kernel: stores stop at the last point".)
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/lazy/lazy_test_util.h"

#include <cstdint>
#include <limits>

using lz::Tensor;

using namespace lazy_test;

namespace {

constexpr int64_t kPast = 40;  // poisoned elements after each segment

// Compiled at the first launch (one kernel serves every length).
struct Compiled {
  SettingsGuard guard;
  Compiled() {
    lzl::Settings s = lzl::settings();
    s.codegen = lzl::Settings::Codegen::Llvm;
    s.jit_threshold = 1;
    lzl::set_settings(s);
    fresh_start();
  }
};

}  // namespace

TEST_CASE("lazy reductions read no point past a segment's last", "[lazy]") {
  const Compiled compiled;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (const lz::ScalarType t : {lz::kFloat, lz::kDouble}) {
    for (int64_t n = 1; n < 50; ++n) {
      INFO(lz::to_string(t) << " n " << n);
      // Rows of n values, each followed by NaNs: a row kernel (softmax)
      // and a full reduction (sum, amax) over the rows' views.
      Tensor rows = lz::full({3, n + kPast}, nan, lz::TensorOptions(t));
      rows.narrow(1, 0, n).copy_(lz::randn({3, n}).to(t));
      const Tensor view = rows.narrow(1, 0, n);
      check_same(lz::softmax(view.to_lazy() * 2, -1), lz::softmax(view * 2, -1));
      check_same((view.to_lazy() + 1).sum(), (view + 1).sum(), 1e-5, 1e-5);
      check_same(view.to_lazy().abs().amax(-1), view.abs().amax(-1));
    }
  }
  CHECK(lzl::metrics().eager_steps_total == 0);
}

TEST_CASE("lazy gathers raise no index error for lanes past a segment's last", "[lazy]") {
  const Compiled compiled;
  const Tensor table = lz::randn({11});
  for (int64_t n = 1; n < 50; ++n) {
    INFO("n " << n);
    // Indices in range, followed by indices no gather may read.
    Tensor index = lz::full({n + kPast}, int64_t{1} << 40, lz::TensorOptions(lz::kInt64));
    index.narrow(0, 0, n).copy_(lz::randint(0, 11, {n}, lz::TensorOptions(lz::kInt64)));
    const Tensor in_range = index.narrow(0, 0, n);
    check_same(table.to_lazy().index_select(0, in_range.to_lazy()) * 2, table.index_select(0, in_range) * 2);
  }
  CHECK(lzl::metrics().eager_steps_total == 0);
}
