// The on-disk object cache: round trips, every way an entry can be damaged,
// unwritable directories, and concurrent writers (threads and processes).
// Each test works in its own temporary directory.
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/object_file_cache.h"

namespace fs = std::filesystem;
using lz::ObjectFileCache;

namespace {

class TempDir {
 public:
  TempDir() {
    static std::atomic<int> counter{0};
    path_ = fs::temp_directory_path() /
            ("lz_object_cache_test_" + std::to_string(::getpid()) + "_" + std::to_string(counter++) + "_" +
             std::to_string(std::random_device{}()));
    fs::create_directories(path_);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// Sets or unsets an environment variable for one scope, then restores it.
class EnvGuard {
 public:
  explicit EnvGuard(const char* name) : name_(name) {
    if (const char* v = std::getenv(name)) saved_ = v;
  }
  ~EnvGuard() {
    if (saved_) ::setenv(name_, saved_->c_str(), 1);
    else ::unsetenv(name_);
  }
  void set(const std::string& v) const { ::setenv(name_, v.c_str(), 1); }
  void unset() const { ::unsetenv(name_); }

 private:
  const char* name_;
  std::optional<std::string> saved_;
};

std::string read_bytes(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_bytes(const fs::path& p, const std::string& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

// The names in `dir` but the trim marker (".last-trim", which stays).
std::vector<std::string> file_names(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().filename() != ".last-trim") names.push_back(e.path().filename().string());
  }
  return names;
}

// Payloads whose bytes depend on both the writer and the position, so a
// mix of two payloads differs from each of them.
std::string payload(int writer, size_t length) {
  std::string s(length, '\0');
  for (size_t j = 0; j < length; ++j) s[j] = static_cast<char>(writer * 131 + j * 7 + (j >> 8));
  return s;
}

}  // namespace

TEST_CASE("ObjectFileCache round-trips binary, empty and 10 MB payloads", "[codegen_llvm][object_cache]") {
  TempDir tmp;
  const ObjectFileCache cache((tmp.path() / "a" / "b").string());  // created on first store

  std::string binary;
  for (int i = 0; i < 512; ++i) binary.push_back(static_cast<char>(i));  // NULs included
  std::string big(10 << 20, '\0');
  std::mt19937_64 rng(42);
  for (char& c : big) c = static_cast<char>(rng());

  REQUIRE(cache.store("binary", binary));
  REQUIRE(cache.store("empty", ""));
  REQUIRE(cache.store("big", big));
  REQUIRE(cache.store(std::string("key\0with nul", 12), "nul key"));

  CHECK(cache.load("binary") == binary);
  CHECK(cache.load("empty") == std::string());
  CHECK(cache.load("big") == big);
  CHECK(cache.load(std::string("key\0with nul", 12)) == std::string("nul key"));
  CHECK_FALSE(cache.load("key").has_value());  // a prefix of the key above is another key

  // Another cache object (another process, in effect) sees the entries, and
  // a second store replaces the first.
  const ObjectFileCache other(cache.dir());
  CHECK(other.load("binary") == binary);
  REQUIRE(other.store("binary", "replaced"));
  CHECK(cache.load("binary") == std::string("replaced"));

  const auto s = cache.stats();
  CHECK(s.stores == 4);
  CHECK(s.hits == 5);
  CHECK(s.misses == 1);
  CHECK(s.rejected == 0);
}

TEST_CASE("ObjectFileCache misses a key never stored", "[codegen_llvm][object_cache]") {
  TempDir tmp;
  const ObjectFileCache cache((tmp.path() / "never_created").string());
  CHECK_FALSE(cache.load("absent").has_value());
  CHECK_FALSE(fs::exists(cache.dir()));  // loading creates nothing
  REQUIRE(cache.store("present", "x"));
  CHECK_FALSE(cache.load("absent").has_value());
  CHECK(cache.stats().misses == 2);
  CHECK(cache.stats().rejected == 0);
}

TEST_CASE("ObjectFileCache reads another key's file under the same name as a miss",
          "[codegen_llvm][object_cache]") {
  TempDir tmp;
  const ObjectFileCache cache(tmp.path().string());
  REQUIRE(cache.store("other key", "other payload"));
  CHECK(cache.path_of("key") != cache.path_of("other key"));
  // A hash collision, simulated: the other key's valid entry under our name.
  fs::copy_file(cache.path_of("other key"), cache.path_of("key"));

  CHECK_FALSE(cache.load("key").has_value());
  CHECK(cache.stats().rejected == 0);  // a valid entry, just not ours
  CHECK(cache.load("other key") == std::string("other payload"));
  REQUIRE(cache.store("key", "payload"));
  CHECK(cache.load("key") == std::string("payload"));
  CHECK(cache.load("other key") == std::string("other payload"));
}

TEST_CASE("ObjectFileCache rejects and deletes damaged or other-version entries",
          "[codegen_llvm][object_cache]") {
  TempDir tmp;
  const std::string key = "kernel 0123 llvm-16 znver3 +avx2";
  const std::string bytes = "\x7f" "ELF object code with a \0 inside";

  // Layout: "LZKO" | u32 version | u64 key length | key | u64 length | u64 checksum | payload.
  const std::vector<std::pair<std::string, std::function<void(std::string&)>>> damages = {
      {"truncated by one byte", [](std::string& f) { f.pop_back(); }},
      {"truncated inside the header", [](std::string& f) { f.resize(6); }},
      {"empty file", [](std::string& f) { f.clear(); }},
      {"one byte appended", [](std::string& f) { f.push_back('x'); }},
      {"payload byte flipped", [](std::string& f) { f.back() ^= 0x01; }},
      {"key byte flipped", [](std::string& f) { f[16] ^= 0x20; }},
      {"wrong magic", [](std::string& f) { f[0] = 'X'; }},
      {"other format version",
       [](std::string& f) { f[4] = static_cast<char>(ObjectFileCache::kFormatVersion + 1); }},
      {"huge key length", [](std::string& f) { f[15] = '\x7f'; }},
  };
  for (const auto& [name, damage] : damages) {
    DYNAMIC_SECTION(name) {
      const ObjectFileCache cache(tmp.path().string());
      REQUIRE(cache.store(key, bytes));
      const fs::path path = cache.path_of(key);
      std::string file = read_bytes(path);
      REQUIRE(file.size() == 4 + 4 + 8 + key.size() + 8 + 8 + bytes.size());
      damage(file);
      write_bytes(path, file);

      CHECK_FALSE(cache.load(key).has_value());
      CHECK(cache.stats().rejected == 1);
      CHECK(cache.stats().misses == 1);
      CHECK_FALSE(fs::exists(path));

      REQUIRE(cache.store(key, bytes));
      CHECK(cache.load(key) == bytes);
      CHECK(cache.stats().rejected == 1);
    }
  }
}

TEST_CASE("ObjectFileCache store into an unwritable directory returns false",
          "[codegen_llvm][object_cache]") {
  TempDir tmp;
  write_bytes(tmp.path() / "file", "not a directory");
  // A regular file as parent: unwritable even for root, unlike chmod.
  const ObjectFileCache cache((tmp.path() / "file" / "cache").string());
  bool stored = true;
  CHECK_NOTHROW(stored = cache.store("key", "bytes"));
  CHECK_FALSE(stored);
  CHECK_FALSE(cache.load("key").has_value());
  CHECK(cache.stats().stores == 0);

  if (::geteuid() != 0) {  // root ignores permission bits
    const fs::path ro = tmp.path() / "read_only";
    fs::create_directories(ro);
    fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
    const ObjectFileCache ro_cache(ro.string());
    CHECK_FALSE(ro_cache.store("key", "bytes"));
    fs::permissions(ro, fs::perms::owner_all);
  }
}

TEST_CASE("ObjectFileCache concurrent stores and loads never see a partial entry",
          "[codegen_llvm][object_cache]") {
  TempDir tmp;
  const ObjectFileCache cache(tmp.path().string());
  constexpr int kWriters = 8, kReaders = 4, kRounds = 30;
  std::vector<std::string> payloads;
  for (int w = 0; w < kWriters; ++w) payloads.push_back(payload(w, 1000 + 23000 * w));

  std::atomic<int> writers_left{kWriters}, bad_loads{0}, failed_stores{0}, good_loads{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < kWriters; ++w)
    threads.emplace_back([&, w] {
      for (int r = 0; r < kRounds; ++r) {
        if (!cache.store("shared", payloads[w])) ++failed_stores;
        if (auto got = cache.load("shared")) {  // writers load too
          bool known = false;
          for (const auto& p : payloads) known = known || *got == p;
          ++(known ? good_loads : bad_loads);
        }
      }
      --writers_left;
    });
  for (int r = 0; r < kReaders; ++r)
    threads.emplace_back([&] {
      while (writers_left > 0) {
        if (auto got = cache.load("shared")) {
          bool known = false;
          for (const auto& p : payloads) known = known || *got == p;
          ++(known ? good_loads : bad_loads);
        }
      }
    });
  for (auto& t : threads) t.join();

  CHECK(failed_stores == 0);
  CHECK(bad_loads == 0);
  CHECK(good_loads >= kWriters * kRounds);  // each writer's own load follows a completed store
  // A torn read would have failed the checksum: none may have been seen.
  CHECK(cache.stats().rejected == 0);
  CHECK(cache.stats().stores == kWriters * kRounds);
  CHECK(file_names(tmp.path()) == std::vector<std::string>{fs::path(cache.path_of("shared")).filename().string()});
}

TEST_CASE("ObjectFileCache is shared by two processes writing the same key", "[codegen_llvm][object_cache]") {
  TempDir tmp;
  const std::string mine = payload(1, 300000), theirs = payload(2, 170000);
  const pid_t child = ::fork();
  REQUIRE(child >= 0);
  if (child == 0) {  // no Catch2 here: report through the exit status only
    const ObjectFileCache cache(tmp.path().string());
    bool ok = cache.store("from child", "hello from the child");
    for (int i = 0; i < 50; ++i) {
      ok = cache.store("shared", theirs) && ok;
      const auto got = cache.load("shared");
      ok = ok && got && (*got == mine || *got == theirs);
    }
    ::_exit(ok && cache.stats().rejected == 0 ? 0 : 1);
  }
  const ObjectFileCache cache(tmp.path().string());
  int bad = 0;
  for (int i = 0; i < 50; ++i) {
    if (!cache.store("shared", mine)) ++bad;
    const auto got = cache.load("shared");
    if (!got || (*got != mine && *got != theirs)) ++bad;
  }
  int status = 0;
  REQUIRE(::waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));
  CHECK(WEXITSTATUS(status) == 0);
  CHECK(bad == 0);
  CHECK(cache.stats().rejected == 0);
  CHECK(cache.load("from child") == std::string("hello from the child"));
}

TEST_CASE("ObjectFileCache default_dir follows LZ_CACHE_DIR, XDG_CACHE_HOME and HOME",
          "[codegen_llvm][object_cache]") {
  const EnvGuard lz("LZ_CACHE_DIR"), xdg("XDG_CACHE_HOME"), home("HOME");
  lz.set("/somewhere/kernels");
  xdg.set("/xdg");
  home.set("/home/user");
  CHECK(ObjectFileCache::default_dir() == "/somewhere/kernels");
  lz.unset();
  CHECK(ObjectFileCache::default_dir() == "/xdg/lazuli/kernels");
  xdg.set("relative");  // invalid per the XDG spec: ignored
  CHECK(ObjectFileCache::default_dir() == "/home/user/.cache/lazuli/kernels");
  xdg.unset();
  CHECK(ObjectFileCache::default_dir() == "/home/user/.cache/lazuli/kernels");
  home.unset();
  const std::string fallback = ObjectFileCache::default_dir();
  CHECK(fallback.find("lazuli-kernels-" + std::to_string(::getuid())) != std::string::npos);
  CHECK(fs::path(fallback).is_absolute());
}

TEST_CASE("ObjectFileCache leaves no temporary files behind", "[codegen_llvm][object_cache]") {
  TempDir tmp;
  const ObjectFileCache cache(tmp.path().string());
  for (int round = 0; round < 2; ++round)
    for (int i = 0; i < 20; ++i) REQUIRE(cache.store("key " + std::to_string(i), payload(i, 100 * i)));
  // A store whose rename fails (the name is taken by a directory) must clean up too.
  const fs::path blocked = cache.path_of("blocked");
  fs::create_directories(blocked / "inside");
  CHECK_FALSE(cache.store("blocked", "bytes"));
  CHECK_FALSE(cache.load("blocked").has_value());
  fs::remove_all(blocked);

  const auto names = file_names(tmp.path());
  CHECK(names.size() == 20);
  for (const auto& n : names) {
    INFO(n);
    CHECK(n.front() != '.');
    CHECK(n.size() == 32 + 5);
    CHECK(n.substr(32) == ".lzko");
  }
}

namespace {
int64_t entry_bytes(const fs::path& dir) {
  int64_t total = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (e.path().extension() == ".lzko") total += static_cast<int64_t>(e.file_size());
  }
  return total;
}
}  // namespace

