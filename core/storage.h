// Storage: the reference-counted bytes behind one or more tensors. Views share
// a storage; a storage belongs to exactly one device.
#pragma once

#include <cstddef>

#include "core/allocator.h"
#include "core/intrusive_ptr.h"

namespace lz {

class StorageImpl final : public RefCounted {
 public:
  // Allocates nbytes from `allocator` (which is kept for resizing).
  StorageImpl(size_t nbytes, Allocator* allocator, Device device);
  // Adopts memory owned elsewhere (from_blob); not resizable.
  StorageImpl(DataPtr data, size_t nbytes);

  void* data() const { return data_.get(); }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return data_.device(); }
  bool resizable() const { return allocator_ != nullptr; }

  // Grows to at least nbytes, copying the old contents. Used by
  // out= operators whose output was given empty.
  void resize(size_t nbytes);

 private:
  DataPtr data_;
  size_t nbytes_;
  Allocator* allocator_;
};

using Storage = intrusive_ptr<StorageImpl>;

// Fresh storage of nbytes on `device` from that device's current allocator.
Storage make_storage(size_t nbytes, Device device);

}  // namespace lz
