#include "core/storage.h"

#include <cstring>
#include <mutex>

#include "core/cuda/copy.h"
#include "core/error.h"

namespace lz {

StorageImpl::StorageImpl(size_t nbytes, Allocator* allocator, Device device)
    : data_(allocator->allocate(nbytes, device)), nbytes_(nbytes), allocator_(allocator) {}

StorageImpl::StorageImpl(DataPtr data, size_t nbytes)
    : data_(std::move(data)), nbytes_(nbytes), allocator_(nullptr) {}

namespace {

// Guards every storage's snapshot_ and borrowed_: snapshots are made and
// detached rarely (a lazy capture, a to_eager(), the first write after).
std::mutex& snapshot_mutex() {
  static std::mutex* m = new std::mutex();  // leaked: storages may die in static destructors
  return *m;
}

void copy_storage_bytes(void* dst, const void* src, size_t nbytes, Device device) {
  if (nbytes == 0) return;
  if (device.is_cuda()) {
    cuda::copy_device_to_device(dst, device.index(), src, device.index(), nbytes);
  } else {
    std::memcpy(dst, src, nbytes);
  }
}

}  // namespace

StorageImpl::~StorageImpl() {
  if (!has_snapshot_.load(std::memory_order_acquire)) return;
  Storage dropped;  // released after the lock: its own destructor may take it
  std::lock_guard<std::mutex> lock(snapshot_mutex());
  // Still read by someone: the snapshot takes the memory over.
  if (snapshot_ && snapshot_.use_count() > 1) {
    snapshot_->data_ = std::move(data_);
    snapshot_->borrowed_ = false;
  }
  dropped = std::move(snapshot_);
}

bool StorageImpl::borrowed() const {
  std::lock_guard<std::mutex> lock(snapshot_mutex());
  return borrowed_;
}

void StorageImpl::detach_snapshot() {
  Storage dropped;  // released after the lock: its own destructor may take it
  std::lock_guard<std::mutex> lock(snapshot_mutex());
  if (!snapshot_) return;
  // Nobody but this storage holds it: nothing to keep.
  if (snapshot_.use_count() > 1) {
    StorageImpl& s = *snapshot_;
    DataPtr copy = get_allocator(device().type())->allocate(nbytes_, device());
    copy_storage_bytes(copy.get(), data_.get(), nbytes_, device());
    s.data_ = std::move(copy);
    s.borrowed_ = false;
  }
  dropped = std::move(snapshot_);
  has_snapshot_.store(false, std::memory_order_release);
}

Storage snapshot_of(const Storage& source) {
  std::lock_guard<std::mutex> lock(snapshot_mutex());
  // A borrowed storage is a snapshot already, and only the lazy layer holds
  // snapshots: nothing writes it.
  if (source->borrowed_) return source;
  if (!source->snapshot_) {
    auto s = make_intrusive<StorageImpl>(
        DataPtr(source->data(), source->nbytes(), nullptr, nullptr, source->device()), source->nbytes());
    s->borrowed_ = true;
    source->snapshot_ = s;
    source->has_snapshot_.store(true, std::memory_order_release);
  }
  return source->snapshot_;
}

Storage hand_over(StorageImpl& owner) {
  std::lock_guard<std::mutex> lock(snapshot_mutex());
  if (owner.borrowed_ || owner.snapshot_) return nullptr;
  auto fresh = make_intrusive<StorageImpl>(std::move(owner.data_), owner.nbytes_);
  fresh->allocator_ = owner.allocator_;
  owner.data_ = DataPtr(fresh->data(), fresh->nbytes(), nullptr, nullptr, fresh->device());
  owner.allocator_ = nullptr;
  owner.borrowed_ = true;
  fresh->snapshot_ = intrusive_ptr<StorageImpl>(&owner);
  fresh->has_snapshot_.store(true, std::memory_order_release);
  return fresh;
}

void StorageImpl::resize(size_t nbytes) {
  if (nbytes <= nbytes_) return;
  prepare_write();
  LZ_CHECK(resizable(), ValueError,
           "[resize] storage: memory not owned by Lazuli (from_blob) cannot be resized from ",
           nbytes_, " to ", nbytes, " bytes");
  if (nbytes <= data_.capacity()) {
    nbytes_ = nbytes;
    return;
  }
  DataPtr bigger = allocator_->allocate(nbytes, device());
  if (nbytes_ > 0 && device().is_cuda()) {
    cuda::copy_device_to_device(bigger.get(), device().index(), data_.get(), device().index(), nbytes_);
  } else if (nbytes_ > 0) {
    std::memcpy(bigger.get(), data_.get(), nbytes_);
  }
  data_ = std::move(bigger);
  nbytes_ = nbytes;
}

Storage make_storage(size_t nbytes, Device device) {
  return make_intrusive<StorageImpl>(nbytes, get_allocator(device.type()), device);
}

}  // namespace lz
