#include "lazy/executable_cache.h"

#include <algorithm>

#include "lazy/config.h"
#include "lazy/metrics.h"

namespace lz::lazy {

namespace {

std::string describe_difference(const std::vector<InputLayout>& cached,
                                const std::vector<InputLayout>& now) {
  for (size_t i = 0; i < cached.size() && i < now.size(); ++i) {
    if (cached[i] == now[i]) continue;
    const InputLayout& c = cached[i];
    const InputLayout& n = now[i];
    std::string what = c.contiguous != n.contiguous
                           ? (n.contiguous ? "strided -> contiguous" : "contiguous -> strided")
                           : "broadcast dims changed";
    return "input " + std::to_string(n.input_index) + ": " + what;
  }
  return "input signature";
}

}  // namespace

ExecutableCache& ExecutableCache::instance() {
  static ExecutableCache* cache = [] {
    auto* c = new ExecutableCache();
    c->capacity_ = settings().cache_capacity;
    return c;
  }();
  return *cache;
}

std::shared_ptr<const Executable> ExecutableCache::lookup(uint64_t graph_hash, const ir::Graph& g,
                                                         std::string* miss_reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = by_hash_.find(graph_hash);
  if (it == by_hash_.end()) {
    *miss_reason = "new graph";
    return nullptr;
  }
  std::vector<InputLayout> nearest_now;
  const Executable* nearest = nullptr;
  for (Lru::iterator entry : it->second) {
    std::vector<InputLayout> sig = entry->exe->signature_of(g);
    if (sig == entry->exe->input_layouts()) {
      lru_.splice(lru_.begin(), lru_, entry);  // now the most recently used
      return entry->exe;
    }
    if (nearest == nullptr) {
      nearest = entry->exe.get();
      nearest_now = std::move(sig);
    }
  }
  *miss_reason = describe_difference(nearest->input_layouts(), nearest_now);
  return nullptr;
}

void ExecutableCache::insert(uint64_t graph_hash, std::shared_ptr<const Executable> exe) {
  std::lock_guard<std::mutex> lock(mutex_);
  lru_.push_front(Entry{graph_hash, std::move(exe)});
  by_hash_[graph_hash].push_back(lru_.begin());
  evict_beyond_capacity();
  detail::set_cache_size(lru_.size());
}

void ExecutableCache::evict_beyond_capacity() {
  while (lru_.size() > capacity_) {
    Lru::iterator victim = std::prev(lru_.end());
    auto& variants = by_hash_[victim->graph_hash];
    variants.erase(std::find(variants.begin(), variants.end(), victim));
    if (variants.empty()) by_hash_.erase(victim->graph_hash);
    lru_.erase(victim);
    detail::count_eviction(lru_.size());
  }
}

void ExecutableCache::set_capacity(size_t capacity) {
  std::lock_guard<std::mutex> lock(mutex_);
  capacity_ = capacity;
  evict_beyond_capacity();
  detail::set_cache_size(lru_.size());
}

size_t ExecutableCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lru_.size();
}

void ExecutableCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  lru_.clear();
  by_hash_.clear();
  detail::set_cache_size(0);
}

}  // namespace lz::lazy
