// Tensor::index and Tensor::index_put_ (core/tensor_indexing.h): not an
// operator each but views and operators (select, slice, unsqueeze,
// index_select, scatter_), so they trace lazily and autograd differentiates
// them.
#include "core/tensor_indexing.h"

#include <string_view>
#include <vector>

#include "core/factories.h"
#include "core/ops_binary.h"
#include "core/ops_shape.h"
#include "core/ops_views.h"
#include "core/shape.h"

namespace lz {

using indexing::TensorIndex;

indexing::TensorIndex::TensorIndex(const char* text) : v_(EllipsisIndexType{}) {
  LZ_CHECK(std::string_view(text) == "...", ValueError, "[index] indices: expected \"...\" as a string index, got \"",
           text, "\"");
}

namespace {

// A bool (or, as in libtorch, uint8) index tensor selects where it is true.
bool is_mask(const Tensor& t, std::string_view op) {
  LZ_CHECK(t.defined(), ValueError, "[", op, "] indices: an index tensor is undefined");
  return t.dtype() == ScalarType::Bool || t.dtype() == ScalarType::Byte;
}

// An integer tensor index and the dim of the basic-indexed view it indexes.
struct TensorIndexAt {
  int64_t dim;
  Tensor index;
};

// The basic indices applied as views of self; integer tensor indices are
// collected for the one index_select (index) or scatter_ (index_put_).
Tensor apply_basic(const Tensor& self, absl::Span<const TensorIndex> indices, std::vector<TensorIndexAt>* tensors,
                   std::string_view op) {
  LZ_CHECK(self.defined(), ValueError, "[", op, "] self: the tensor is undefined");
  int64_t consumed = 0;
  bool ellipsis = false;
  for (const TensorIndex& i : indices) {
    if (i.is_integer() || i.is_slice()) ++consumed;
    // A mask indexes as many dims as it has.
    if (i.is_tensor()) consumed += is_mask(i.tensor(), op) ? i.tensor().dim() : 1;
    if (i.is_ellipsis()) {
      LZ_CHECK(!ellipsis, IndexError, "[", op, "] indices: an index can only have a single ellipsis ('...')");
      ellipsis = true;
    }
  }
  LZ_CHECK(consumed <= self.dim(), IndexError, "[", op, "] indices: too many indices for a tensor of dimension ",
           self.dim(), " (got ", consumed, ")");
  Tensor out = self;
  int64_t d = 0;
  for (const TensorIndex& i : indices) {
    if (i.is_none()) {
      out = out.unsqueeze(d++);
    } else if (i.is_ellipsis()) {
      d += self.dim() - consumed;
    } else if (i.is_integer()) {
      out = out.select(d, i.integer());
    } else if (i.is_boolean() || (i.is_tensor() && is_mask(i.tensor(), op) && i.tensor().dim() == 0)) {
      // x[True] adds a dim of size 1, x[False] one of size 0 (a 0-dim mask
      // is read as one bool).
      out = out.unsqueeze(d);
      if (!(i.is_boolean() ? i.boolean() : i.tensor().item<bool>())) out = out.slice(d, 0, 0);
      ++d;
    } else if (i.is_slice()) {
      const indexing::Slice& s = i.slice();
      out = out.slice(d++, s.start(), s.stop(), s.step());
    } else {
      const Tensor& t = i.tensor();
      LZ_CHECK(!is_floating_point(t.dtype()), IndexError, "[", op,
               "] indices: tensors used as indices must be long, int, byte or bool tensors, got ", t.dtype());
      if (!is_mask(t, op)) {
        tensors->push_back({d++, t});
        continue;
      }
      // A mask: the coordinates of its true elements, one integer index per
      // dim it covers (nonzero(): lazily a sync of the mask).
      for (int64_t k = 0; k < t.dim(); ++k) {
        LZ_CHECK(t.size(k) == out.size(d + k), IndexError, "[", op, "] indices: the shape of the mask ",
                 shape_str(t.sizes()), " does not match the shape of the indexed tensor ",
                 shape_str(out.sizes()), " at dim ", d + k);
      }
      const Tensor coordinates = nonzero(t);
      for (int64_t k = 0; k < t.dim(); ++k) tensors->push_back({d + k, coordinates.select(1, k)});
      d += t.dim();
    }
  }
  return out;
}

// x with the indexed dims first and flattened into one: [prod(sizes), rest...].
SizeVec flat_sizes(const Tensor& moved, size_t n_indexed) {
  int64_t rows = 1;
  for (size_t k = 0; k < n_indexed; ++k) rows *= moved.size(static_cast<int64_t>(k));
  SizeVec sizes{rows};
  for (int64_t d = static_cast<int64_t>(n_indexed); d < moved.dim(); ++d) sizes.push_back(moved.size(d));
  return sizes;
}

// The result's dims in the order index_select gives them (index dims first)
// moved to where NumPy puts them (first_dim).
std::vector<int64_t> result_order(int64_t n_index_dims, int64_t n_rest, int64_t first_dim) {
  std::vector<int64_t> order;
  for (int64_t d = 0; d < first_dim; ++d) order.push_back(n_index_dims + d);
  for (int64_t d = 0; d < n_index_dims; ++d) order.push_back(d);
  for (int64_t d = first_dim; d < n_rest; ++d) order.push_back(n_index_dims + d);
  return order;
}

// How index() gathers and index_put_() scatters: x's indexed dims moved
// first and flattened, the flat position of each indexed element there
// (broadcast over the index tensors, every index wrapped and bounds-checked),
// and how the picked rows become NumPy's result.
struct Gather {
  Tensor moved;                        // x with the indexed dims first
  SizeVec flat;                        // moved's sizes with the indexed dims as one
  Tensor linear;                       // [prod(index_shape)] positions in that flattened dim
  SizeVec picked_sizes;                // index_select's rows viewed as index_shape + the rest
  std::vector<int64_t> result_order;   // picked_sizes' dims to NumPy's placement
};

Gather plan_gather(const Tensor& x, const std::vector<TensorIndexAt>& tensors, std::string_view op) {
  SizeVec index_shape(tensors[0].index.sizes().begin(), tensors[0].index.sizes().end());
  for (size_t k = 1; k < tensors.size(); ++k) {
    index_shape = broadcast_shapes(index_shape, tensors[k].index.sizes(), op, "indices", "indices");
  }
  bool adjacent = true;
  for (size_t k = 1; k < tensors.size(); ++k) adjacent = adjacent && tensors[k].dim == tensors[k - 1].dim + 1;
  std::vector<int64_t> order;
  std::vector<bool> indexed(static_cast<size_t>(x.dim()), false);
  for (const TensorIndexAt& t : tensors) {
    order.push_back(t.dim);
    indexed[static_cast<size_t>(t.dim)] = true;
  }
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (!indexed[static_cast<size_t>(d)]) order.push_back(d);
  }
  Gather g;
  int64_t stride = 1;
  for (size_t k = tensors.size(); k-- > 0;) {
    const int64_t size = x.size(tensors[k].dim);
    Tensor i = tensors[k].index.to(ScalarType::Long);
    i = where(i < 0, i + size, i);
    // index_select of 0..size-1 checks every entry (an IndexError naming it)
    // where the flat position alone could land on another element.
    i = index_select(arange(size, TensorOptions(ScalarType::Long).device(i.device())), 0, i.reshape({-1}))
            .view(i.sizes())
            .expand(index_shape);
    g.linear = g.linear.defined() ? g.linear + i * stride : i * stride;
    stride *= size;
  }
  g.linear = g.linear.reshape({-1});
  g.moved = x.permute(order);
  g.flat = flat_sizes(g.moved, tensors.size());
  g.picked_sizes = index_shape;
  for (size_t d = 1; d < g.flat.size(); ++d) g.picked_sizes.push_back(g.flat[d]);
  g.result_order = result_order(static_cast<int64_t>(index_shape.size()), static_cast<int64_t>(g.flat.size()) - 1,
                                adjacent ? tensors[0].dim : 0);
  return g;
}

}  // namespace