TEST_CASE("ObjectFileCache evicts the least recently used entries beyond its size limit",
          "[codegen_llvm][object_cache]") {
  TempDir tmp;
  const int64_t limit = 64 << 10;  // 16 entries of ~4 KiB; a trim every 4 KiB stored
  const ObjectFileCache cache(tmp.path().string(), limit);
  const auto key = [](int i) { return "kernel " + std::to_string(i); };
  auto age = fs::file_time_type::clock::now() - std::chrono::hours(10);
  for (int i = 0; i < 12; ++i) {  // 48 KiB: under the limit, nothing evicted
    REQUIRE(cache.store(key(i), payload(i, 4000)));
    fs::last_write_time(cache.path_of(key(i)), age += std::chrono::minutes(1));  // distinct, increasing ages
  }
  CHECK(cache.stats().evicted == 0);
  // Entry 0 is used again: a hit makes it the most recent.
  REQUIRE(cache.load(key(0)).has_value());
  for (int i = 12; i < 20; ++i) REQUIRE(cache.store(key(i), payload(i, 4000)));
  CHECK(cache.stats().evicted > 0);
  CHECK(cache.load(key(0)).has_value());        // recently used: kept
  CHECK_FALSE(cache.load(key(1)).has_value());  // the oldest: evicted
  CHECK(cache.load(key(19)) == payload(19, 4000));
  // However much is stored, the directory stays within the limit (plus
  // what is written between two trims: 1/16 of it and one entry).
  for (int i = 20; i < 100; ++i) REQUIRE(cache.store(key(i), payload(i, 4000)));
  CHECK(entry_bytes(tmp.path()) <= limit + limit / 16 + 4096);
  CHECK(cache.load(key(99)) == payload(99, 4000));
}

