// The on-disk cache of compiled kernel object code: a directory of files
// shared by every process of one user, so a kernel compiled once is not
// compiled again by the next run. It stores opaque bytes (the JIT engine
// decides what they are) and never includes an LLVM header.
//
// Every failure (missing, unreadable, corrupt, unwritable) is reported as a
// miss or a `false`, never an exception: the caller can always compile
// instead, so the cache can only make things faster, never break them.
#pragma once

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace lz::codegen_llvm {

struct ObjectCacheStats {
  int64_t hits = 0;
  int64_t misses = 0;    // every load that returned nullopt, rejected ones included
  int64_t stores = 0;    // successful stores
  int64_t rejected = 0;  // corrupt or other-version entries found (and deleted)
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

  explicit ObjectFileCache(std::string dir);  // created (recursively) on first store
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

  // Where the entry for `key` lives (for tests and tools).
  std::string path_of(std::string_view key) const;

  ObjectCacheStats stats() const;

  // $LZ_CACHE_DIR if set, else $XDG_CACHE_HOME/lazuli/kernels, else
  // $HOME/.cache/lazuli/kernels, else <temp dir>/lazuli-kernels-<uid>.
  static std::string default_dir();

 private:
  std::string dir_;
  mutable std::atomic<int64_t> hits_{0};
  mutable std::atomic<int64_t> misses_{0};
  mutable std::atomic<int64_t> stores_{0};
  mutable std::atomic<int64_t> rejected_{0};
};

}  // namespace lz::codegen_llvm
