// Helpers shared by the lazy feature tests: comparing a lazy result with
// the eager one, catching messages, restoring settings, a clean start.
#pragma once

#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <cstdint>
#include <string>
#include <vector>

namespace lazy_test {

using lz::Scalar;
using lz::Tensor;
namespace lzl = lz::lazy;



inline std::vector<int64_t> sizes_of(const Tensor& t) { return {t.sizes().begin(), t.sizes().end()}; }

inline std::vector<int64_t> strides_of(const Tensor& t) { return {t.strides().begin(), t.strides().end()}; }

// `actual` (lazy or eager) has expected's sizes, dtype and values.
inline void check_same(const Tensor& actual, const Tensor& expected, double rtol = 1e-5, double atol = 1e-6) {
  REQUIRE(actual.defined());
  REQUIRE(expected.defined());
  REQUIRE_FALSE(expected.is_lazy());
  const Tensor a = actual.to_eager();
  REQUIRE_FALSE(a.is_lazy());
  CHECK(sizes_of(a) == sizes_of(expected));
  CHECK(a.dtype() == expected.dtype());
  CHECK(a.device() == expected.device());
  if (sizes_of(a) != sizes_of(expected) || a.dtype() != expected.dtype()) return;
  INFO("actual:   " << a.to_string());
  INFO("expected: " << expected.to_string());
  if (a.is_floating_point()) {
    CHECK(lz::allclose(a, expected, rtol, atol, /*equal_nan=*/true));
  } else {
    CHECK(lz::equal(a, expected));
  }
}

// The message of the E that f throws ("" when it throws nothing; another
// exception type propagates and fails the test).
template <class E, class F>
std::string message_of(F&& f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

// Restores the lazy settings when the test ends (also on failure).
struct SettingsGuard {
  lzl::Settings saved = lzl::settings();
  SettingsGuard() = default;
  SettingsGuard(const SettingsGuard&) = delete;
  SettingsGuard& operator=(const SettingsGuard&) = delete;
  ~SettingsGuard() { lzl::set_settings(saved); }
};

// A clean start: nothing pending on this thread, counters at zero.
inline void fresh_start() {
  lz::sync_all();
  lzl::reset_metrics();
  REQUIRE(lzl::pending_nodes() == 0);
}

}  // namespace lazy_test
