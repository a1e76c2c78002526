// The on-disk cache of compiled kernel code: a directory of files shared by
// every process of one user, so a kernel compiled once is not compiled
// again by the next run. It stores opaque bytes (the LLVM JIT engine's
// object files, NVRTC's cubins): the caller decides what they are.
//
// Every failure (missing, unreadable, corrupt, unwritable) is reported as a
// miss or a `false`, never an exception: the caller can always compile
// instead, so the cache can only make things faster, never break them.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lz {

struct ObjectCacheStats {
  int64_t hits = 0;
  int64_t misses = 0;    // every load that returned nullopt, rejected ones included
  int64_t stores = 0;    // successful stores
  int64_t rejected = 0;  // corrupt or other-version entries found (and deleted)
  int64_t evicted = 0;   // entries deleted to keep the directory under its size limit
};

// A directory of compiled kernel objects shared by processes. Keys are
// strings the caller builds (kernel hash, LLVM version, CPU, features, ...);
// file names are a 128-bit hash of the key, and the file repeats the whole
// key so a hash collision or a stale entry reads as a miss.
//
// File layout (integers little-endian):
//   "LZKO" | u32 format version | u64 key length | key
//          | u64 payload length | u64 checksum of key and payload | payload
class ObjectFileCache {
 public:
  // Bumping it invalidates every existing entry. It is also part of the file
  // name, so two Lazuli builds with different formats sharing one directory
  // do not keep deleting each other's entries.
  static constexpr uint32_t kFormatVersion = 1;
  static constexpr int64_t kDefaultMaxBytes = int64_t{512} << 20;

  // The directory is created (recursively) on first store. Entries beyond
  // `max_bytes` in total are evicted least recently used first (0: no limit).
  explicit ObjectFileCache(std::string dir, int64_t max_bytes = kDefaultMaxBytes);
  ObjectFileCache(const ObjectFileCache&) = delete;
  ObjectFileCache& operator=(const ObjectFileCache&) = delete;

  const std::string& dir() const { return dir_; }

  // The stored bytes, or nullopt when absent, unreadable, truncated, corrupt
  // (checksum), of another format version or of another key. A corrupt or
  // other-version file is deleted so the next store rebuilds it; a valid
  // entry of another key (a name collision) is left for store to replace.
  // Never throws.
  std::optional<std::string> load(std::string_view key) const;

  // Writes a temporary file in the same directory (unique per process and
  // thread), then rename()s it into place, so a concurrent reader sees the
  // old entry or the new one, never half a file. Returns false (never
  // throws) when the directory cannot be created or written.
  bool store(std::string_view key, std::string_view bytes) const;

  // When the entries exceed the size limit, deletes the least recently used
  // (a hit refreshes an entry's modification time) until they fill at most
  // 3/4 of it; also deletes temporary files a crashed writer left behind.
  // store() calls it after every 1/16 of the limit written (so the
  // directory may exceed the limit by that much), and on its first success
  // when no trim of the directory (by any process) touched its marker file
  // in the last kScanInterval: scanning tens of thousands of entries takes
  // a noticeable time, which would otherwise land on every process's first compile. Concurrent trims and loads are safe: an open entry stays
  // readable after its name is deleted. Never throws.
  void trim() const;

  // Where the entry for `key` lives (for tests and tools).
  std::string path_of(std::string_view key) const;

  ObjectCacheStats stats() const;

  // $LZ_CACHE_DIR if set, else $XDG_CACHE_HOME/lazuli/kernels, else
  // $HOME/.cache/lazuli/kernels, else <temp dir>/lazuli-kernels-<uid>.
  static std::string default_dir();
  // $LZ_CACHE_MAX_MB (0: no limit) if set, else kDefaultMaxBytes.
  static int64_t default_max_bytes();

  static constexpr std::chrono::seconds kScanInterval{3600};

 private:
  // The file whose modification time says when the directory was last scanned.
  std::string marker_path() const;
  bool scan_due() const;

  std::string dir_;
  int64_t max_bytes_;
  mutable std::atomic<int64_t> written_since_trim_{0};  // bytes stored since the last trim
  mutable std::atomic<bool> stored_before_{false};
  mutable std::atomic<int64_t> hits_{0};
  mutable std::atomic<int64_t> misses_{0};
  mutable std::atomic<int64_t> stores_{0};
  mutable std::atomic<int64_t> rejected_{0};
  mutable std::atomic<int64_t> evicted_{0};
};

}  // namespace lz
