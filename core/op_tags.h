// Operator tags: properties the graph compiler and the lazy layer read
// instead of matching operator names.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <ostream>
#include <string_view>

namespace lz {

enum class Tag : uint8_t {
  Pointwise,    // out[i] depends only on inputs at i (after broadcasting)
  Reduction,    // reduces over dims
  View,         // returns an alias of its input (no copy)
  Factory,      // makes a tensor from sizes/options; dispatched by BackendSelect
  Inplace,      // writes its first argument and returns it
  Out,          // writes out= arguments and returns them
  Random,       // draws from a Generator
  Composite,    // implemented in terms of other operators
  NonTensorResult,  // returns a number (item, equal): needs values, not traceable
  // Its result jumps where an input crosses a threshold (floor, sign,
  // remainder): inputs that differ by a rounding may give results a whole
  // step apart, so results computed from rounded values compare loosely.
  StepFunction,
  // Its result's shape depends on its input values (nonzero): it cannot be
  // traced, so the lazy layer runs it on materialised inputs (a counted sync).
  DataDependentShape,
};

class TagSet {
 public:
  constexpr TagSet() = default;
  constexpr TagSet(Tag t) : bits_(bit(t)) {}
  constexpr TagSet(std::initializer_list<Tag> tags) {
    for (Tag t : tags) bits_ |= bit(t);
  }
  constexpr bool has(Tag t) const { return (bits_ & bit(t)) != 0; }
  [[nodiscard]] constexpr TagSet add(Tag t) const {
    TagSet s = *this;
    s.bits_ |= bit(t);
    return s;
  }
  [[nodiscard]] constexpr TagSet remove(Tag t) const {
    TagSet s = *this;
    s.bits_ &= ~bit(t);
    return s;
  }
  [[nodiscard]] constexpr TagSet operator|(TagSet o) const {
    TagSet s = *this;
    s.bits_ |= o.bits_;
    return s;
  }
  constexpr bool operator==(const TagSet&) const = default;
  constexpr uint32_t raw() const { return bits_; }

 private:
  static constexpr uint32_t bit(Tag t) { return uint32_t{1} << static_cast<int>(t); }
  uint32_t bits_ = 0;
};

std::string_view to_string(Tag t);
std::ostream& operator<<(std::ostream& os, TagSet tags);

}  // namespace lz
