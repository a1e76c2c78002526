// Helpers shared by the reduction entries (entries_reduction.cpp) and the
// extremum reduction entries (entries_reduction_extremum.cpp): sample
// inputs with NaN, infinities and ties over dim lists and single dims, the
// readers of their kwargs, the group reference every reduction's reference
// is built on, and error inputs. Nothing here calls a Lazuli kernel.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "tests/float_constants.h"
#include "tests/op_table/entry_builders.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

inline constexpr double kNan = std::numeric_limits<double>::quiet_NaN();

// ---- Sample inputs ---------------------------------------------------------------

inline SampleInput with(SampleInput s, const std::map<std::string, lz::IValue>& kwargs) {
  for (const auto& [k, v] : kwargs) s.kwargs[k] = v;
  return s;
}

// Tensors with NaN, infinities and ties (floats), or ties (integers), in
// contiguous and transposed layouts, including rows long enough for the
// vectorised loops and a NaN / a maximum in a loop tail.
inline std::vector<SampleInput> special_samples(lz::ScalarType t) {
  std::vector<SampleInput> out;
  auto add = [&](const std::vector<double>& v, lz::IntArrayRef sizes, const std::string& what) {
    const lz::Tensor x = make_tensor(v, sizes, t);
    out.push_back(SampleInput{{x}, {}, what});
    if (sizes.size() == 2) {
      // The same values through a transposed layout.
      std::vector<double> tv(v.size());
      const int64_t r = sizes[0], c = sizes[1];
      for (int64_t i = 0; i < r; ++i) {
        for (int64_t j = 0; j < c; ++j) tv[j * r + i] = v[i * c + j];
      }
      out.push_back(SampleInput{{make_tensor(tv, {c, r}, t).t()}, {}, what + ", transposed"});
    }
  };
  if (is_float(t)) {
    add({1, kNan, 3, kNan, 2, -kInf, -kInf, -kInf, -kInf, -kInf, kInf, 2, kInf, -1, 0}, {3, 5},
        "NaN, all -inf and +inf rows");
    std::vector<double> v(2 * 70);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i % 7) - 3;  // ties of 3 and -3
    v[67] = kNan;            // a NaN in the tail of row 0
    v[70 + 40] = 5;          // a unique max in row 1
    v[70 + 69] = 5;          // ... and a tie at the very end
    add(v, {2, 70}, "ties, NaN in a loop tail");
    std::vector<double> w(64 * 40, -kInf);
    for (size_t i = 0; i < w.size(); i += 3) w[i] = static_cast<double>(i % 11) * 0.5;
    w[5 * 40 + 17] = kInf;
    w[9 * 40 + 2] = kNan;
    add(w, {64, 40}, "large with -inf, one inf and one NaN");
  } else if (t == lz::kBool) {
    add({0, 0, 0, 1, 1, 1, 0, 1, 0, 1, 1, 0}, {3, 4}, "all-false and all-true rows");
  } else {
    std::vector<double> v(3 * 40);
    for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<double>(i % 5) + 1;  // ties of 5 and 1
    v[45] = 0;
    add(v, {3, 40}, "ties and a zero");
  }
  return out;
}

// Every unary sample (no kwargs: the reduction of all elements) plus the
// special samples.
inline std::vector<SampleInput> full_samples(lz::ScalarType t, const Domain& domain = {}) {
  std::vector<SampleInput> out = unary_samples(t, domain);
  for (SampleInput& s : special_samples(t)) out.push_back(std::move(s));
  return out;
}

// Every sample with several dim lists and keepdim.
inline std::vector<SampleInput> list_samples(lz::ScalarType t, const Domain& domain = {}) {
  std::vector<SampleInput> out;
  for (const SampleInput& s : full_samples(t, domain)) {
    const int64_t nd = s[0].dim();
    std::vector<std::vector<int64_t>> dim_lists = {{}};
    if (nd >= 1) dim_lists.push_back({nd - 1});
    if (nd >= 2) {
      dim_lists.push_back({0});
      dim_lists.push_back({0, -1});
    }
    if (nd >= 3) dim_lists.push_back({2, 0});
    if (nd == 0) dim_lists.push_back({-1});
    for (const auto& dims : dim_lists) {
      for (bool keepdim : {false, true}) {
        out.push_back(with(s, {{"dim", lz::IValue(dims)}, {"keepdim", lz::IValue(keepdim)}}));
      }
    }
  }
  return out;
}

