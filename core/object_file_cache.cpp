// The on-disk object cache (object_cache.h). Correctness rests on two POSIX
// facts: rename() within one directory atomically replaces the target, and an
// open file descriptor keeps reading the file it opened even after a rename
// or unlink replaces the name. So a reader sees one whole entry or none, and
// the checksum only has to catch what the file system lets through: crashes
// mid-write by another tool, truncation, bit rot, hand-edited files.
#include "core/object_file_cache.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <vector>

#include "absl/strings/str_cat.h"

namespace lz {
namespace {

constexpr std::string_view kMagic = "LZKO";
constexpr size_t kFixedHeader = 4 + 4 + 8;  // magic, version, key length

// Persisted, so it must be the same in every process and build: a
// word-at-a-time FNV-1a with an xorshift per word (each step is a bijection
// of the state, so any single changed word always changes the result) and a
// murmur3 finaliser. Not cryptographic; it guards against accidents only.
class StableHash {
 public:
  explicit StableHash(uint64_t seed) : h_(0xcbf29ce484222325ull ^ seed) {}

  void add(std::string_view bytes) {
    size_t i = 0;
    for (; i + 8 <= bytes.size(); i += 8) mix(load_le64(bytes.data() + i));
    for (; i < bytes.size(); ++i) mix(static_cast<unsigned char>(bytes[i]));
  }
  void add(uint64_t v) { mix(v); }

  uint64_t finish() const {
    uint64_t h = h_;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
  }

  static uint64_t load_le64(const char* p) {
    uint64_t v = 0;
    for (int b = 7; b >= 0; --b) v = (v << 8) | static_cast<unsigned char>(p[b]);
    return v;
  }

 private:
  void mix(uint64_t word) {
    h_ = (h_ ^ word) * 0x100000001b3ull;
    h_ ^= h_ >> 29;
  }
  uint64_t h_;
};

uint64_t checksum(std::string_view key, std::string_view payload) {
  StableHash h(/*seed=*/0);
  h.add(key.size());
  h.add(key);
  h.add(payload.size());
  h.add(payload);
  return h.finish();
}

void put_le(std::string& out, uint64_t v, int bytes) {
  for (int b = 0; b < bytes; ++b) out.push_back(static_cast<char>(v >> (8 * b)));
}

uint64_t get_le(std::string_view in, size_t at, int bytes) {
  uint64_t v = 0;
  for (int b = bytes - 1; b >= 0; --b) v = (v << 8) | static_cast<unsigned char>(in[at + b]);
  return v;
}

// Everything before the payload.
std::string encode_header(std::string_view key, std::string_view payload) {
  std::string out;
  out.reserve(kFixedHeader + key.size() + 16);
  out.append(kMagic);
  put_le(out, ObjectFileCache::kFormatVersion, 4);
  put_le(out, key.size(), 8);
  out.append(key);
  put_le(out, payload.size(), 8);
  put_le(out, checksum(key, payload), 8);
  return out;
}

enum class Entry { kValid, kOtherKey, kCorrupt };

// On kValid, `file` is reduced to the payload in place (no second copy of a
// possibly large object).
Entry decode(std::string& file, std::string_view key) {
  const std::string_view in = file;
  if (in.size() < kFixedHeader || in.substr(0, 4) != kMagic) return Entry::kCorrupt;
  if (get_le(in, 4, 4) != ObjectFileCache::kFormatVersion) return Entry::kCorrupt;
  const uint64_t key_len = get_le(in, 8, 8);
  // Compare against the remaining size without adding to key_len: a corrupt
  // length near 2^64 must not wrap around.
  if (key_len > in.size() - kFixedHeader || in.size() - kFixedHeader - key_len < 16)
    return Entry::kCorrupt;
  const std::string_view stored_key = in.substr(kFixedHeader, key_len);
  const size_t payload_at = kFixedHeader + key_len + 16;
  const uint64_t payload_len = get_le(in, payload_at - 16, 8);
  if (payload_len != in.size() - payload_at) return Entry::kCorrupt;  // truncated or extended
  if (get_le(in, payload_at - 8, 8) != checksum(stored_key, in.substr(payload_at)))
    return Entry::kCorrupt;
  // Checked last so that a damaged file is always counted as damaged.
  if (stored_key != key) return Entry::kOtherKey;
  file.erase(0, payload_at);
  return Entry::kValid;
}

bool read_all(int fd, size_t size_hint, std::string& out) {
  out.resize(size_hint + 1);  // +1: growth since fstat is seen, not cut off
  size_t n = 0;
  for (;;) {
    if (n == out.size()) out.resize(2 * out.size());
    const ssize_t r = ::read(fd, out.data() + n, out.size() - n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) return false;
    if (r == 0) break;
    n += static_cast<size_t>(r);
  }
  out.resize(n);
  return true;
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t w = ::write(fd, bytes.data(), bytes.size());
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(w));
  }
  return true;
}

