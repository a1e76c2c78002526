#include "core/tensor_impl.h"

#include "core/autograd_meta.h"
#include "core/error.h"

namespace lz {

TensorImpl::TensorImpl(Storage storage, ScalarType dtype, IntArrayRef sizes)
    : TensorImpl(dtype, storage->device(), backend_key(storage->device().type()), sizes) {
  storage_ = std::move(storage);
}

TensorImpl::TensorImpl(const TensorImpl& base, IntArrayRef sizes, IntArrayRef strides,
                       int64_t storage_offset)
    : storage_(base.storage_),
      version_(base.shared_version_counter().detach()),
      dtype_(base.dtype_),
      device_(base.device_),
      key_set_(base.key_set_.remove(DispatchKey::Autograd)) {  // views get their own autograd state
  set_sizes_and_strides(sizes, strides, storage_offset);
}

// Contiguous tensors (every operator result) build sizes_ and strides_ in
// the initialisers: constructing an InlinedVector from a range costs about
// half of assigning one.
TensorImpl::TensorImpl(ScalarType dtype, Device device, DispatchKeySet keys, IntArrayRef sizes)
    : sizes_(sizes.begin(), sizes.end()),
      strides_(sizes.size()),
      numel_(checked_numel(sizes, "tensor")),
      dtype_(dtype),
      device_(device),
      key_set_(keys) {
  fill_contiguous_strides(sizes, strides_.data());
}

TensorImpl::~TensorImpl() { intrusive_ptr<VersionCounter>::reclaim(version_.load(std::memory_order_relaxed)); }

VersionCounter* TensorImpl::counter() const {
  VersionCounter* v = version_.load(std::memory_order_acquire);
  if (v != nullptr) return v;
  intrusive_ptr<VersionCounter> fresh = make_intrusive<VersionCounter>();
  if (version_.compare_exchange_strong(v, fresh.get(), std::memory_order_acq_rel)) return fresh.detach();
  return v;  // another thread made it first; `fresh` is freed
}

AutogradMeta& TensorImpl::ensure_autograd_meta() {
  if (!autograd_meta_) autograd_meta_ = std::make_shared<AutogradMeta>();
  key_set_ = key_set_.add(DispatchKey::Autograd);
  return *autograd_meta_;
}

void TensorImpl::clear_autograd_meta() {
  autograd_meta_.reset();
  key_set_ = key_set_.remove(DispatchKey::Autograd);
}

int64_t TensorImpl::size(int64_t dim) const { return sizes_[wrap_dim(dim, this->dim(), "size")]; }

int64_t TensorImpl::stride(int64_t dim) const {
  return strides_[wrap_dim(dim, this->dim(), "stride")];
}

void* TensorImpl::data() const {
  LZ_INTERNAL_ASSERT(storage_, "tensor has no storage (is it lazy?)");
  return static_cast<char*>(storage_->data()) + storage_offset_ * static_cast<int64_t>(itemsize());
}

void TensorImpl::set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides,
                                       int64_t storage_offset) {
  LZ_INTERNAL_ASSERT(sizes.size() == strides.size(), "sizes ", shape_str(sizes), " vs strides ",
                     shape_str(strides));
  sizes_.assign(sizes.begin(), sizes.end());
  strides_.assign(strides.begin(), strides.end());
  storage_offset_ = storage_offset;
  refresh_numel_and_contiguity();
}

void TensorImpl::set_sizes_contiguous(IntArrayRef sizes) {
  // Resizing (out= arguments): strides in place, and no contiguity check
  // for strides contiguous by construction. New tensors get theirs in the
  // contiguous constructor.
  numel_ = checked_numel(sizes, "tensor");
  sizes_.assign(sizes.begin(), sizes.end());
  strides_.assign(sizes.begin(), sizes.end());  // overwritten next (assign, unlike resize, does not zero)
  fill_contiguous_strides(sizes, strides_.data());
  is_contiguous_ = true;
}

void TensorImpl::refresh_numel_and_contiguity() {
  numel_ = checked_numel(sizes_, "tensor");
  is_contiguous_ = lz::is_contiguous(sizes_, strides_);
}

}  // namespace lz
