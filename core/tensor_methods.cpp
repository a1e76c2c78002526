// Tensor methods that are not one operator each: the lazy/eager moves, data
// access, and other argument forms of an operator's method. The methods of
// the operators are generated (scripts/gen_operator_api.py).
#include "core/lazy_hooks.h"
#include "core/ops_shape.h"
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

// ---- Other argument forms of an operator ---------------------------------------------

Tensor Tensor::to(Device device, std::optional<ScalarType> dtype, bool non_blocking, bool copy) const {
  return to(TensorOptions().device(device).dtype(dtype), non_blocking, copy);
}

std::vector<Tensor> Tensor::split(IntArrayRef split_sizes, int64_t dim) const {
  return split_with_sizes(*this, split_sizes, dim);
}

Tensor Tensor::operator[](int64_t index) const { return lz::select(*this, 0, index); }

}  // namespace lz
