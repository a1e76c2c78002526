// Tensor methods for data access, copies, conversions and views: thin
// forwards to the free functions (and through them to the dispatcher).
#include "core/empty_tensor.h"
#include "core/lazy_hooks.h"
#include "core/op_call.h"
#include "core/ops_copy.h"
#include "core/ops_views.h"
#include "core/tensor.h"

namespace lz {

namespace {
const LazyHooks& checked_lazy_hooks(const char* op) {
  const LazyHooks& hooks = lazy_hooks();
  LZ_CHECK(hooks.to_lazy != nullptr, NotImplementedError, "[", op,
           "] the lazy layer is not part of this build");
  return hooks;
}
}  // namespace

Tensor Tensor::to_lazy() const {
  LZ_CHECK(defined(), ValueError, "[to_lazy] self: the tensor is undefined");
  if (is_lazy()) return *this;
  return checked_lazy_hooks("to_lazy").to_lazy(*this);
}

Tensor Tensor::to_eager(const std::source_location& where) const {
  LZ_CHECK(defined(), ValueError, "[to_eager] self: the tensor is undefined");
  if (!is_lazy()) return *this;
  set_sync_site(where);
  return checked_lazy_hooks("to_eager").to_eager(*this, SyncCause::ToEager);
}

void* Tensor::data_ptr() const {
  if (is_lazy()) return checked_lazy_hooks("data_ptr").to_eager(*this, SyncCause::DataAccess).data_ptr();
  LZ_CHECK(impl()->has_storage(), ValueError, "[data_ptr] this tensor has no storage");
  return impl()->data();
}

namespace detail {
void throw_data_ptr_dtype_mismatch(const Tensor& t, ScalarType requested) {
  LZ_FAIL(TypeError, "[data_ptr] expected scalar type ", requested, " but found ", t.dtype());
}
}  // namespace detail

Scalar Tensor::item() const { return LZ_OP("item", Scalar(const Tensor&)).call(*this); }

// ---- Copies and conversions ----------------------------------------------------

Tensor& Tensor::copy_(const Tensor& src, bool non_blocking) {
  LZ_OP("copy_", Tensor(const Tensor&, const Tensor&, bool)).call(*this, src, non_blocking);
  return *this;
}
Tensor& Tensor::fill_(const Scalar& value) {
  LZ_OP("fill_.Scalar", Tensor(const Tensor&, const Scalar&)).call(*this, value);
  return *this;
}
Tensor& Tensor::zero_() {
  LZ_OP("zero_", Tensor(const Tensor&)).call(*this);
  return *this;
}
Tensor Tensor::clone(std::optional<MemoryFormat> memory_format) const {
  return lz::clone(*this, memory_format);
}
Tensor Tensor::contiguous() const {
  return LZ_OP("contiguous", Tensor(const Tensor&, MemoryFormat)).call(*this, MemoryFormat::Contiguous);
}

using ToDtypeLayoutSig =
    Tensor(const Tensor&, std::optional<ScalarType>, std::optional<Layout>, std::optional<Device>,
           std::optional<bool>, bool, bool, std::optional<MemoryFormat>);

Tensor Tensor::to(ScalarType dtype, bool non_blocking, bool copy) const {
  return LZ_OP("to.dtype",
               Tensor(const Tensor&, ScalarType, bool, bool, std::optional<MemoryFormat>))
      .call(*this, dtype, non_blocking, copy, std::nullopt);
}
Tensor Tensor::to(Device device, std::optional<ScalarType> dtype, bool non_blocking, bool copy) const {
  return LZ_OP("to.dtype_layout", ToDtypeLayoutSig)
      .call(*this, dtype, std::nullopt, device, std::nullopt, non_blocking, copy, std::nullopt);
}
Tensor Tensor::to(const TensorOptions& options, bool non_blocking, bool copy) const {
  return LZ_OP("to.dtype_layout", ToDtypeLayoutSig)
      .call(*this, options.dtype_opt(), options.layout_opt(), options.device_opt(), std::nullopt,
            non_blocking, copy, options.memory_format_opt());
}

// ---- Views -------------------------------------------------------------------

Tensor Tensor::view(IntArrayRef size) const { return lz::view(*this, size); }
Tensor Tensor::reshape(IntArrayRef shape) const { return lz::reshape(*this, shape); }
Tensor Tensor::flatten(int64_t start_dim, int64_t end_dim) const {
  return lz::flatten(*this, start_dim, end_dim);
}
Tensor Tensor::permute(IntArrayRef dims) const { return lz::permute(*this, dims); }
Tensor Tensor::transpose(int64_t dim0, int64_t dim1) const { return lz::transpose(*this, dim0, dim1); }
Tensor Tensor::t() const { return lz::t(*this); }
Tensor Tensor::expand(IntArrayRef size) const { return lz::expand(*this, size); }
Tensor Tensor::expand_as(const Tensor& other) const {
  return LZ_OP("expand_as", Tensor(const Tensor&, const Tensor&)).call(*this, other);
}
Tensor Tensor::narrow(int64_t dim, int64_t start, int64_t length) const {
  return lz::narrow(*this, dim, start, length);
}
Tensor Tensor::slice(int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                     int64_t step) const {
  return lz::slice(*this, dim, start, end, step);
}
Tensor Tensor::select(int64_t dim, int64_t index) const { return lz::select(*this, dim, index); }
Tensor Tensor::squeeze() const { return lz::squeeze(*this); }
Tensor Tensor::squeeze(int64_t dim) const { return lz::squeeze(*this, dim); }
Tensor Tensor::unsqueeze(int64_t dim) const { return lz::unsqueeze(*this, dim); }
Tensor Tensor::as_strided(IntArrayRef size, IntArrayRef stride,
                          std::optional<int64_t> storage_offset) const {
  return lz::as_strided(*this, size, stride, storage_offset);
}
Tensor Tensor::operator[](int64_t index) const { return lz::select(*this, 0, index); }

}  // namespace lz
