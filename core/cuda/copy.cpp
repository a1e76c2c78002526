#include "core/cuda/copy.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "core/cuda/device.h"
#include "core/cuda/driver.h"
#include "core/error.h"

namespace lz::cuda {

namespace {

using namespace detail;

CUdeviceptr device_ptr(const void* p) { return reinterpret_cast<CUdeviceptr>(p); }

// Two pinned chunks per device, allocated on the first large copy.
struct Staging {
  std::mutex mutex;
  std::array<void*, 2> buffers = {nullptr, nullptr};
};

Staging& staging(int device, const DriverApi& api, const char* what) {
  static std::mutex mutex;
  // Never destroyed, like the device pools: freeing pinned memory at exit
  // races the driver's own teardown, and a copy at exit may still need it.
  static auto& all = *new std::map<int, std::unique_ptr<Staging>>();
  std::lock_guard<std::mutex> lock(mutex);
  std::unique_ptr<Staging>& s = all[device];
  if (!s) {
    auto fresh = std::make_unique<Staging>();
    for (void*& b : fresh->buffers) check(api.cuMemAllocHost_v2(&b, kStagingChunkBytes), "cuMemAllocHost", what);
    s = std::move(fresh);
  }
  return *s;
}

}  // namespace

void copy_host_to_device(void* dst, int device, const void* src, size_t nbytes) {
  constexpr const char* what = "copy to cuda";
  if (nbytes == 0) return;
  const DriverApi& api = driver_api(what);
  CUstream stream = static_cast<CUstream>(activate(device, what));
  if (nbytes < kStagingChunkBytes) {
    // The driver copies a small pageable source before returning; waiting
    // keeps the contract (src reusable) on any driver.
    check(api.cuMemcpyHtoDAsync_v2(device_ptr(dst), src, nbytes, stream), "cuMemcpyHtoDAsync", what);
    check(api.cuStreamSynchronize(stream), "cuStreamSynchronize", what);
    return;
  }
  Staging& s = staging(device, api, what);
  std::lock_guard<std::mutex> lock(s.mutex);
  const auto* from = static_cast<const char*>(src);
  for (size_t offset = 0, chunk = 0; offset < nbytes; offset += kStagingChunkBytes, ++chunk) {
    const size_t n = std::min(kStagingChunkBytes, nbytes - offset);
    void* pinned = s.buffers[chunk % 2];
    // This buffer's previous DMA (two chunks ago) finished at the last wait.
    std::memcpy(pinned, from + offset, n);
    if (chunk > 0) check(api.cuStreamSynchronize(stream), "cuStreamSynchronize", what);
    check(api.cuMemcpyHtoDAsync_v2(device_ptr(dst) + offset, pinned, n, stream), "cuMemcpyHtoDAsync", what);
  }
  check(api.cuStreamSynchronize(stream), "cuStreamSynchronize", what);
}

void copy_device_to_host(void* dst, const void* src, int device, size_t nbytes) {
  constexpr const char* what = "copy to cpu";
  if (nbytes == 0) return;
  const DriverApi& api = driver_api(what);
  CUstream stream = static_cast<CUstream>(activate(device, what));
  if (nbytes < kStagingChunkBytes) {
    check(api.cuMemcpyDtoHAsync_v2(dst, device_ptr(src), nbytes, stream), "cuMemcpyDtoHAsync", what);
    check(api.cuStreamSynchronize(stream), "cuStreamSynchronize", what);
    return;
  }
  Staging& s = staging(device, api, what);
  std::lock_guard<std::mutex> lock(s.mutex);
  auto* to = static_cast<char*>(dst);
  const size_t chunks = (nbytes + kStagingChunkBytes - 1) / kStagingChunkBytes;
  const auto chunk_bytes = [&](size_t c) { return std::min(kStagingChunkBytes, nbytes - c * kStagingChunkBytes); };
  const auto queue = [&](size_t c) {
    check(api.cuMemcpyDtoHAsync_v2(s.buffers[c % 2], device_ptr(src) + c * kStagingChunkBytes, chunk_bytes(c),
                                   stream),
          "cuMemcpyDtoHAsync", what);
  };
  queue(0);
  for (size_t c = 0; c < chunks; ++c) {
    check(api.cuStreamSynchronize(stream), "cuStreamSynchronize", what);
    // Chunk c has landed; the next DMA overlaps copying it out.
    if (c + 1 < chunks) queue(c + 1);
    std::memcpy(to + c * kStagingChunkBytes, s.buffers[c % 2], chunk_bytes(c));
  }
  check(api.cuStreamSynchronize(stream), "cuStreamSynchronize", what);
}

void copy_device_to_device(void* dst, int dst_device, const void* src, int src_device, size_t nbytes) {
  constexpr const char* what = "copy between cuda devices";
  if (nbytes == 0) return;
  const DriverApi& api = driver_api(what);
  if (dst_device != src_device) {
    std::vector<char> host(nbytes);
    copy_device_to_host(host.data(), src, src_device, nbytes);
    copy_host_to_device(dst, dst_device, host.data(), nbytes);
    return;
  }
  CUstream stream = static_cast<CUstream>(activate(dst_device, what));
  check(api.cuMemcpyDtoDAsync_v2(device_ptr(dst), device_ptr(src), nbytes, stream), "cuMemcpyDtoDAsync", what);
}

void fill_device(void* dst, int device, uint64_t bits, size_t element_size, size_t count) {
  constexpr const char* what = "fill on cuda";
  if (count == 0) return;
  const DriverApi& api = driver_api(what);
  CUstream stream = static_cast<CUstream>(activate(device, what));
  const CUdeviceptr d = device_ptr(dst);
  const auto lo = static_cast<uint32_t>(bits), hi = static_cast<uint32_t>(bits >> 32);
  switch (element_size) {
    case 1: check(api.cuMemsetD8Async(d, static_cast<uint8_t>(bits), count, stream), "cuMemsetD8Async", what); return;
    case 2: check(api.cuMemsetD16Async(d, static_cast<uint16_t>(bits), count, stream), "cuMemsetD16Async", what); return;
    case 4: check(api.cuMemsetD32Async(d, lo, count, stream), "cuMemsetD32Async", what); return;
    case 8:
      if (lo == hi) {
        check(api.cuMemsetD32Async(d, lo, 2 * count, stream), "cuMemsetD32Async", what);
      } else {
        // Two strided passes: the low words, then the high words (8-byte pitch).
        check(api.cuMemsetD2D32Async(d, 8, lo, 1, count, stream), "cuMemsetD2D32Async", what);
        check(api.cuMemsetD2D32Async(d + 4, 8, hi, 1, count, stream), "cuMemsetD2D32Async", what);
      }
      return;
  }
  LZ_CHECK(false, InternalError, "[", what, "] element size ", element_size, " is not 1, 2, 4 or 8");
}

}  // namespace lz::cuda
