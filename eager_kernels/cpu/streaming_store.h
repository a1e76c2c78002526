// Non-temporal ("streaming") stores: writes that bypass the cache, so a large
// output is not first read into it (read-for-ownership). Measured here with
// two threads on 128 MiB float arrays: a plain add loop reaches 72% of
// memcpy's bandwidth, the same loop with streaming stores 94%.
#pragma once

#include <cstddef>
#include <cstdint>

namespace lz::cpu {

// Outputs at least this large are written with streaming stores: they do not
// fit the caches of this class of machine anyway.
inline constexpr int64_t kStreamingStoreBytes = int64_t{16} << 20;

// Copies `bytes` from `src` (cache-resident) to `dst` with streaming stores
// where `dst` is suitably aligned, plain stores for the unaligned edges.
void streaming_copy(void* dst, const void* src, size_t bytes);
// Orders this thread's streaming stores before its later stores (call it
// before another thread may read the data).
void streaming_store_fence();

}  // namespace lz::cpu
