// Moving bytes between the host and CUDA devices, in the order of the
// device's stream. Large host copies go through pinned staging buffers (two
// per device, so copying one chunk into pinned memory overlaps the DMA of
// the previous one): the driver can only DMA from pinned memory, and
// staging pageable memory itself would serialise each copy.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lz::cuda {

// Copies of at least this many bytes are staged through pinned memory, in chunks of it.
inline constexpr size_t kStagingChunkBytes = size_t{4} << 20;

// Returns once `src` may be reused (the copy itself may still be queued).
void copy_host_to_device(void* dst, int device, const void* src, size_t nbytes);
// Returns once `dst` holds the bytes (waits for the device's earlier work).
void copy_device_to_host(void* dst, const void* src, int device, size_t nbytes);
// Queued on the destination's stream; between two devices, through the host.
void copy_device_to_device(void* dst, int dst_device, const void* src, int src_device, size_t nbytes);
// Writes `count` copies of one element (its `element_size` low bytes of
// `bits`: 1, 2, 4 or 8) from `dst` on, with the driver's memsets (queued on
// the device's stream; nothing comes from the host).
void fill_device(void* dst, int device, uint64_t bits, size_t element_size, size_t count);

}  // namespace lz::cuda
