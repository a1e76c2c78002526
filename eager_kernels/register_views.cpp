// View operators. Their kernels only build TensorImpls over self's storage,
// so one kernel serves every backend; reshape, flatten, t, narrow, expand_as
// and contiguous are composites of them.
#include "core/op_registration.h"
#include "core/ops_copy.h"
#include "core/ops_views.h"
#include "eager_kernels/meta/view_meta.h"
#include "eager_kernels/view_kernels.h"

namespace lz {

namespace {

constexpr std::initializer_list<DispatchKey> kAllBackends = {DispatchKey::CPU, DispatchKey::CUDA};

Tensor reshape_composite(const Tensor& self, IntArrayRef shape) {
  const SizeVec sizes = infer_size(shape, self.numel(), "reshape");
  if (compute_view_strides(self.sizes(), self.strides(), sizes)) return view(self, sizes);
  return view(clone(self, MemoryFormat::Contiguous), sizes);
}

Tensor flatten_composite(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  if (self.dim() == 0) return reshape(self, {1});
  const int64_t start = wrap_dim(start_dim, self.dim(), "flatten");
  const int64_t end = wrap_dim(end_dim, self.dim(), "flatten");
  LZ_CHECK(start <= end, ValueError, "[flatten] start_dim (", start_dim,
           ") cannot come after end_dim (", end_dim, ")");
  SizeVec sizes(self.sizes().begin(), self.sizes().begin() + start);
  int64_t merged = 1;
  for (int64_t d = start; d <= end; ++d) merged *= self.sizes()[d];
  sizes.push_back(merged);
  sizes.insert(sizes.end(), self.sizes().begin() + end + 1, self.sizes().end());
  return reshape(self, sizes);
}

Tensor t_composite(const Tensor& self) {
  LZ_CHECK(self.dim() <= 2, ShapeError, "[t] self: expects a tensor with <= 2 dimensions, got ",
           self.dim(), "-D (use transpose(dim0, dim1))");
  return transpose(self, 0, self.dim() < 2 ? 0 : 1);
}

Tensor narrow_composite(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  LZ_CHECK(self.dim() > 0, IndexError, "[narrow] self: cannot narrow a 0-dim tensor");
  const int64_t d = wrap_dim(dim, self.dim(), "narrow");
  const int64_t size = self.sizes()[d];
  LZ_CHECK(start >= -size && start <= size, IndexError, "[narrow] start: ", start,
           " is out of range for dimension ", d, " of size ", size);
  const int64_t s = start < 0 ? start + size : start;
  LZ_CHECK(length >= 0 && s + length <= size, IndexError, "[narrow] start (", s, ") + length (",
           length, ") exceeds dimension ", d, " of size ", size);
  return slice(self, d, s, s + length, 1);
}

Tensor expand_as_composite(const Tensor& self, const Tensor& other) {
  return expand(self, other.sizes());
}

Tensor contiguous_composite(const Tensor& self, MemoryFormat) {
  return self.is_contiguous() ? self : clone(self, MemoryFormat::Contiguous);
}

}  // namespace

LZ_LIBRARY(view_ops) {
  lib.def(OpId::view).meta(&meta::view).kernel(kAllBackends, &views::view);
  lib.def(OpId::permute).meta(&meta::permute).kernel(kAllBackends, &views::permute);
  lib.def(OpId::transpose_int).meta(&meta::transpose).kernel(kAllBackends, &views::transpose);
  lib.def(OpId::expand).meta(&meta::expand).kernel(kAllBackends, &views::expand);
  lib.def(OpId::slice_Tensor).meta(&meta::slice).kernel(kAllBackends, &views::slice);
  lib.def(OpId::select_int).meta(&meta::select).kernel(kAllBackends, &views::select);
  lib.def(OpId::squeeze).meta(&meta::squeeze).kernel(kAllBackends, &views::squeeze);
  lib.def(OpId::squeeze_dim).meta(&meta::squeeze_dim).kernel(kAllBackends, &views::squeeze_dim);
  lib.def(OpId::unsqueeze).meta(&meta::unsqueeze).kernel(kAllBackends, &views::unsqueeze);
  lib.def(OpId::as_strided).meta(&meta::as_strided).kernel(kAllBackends, &views::as_strided);

  lib.def(OpId::reshape).composite(&reshape_composite);
  lib.def(OpId::flatten_using_ints).composite(&flatten_composite);
  lib.def(OpId::t).composite(&t_composite);
  lib.def(OpId::narrow).composite(&narrow_composite);
  lib.def(OpId::expand_as).composite(&expand_as_composite);
  lib.def(OpId::contiguous).composite(&contiguous_composite);
}

}  // namespace lz
