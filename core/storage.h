// Storage: the reference-counted bytes behind one or more tensors. Views share
// a storage; a storage belongs to exactly one device.
#pragma once

#include <atomic>
#include <cstddef>

#include "core/allocator.h"
#include "core/intrusive_ptr.h"

namespace lz {

// Note [Snapshots]: the lazy layer holds the values of eager tensors it is
// given (to_lazy(), an eager operand of a lazy operator) and gives values
// back (to_eager()) as if it copied them, without copying: the side that
// keeps the value holds a snapshot storage that reads the other side's bytes
// until they are about to change. Every eager write calls prepare_write()
// first (structured kernels, copy_, fill_, resizing), and a snapshot still
// in use then takes a copy; one that nobody holds any more is dropped. When
// the source storage dies first, the snapshot takes over its memory. The
// eager side's memory never moves, so its data pointers stay valid. Writes
// through a raw data pointer bypass this (docs/lazy-mode.md).
class StorageImpl final : public RefCounted {
 public:
  // Allocates nbytes from `allocator` (which is kept for resizing).
  StorageImpl(size_t nbytes, Allocator* allocator, Device device);
  // Adopts memory owned elsewhere (from_blob); not resizable.
  StorageImpl(DataPtr data, size_t nbytes);
  ~StorageImpl() override;

  // Called before anything writes these bytes (Note [Snapshots]).
  void prepare_write() {
    if (has_snapshot_.load(std::memory_order_acquire)) [[unlikely]] detach_snapshot();
  }
  // Whether these bytes still belong to the storage this one is a snapshot of.
  bool borrowed() const;

  void* data() const { return data_.get(); }
  size_t nbytes() const { return nbytes_; }
  Device device() const { return data_.device(); }
  bool resizable() const { return allocator_ != nullptr; }

  // Grows to at least nbytes, copying the old contents. Used by
  // out= operators whose output was given empty.
  void resize(size_t nbytes);

 private:
  friend intrusive_ptr<StorageImpl> snapshot_of(const intrusive_ptr<StorageImpl>& source);
  friend intrusive_ptr<StorageImpl> hand_over(StorageImpl& owner);
  void detach_snapshot();

  DataPtr data_;
  size_t nbytes_;
  Allocator* allocator_;
  // The snapshot reading this storage's bytes, if any, and (on a snapshot)
  // whether it still reads another storage's bytes; both guarded by one
  // process-wide mutex (taken only when snapshots are made or detached).
  intrusive_ptr<StorageImpl> snapshot_;
  std::atomic<bool> has_snapshot_{false};
  bool borrowed_ = false;
};

using Storage = intrusive_ptr<StorageImpl>;

// Fresh storage of nbytes on `device` from that device's current allocator.
Storage make_storage(size_t nbytes, Device device);

// A storage holding `source`'s current bytes (Note [Snapshots]): it reads
// source's memory until source is written or freed. One per source, shared
// by every caller until it detaches. A borrowed snapshot is its own.
Storage snapshot_of(const Storage& source);

// Moves `owner`'s memory into a new storage, returned, and makes `owner` its
// snapshot: the new storage may be written freely while `owner` keeps the
// bytes it had. nullptr when owner's bytes are borrowed or already shared
// with a snapshot (the caller copies instead).
Storage hand_over(StorageImpl& owner);

}  // namespace lz
