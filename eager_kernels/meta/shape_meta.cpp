#include "eager_kernels/meta/shape_meta.h"

#include <algorithm>
#include <limits>
#include <string>

#include "core/empty_tensor.h"
#include "core/error.h"
#include "core/type_promotion.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::meta {

namespace {

TensorMeta same_as(const Tensor& self) {
  return TensorMeta{SizeVec(self.sizes().begin(), self.sizes().end()), self.dtype(), self.device()};
}

void check_index_dtype(std::string_view op, const Tensor& index) {
  LZ_CHECK(index.dtype() == ScalarType::Long || index.dtype() == ScalarType::Int, TypeError, "[",
           op, "] index: expected an int32 or int64 tensor, got ", index.dtype());
}

// A 0-dim tensor counts as 1-D in gather/scatter shape checks (PyTorch's
// ensure_nonempty_dim / ensure_nonempty_size).
int64_t nonempty_dim(const Tensor& t) { return std::max<int64_t>(t.dim(), 1); }
int64_t nonempty_size(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.sizes()[d]; }

std::string tensor_arg(std::string_view name, size_t i) {
  return std::string(name) + "[" + std::to_string(i) + "]";
}

void check_tensor_list(std::string_view op, TensorList tensors) {
  LZ_CHECK(!tensors.empty(), ValueError, "[", op, "] tensors: expected a non-empty list of tensors");
  for (size_t i = 0; i < tensors.size(); ++i) check_defined(op, tensor_arg("tensors", i), tensors[i]);
  for (size_t i = 1; i < tensors.size(); ++i) {
    LZ_CHECK(tensors[i].device() == tensors[0].device(), DeviceError, "[", op,
             "] tensors: expected all tensors on the same device, but tensor 0 is on ",
             tensors[0].device(), " and tensor ", i, " on ", tensors[i].device());
  }
}

}  // namespace

// ---- cat / stack -----------------------------------------------------------

bool cat_skips(const Tensor& t) { return t.dim() == 1 && t.sizes()[0] == 0; }

int64_t cat_dim(TensorList tensors, int64_t dim) {
  for (const Tensor& t : tensors) {
    if (!cat_skips(t)) return wrap_dim(dim, t.dim(), "cat");
  }
  return dim;
}

TensorMeta cat(TensorList tensors, int64_t dim) {
  check_tensor_list("cat", tensors);
  for (size_t i = 0; i < tensors.size(); ++i) {
    LZ_CHECK(tensors[i].dim() > 0, ShapeError, "[cat] tensors: zero-dimensional tensor (at position ",
             i, ") cannot be concatenated");
  }
  const ScalarType dtype = result_type(tensors);
  const Tensor* ref = nullptr;
  size_t ref_index = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    if (!cat_skips(tensors[i])) {
      ref = &tensors[i];
      ref_index = i;
      break;
    }
  }
  if (ref == nullptr) {
    // Every input is a legacy 1-D empty tensor: the result is one too.
    return TensorMeta{SizeVec{0}, dtype, tensors[0].device()};
  }
  const int64_t d = wrap_dim(dim, ref->dim(), "cat");
  SizeVec sizes(ref->sizes().begin(), ref->sizes().end());
  int64_t total = 0;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const Tensor& t = tensors[i];
    if (cat_skips(t)) continue;
    LZ_CHECK(t.dim() == ref->dim(), ShapeError,
             "[cat] tensors: tensors must have the same number of dimensions: got ", ref->dim(),
             " (tensor ", ref_index, ", shape ", shape_str(ref->sizes()), ") and ", t.dim(),
             " (tensor ", i, ", shape ", shape_str(t.sizes()), ")");
    for (int64_t k = 0; k < t.dim(); ++k) {
      if (k == d) continue;
      LZ_CHECK(t.sizes()[k] == sizes[k], ShapeError,
               "[cat] tensors: sizes of tensors must match except in dimension ", d,
               ". Expected size ", sizes[k], " but got size ", t.sizes()[k], " for tensor number ",
               i, " in the list (shapes ", shape_str(ref->sizes()), " and ", shape_str(t.sizes()),
               ")");
    }
    total += t.sizes()[d];
  }
  sizes[d] = total;
  checked_numel(sizes, "cat");
  return TensorMeta{std::move(sizes), dtype, ref->device()};
}

