// The fuzzer's random source: one seeded engine, so a program is a pure
// function of its seed on every platform (std:: distributions are not
// portable, so draws are done here).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace lzf {

class Rng {
 public:
  explicit Rng(uint64_t seed) : engine_(seed) {}
  // Uniform in [lo, hi].
  int64_t uniform(int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(engine_() % static_cast<uint64_t>(hi - lo + 1)); }
  bool chance(double p) { return static_cast<double>(engine_() >> 11) * 0x1.0p-53 < p; }
  template <class T>
  const T& pick(const std::vector<T>& v) { return v[static_cast<size_t>(uniform(0, static_cast<int64_t>(v.size()) - 1))]; }
  uint32_t seed32() { return static_cast<uint32_t>(engine_()); }

 private:
  std::mt19937_64 engine_;
};

}  // namespace lzf