Tensor Tensor::index(absl::Span<const TensorIndex> indices) const {
  std::vector<TensorIndexAt> tensors;
  const Tensor x = apply_basic(*this, indices, &tensors, "index");
  if (tensors.empty()) return x;
  const Gather g = plan_gather(x, tensors, "index");
  return lz::index_select(g.moved.reshape(g.flat), 0, g.linear).view(g.picked_sizes).permute(g.result_order);
}

Tensor Tensor::index(std::initializer_list<TensorIndex> indices) const {
  return index(absl::Span<const TensorIndex>(indices.begin(), indices.size()));
}

Tensor& Tensor::index_put_(absl::Span<const TensorIndex> indices, const Tensor& values) {
  std::vector<TensorIndexAt> tensors;
  Tensor x = apply_basic(*this, indices, &tensors, "index_put_");
  if (tensors.empty()) {
    x.copy_(values);
    return *this;
  }
  Gather g = plan_gather(x, tensors, "index_put_");
  // values broadcast to what index() would return, then laid out as the rows
  // index_select would pick: [number of indexed elements, rest...].
  SizeVec result_sizes;
  for (int64_t d : g.result_order) result_sizes.push_back(g.picked_sizes[static_cast<size_t>(d)]);
  std::vector<int64_t> inverse(g.result_order.size());
  for (size_t k = 0; k < inverse.size(); ++k) inverse[static_cast<size_t>(g.result_order[k])] = static_cast<int64_t>(k);
  SizeVec rows_sizes = g.flat;
  rows_sizes[0] = g.linear.numel();
  const Tensor rows = values.to(dtype()).expand(result_sizes).permute(inverse).reshape(rows_sizes);
  // scatter_ along the flattened dim: each row's index repeated over the rest.
  SizeVec index_view(rows_sizes.size(), 1);
  index_view[0] = g.linear.numel();
  const Tensor where_to = g.linear.view(index_view).expand(rows_sizes);
  if (compute_view_strides(g.moved.sizes(), g.moved.strides(), g.flat)) {
    g.moved.view(g.flat).scatter_(0, where_to, rows);
  } else {
    // The indexed dims do not flatten in place: write a contiguous copy back.
    Tensor copy = g.moved.contiguous().view(g.flat);
    copy.scatter_(0, where_to, rows);
    g.moved.copy_(copy.view(g.moved.sizes()));
  }
  return *this;
}

Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, const Tensor& values) {
  return index_put_(absl::Span<const TensorIndex>(indices.begin(), indices.size()), values);
}

Tensor& Tensor::index_put_(std::initializer_list<TensorIndex> indices, const Scalar& value) {
  return index_put_(absl::Span<const TensorIndex>(indices.begin(), indices.size()),
                    scalar_tensor(value, TensorOptions(dtype()).device(device())));
}

Tensor& Tensor::index_fill_(int64_t dim, const Tensor& index, const Scalar& value) {
  const int64_t d = wrap_dim(dim, this->dim(), "index_fill_");
  std::vector<TensorIndex> indices(static_cast<size_t>(d), TensorIndex(indexing::Slice()));
  indices.emplace_back(index.dim() == 0 ? index.reshape({1}) : index);
  return index_put_(indices, scalar_tensor(value, TensorOptions(dtype()).device(device())));
}

}  // namespace lz
