// Sizes and strides: small inline vectors, broadcasting, contiguity, dim
// wrapping and the reshape/view stride rules. All functions that can fail
// take the operator name so errors say which call went wrong.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "absl/types/span.h"

namespace lz {

using SizeVec = absl::InlinedVector<int64_t, 6>;

// A view of ints the caller owns (sizes, dims), valid for the call it is
// passed to. It is an absl::Span that, like c10's IntArrayRef, can also be
// one int: x.sum(1) reads as x.sum({1}). That form views the argument
// itself, so never keep it past the call (`IntArrayRef d = 1;` dangles).
class IntArrayRef : public absl::Span<const int64_t> {
  using Base = absl::Span<const int64_t>;

 public:
  using Base::Base;
  constexpr IntArrayRef() = default;
  constexpr IntArrayRef(Base values) : Base(values) {}
  constexpr IntArrayRef(const int64_t& one) : Base(&one, 1) {}

  std::vector<int64_t> vec() const { return std::vector<int64_t>(begin(), end()); }

  // absl::Span's own comparisons are ambiguous for a class derived from it.
  friend bool operator==(IntArrayRef a, IntArrayRef b) { return Base(a) == Base(b); }
  template <class C>
    requires(std::is_convertible_v<const C&, Base> && !std::is_base_of_v<Base, C>)
  friend bool operator==(IntArrayRef a, const C& b) {
    return Base(a) == Base(b);
  }
};

// "[2, 3]", as c10 prints sizes.
std::ostream& operator<<(std::ostream& os, IntArrayRef values);

// "[2, 3]" (and "[]" for a 0-dim shape).
std::string shape_str(IntArrayRef sizes);

// Product of sizes; ValueError for a negative size or an int64 overflow.
int64_t checked_numel(IntArrayRef sizes, std::string_view op);

// Row-major strides (in elements). Size-0 and size-1 dims get the stride they
// would have if they were size 1, as in PyTorch.
SizeVec contiguous_strides(IntArrayRef sizes);
// The same, written into `strides` (sizes.size() elements).
void fill_contiguous_strides(IntArrayRef sizes, int64_t* strides);

// Row-major contiguity, ignoring size-1 dims; empty tensors are contiguous.
bool is_contiguous(IntArrayRef sizes, IntArrayRef strides);

// Whether the strides are a permutation of some contiguous layout: every
// element is distinct and there are no gaps (a transposed matrix is).
bool is_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides);

// NumPy broadcasting of two shapes; ShapeError naming op and arguments otherwise.
SizeVec broadcast_shapes(IntArrayRef a, IntArrayRef b, std::string_view op,
                         std::string_view a_name, std::string_view b_name);
// Whether `from` broadcasts to exactly `to` (expand/copy_ semantics).
bool is_expandable_to(IntArrayRef from, IntArrayRef to);

// Wraps a possibly negative dim into [0, ndim). A 0-dim tensor accepts 0 and -1.
// IndexError: "[sum] dim: 3 is out of range for a 2-D tensor (expected in [-2, 1])".
int64_t wrap_dim(int64_t dim, int64_t ndim, std::string_view op);

// Resolves a single -1 in a reshape target against numel; ShapeError if the
// target does not hold exactly numel elements.
SizeVec infer_size(IntArrayRef shape, int64_t numel, std::string_view op);

// Strides that let a tensor with (sizes, strides) be viewed as new_sizes
// without copying, or nullopt when the memory layout does not allow it.
std::optional<SizeVec> compute_view_strides(IntArrayRef sizes, IntArrayRef strides,
                                            IntArrayRef new_sizes);

}  // namespace lz
