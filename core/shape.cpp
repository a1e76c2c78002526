#include "core/shape.h"

#include <algorithm>
#include <limits>
#include <ostream>

#include "core/error.h"

namespace lz {

std::string shape_str(IntArrayRef sizes) {
  std::string out = "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(sizes[i]);
  }
  return out + "]";
}

std::ostream& operator<<(std::ostream& os, IntArrayRef values) { return os << shape_str(values); }

int64_t checked_numel(IntArrayRef sizes, std::string_view op) {
  int64_t n = 1;
  for (int64_t s : sizes) {
    LZ_CHECK(s >= 0, ValueError, "[", op, "] size: negative dimension ", s, " in ",
             shape_str(sizes));
    LZ_CHECK(!__builtin_mul_overflow(n, s, &n), ValueError, "[", op, "] size: ", shape_str(sizes),
             " has more elements than fit in int64");
  }
  return n;
}

void fill_contiguous_strides(IntArrayRef sizes, int64_t* strides) {
  int64_t stride = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= sizes[i] > 1 ? sizes[i] : 1;
  }
}

SizeVec contiguous_strides(IntArrayRef sizes) {
  SizeVec strides(sizes.size());
  fill_contiguous_strides(sizes, strides.data());
  return strides;
}

bool is_contiguous(IntArrayRef sizes, IntArrayRef strides) {
  // Empty tensors are contiguous whatever their strides: look for a 0 before
  // checking any stride, not only once the walk reaches it.
  if (std::find(sizes.begin(), sizes.end(), 0) != sizes.end()) return true;
  int64_t expected = 1;
  for (size_t i = sizes.size(); i-- > 0;) {
    if (sizes[i] == 1) continue;
    if (strides[i] != expected) return false;
    expected *= sizes[i];
  }
  return true;
}

bool is_non_overlapping_and_dense(IntArrayRef sizes, IntArrayRef strides) {
  // Size-0 dims are skipped like size-1 ones (as in PyTorch): their stride
  // never addresses anything, and counting them would make an empty
  // contiguous tensor such as [2, 0] look overlapping.
  SizeVec order;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] > 1) order.push_back(static_cast<int64_t>(d));
  }
  std::sort(order.begin(), order.end(),
            [&](int64_t a, int64_t b) { return strides[a] < strides[b]; });
  int64_t expected = 1;
  for (int64_t d : order) {
    if (strides[d] != expected) return false;
    expected *= sizes[d];
  }
  return true;
}

SizeVec broadcast_shapes(IntArrayRef a, IntArrayRef b, std::string_view op,
                         std::string_view a_name, std::string_view b_name) {
  const size_t n = std::max(a.size(), b.size());
  SizeVec out(n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t da = i < n - a.size() ? 1 : a[i - (n - a.size())];
    const int64_t db = i < n - b.size() ? 1 : b[i - (n - b.size())];
    LZ_CHECK(da == db || da == 1 || db == 1, ShapeError, "[", op, "] ", a_name, " shape ",
             shape_str(a), " and ", b_name, " shape ", shape_str(b),
             " are not broadcastable (dim ", static_cast<int64_t>(i) - static_cast<int64_t>(n),
             ": ", da, " vs ", db, ")");
    out[i] = da == 1 ? db : da;
  }
  return out;
}

bool is_expandable_to(IntArrayRef from, IntArrayRef to) {
  if (from.size() > to.size()) return false;
  const size_t lead = to.size() - from.size();
  for (size_t i = 0; i < from.size(); ++i) {
    if (from[i] != to[lead + i] && from[i] != 1) return false;
  }
  return true;
}

int64_t wrap_dim(int64_t dim, int64_t ndim, std::string_view op) {
  const int64_t range = ndim > 0 ? ndim : 1;  // a 0-dim tensor behaves as 1-D here
  LZ_CHECK(dim >= -range && dim < range, IndexError, "[", op, "] dim: ", dim,
           " is out of range for a ", ndim, "-D tensor (expected in [", -range, ", ", range - 1,
           "])");
  return dim < 0 ? dim + range : dim;
}

SizeVec infer_size(IntArrayRef shape, int64_t numel, std::string_view op) {
  SizeVec out(shape.begin(), shape.end());
  int64_t known = 1;
  std::optional<size_t> infer_at;
  for (size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == -1) {
      LZ_CHECK(!infer_at, ShapeError, "[", op, "] shape: only one dimension can be -1, got ",
               shape_str(shape));
      infer_at = i;
    } else {
      LZ_CHECK(shape[i] >= 0, ValueError, "[", op, "] shape: invalid size ", shape[i], " in ",
               shape_str(shape));
      LZ_CHECK(!__builtin_mul_overflow(known, shape[i], &known), ValueError, "[", op,
               "] shape: ", shape_str(shape), " overflows int64");
    }
  }
  if (infer_at) {
    LZ_CHECK(known != 0 && numel % known == 0, ShapeError, "[", op, "] shape ",
             shape_str(shape), " is invalid for input of size ", numel);
    out[*infer_at] = numel / known;
  } else {
    LZ_CHECK(known == numel, ShapeError, "[", op, "] shape ", shape_str(shape),
             " is invalid for input of size ", numel);
  }
  return out;
}

std::optional<SizeVec> compute_view_strides(IntArrayRef sizes, IntArrayRef strides,
                                            IntArrayRef new_sizes) {
  int64_t numel = 1;
  for (int64_t s : sizes) numel *= s;
  if (sizes.empty() || numel == 0) return contiguous_strides(new_sizes);

  // Walk the old dims from the innermost outwards, grouping them into chunks
  // that are contiguous among themselves; each chunk must be covered exactly
  // by a run of new dims, which then get strides relative to the chunk's base.
  SizeVec new_strides(new_sizes.size());
  int64_t view_d = static_cast<int64_t>(new_sizes.size()) - 1;
  int64_t chunk_base_stride = strides.back();
  int64_t chunk_numel = 1;
  int64_t view_numel = 1;
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 1; d >= 0; --d) {
    chunk_numel *= sizes[d];
    const bool chunk_ends =
        d == 0 || (sizes[d - 1] != 1 && strides[d - 1] != chunk_numel * chunk_base_stride);
    if (!chunk_ends) continue;
    while (view_d >= 0 && (view_numel < chunk_numel || new_sizes[view_d] == 1)) {
      new_strides[view_d] = view_numel * chunk_base_stride;
      view_numel *= new_sizes[view_d];
      --view_d;
    }
    if (view_numel != chunk_numel) return std::nullopt;
    if (d > 0) {
      chunk_base_stride = strides[d - 1];
      chunk_numel = 1;
      view_numel = 1;
    }
  }
  if (view_d != -1) return std::nullopt;
  return new_strides;
}

}  // namespace lz
