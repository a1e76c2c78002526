// Reference helpers for the shape, view and factory entries: row-major
// coordinates, values gathered through index maps, and checks that results
// alias (or do not alias) their input's storage. Nothing here calls a
// Lazuli operator: values are read with tests/op_table/tensor_access.h.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tests/op_table/op_info.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

using Coord = std::vector<int64_t>;

// Row-major coordinates of flat index `flat` in `sizes`, and back.
inline Coord unravel(int64_t flat, lz::IntArrayRef sizes) {
  Coord c(sizes.size(), 0);
  for (size_t i = sizes.size(); i-- > 0;) {
    c[i] = flat % sizes[i];
    flat /= sizes[i];
  }
  return c;
}
inline int64_t ravel(const Coord& c, lz::IntArrayRef sizes) {
  int64_t flat = 0;
  for (size_t i = 0; i < sizes.size(); ++i) flat = flat * sizes[i] + c[i];
  return flat;
}

// An expected output of `sizes` whose element at each coordinate is
// value(coord) (already a value of the result dtype).
inline Expected build_expected(lz::IntArrayRef sizes, lz::ScalarType dtype,
                               const std::function<double(const Coord&)>& value) {
  Expected e{lz::SizeVec(sizes.begin(), sizes.end()), dtype, {}};
  const int64_t n = numel_of(sizes);
  e.values.reserve(static_cast<size_t>(n));
  for (int64_t k = 0; k < n; ++k) e.values.push_back(value(unravel(k, sizes)));
  return e;
}

// An expected output taking each element from `x` (row-major values of
// sizes xs) at the coordinate source(coord).
inline Expected index_map(const lz::Tensor& x, lz::IntArrayRef out_sizes,
                          const std::function<Coord(const Coord&)>& source) {
  const std::vector<double> v = values(x);
  const lz::SizeVec xs(x.sizes().begin(), x.sizes().end());
  return build_expected(out_sizes, x.dtype(), [&](const Coord& c) { return v[ravel(source(c), xs)]; });
}

// Whether two tensors use the same storage (a view of one another).
inline bool same_storage(const lz::Tensor& a, const lz::Tensor& b) {
  return a.unsafe_get_impl()->storage() == b.unsafe_get_impl()->storage();
}

// "" when outputs match expected exactly (shape, dtype, values), else why.
inline std::string exact_match(const std::vector<lz::Tensor>& actual, const std::vector<Expected>& expected) {
  if (actual.size() != expected.size()) {
    return std::to_string(actual.size()) + " outputs, expected " + std::to_string(expected.size());
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    const std::string which = actual.size() > 1 ? "output " + std::to_string(i) + ": " : "";
    if (!actual[i].defined()) return which + "undefined";
    if (actual[i].sizes() != lz::IntArrayRef(expected[i].sizes)) {
      return which + "shape " + lz::shape_str(actual[i].sizes()) + ", expected " +
             lz::shape_str(expected[i].sizes);
    }
    if (actual[i].dtype() != expected[i].dtype) {
      return which + "dtype " + std::string(lz::to_string(actual[i].dtype())) + ", expected " +
             std::string(lz::to_string(expected[i].dtype));
    }
    const std::string m = ::lzt::mismatch(values(actual[i]), expected[i].values, 0, 0);
    if (!m.empty()) return which + m;
  }
  return "";
}

enum class Alias { Always, Never, Unchecked };

// A table `check` for view-like operators: exact values from `reference`,
// and every output sharing (Always) or not sharing (Never) the storage of
// the sample's first tensor.
inline std::function<std::string(const SampleInput&, const std::vector<lz::Tensor>&)> alias_check(
    std::function<std::vector<Expected>(const SampleInput&)> reference,
    std::function<Alias(const SampleInput&)> rule) {
  return [reference, rule](const SampleInput& s, const std::vector<lz::Tensor>& outs) -> std::string {
    const std::string m = exact_match(outs, reference(s));
    if (!m.empty()) return m;
    const Alias a = rule(s);
    for (size_t i = 0; i < outs.size(); ++i) {
      const bool shared = same_storage(outs[i], s[0]);
      if (a == Alias::Always && !shared) return "output " + std::to_string(i) + " is not a view of the input";
      if (a == Alias::Never && shared) return "output " + std::to_string(i) + " aliases the input";
    }
    return "";
  };
}

}  // namespace lzt
