// Tensor methods of the shape and data-movement operators.
#include "core/op_call.h"
#include "core/ops_shape.h"
#include "core/tensor.h"

namespace lz {

std::vector<Tensor> Tensor::split(int64_t split_size, int64_t dim) const {
  return lz::split(*this, split_size, dim);
}
std::vector<Tensor> Tensor::split(IntArrayRef split_sizes, int64_t dim) const {
  return lz::split_with_sizes(*this, split_sizes, dim);
}
std::vector<Tensor> Tensor::chunk(int64_t chunks, int64_t dim) const {
  return lz::chunk(*this, chunks, dim);
}
Tensor Tensor::index_select(int64_t dim, const Tensor& index) const {
  return lz::index_select(*this, dim, index);
}
Tensor Tensor::gather(int64_t dim, const Tensor& index) const { return lz::gather(*this, dim, index); }
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Tensor& src) const {
  return lz::scatter(*this, dim, index, src);
}
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Scalar& value) const {
  return lz::scatter(*this, dim, index, value);
}
Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Tensor& src) {
  LZ_OP("scatter_.src", Tensor(const Tensor&, int64_t, const Tensor&, const Tensor&))
      .call(*this, dim, index, src);
  return *this;
}
Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Scalar& value) {
  LZ_OP("scatter_.value", Tensor(const Tensor&, int64_t, const Tensor&, const Scalar&))
      .call(*this, dim, index, value);
  return *this;
}
Tensor Tensor::triu(int64_t diagonal) const { return lz::triu(*this, diagonal); }
Tensor Tensor::tril(int64_t diagonal) const { return lz::tril(*this, diagonal); }
Tensor& Tensor::triu_(int64_t diagonal) {
  LZ_OP("triu_", Tensor(const Tensor&, int64_t)).call(*this, diagonal);
  return *this;
}
Tensor& Tensor::tril_(int64_t diagonal) {
  LZ_OP("tril_", Tensor(const Tensor&, int64_t)).call(*this, diagonal);
  return *this;
}
Tensor Tensor::flip(IntArrayRef dims) const { return lz::flip(*this, dims); }
Tensor Tensor::repeat(IntArrayRef repeats) const { return lz::repeat(*this, repeats); }

}  // namespace lz
