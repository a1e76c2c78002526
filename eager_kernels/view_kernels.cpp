#include "eager_kernels/view_kernels.h"

#include "core/error.h"
#include "eager_kernels/meta/view_meta.h"

namespace lz::views {

namespace {

Tensor make_view(const Tensor& self, const meta::ViewGeometry& g) {
  TensorImpl* input = self.unsafe_get_impl();
  auto view = make_intrusive<TensorImpl>(*input, g.sizes, g.strides, g.storage_offset);
  view->set_view_base(intrusive_ptr<TensorImpl>(input->view_base() != nullptr ? input->view_base() : input));
  return Tensor(std::move(view));
}

}  // namespace

Tensor view(const Tensor& self, IntArrayRef size) { return make_view(self, meta::view_geometry(self, size)); }
Tensor permute(const Tensor& self, IntArrayRef dims) {
  return make_view(self, meta::permute_geometry(self, dims));
}
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  return make_view(self, meta::transpose_geometry(self, dim0, dim1));
}
Tensor expand(const Tensor& self, IntArrayRef size, bool) {
  return make_view(self, meta::expand_geometry(self, size));
}
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> end, int64_t step) {
  return make_view(self, meta::slice_geometry(self, dim, start, end, step));
}
Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  return make_view(self, meta::select_geometry(self, dim, index));
}
Tensor squeeze(const Tensor& self) { return make_view(self, meta::squeeze_geometry(self, std::nullopt)); }
Tensor squeeze_dim(const Tensor& self, int64_t dim) {
  return make_view(self, meta::squeeze_geometry(self, dim));
}
Tensor unsqueeze(const Tensor& self, int64_t dim) {
  return make_view(self, meta::unsqueeze_geometry(self, dim));
}

Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset) {
  const meta::ViewGeometry g = meta::as_strided_geometry(self, size, stride, storage_offset);
  // A lazy tensor has no storage: the lazy layer checks against its base.
  if (self.unsafe_get_impl()->has_storage()) {
    meta::check_as_strided_bounds(
        g, static_cast<int64_t>(self.unsafe_get_impl()->storage()->nbytes() / self.itemsize()));
  }
  return make_view(self, g);
}

}  // namespace lz::views
