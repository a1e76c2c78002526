#include "core/storage.h"

#include <cstring>

#include "core/cuda_copy.h"
#include "core/error.h"

namespace lz {

StorageImpl::StorageImpl(size_t nbytes, Allocator* allocator, Device device)
    : data_(allocator->allocate(nbytes, device)), nbytes_(nbytes), allocator_(allocator) {}

StorageImpl::StorageImpl(DataPtr data, size_t nbytes)
    : data_(std::move(data)), nbytes_(nbytes), allocator_(nullptr) {}

void StorageImpl::resize(size_t nbytes) {
  if (nbytes <= nbytes_) return;
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
