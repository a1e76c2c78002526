// Hashes that are the same in every process and on every machine (unlike
// absl::Hash, which is seeded per process): graph hashes key caches that may
// later live on disk, and dumps print them.
#pragma once

#include <cstdint>
#include <string_view>

namespace lz {

// FNV-1a over the bytes of `s`.
constexpr uint64_t stable_hash(std::string_view s) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (char c : s) {
    h ^= static_cast<uint8_t>(c);
    h *= 0x100000001b3ull;
  }
  return h;
}

// Folds `v` into `h` (order matters): a multiply-xorshift mix, so small
// integers still change every bit of the result.
constexpr uint64_t hash_combine(uint64_t h, uint64_t v) {
  uint64_t z = h ^ (v + 0x9E3779B97F4A7C15ull + (h << 6) + (h >> 2));
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

}  // namespace lz