// Deletes a bad entry only if the name still refers to the file we read:
// another process may have stored a good entry in the meantime, and that
// one must survive. (The window between stat and unlink remains; losing a
// good entry there only costs one recompilation.)
void remove_if_unchanged(const std::string& path, const struct stat& read_file) {
  struct stat now;
  if (::stat(path.c_str(), &now) == 0 && now.st_dev == read_file.st_dev &&
      now.st_ino == read_file.st_ino)
    ::unlink(path.c_str());
}

// Closes on every path out of load(), exceptions included.
class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

}  // namespace

ObjectFileCache::ObjectFileCache(std::string dir, int64_t max_bytes) : dir_(std::move(dir)), max_bytes_(max_bytes) {}

std::string ObjectFileCache::path_of(std::string_view key) const {
  // Two differently seeded 64-bit hashes make the 128-bit name; the format
  // version is hashed in so each format has its own names.
  std::string name;
  for (uint64_t seed : {0x9e3779b97f4a7c15ull, 0xd6e8feb86659fd93ull}) {
    StableHash h(seed);
    h.add(kFormatVersion);
    h.add(key.size());
    h.add(key);
    const uint64_t v = h.finish();
    for (int shift = 60; shift >= 0; shift -= 4) name.push_back("0123456789abcdef"[(v >> shift) & 15]);
  }
  return (std::filesystem::path(dir_) / (name + ".lzko")).string();
}

