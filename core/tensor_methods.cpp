// Tensor methods that are not one operator each: the lazy/eager moves, data
// access, and other argument forms of an operator's method. The methods of
// the operators are generated (scripts/gen_operator_api.py).
#include <algorithm>

#include "core/factories.h"
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

Tensor Tensor::squeeze(IntArrayRef dims) const {
  // Wrapped, then squeezed from the last so earlier dims keep their numbers.
  std::vector<int64_t> wrapped;
  for (int64_t d : dims) wrapped.push_back(wrap_dim(d, dim(), "squeeze"));
  std::sort(wrapped.begin(), wrapped.end());
  LZ_CHECK(std::adjacent_find(wrapped.begin(), wrapped.end()) == wrapped.end(), ValueError,
           "[squeeze] dim: ", shape_str(dims), " names a dim twice");
  Tensor out = *this;
  for (auto d = wrapped.rbegin(); d != wrapped.rend(); ++d) out = out.squeeze(*d);
  return out;
}

std::vector<Tensor> Tensor::unbind(int64_t dim) const {
  const int64_t d = wrap_dim(dim, this->dim(), "unbind");
  std::vector<Tensor> slices;
  for (int64_t i = 0; i < size(d); ++i) slices.push_back(select(d, i));
  return slices;
}

// ---- New tensors like self ---------------------------------------------------------------

namespace {
TensorOptions like(const Tensor& self, const TensorOptions& options) {
  return options.dtype(options.dtype_opt().value_or(self.dtype()))
      .device(options.device_opt().value_or(self.device()));
}
}  // namespace

Tensor Tensor::new_empty(IntArrayRef size, const TensorOptions& options) const {
  return empty(size, like(*this, options));
}
Tensor Tensor::new_zeros(IntArrayRef size, const TensorOptions& options) const {
  return zeros(size, like(*this, options));
}
Tensor Tensor::new_ones(IntArrayRef size, const TensorOptions& options) const {
  return ones(size, like(*this, options));
}
Tensor Tensor::new_full(IntArrayRef size, const Scalar& fill_value, const TensorOptions& options) const {
  return full(size, fill_value, like(*this, options));
}

// ---- Filled from a random draw: a draw of self's shape, copied in ----------------------

namespace {
void check_floating_self(const Tensor& self, const char* op) {
  LZ_CHECK(self.defined(), ValueError, "[", op, "] self: the tensor is undefined");
  LZ_CHECK(self.is_floating_point(), TypeError, "[", op, "] self: expected a floating point tensor, got ",
           self.dtype());
}
}  // namespace

Tensor& Tensor::uniform_(double from, double to, std::optional<Generator> generator) {
  check_floating_self(*this, "uniform_");
  LZ_CHECK(from <= to, ValueError, "[uniform_] from, to: expected from <= to, got from=", from, " to=", to);
  return copy_(rand(sizes(), std::move(generator), dtype()) * (to - from) + from);
}

Tensor& Tensor::normal_(double mean, double std, std::optional<Generator> generator) {
  check_floating_self(*this, "normal_");
  LZ_CHECK(std >= 0, ValueError, "[normal_] std: expected std >= 0, got ", std);
  return copy_(randn(sizes(), std::move(generator), dtype()) * std + mean);
}

Tensor& Tensor::bernoulli_(double p, std::optional<Generator> generator) {
  LZ_CHECK(defined(), ValueError, "[bernoulli_] self: the tensor is undefined");
  LZ_CHECK(p >= 0 && p <= 1, ValueError, "[bernoulli_] p: expected a probability in [0, 1], got ", p);
  return copy_(rand(sizes(), std::move(generator), ScalarType::Float) < p);
}

}  // namespace lz