TensorMeta stack(TensorList tensors, int64_t dim) {
  check_tensor_list("stack", tensors);
  const Tensor& first = tensors[0];
  const int64_t d = wrap_dim(dim, first.dim() + 1, "stack");
  for (size_t i = 1; i < tensors.size(); ++i) {
    LZ_CHECK(tensors[i].sizes() == first.sizes(), ShapeError,
             "[stack] tensors: stack expects each tensor to be equal size, but got ",
             shape_str(first.sizes()), " at entry 0 and ", shape_str(tensors[i].sizes()),
             " at entry ", i);
  }
  SizeVec sizes(first.sizes().begin(), first.sizes().end());
  sizes.insert(sizes.begin() + d, static_cast<int64_t>(tensors.size()));
  checked_numel(sizes, "stack");
  return TensorMeta{std::move(sizes), result_type(tensors), first.device()};
}

// ---- indexing ----------------------------------------------------------------

TensorMeta index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  check_defined("index_select", "self", self);
  check_defined("index_select", "index", index);
  check_same_device("index_select", "self", self, "index", index);
  check_index_dtype("index_select", index);
  LZ_CHECK(index.dim() <= 1, ShapeError, "[index_select] index: expected a 0-D or 1-D tensor, got ",
           index.dim(), "-D (shape ", shape_str(index.sizes()), ")");
  const int64_t d = wrap_dim(dim, self.dim(), "index_select");
  if (self.dim() == 0) {
    LZ_CHECK(index.numel() == 1, ShapeError,
             "[index_select] index: index into a 0-dim tensor can have only 1 value, got ",
             index.numel());
    return same_as(self);
  }
  TensorMeta m = same_as(self);
  m.sizes[d] = index.numel();
  return m;
}

TensorMeta gather(const Tensor& self, int64_t dim, const Tensor& index, bool) {
  check_defined("gather", "self", self);
  check_defined("gather", "index", index);
  check_same_device("gather", "self", self, "index", index);
  check_index_dtype("gather", index);
  const int64_t d = wrap_dim(dim, self.dim(), "gather");
  LZ_CHECK(nonempty_dim(index) == nonempty_dim(self), ShapeError,
           "[gather] index: must have the same number of dimensions as self, got index shape ",
           shape_str(index.sizes()), " and self shape ", shape_str(self.sizes()));
  if (index.numel() != 0) {
    for (int64_t k = 0; k < nonempty_dim(self); ++k) {
      if (k == d) continue;
      LZ_CHECK(nonempty_size(index, k) <= nonempty_size(self, k), ShapeError,
               "[gather] index: size does not match at dimension ", k, ": expected index ",
               shape_str(index.sizes()), " to be no larger than self ", shape_str(self.sizes()),
               " apart from dimension ", d);
    }
  }
  return TensorMeta{SizeVec(index.sizes().begin(), index.sizes().end()), self.dtype(), self.device()};
}

