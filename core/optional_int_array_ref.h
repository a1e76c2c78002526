// OptionalIntArrayRef: the public API's type for an optional list of ints
// (a schema's `int[1]? dim`). It is std::optional<IntArrayRef> (what the
// dispatcher and kernels take) that can also be written as a braced list,
// so `x.sum({0, 1})` reads as in libtorch; std::optional<IntArrayRef> cannot
// be built from a braced list. Like IntArrayRef it views the caller's ints,
// which live until the end of the call; a single int (x.sum(1)) is kept
// inside, as libtorch accepts it.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <type_traits>

#include "core/shape.h"

namespace lz {

class OptionalIntArrayRef {
 public:
  OptionalIntArrayRef() = default;
  OptionalIntArrayRef(std::nullopt_t) {}
  OptionalIntArrayRef(std::optional<IntArrayRef> values) : values_(values) {}
  OptionalIntArrayRef(int64_t one) : values_(IntArrayRef()), one_(one), is_one_(true) {}
  OptionalIntArrayRef(std::initializer_list<int64_t> values) : values_(IntArrayRef(values)) {}
  // Anything an IntArrayRef views: IntArrayRef, SizeVec, std::vector<int64_t>
  // (not a lone int: IntArrayRef would view a temporary that dies here).
  template <class C>
    requires(std::is_convertible_v<const C&, IntArrayRef> && !std::is_arithmetic_v<C>)
  OptionalIntArrayRef(const C& values) : values_(IntArrayRef(values)) {}

  // Made on each use so a copy never views another object's int.
  operator std::optional<IntArrayRef>() const {
    if (is_one_) return IntArrayRef(&one_, 1);
    return values_;
  }

 private:
  std::optional<IntArrayRef> values_;
  int64_t one_ = 0;
  bool is_one_ = false;
};

}  // namespace lz
