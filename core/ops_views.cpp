// Call sites of the view operators (schemas and kernels: eager_kernels/).
#include "core/op_call.h"
#include "core/ops_views.h"

namespace lz {

Tensor view(const Tensor& self, IntArrayRef size) {
  return LZ_OP("view", Tensor(const Tensor&, IntArrayRef)).call(self, size);
}
Tensor reshape(const Tensor& self, IntArrayRef shape) {
  return LZ_OP("reshape", Tensor(const Tensor&, IntArrayRef)).call(self, shape);
}
Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  return LZ_OP("flatten.using_ints", Tensor(const Tensor&, int64_t, int64_t))
      .call(self, start_dim, end_dim);
}
Tensor permute(const Tensor& self, IntArrayRef dims) {
  return LZ_OP("permute", Tensor(const Tensor&, IntArrayRef)).call(self, dims);
}
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  return LZ_OP("transpose.int", Tensor(const Tensor&, int64_t, int64_t)).call(self, dim0, dim1);
}
Tensor t(const Tensor& self) { return LZ_OP("t", Tensor(const Tensor&)).call(self); }
Tensor expand(const Tensor& self, IntArrayRef size) {
  return LZ_OP("expand", Tensor(const Tensor&, IntArrayRef, bool)).call(self, size, false);
}
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  return LZ_OP("narrow", Tensor(const Tensor&, int64_t, int64_t, int64_t))
      .call(self, dim, start, length);
}
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> end, int64_t step) {
  return LZ_OP("slice.Tensor", Tensor(const Tensor&, int64_t, std::optional<int64_t>,
                                      std::optional<int64_t>, int64_t))
      .call(self, dim, start, end, step);
}
Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  return LZ_OP("select.int", Tensor(const Tensor&, int64_t, int64_t)).call(self, dim, index);
}
Tensor squeeze(const Tensor& self) { return LZ_OP("squeeze", Tensor(const Tensor&)).call(self); }
Tensor squeeze(const Tensor& self, int64_t dim) {
  return LZ_OP("squeeze.dim", Tensor(const Tensor&, int64_t)).call(self, dim);
}
Tensor unsqueeze(const Tensor& self, int64_t dim) {
  return LZ_OP("unsqueeze", Tensor(const Tensor&, int64_t)).call(self, dim);
}
Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset) {
  return LZ_OP("as_strided",
               Tensor(const Tensor&, IntArrayRef, IntArrayRef, std::optional<int64_t>))
      .call(self, size, stride, storage_offset);
}

}  // namespace lz
