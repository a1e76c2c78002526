// The process-wide cache of executables, keyed by a graph's structural hash
// and then by the layout signature of the inputs the executable reads. It
// is bounded: the least recently used executable is evicted beyond the
// capacity (lz::lazy::Settings::cache_capacity). A miss says why it missed.
#pragma once

#include <list>
#include <memory>
#include <mutex>
#include <string>

#include "absl/container/flat_hash_map.h"
#include "lazy/executable.h"

namespace lz::lazy {

class ExecutableCache {
 public:
  static ExecutableCache& instance();

  // The executable cached for `graph_hash` whose input signature matches
  // graph `g` (computing `outputs`) and whose plan holds for its sizes;
  // nullptr on a miss, with the reason in *miss_reason ("new graph", which
  // input's layout differs from the cached variant's, or which merged
  // kernel's sizes no longer agree).
  std::shared_ptr<const Executable> lookup(uint64_t graph_hash, const ir::Graph& g, const GraphData& data,
                                           std::span<const ir::ValueId> outputs, std::string* miss_reason);
  void insert(uint64_t graph_hash, std::shared_ptr<const Executable> exe);
  // For a "new graph" miss, once `exe` is built for it: which node differs
  // from the cached graph of the same operators and wiring, or "new graph".
  std::string explain_new_graph(const Executable& exe) const;

  // How many variants of `graph_hash` are cached now.
  size_t variants(uint64_t graph_hash) const;
  void set_capacity(size_t capacity);
  size_t size() const;
  void clear();

 private:
  struct Entry {
    uint64_t graph_hash;
    std::shared_ptr<const Executable> exe;
  };
  using Lru = std::list<Entry>;  // most recently used first
  void evict_beyond_capacity();

  mutable std::mutex mutex_;
  Lru lru_;
  absl::flat_hash_map<uint64_t, std::vector<Lru::iterator>> by_hash_;
  absl::flat_hash_map<uint64_t, std::weak_ptr<const Executable>> by_skeleton_;
  size_t capacity_ = 1024;
};

}  // namespace lz::lazy
