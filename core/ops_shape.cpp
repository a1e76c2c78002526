// Call sites of the shape and data-movement operators (schemas and kernels:
// eager_kernels/register_shape.cpp).
#include "core/op_call.h"
#include "core/ops_shape.h"

namespace lz {

namespace {

// An empty list has no tensor to dispatch on: say so before dispatching.
void check_non_empty(const char* op, TensorList tensors) {
  LZ_CHECK(!tensors.empty(), ValueError, "[", op, "] tensors: expected a non-empty list of tensors");
}

}  // namespace

Tensor cat(TensorList tensors, int64_t dim) {
  check_non_empty("cat", tensors);
  return LZ_OP("cat", Tensor(TensorList, int64_t)).call(tensors, dim);
}
Tensor& cat_out(Tensor& out, TensorList tensors, int64_t dim) {
  check_non_empty("cat", tensors);
  LZ_OP("cat.out", Tensor(TensorList, int64_t, const Tensor&)).call(tensors, dim, out);
  return out;
}
Tensor stack(TensorList tensors, int64_t dim) {
  check_non_empty("stack", tensors);
  return LZ_OP("stack", Tensor(TensorList, int64_t)).call(tensors, dim);
}
Tensor& stack_out(Tensor& out, TensorList tensors, int64_t dim) {
  check_non_empty("stack", tensors);
  LZ_OP("stack.out", Tensor(TensorList, int64_t, const Tensor&)).call(tensors, dim, out);
  return out;
}

std::vector<Tensor> split(const Tensor& self, int64_t split_size, int64_t dim) {
  return LZ_OP("split.Tensor", std::vector<Tensor>(const Tensor&, int64_t, int64_t))
      .call(self, split_size, dim);
}
std::vector<Tensor> split(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  return split_with_sizes(self, split_sizes, dim);
}
std::vector<Tensor> split_with_sizes(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  return LZ_OP("split_with_sizes", std::vector<Tensor>(const Tensor&, IntArrayRef, int64_t))
      .call(self, split_sizes, dim);
}
std::vector<Tensor> chunk(const Tensor& self, int64_t chunks, int64_t dim) {
  return LZ_OP("chunk", std::vector<Tensor>(const Tensor&, int64_t, int64_t)).call(self, chunks, dim);
}

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  return LZ_OP("index_select", Tensor(const Tensor&, int64_t, const Tensor&)).call(self, dim, index);
}
Tensor& index_select_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index) {
  LZ_OP("index_select.out", Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&))
      .call(self, dim, index, out);
  return out;
}
Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  return LZ_OP("gather", Tensor(const Tensor&, int64_t, const Tensor&, bool))
      .call(self, dim, index, sparse_grad);
}
Tensor& gather_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index, bool sparse_grad) {
  LZ_OP("gather.out", Tensor(const Tensor&, int64_t, const Tensor&, bool, const Tensor&))
      .call(self, dim, index, sparse_grad, out);
  return out;
}

Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  return LZ_OP("scatter.src", Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&))
      .call(self, dim, index, src);
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  return LZ_OP("scatter.value", Tensor(const Tensor&, int64_t, const Tensor&, const Scalar&))
      .call(self, dim, index, value);
}
Tensor& scatter_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  LZ_OP("scatter.src_out",
        Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&, const Tensor&))
      .call(self, dim, index, src, out);
  return out;
}
Tensor& scatter_out(Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                    const Scalar& value) {
  LZ_OP("scatter.value_out",
        Tensor(const Tensor&, int64_t, const Tensor&, const Scalar&, const Tensor&))
      .call(self, dim, index, value, out);
  return out;
}

#define LZ_TRIANGLE_OP(name)                                                                  \
  Tensor name(const Tensor& self, int64_t diagonal) {                                         \
    return LZ_OP(#name, Tensor(const Tensor&, int64_t)).call(self, diagonal);                 \
  }                                                                                           \
  Tensor& name##_out(Tensor& out, const Tensor& self, int64_t diagonal) {                     \
    LZ_OP(#name ".out", Tensor(const Tensor&, int64_t, const Tensor&)).call(self, diagonal, out); \
    return out;                                                                               \
  }
LZ_TRIANGLE_OP(triu)
LZ_TRIANGLE_OP(tril)
#undef LZ_TRIANGLE_OP

Tensor flip(const Tensor& self, IntArrayRef dims) {
  return LZ_OP("flip", Tensor(const Tensor&, IntArrayRef)).call(self, dims);
}
Tensor& flip_out(Tensor& out, const Tensor& self, IntArrayRef dims) {
  LZ_OP("flip.out", Tensor(const Tensor&, IntArrayRef, const Tensor&)).call(self, dims, out);
  return out;
}
Tensor repeat(const Tensor& self, IntArrayRef repeats) {
  return LZ_OP("repeat", Tensor(const Tensor&, IntArrayRef)).call(self, repeats);
}
Tensor& repeat_out(Tensor& out, const Tensor& self, IntArrayRef repeats) {
  LZ_OP("repeat.out", Tensor(const Tensor&, IntArrayRef, const Tensor&)).call(self, repeats, out);
  return out;
}

Tensor constant_pad_nd(const Tensor& self, IntArrayRef pad, const Scalar& value) {
  return LZ_OP("constant_pad_nd", Tensor(const Tensor&, IntArrayRef, const Scalar&))
      .call(self, pad, value);
}
Tensor& constant_pad_nd_out(Tensor& out, const Tensor& self, IntArrayRef pad, const Scalar& value) {
  LZ_OP("constant_pad_nd.out", Tensor(const Tensor&, IntArrayRef, const Scalar&, const Tensor&))
      .call(self, pad, value, out);
  return out;
}
Tensor pad(const Tensor& self, IntArrayRef pad, std::string_view mode, std::optional<double> value) {
  return LZ_OP("pad", Tensor(const Tensor&, IntArrayRef, std::string_view, std::optional<double>))
      .call(self, pad, mode, value);
}

}  // namespace lz
