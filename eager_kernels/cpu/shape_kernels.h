// CPU impls of the shape and data-movement operators (structured: `out` is
// allocated or checked from the meta function first). Copies of contiguous
// runs are parallel memcpys; strided ones go through the TensorIterator with
// views of the operands (negative strides for flip, stride 0 for repeat and
// for the indexed dim of gather/index_select), so every layout works
// without first making the inputs contiguous.
#pragma once

#include <optional>

#include "core/generator.h"
#include "core/tensor.h"

namespace lz::cpu {

void cat_impl(const Tensor& out, TensorList tensors, int64_t dim);
// Not structured: the result's size is known only after reading self.
Tensor nonzero(const Tensor& self);
void stack_impl(const Tensor& out, TensorList tensors, int64_t dim);

// Index values out of range raise IndexError
// "[index_select] index 5 is out of bounds for dimension 0 with size 3".
void index_select_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index);
void gather_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                 bool sparse_grad);
// Every index is checked before anything is written. Along `dim`, one
// thread writes in index order, so with duplicate indices the last write
// wins, deterministically (PyTorch leaves that case unspecified).
void scatter_src_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                      const Tensor& src);
void scatter_value_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                        const Scalar& value);
// Sums every src value written to an element into it (each element's sum
// is one thread's, in index order: deterministic).
void scatter_add_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src);

void triu_impl(const Tensor& out, const Tensor& self, int64_t diagonal);
void tril_impl(const Tensor& out, const Tensor& self, int64_t diagonal);
void flip_impl(const Tensor& out, const Tensor& self, IntArrayRef dims);
void repeat_impl(const Tensor& out, const Tensor& self, IntArrayRef repeats);
void constant_pad_nd_impl(const Tensor& out, const Tensor& self, IntArrayRef pad,
                          const Scalar& value);

}  // namespace lz::cpu
