// A set of dispatch keys as a 64-bit mask.
//
// Note [DispatchKeySet representation]: bit i is DispatchKey(i), so the
// numeric order of the enum is the priority order and the highest-priority key
// is the highest set bit (one count-leading-zeros). Undefined (bit 0) is never
// stored. Mutators return a new set; they are [[nodiscard]] so that
// `ks.add(k);` without assignment is a compile warning, not a silent no-op.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <ostream>

#include "core/dispatch_key.h"

namespace lz {

class DispatchKeySet {
 public:
  constexpr DispatchKeySet() = default;
  constexpr DispatchKeySet(DispatchKey k) : bits_(bit(k)) {}
  constexpr DispatchKeySet(std::initializer_list<DispatchKey> keys) {
    for (DispatchKey k : keys) bits_ |= bit(k);
  }
  static constexpr DispatchKeySet from_bits(uint64_t bits) {
    DispatchKeySet s;
    s.bits_ = bits & ~uint64_t{1};
    return s;
  }
  // Every key.
  static constexpr DispatchKeySet full() {
    return from_bits((uint64_t{1} << kNumDispatchKeys) - 1);
  }
  // Every key with lower priority than k (what a kernel at k redispatches to).
  static constexpr DispatchKeySet below(DispatchKey k) {
    return from_bits(bit(k) - 1);
  }

  constexpr bool has(DispatchKey k) const { return (bits_ & bit(k)) != 0; }
  constexpr bool empty() const { return bits_ == 0; }
  constexpr uint64_t raw() const { return bits_; }

  [[nodiscard]] constexpr DispatchKeySet add(DispatchKey k) const { return from_bits(bits_ | bit(k)); }
  [[nodiscard]] constexpr DispatchKeySet remove(DispatchKey k) const {
    return from_bits(bits_ & ~bit(k));
  }
  [[nodiscard]] constexpr DispatchKeySet operator|(DispatchKeySet o) const {
    return from_bits(bits_ | o.bits_);
  }
  [[nodiscard]] constexpr DispatchKeySet operator&(DispatchKeySet o) const {
    return from_bits(bits_ & o.bits_);
  }
  [[nodiscard]] constexpr DispatchKeySet operator-(DispatchKeySet o) const {
    return from_bits(bits_ & ~o.bits_);
  }
  constexpr bool operator==(const DispatchKeySet&) const = default;

  // The key a call with this set dispatches to; Undefined when empty.
  constexpr DispatchKey highest() const {
    if (bits_ == 0) return DispatchKey::Undefined;
    return static_cast<DispatchKey>(63 - __builtin_clzll(bits_));
  }

 private:
  static constexpr uint64_t bit(DispatchKey k) {
    return k == DispatchKey::Undefined ? 0 : uint64_t{1} << static_cast<int>(k);
  }
  uint64_t bits_ = 0;
};

// "{CPU, Lazy}"
std::ostream& operator<<(std::ostream& os, DispatchKeySet ks);

}  // namespace lz
