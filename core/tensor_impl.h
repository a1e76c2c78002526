// TensorImpl: the object behind a Tensor handle. It describes a strided view
// (sizes, strides, storage offset) of a storage with a dtype, and carries the
// dispatch keys that route operators called on it, and a version counter
// shared with its views (bumped by every in-place write).
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/dispatch_key_set.h"
#include "core/intrusive_ptr.h"
#include "core/scalar_type.h"
#include "core/shape.h"
#include "core/storage.h"

namespace lz {

struct AutogradMeta;  // core/autograd_meta.h

// Shared by a tensor and all its views; counts in-place modifications.
class VersionCounter final : public RefCounted {
 public:
  uint64_t current() const { return version_.load(std::memory_order_relaxed); }
  void bump() { version_.fetch_add(1, std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> version_{0};
};

class TensorImpl : public RefCounted {
 public:
  // A dense tensor over `storage` (contiguous sizes, offset 0).
  TensorImpl(Storage storage, ScalarType dtype, IntArrayRef sizes);
  // A view sharing `base`'s storage and version counter.
  TensorImpl(const TensorImpl& base, IntArrayRef sizes, IntArrayRef strides,
             int64_t storage_offset);
  // No storage (a subclass supplies the values, e.g. a lazy tensor).
  TensorImpl(ScalarType dtype, Device device, DispatchKeySet keys, IntArrayRef sizes);
  ~TensorImpl() override;

  IntArrayRef sizes() const { return sizes_; }
  IntArrayRef strides() const { return strides_; }
  int64_t size(int64_t dim) const;
  int64_t stride(int64_t dim) const;
  int64_t dim() const { return static_cast<int64_t>(sizes_.size()); }
  int64_t numel() const { return numel_; }
  int64_t storage_offset() const { return storage_offset_; }
  bool is_contiguous() const { return is_contiguous_; }
  ScalarType dtype() const { return dtype_; }
  size_t itemsize() const { return element_size(dtype_); }
  Device device() const { return device_; }
  DispatchKeySet key_set() const { return key_set_; }

  bool has_storage() const { return static_cast<bool>(storage_); }
  const Storage& storage() const { return storage_; }
  // Address of element 0 (storage data + offset); InternalError without storage.
  void* data() const;
  // Called by every eager kernel before it writes this tensor's elements:
  // a lazy snapshot of them takes its copy first (core/storage.h, Note [Snapshots]).
  void prepare_write() const {
    if (storage_) storage_->prepare_write();
  }

  // The count of in-place writes, shared by a base and its views. Made on
  // first use: most tensors are never viewed or written in place, and
  // creating one then costs no allocation and no atomic for it.
  VersionCounter& version_counter() const { return *counter(); }
  intrusive_ptr<VersionCounter> shared_version_counter() const { return intrusive_ptr<VersionCounter>(counter()); }
  // The counter's value, 0 while there is none.
  uint64_t version() const {
    const VersionCounter* v = version_.load(std::memory_order_acquire);
    return v != nullptr ? v->current() : 0;
  }

  // A 0-dim tensor made from a C++ number (x + 2.5): it takes part in type
  // promotion like a Python scalar, i.e. only its category counts.
  bool is_wrapped_number() const { return wrapped_number_; }
  void set_wrapped_number(bool value) { wrapped_number_ = value; }

  // Geometry changes, for view kernels and out= resizing. Does not touch storage.
  void set_sizes_and_strides(IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset);
  void set_sizes_contiguous(IntArrayRef sizes);
  // Adds or removes dispatch keys (the lazy layer adds Lazy).
  void set_key_set(DispatchKeySet keys) { key_set_ = keys; }

  // For a view made by a view operator, the tensor at the top of its chain
  // of views (not a view itself): a write through the view that requires
  // grad gives that base a history even when it had none (autograd's
  // CopySlices). Null for other tensors and for detach()'s alias.
  TensorImpl* view_base() const { return view_base_.get(); }
  void set_view_base(intrusive_ptr<TensorImpl> base) { view_base_ = std::move(base); }

  // Autograd state (core/autograd_meta.h): null for a tensor without
  // history that does not require grad. Shared, so that a gradient hook can
  // hold it weakly. Views do not inherit it.
  AutogradMeta* autograd_meta() const { return autograd_meta_.get(); }
  const std::shared_ptr<AutogradMeta>& shared_autograd_meta() const { return autograd_meta_; }
  // The meta, made on first use; adds DispatchKey::Autograd.
  AutogradMeta& ensure_autograd_meta();
  // Drops the meta and DispatchKey::Autograd.
  void clear_autograd_meta();

 private:
  void refresh_numel_and_contiguity();
  VersionCounter* counter() const;  // version_, made on first call

  Storage storage_;
  SizeVec sizes_;
  SizeVec strides_;
  int64_t storage_offset_ = 0;
  int64_t numel_ = 0;
  // Holds one reference (or null); set once, by whichever thread first
  // needs it (compare-exchange).
  mutable std::atomic<VersionCounter*> version_{nullptr};
  ScalarType dtype_;
  Device device_;
  DispatchKeySet key_set_;
  std::shared_ptr<AutogradMeta> autograd_meta_;
  intrusive_ptr<TensorImpl> view_base_;
  bool is_contiguous_ = true;
  bool wrapped_number_ = false;
};

}  // namespace lz
