// OptionalIntArrayRef: the public API's type for an optional list of ints
// (a schema's `int[1]? dim`). It is std::optional<IntArrayRef> (what the
// dispatcher and kernels take) that can also be written as a braced list,
// so `x.sum({0, 1})` reads as in libtorch; std::optional<IntArrayRef> cannot
// be built from a braced list. Like IntArrayRef it views the caller's ints,
// which live until the end of the call.
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
  OptionalIntArrayRef(std::initializer_list<int64_t> values) : values_(IntArrayRef(values)) {}
  // Anything an IntArrayRef views: IntArrayRef, SizeVec, std::vector<int64_t>.
  template <class C>
    requires std::is_convertible_v<const C&, IntArrayRef>
  OptionalIntArrayRef(const C& values) : values_(IntArrayRef(values)) {}

  operator std::optional<IntArrayRef>() const { return values_; }

 private:
  std::optional<IntArrayRef> values_;
};

}  // namespace lz
