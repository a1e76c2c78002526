#include "lazy/lazy_tensor_impl.h"

#include "lazy/trace.h"

namespace lz::lazy {

// Only the Lazy key: a lazy tensor has no storage, so no backend kernel may
// ever see one; the Lazy fallback hands backends eager tensors.
LazyTensorImpl::LazyTensorImpl(const TensorMeta& type, LazyValue value)
    : TensorImpl(type.dtype, type.device, DispatchKeySet(DispatchKey::Lazy), type.sizes),
      value_(std::move(value)) {}

LazyTensorImpl::LazyTensorImpl(LazyTensorImpl& base, IntArrayRef sizes, IntArrayRef strides,
                               int64_t storage_offset, LazyValue value)
    : TensorImpl(base, sizes, strides, storage_offset),
      value_(std::move(value)),
      base_(&base.base_tensor()),
      is_view_(true) {
  group_ = intrusive_ptr<AliasGroup>(&base.group());
  generation_ = group_->generation;
}

AliasGroup& LazyTensorImpl::group() {
  if (!group_) {
    // The first view of a base: its value moves into the shared group.
    group_ = make_intrusive<AliasGroup>();
    group_->base = std::move(value_);
    group_->base_type = meta();
    value_ = LazyValue();
  }
  return *group_;
}

LazyTensorImpl::~LazyTensorImpl() {
  if (registered_ != nullptr) registered_->unregister_tensor(*this);
}

}  // namespace lz::lazy