std::optional<std::string> ObjectFileCache::load(std::string_view key) const {
  try {
    const std::string path = path_of(key);
    const FileDescriptor fd(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
    struct stat st;
    std::string file;
    if (fd.get() >= 0 && ::fstat(fd.get(), &st) == 0 &&
        read_all(fd.get(), static_cast<size_t>(st.st_size), file)) {
      switch (decode(file, key)) {
        case Entry::kValid:
          hits_.fetch_add(1, std::memory_order_relaxed);
          ::futimens(fd.get(), nullptr);  // recently used: trim() keeps it longer
          return file;
        case Entry::kCorrupt:
          rejected_.fetch_add(1, std::memory_order_relaxed);
          remove_if_unchanged(path, st);
          break;
        case Entry::kOtherKey:  // a valid entry; store() replaces it
          break;
      }
    }
  } catch (...) {  // bad_alloc for an absurd file: a miss like any other
  }
  misses_.fetch_add(1, std::memory_order_relaxed);
  return std::nullopt;
}

bool ObjectFileCache::store(std::string_view key, std::string_view bytes) const {
  // pid + a per-process nonce (pids repeat across containers sharing a
  // directory) + a process-wide counter (distinct per thread and call).
  // O_EXCL makes any remaining clash a failed store, never a shared file.
  static const uint64_t nonce = static_cast<uint64_t>(
      std::chrono::steady_clock::now().time_since_epoch().count());
  static std::atomic<uint64_t> counter{0};
  try {
    std::error_code ec;
    std::filesystem::create_directories(dir_, ec);
    if (ec) return false;
    const std::string path = path_of(key);
    const std::filesystem::path p(path);
    // Dot-prefixed and never ending in ".lzko": invisible to load().
    const std::string tmp = (p.parent_path() / absl::StrCat(".", p.filename().string(), ".tmp.",
                                                             ::getpid(), ".", nonce, ".",
                                                             counter.fetch_add(1)))
                                .string();
    const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return false;
    bool ok = write_all(fd, encode_header(key, bytes)) && write_all(fd, bytes);
    ok = ::close(fd) == 0 && ok;
    if (ok && ::rename(tmp.c_str(), path.c_str()) == 0) {
      stores_.fetch_add(1, std::memory_order_relaxed);
      const auto size = static_cast<int64_t>(bytes.size());
      const bool first = !stored_before_.exchange(true, std::memory_order_relaxed);
      const int64_t written = written_since_trim_.fetch_add(size, std::memory_order_relaxed) + size;
      if (max_bytes_ > 0 && (written >= max_bytes_ / 16 || (first && scan_due()))) {
        written_since_trim_.store(0, std::memory_order_relaxed);
        trim();
      }
      return true;
    }
    ::unlink(tmp.c_str());
    return false;
  } catch (...) {
    return false;
  }
}

void ObjectFileCache::trim() const {
  namespace fs = std::filesystem;
  struct Found {
    fs::path path;
    int64_t size;
    int64_t used_ns;  // modification time
  };
  try {
    std::vector<Found> entries;
    int64_t total = 0;
    const int64_t stale_before_ns = (static_cast<int64_t>(std::time(nullptr)) - 3600) * 1000000000;
    std::error_code ec;
    for (fs::directory_iterator it(dir_, ec), end; !ec && it != end; it.increment(ec)) {
      // One stat per entry (directory_entry's size and time would take one each).
      struct stat st {};
      if (::stat(it->path().c_str(), &st) != 0) continue;  // deleted meanwhile
      const int64_t used_ns = static_cast<int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec;
      const auto size = static_cast<int64_t>(st.st_size);
      const std::string name = it->path().filename().string();
      std::error_code e;
      if (name.front() == '.' && name.find(".tmp.") != std::string::npos) {
        if (used_ns < stale_before_ns) fs::remove(it->path(), e);  // an abandoned write
      } else if (it->path().extension() == ".lzko") {
        entries.push_back({it->path(), size, used_ns});
        total += size;
      }
    }
    // Scanned now: the next process's first store need not scan again soon.
    if (const int fd = ::open(marker_path().c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644); fd >= 0) {
      ::futimens(fd, nullptr);
      ::close(fd);
    }
    if (max_bytes_ <= 0 || total <= max_bytes_) return;
    std::sort(entries.begin(), entries.end(), [](const Found& a, const Found& b) { return a.used_ns < b.used_ns; });
    for (const Found& f : entries) {
      if (total <= max_bytes_ / 4 * 3) break;
      std::error_code e;
      if (fs::remove(f.path, e)) evicted_.fetch_add(1, std::memory_order_relaxed);
      total -= f.size;
    }
  } catch (...) {  // bad_alloc: the directory stays as it is
  }
}

std::string ObjectFileCache::marker_path() const { return (std::filesystem::path(dir_) / ".last-trim").string(); }

bool ObjectFileCache::scan_due() const {
  struct stat st {};
  if (::stat(marker_path().c_str(), &st) != 0) return true;
  return std::time(nullptr) - st.st_mtime >= kScanInterval.count();
}

ObjectCacheStats ObjectFileCache::stats() const {
  ObjectCacheStats s;
  s.hits = hits_.load(std::memory_order_relaxed);
  s.misses = misses_.load(std::memory_order_relaxed);
  s.stores = stores_.load(std::memory_order_relaxed);
  s.rejected = rejected_.load(std::memory_order_relaxed);
  s.evicted = evicted_.load(std::memory_order_relaxed);
  return s;
}

int64_t ObjectFileCache::default_max_bytes() {
  const std::string mb = env_or_empty("LZ_CACHE_MAX_MB");
  char* end = nullptr;
  const long long v = mb.empty() ? -1 : std::strtoll(mb.c_str(), &end, 10);
  return v >= 0 && end != nullptr && *end == '\0' ? static_cast<int64_t>(v) << 20 : kDefaultMaxBytes;
}

std::string ObjectFileCache::default_dir() {
  namespace fs = std::filesystem;
  if (std::string dir = env_or_empty("LZ_CACHE_DIR"); !dir.empty()) return dir;
  // The XDG spec says a relative $XDG_CACHE_HOME is invalid and is ignored.
  if (std::string xdg = env_or_empty("XDG_CACHE_HOME"); !xdg.empty() && xdg.front() == '/')
    return (fs::path(xdg) / "lazuli" / "kernels").string();
  if (std::string home = env_or_empty("HOME"); !home.empty())
    return (fs::path(home) / ".cache" / "lazuli" / "kernels").string();
  std::error_code ec;
  fs::path tmp = fs::temp_directory_path(ec);
  if (ec) tmp = "/tmp";
  return (tmp / absl::StrCat("lazuli-kernels-", ::getuid())).string();
}

}  // namespace lz
