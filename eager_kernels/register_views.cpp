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
  const TagSet view(Tag::View);
  lib.def("view(Tensor(a) self, SymInt[] size) -> Tensor(a)")
      .tags(view).meta(&meta::view).kernel(kAllBackends, &views::view);
  lib.def("permute(Tensor(a) self, int[] dims) -> Tensor(a)")
      .tags(view).meta(&meta::permute).kernel(kAllBackends, &views::permute);
  lib.def("transpose.int(Tensor(a) self, int dim0, int dim1) -> Tensor(a)")
      .tags(view).meta(&meta::transpose).kernel(kAllBackends, &views::transpose);
  lib.def("expand(Tensor(a) self, SymInt[] size, *, bool implicit=False) -> Tensor(a)")
      .tags(view).meta(&meta::expand).kernel(kAllBackends, &views::expand);
  lib.def("slice.Tensor(Tensor(a) self, int dim=0, SymInt? start=None, SymInt? end=None, SymInt step=1) -> Tensor(a)")
      .tags(view).meta(&meta::slice).kernel(kAllBackends, &views::slice);
  lib.def("select.int(Tensor(a) self, int dim, SymInt index) -> Tensor(a)")
      .tags(view).meta(&meta::select).kernel(kAllBackends, &views::select);
  lib.def("squeeze(Tensor(a) self) -> Tensor(a)")
      .tags(view).meta(&meta::squeeze).kernel(kAllBackends, &views::squeeze);
  lib.def("squeeze.dim(Tensor(a) self, int dim) -> Tensor(a)")
      .tags(view).meta(&meta::squeeze_dim).kernel(kAllBackends, &views::squeeze_dim);
  lib.def("unsqueeze(Tensor(a) self, int dim) -> Tensor(a)")
      .tags(view).meta(&meta::unsqueeze).kernel(kAllBackends, &views::unsqueeze);
  lib.def("as_strided(Tensor(a) self, SymInt[] size, SymInt[] stride, SymInt? storage_offset=None) -> Tensor(a)")
      .tags(view).meta(&meta::as_strided).kernel(kAllBackends, &views::as_strided);

  lib.def("reshape(Tensor(a) self, SymInt[] shape) -> Tensor(a)").composite(&reshape_composite);
  lib.def("flatten.using_ints(Tensor(a) self, int start_dim=0, int end_dim=-1) -> Tensor(a)")
      .composite(&flatten_composite);
  lib.def("t(Tensor(a) self) -> Tensor(a)").composite(&t_composite);
  lib.def("narrow(Tensor(a) self, int dim, SymInt start, SymInt length) -> Tensor(a)")
      .composite(&narrow_composite);
  lib.def("expand_as(Tensor(a) self, Tensor other) -> Tensor(a)").composite(&expand_as_composite);
  lib.def("contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)")
      .composite(&contiguous_composite);
}

}  // namespace lz
