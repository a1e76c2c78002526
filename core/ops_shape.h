// Shape and data-movement operators (concatenation, splitting, indexing,
// triangles, flips, repeats, padding): libtorch's names and argument order.
// *_out variants write into `out` (resized if it is empty) and return it.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "core/tensor.h"

namespace lz {

// Concatenates along dim with type promotion across the inputs. 1-D empty
// tensors are skipped (PyTorch's legacy rule), whatever their dtype.
Tensor cat(TensorList tensors, int64_t dim = 0);
Tensor& cat_out(Tensor& out, TensorList tensors, int64_t dim = 0);
// Joins equal-shaped tensors along a new dim.
Tensor stack(TensorList tensors, int64_t dim = 0);
Tensor& stack_out(Tensor& out, TensorList tensors, int64_t dim = 0);

// Views of self (they share its storage): pieces of split_size (the last
// may be smaller), of the given sizes, or `chunks` near-equal pieces (fewer
// when the size does not divide, as in PyTorch).
std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim = 0);
std::vector<Tensor> split(const Tensor& self, IntArrayRef split_sizes, int64_t dim = 0);
std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim = 0);
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim = 0);

// Indices (int32 or int64) must lie in [0, size): IndexError otherwise.
Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index);
Tensor& index_select_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index);
// out[i][j] = self[index[i][j]][j] (dim 0), out[i][j] = self[i][index[i][j]] (dim 1).
// [n, self.dim()] int64 coordinates of the n nonzero elements, row-major
// order. Lazily it materialises self (a sync counted as
// data_dependent_shape): n is known only from the values.
Tensor nonzero(const Tensor& self);
// self's elements where mask is true (the two broadcast), 1-D.
Tensor masked_select(const Tensor& self, const Tensor& mask);
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad = false);
Tensor& gather_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                   bool sparse_grad = false);
// A copy of self with out[index[i][j]][j] = src[i][j] (dim 0). With
// duplicate indices the last one (in index order along dim) wins.
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value);
Tensor& scatter_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                    const Tensor& src);
Tensor& scatter_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                    const Scalar& value);
// Like scatter with src, but every value written to an element is added to
// it: out[index[i][j]][j] += src[i][j] (dim 0). Deterministic.
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);
Tensor& scatter_add_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                        const Tensor& src);
// out.select(dim, index[i]) += alpha * source.select(dim, i), index 0-D or 1-D
// with source.size(dim) entries (the gradient of index_select).
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                 const Scalar& alpha = 1);

// Upper / lower triangle of the last two dims (diagonal > 0 is above the main one).
Tensor triu(const Tensor& self, int64_t diagonal = 0);
Tensor& triu_out(Tensor& out, const Tensor& self, int64_t diagonal = 0);
Tensor tril(const Tensor& self, int64_t diagonal = 0);
Tensor& tril_out(Tensor& out, const Tensor& self, int64_t diagonal = 0);

Tensor flip(const Tensor& self, IntArrayRef dims);
Tensor& flip_out(Tensor& out, const Tensor& self, IntArrayRef dims);
// Tiles self; repeats may have more entries than self has dims.
Tensor repeat(const Tensor& self, IntArrayRef repeats);
Tensor& repeat_out(Tensor& out, const Tensor& self, IntArrayRef repeats);

// pad = (last dim before, last dim after, second-to-last before, ...);
// negative entries crop. Only mode "constant" is implemented (the others
// raise NotImplementedError).
Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value = 0);
Tensor& constant_pad_nd_out(Tensor& out, const Tensor& self, IntArrayRef pad, const Scalar& value = 0);
Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode = "constant",
           std::optional<double> value = std::nullopt);

}  // namespace lz