TEST_CASE("ObjectFileCache trim deletes abandoned temporary files and honours no limit",
          "[codegen_llvm][object_cache]") {
  TempDir tmp;
  const fs::path fresh = tmp.path() / ".0123.lzko.tmp.1.2.3", stale = tmp.path() / ".4567.lzko.tmp.4.5.6";
  write_bytes(fresh, "being written");
  write_bytes(stale, "abandoned");
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(2));
  const ObjectFileCache unlimited(tmp.path().string(), 0);
  for (int i = 0; i < 8; ++i) REQUIRE(unlimited.store(std::to_string(i) + " key", payload(i, 1000)));
  unlimited.trim();
  CHECK(fs::exists(fresh));  // another process may still be writing it
  CHECK_FALSE(fs::exists(stale));
  CHECK(unlimited.stats().evicted == 0);
  CHECK(entry_bytes(tmp.path()) >= 8000);
}

TEST_CASE("ObjectFileCache's first store scans the directory only when no trim did recently",
          "[codegen_llvm][object_cache]") {
  TempDir tmp;
  const auto plant_abandoned_file = [&](const std::string& name) {
    const fs::path p = tmp.path() / name;
    write_bytes(p, "abandoned");
    fs::last_write_time(p, fs::file_time_type::clock::now() - std::chrono::hours(2));
    return p;
  };
  const fs::path first = plant_abandoned_file(".1.lzko.tmp.1.1.1");
  // Each cache object stands for a new process (its first store).
  REQUIRE(ObjectFileCache(tmp.path().string()).store("a", payload(1, 100)));
  CHECK_FALSE(fs::exists(first));  // no marker yet: scanned
  const fs::path marker = tmp.path() / ".last-trim";
  REQUIRE(fs::exists(marker));
  const fs::path second = plant_abandoned_file(".2.lzko.tmp.2.2.2");
  REQUIRE(ObjectFileCache(tmp.path().string()).store("b", payload(2, 100)));
  CHECK(fs::exists(second));  // scanned moments ago: skipped
  fs::last_write_time(marker, fs::file_time_type::clock::now() - ObjectFileCache::kScanInterval - std::chrono::minutes(1));
  REQUIRE(ObjectFileCache(tmp.path().string()).store("c", payload(3, 100)));
  CHECK_FALSE(fs::exists(second));  // the last scan is too long ago: scanned
  CHECK(ObjectFileCache(tmp.path().string()).load("a") == payload(1, 100));
}

TEST_CASE("ObjectFileCache default_max_bytes follows LZ_CACHE_MAX_MB", "[codegen_llvm][object_cache]") {
  const EnvGuard max("LZ_CACHE_MAX_MB");
  max.unset();
  CHECK(ObjectFileCache::default_max_bytes() == ObjectFileCache::kDefaultMaxBytes);
  max.set("100");
  CHECK(ObjectFileCache::default_max_bytes() == int64_t{100} << 20);
  max.set("0");
  CHECK(ObjectFileCache::default_max_bytes() == 0);
  max.set("lots");  // not a number: the default
  CHECK(ObjectFileCache::default_max_bytes() == ObjectFileCache::kDefaultMaxBytes);
}