// Every sample with each single dim (0 and -1 always, 1 for 3-D) and keepdim.
inline std::vector<SampleInput> single_dim_samples(lz::ScalarType t, bool keepdim_variants = true,
                                                   const Domain& domain = {}) {
  std::vector<SampleInput> out;
  for (const SampleInput& s : full_samples(t, domain)) {
    const int64_t nd = s[0].dim();
    std::vector<int64_t> dims = {0, -1};
    if (nd >= 3) dims.push_back(1);
    for (int64_t d : dims) {
      for (bool keepdim : {false, true}) {
        if (keepdim && !keepdim_variants) continue;
        out.push_back(with(s, {{"dim", lz::IValue(d)}, {"keepdim", lz::IValue(keepdim)}}));
      }
    }
  }
  return out;
}

// ---- Sample kwargs -----------------------------------------------------------------

inline bool has_dim(const SampleInput& s) { return s.has("dim") && !s.arg("dim").is_none(); }

inline std::vector<int64_t> dims_of(const SampleInput& s) {
  if (!has_dim(s)) return {};
  const lz::IValue& d = s.arg("dim");
  if (d.is_int()) return {d.to_int()};
  const lz::IntArrayRef l = d.to_int_list();
  return std::vector<int64_t>(l.begin(), l.end());
}

inline bool keepdim_of(const SampleInput& s) { return s.has("keepdim") && s.bool_arg("keepdim"); }

inline std::optional<lz::ScalarType> dtype_of(const SampleInput& s) {
  if (!s.has("dtype") || s.arg("dtype").is_none()) return std::nullopt;
  return s.arg("dtype").to_scalar_type();
}

// Whether a reduced group is empty (numel 0, reduced over all dims or over
// a size-0 dim).
inline bool has_empty_group(const SampleInput& s) {
  const lz::Tensor& x = s[0];
  if (x.numel() != 0) return false;
  if (!has_dim(s)) return true;
  std::vector<int64_t> dims = dims_of(s);
  if (dims.empty()) return true;
  for (int64_t d : dims) {
    const int64_t nd = x.dim();
    if (nd > 0 && x.size((d % nd + nd) % nd) == 0) return true;
  }
  return false;
}

// Drops the samples that would reduce an empty group: operators without an
// identity reject them (see their error inputs).
inline std::vector<SampleInput> without_empty_groups(std::vector<SampleInput> samples) {
  samples.erase(std::remove_if(samples.begin(), samples.end(), has_empty_group), samples.end());
  return samples;
}

// ---- References --------------------------------------------------------------------

using GroupFn = std::function<double(const std::vector<double>&)>;

// The reference of a reduction over the sample's dims (all when absent),
// its keepdim, with the input first converted to its dtype kwarg (as the
// kernels do).
inline Expected group_reference(const SampleInput& s, lz::ScalarType result, const GroupFn& f) {
  lz::Tensor x = s[0];
  if (const auto dt = dtype_of(s)) {
    std::vector<double> v;
    for (double e : values(x)) v.push_back(as_stored(*dt, e));
    x = make_tensor(v, x.sizes(), lz::kFloat64);
  }
  Expected e = reduce_reference(x, dims_of(s), keepdim_of(s), result, f);
  // Rounded to the result dtype: a float16 sum of 77100 ones is inf.
  if (is_float(result)) {
    for (double& v : e.values) v = round_to(result, v);
  }
  return e;
}

// The first extremum's position (a NaN beats everything).
inline int64_t ref_arg(const std::vector<double>& v, bool largest) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (std::isnan(v[i])) return static_cast<int64_t>(i);
  }
  size_t best = 0;
  for (size_t i = 1; i < v.size(); ++i) {
    if (largest ? v[i] > v[best] : v[i] < v[best]) best = i;
  }
  return static_cast<int64_t>(best);
}

inline double ref_extremum(const std::vector<double>& v, bool largest) {
  return v[static_cast<size_t>(ref_arg(v, largest))];
}

// ---- Error inputs ---------------------------------------------------------------

// A zero tensor of `sizes` and dtype t with `kwargs`, described as `what`.
inline SampleInput error_input(lz::IntArrayRef sizes, lz::ScalarType t, std::map<std::string, lz::IValue> kwargs,
                               std::string what) {
  return SampleInput{{lz::zeros(sizes, t)}, std::move(kwargs), std::move(what)};
}

// A dim-list kwarg.
inline lz::IValue dims(std::vector<int64_t> d) { return lz::IValue(std::move(d)); }

}  // namespace lzt