namespace {

void scatter_checks(std::string_view op, const Tensor& self, int64_t dim, const Tensor& index,
                    const Tensor* src) {
  check_defined(op, "self", self);
  check_defined(op, "index", index);
  check_same_device(op, "self", self, "index", index);
  check_index_dtype(op, index);
  const int64_t d = wrap_dim(dim, self.dim(), op);
  LZ_CHECK(nonempty_dim(index) == nonempty_dim(self), ShapeError, "[", op,
           "] index: must have the same number of dimensions as self, got index shape ",
           shape_str(index.sizes()), " and self shape ", shape_str(self.sizes()));
  if (src) {
    check_defined(op, "src", *src);
    check_same_device(op, "self", self, "src", *src);
    LZ_CHECK(src->dtype() == self.dtype(), TypeError, "[", op,
             "] src: expected the dtype of self (", self.dtype(), "), got ", src->dtype());
    LZ_CHECK(nonempty_dim(*src) == nonempty_dim(self), ShapeError, "[", op,
             "] src: must have the same number of dimensions as self, got src shape ",
             shape_str(src->sizes()), " and self shape ", shape_str(self.sizes()));
  }
  if (index.numel() == 0) return;
  for (int64_t k = 0; k < nonempty_dim(self); ++k) {
    LZ_CHECK(k == d || nonempty_size(index, k) <= nonempty_size(self, k), ShapeError, "[", op,
             "] index: expected index ", shape_str(index.sizes()), " to be no larger than self ",
             shape_str(self.sizes()), " apart from dimension ", d, " (dimension ", k, " differs)");
    if (src) {
      LZ_CHECK(nonempty_size(index, k) <= nonempty_size(*src, k), ShapeError, "[", op,
               "] index: expected index ", shape_str(index.sizes()), " to be no larger than src ",
               shape_str(src->sizes()), " (dimension ", k, " differs)");
    }
  }
}

}  // namespace

TensorMeta scatter_src(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  scatter_checks("scatter", self, dim, index, &src);
  return same_as(self);
}

TensorMeta scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  scatter_checks("scatter_add", self, dim, index, &src);
  return same_as(self);
}

TensorMeta scatter_value(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  scatter_checks("scatter", self, dim, index, nullptr);
  check_value_fits("scatter", self.dtype(), value);
  return same_as(self);
}

// ---- triangles, flips, repeats, padding ------------------------------------------

namespace {

TensorMeta triangle(std::string_view op, const Tensor& self) {
  check_defined(op, "self", self);
  LZ_CHECK(self.dim() >= 2, ShapeError, "[", op,
           "] self: expected a tensor with 2 or more dimensions, got ", self.dim(), "-D (shape ",
           shape_str(self.sizes()), ")");
  return same_as(self);
}

}  // namespace

TensorMeta triu(const Tensor& self, int64_t) { return triangle("triu", self); }
TensorMeta tril(const Tensor& self, int64_t) { return triangle("tril", self); }

TensorMeta flip(const Tensor& self, IntArrayRef dims) {
  check_defined("flip", "self", self);
  absl::InlinedVector<bool, 6> seen(std::max<int64_t>(self.dim(), 1), false);
  for (int64_t dim : dims) {
    const int64_t d = wrap_dim(dim, self.dim(), "flip");
    LZ_CHECK(!seen[d], ValueError, "[flip] dims: dim ", d,
             " appears multiple times in the list of dims ", shape_str(dims));
    seen[d] = true;
  }
  return same_as(self);
}

TensorMeta repeat(const Tensor& self, IntArrayRef repeats) {
  check_defined("repeat", "self", self);
  const int64_t n = static_cast<int64_t>(repeats.size());
  LZ_CHECK(n >= self.dim(), ShapeError, "[repeat] repeats: the number of repeat dims (", n,
           ") can not be smaller than the number of dimensions of the tensor (", self.dim(), ")");
  const int64_t lead = n - self.dim();
  SizeVec sizes(n);
  for (int64_t i = 0; i < n; ++i) {
    LZ_CHECK(repeats[i] >= 0, ValueError, "[repeat] repeats: negative repeat count ", repeats[i],
             " at position ", i, " (repeats ", shape_str(repeats), ")");
    const int64_t have = i < lead ? 1 : self.sizes()[i - lead];
    LZ_CHECK(have == 0 || repeats[i] <= std::numeric_limits<int64_t>::max() / have, ValueError,
             "[repeat] repeats: ", shape_str(repeats), " of shape ", shape_str(self.sizes()),
             " overflows int64");
    sizes[i] = have * repeats[i];
  }
  checked_numel(sizes, "repeat");
  return TensorMeta{std::move(sizes), self.dtype(), self.device()};
}

