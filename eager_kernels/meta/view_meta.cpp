#include "eager_kernels/meta/view_meta.h"

#include "core/error.h"
#include "core/shape.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::meta {

namespace {

ViewGeometry geometry_of(const Tensor& t) {
  return ViewGeometry{SizeVec(t.sizes().begin(), t.sizes().end()),
                      SizeVec(t.strides().begin(), t.strides().end()), t.storage_offset()};
}

TensorMeta meta_with_sizes(const Tensor& self, SizeVec sizes) {
  return TensorMeta{std::move(sizes), self.dtype(), self.device()};
}

}  // namespace

ViewGeometry view_geometry(const Tensor& self, IntArrayRef size) {
  check_defined("view", "self", self);
  ViewGeometry g;
  g.sizes = infer_size(size, self.numel(), "view");
  std::optional<SizeVec> strides = compute_view_strides(self.sizes(), self.strides(), g.sizes);
  LZ_CHECK(strides, ShapeError, "[view] size ", shape_str(size),
           " is not compatible with the input's sizes ", shape_str(self.sizes()), " and strides ",
           shape_str(self.strides()),
           " (at least one dimension spans two contiguous subspaces); use reshape() instead");
  g.strides = std::move(*strides);
  g.storage_offset = self.storage_offset();
  return g;
}

ViewGeometry permute_geometry(const Tensor& self, IntArrayRef dims) {
  check_defined("permute", "self", self);
  const int64_t n = self.dim();
  LZ_CHECK(static_cast<int64_t>(dims.size()) == n, ShapeError, "[permute] dims: ",
           shape_str(dims), " has ", dims.size(), " entries but the input has ", n, " dims");
  ViewGeometry g = geometry_of(self);
  absl::InlinedVector<bool, 6> seen(n, false);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t d = wrap_dim(dims[i], n, "permute");
    LZ_CHECK(!seen[d], ValueError, "[permute] dims: ", shape_str(dims), " repeats dim ", d);
    seen[d] = true;
    g.sizes[i] = self.sizes()[d];
    g.strides[i] = self.strides()[d];
  }
  return g;
}

ViewGeometry transpose_geometry(const Tensor& self, int64_t dim0, int64_t dim1) {
  check_defined("transpose", "self", self);
  ViewGeometry g = geometry_of(self);
  if (self.dim() == 0) {
    wrap_dim(dim0, 0, "transpose");
    wrap_dim(dim1, 0, "transpose");
    return g;
  }
  const int64_t a = wrap_dim(dim0, self.dim(), "transpose");
  const int64_t b = wrap_dim(dim1, self.dim(), "transpose");
  std::swap(g.sizes[a], g.sizes[b]);
  std::swap(g.strides[a], g.strides[b]);
  return g;
}

ViewGeometry expand_geometry(const Tensor& self, IntArrayRef size) {
  check_defined("expand", "self", self);
  const int64_t n = static_cast<int64_t>(size.size());
  LZ_CHECK(n >= self.dim(), ShapeError, "[expand] size: the number of sizes provided (", n,
           ") must be greater or equal to the number of dimensions in the tensor (", self.dim(),
           ")");
  ViewGeometry g;
  g.sizes.resize(n);
  g.strides.resize(n);
  g.storage_offset = self.storage_offset();
  const int64_t lead = n - self.dim();
  for (int64_t i = n - 1; i >= 0; --i) {
    const int64_t target = size[i];
    if (i < lead) {
      LZ_CHECK(target >= 0, ShapeError, "[expand] size: the expanded size ", target,
               " is not allowed in a leading, non-existing dimension ", i, " (target sizes ",
               shape_str(size), ")");
      g.sizes[i] = target;
      g.strides[i] = 0;
      continue;
    }
    const int64_t have = self.sizes()[i - lead];
    if (target == -1 || target == have) {
      g.sizes[i] = have;
      g.strides[i] = self.strides()[i - lead];
      continue;
    }
    LZ_CHECK(have == 1 && target >= 0, ShapeError, "[expand] size: the expanded size of the tensor (",
             target, ") must match the existing size (", have, ") at non-singleton dimension ", i,
             " (target sizes ", shape_str(size), ", tensor sizes ", shape_str(self.sizes()), ")");
    g.sizes[i] = target;
    g.strides[i] = 0;
  }
  checked_numel(g.sizes, "expand");  // a ShapeError naming expand, not the view it would make
  return g;
}

ViewGeometry slice_geometry(const Tensor& self, int64_t dim, std::optional<int64_t> start,
                            std::optional<int64_t> end, int64_t step) {
  check_defined("slice", "self", self);
  LZ_CHECK(self.dim() > 0, IndexError, "[slice] self: cannot slice a 0-dim tensor");
  LZ_CHECK(step > 0, ValueError, "[slice] step: must be positive, got ", step);
  const int64_t d = wrap_dim(dim, self.dim(), "slice");
  const int64_t size = self.sizes()[d];
  // Python slicing: negative bounds count from the end, then clamp to [0, size].
  auto clamp_bound = [size](int64_t v) {
    if (v < 0) v += size;
    return std::min(std::max<int64_t>(v, 0), size);
  };
  const int64_t s = clamp_bound(start.value_or(0));
  const int64_t e = std::max(s, clamp_bound(end.value_or(size)));
  ViewGeometry g = geometry_of(self);
  g.storage_offset += s * self.strides()[d];
  g.sizes[d] = (e - s + step - 1) / step;
  g.strides[d] *= step;
  return g;
}