TensorMeta constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  check_defined("constant_pad_nd", "self", self);
  const int64_t n = static_cast<int64_t>(pad.size());
  LZ_CHECK(n % 2 == 0, ValueError, "[constant_pad_nd] pad: length must be divisible by 2, got ", n,
           " (pad ", shape_str(pad), ")");
  LZ_CHECK(n / 2 <= self.dim(), ValueError, "[constant_pad_nd] pad: length ", n,
           " is too large for a ", self.dim(), "-D tensor (at most ", 2 * self.dim(), ")");
  check_value_fits("constant_pad_nd", self.dtype(), value);
  TensorMeta m = same_as(self);
  // pad = (last dim before, last dim after, second-to-last before, ...).
  for (int64_t i = 0; i < n / 2; ++i) {
    const int64_t d = self.dim() - 1 - i;
    const int64_t before = pad[2 * i], after = pad[2 * i + 1];
    const int64_t size = self.sizes()[d] + before + after;
    LZ_CHECK(size >= 0, ShapeError, "[constant_pad_nd] pad: the input size ", self.sizes()[d],
             ", plus negative padding ", before, " and ", after,
             " resulted in a negative output size, which is invalid. Check dimension ", d,
             " of your input");
    m.sizes[d] = size;
  }
  return m;
}

// ---- split / chunk -----------------------------------------------------------------

SplitPlan split_plan(const Tensor& self, int64_t split_size, int64_t dim) {
  check_defined("split", "self", self);
  LZ_CHECK(self.dim() > 0, ShapeError, "[split] self: expects at least a 1-dimensional tensor");
  LZ_CHECK(split_size >= 0, ValueError, "[split] split_size: must be non-negative, got ", split_size);
  SplitPlan plan;
  plan.dim = wrap_dim(dim, self.dim(), "split");
  const int64_t size = self.sizes()[plan.dim];
  LZ_CHECK(split_size > 0 || size == 0, ValueError,
           "[split] split_size: can only be 0 if dimension size is 0, but got dimension size of ",
           size);
  const int64_t count = split_size == 0 ? 1 : std::max<int64_t>((size + split_size - 1) / split_size, 1);
  for (int64_t i = 0; i < count; ++i) {
    const int64_t start = i * split_size;
    plan.pieces.emplace_back(start, std::min(split_size, size - start));
  }
  return plan;
}

SplitPlan split_with_sizes_plan(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  check_defined("split_with_sizes", "self", self);
  LZ_CHECK(self.dim() > 0, ShapeError,
           "[split_with_sizes] self: expects at least a 1-dimensional tensor");
  SplitPlan plan;
  plan.dim = wrap_dim(dim, self.dim(), "split_with_sizes");
  const int64_t size = self.sizes()[plan.dim];
  int64_t start = 0;
  for (size_t i = 0; i < split_sizes.size(); ++i) {
    LZ_CHECK(split_sizes[i] >= 0, ValueError, "[split_with_sizes] split_sizes: entry ", i,
             " is negative (", split_sizes[i], ")");
    plan.pieces.emplace_back(start, split_sizes[i]);
    start += split_sizes[i];
  }
  LZ_CHECK(start == size, ShapeError,
           "[split_with_sizes] split_sizes: expected them to sum exactly to ", size,
           " (the input's size at dimension ", plan.dim, "), but got split_sizes=",
           shape_str(split_sizes));
  return plan;
}

SplitPlan chunk_plan(const Tensor& self, int64_t chunks, int64_t dim) {
  check_defined("chunk", "self", self);
  LZ_CHECK(self.dim() > 0, ShapeError, "[chunk] self: expects at least a 1-dimensional tensor");
  LZ_CHECK(chunks > 0, ValueError, "[chunk] chunks: must be greater than 0, got ", chunks);
  const int64_t d = wrap_dim(dim, self.dim(), "chunk");
  const int64_t size = self.sizes()[d];
  const int64_t split_size = (size + chunks - 1) / chunks;
  if (split_size == 0 && size == 0) {
    // PyTorch: `chunks` empty pieces.
    SplitPlan plan;
    plan.dim = d;
    plan.pieces.assign(static_cast<size_t>(chunks), {0, 0});
    return plan;
  }
  return split_plan(self, split_size, d);
}

}  // namespace lz::meta