ViewGeometry select_geometry(const Tensor& self, int64_t dim, int64_t index) {
  check_defined("select", "self", self);
  LZ_CHECK(self.dim() > 0, IndexError, "[select] self: select() cannot be applied to a 0-dim tensor");
  const int64_t d = wrap_dim(dim, self.dim(), "select");
  const int64_t size = self.sizes()[d];
  LZ_CHECK(index >= -size && index < size, IndexError, "[select] index: ", index,
           " is out of bounds for dimension ", d, " with size ", size);
  const int64_t i = index < 0 ? index + size : index;
  ViewGeometry g = geometry_of(self);
  g.storage_offset += i * self.strides()[d];
  g.sizes.erase(g.sizes.begin() + d);
  g.strides.erase(g.strides.begin() + d);
  return g;
}

ViewGeometry squeeze_geometry(const Tensor& self, std::optional<int64_t> dim) {
  check_defined("squeeze", "self", self);
  ViewGeometry g = geometry_of(self);
  if (self.dim() == 0) {
    if (dim) wrap_dim(*dim, 0, "squeeze");
    return g;
  }
  std::optional<int64_t> only;
  if (dim) only = wrap_dim(*dim, self.dim(), "squeeze");
  ViewGeometry out;
  out.storage_offset = g.storage_offset;
  for (int64_t d = 0; d < self.dim(); ++d) {
    const bool drop = g.sizes[d] == 1 && (!only || *only == d);
    if (drop) continue;
    out.sizes.push_back(g.sizes[d]);
    out.strides.push_back(g.strides[d]);
  }
  return out;
}

ViewGeometry unsqueeze_geometry(const Tensor& self, int64_t dim) {
  check_defined("unsqueeze", "self", self);
  const int64_t d = wrap_dim(dim, self.dim() + 1, "unsqueeze");
  ViewGeometry g = geometry_of(self);
  const int64_t stride = d < self.dim() ? g.sizes[d] * g.strides[d] : 1;
  g.sizes.insert(g.sizes.begin() + d, 1);
  g.strides.insert(g.strides.begin() + d, stride);
  return g;
}

ViewGeometry as_strided_geometry(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                                 std::optional<int64_t> storage_offset) {
  check_defined("as_strided", "self", self);
  LZ_CHECK(size.size() == stride.size(), ShapeError, "[as_strided] size ", shape_str(size),
           " and stride ", shape_str(stride), " must have the same length");
  checked_numel(size, "as_strided");
  for (int64_t s : stride) {
    LZ_CHECK(s >= 0, ValueError, "[as_strided] stride: negative strides are not supported, got ",
             shape_str(stride));
  }
  const int64_t offset = storage_offset.value_or(self.storage_offset());
  LZ_CHECK(offset >= 0, ValueError, "[as_strided] storage_offset: must be >= 0, got ", offset);
  return ViewGeometry{SizeVec(size.begin(), size.end()), SizeVec(stride.begin(), stride.end()),
                      offset};
}

void check_as_strided_bounds(const ViewGeometry& g, int64_t storage_elements) {
  int64_t last = g.storage_offset;  // the last element index the view reaches
  for (size_t i = 0; i < g.sizes.size(); ++i) {
    if (g.sizes[i] == 0) return;
    last += (g.sizes[i] - 1) * g.strides[i];
  }
  LZ_CHECK(last < storage_elements, ValueError, "[as_strided] size ", shape_str(g.sizes), ", stride ",
           shape_str(g.strides), " and offset ", g.storage_offset, " reach element ", last,
           " but the storage holds only ", storage_elements, " elements");
}

TensorMeta view(const Tensor& self, IntArrayRef size) {
  check_defined("view", "self", self);
  return meta_with_sizes(self, infer_size(size, self.numel(), "view"));
}
TensorMeta permute(const Tensor& self, IntArrayRef dims) {
  return meta_with_sizes(self, permute_geometry(self, dims).sizes);
}
TensorMeta transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  return meta_with_sizes(self, transpose_geometry(self, dim0, dim1).sizes);
}
TensorMeta expand(const Tensor& self, IntArrayRef size, bool) {
  return meta_with_sizes(self, expand_geometry(self, size).sizes);
}
TensorMeta slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
                 std::optional<int64_t> end, int64_t step) {
  return meta_with_sizes(self, slice_geometry(self, dim, start, end, step).sizes);
}
TensorMeta select(const Tensor& self, int64_t dim, int64_t index) {
  return meta_with_sizes(self, select_geometry(self, dim, index).sizes);
}
TensorMeta squeeze(const Tensor& self) {
  return meta_with_sizes(self, squeeze_geometry(self, std::nullopt).sizes);
}
TensorMeta squeeze_dim(const Tensor& self, int64_t dim) {
  return meta_with_sizes(self, squeeze_geometry(self, dim).sizes);
}
TensorMeta unsqueeze(const Tensor& self, int64_t dim) {
  return meta_with_sizes(self, unsqueeze_geometry(self, dim).sizes);
}
TensorMeta as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                      std::optional<int64_t> storage_offset) {
  return meta_with_sizes(self, as_strided_geometry(self, size, stride, storage_offset).sizes);
}

}  // namespace lz::meta
