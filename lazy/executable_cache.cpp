#include "lazy/executable_cache.h"

#include <algorithm>
#include <sstream>

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
    const auto dims = [](uint64_t mask) {
      std::string out = "{";
      for (int d = 0; d < 64; ++d) {
        if ((mask >> d) & 1) out += (out.size() > 1 ? "," : "") + std::to_string(d);
      }
      return out + "}";
    };
    std::string what = c.contiguous != n.contiguous
                           ? (n.contiguous ? "strided -> contiguous" : "contiguous -> strided")
                       : c.broadcast_dims != n.broadcast_dims
                           ? "broadcast dims " + dims(c.broadcast_dims) + " -> " + dims(n.broadcast_dims)
                           : "size-1 dims " + dims(c.unit_dims) + " -> " + dims(n.unit_dims);
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
                                                         const GraphData& data, std::span<const ir::ValueId> outputs,
                                                         std::string* miss_reason) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = by_hash_.find(graph_hash);
  if (it == by_hash_.end()) {
    *miss_reason = "new graph";
    return nullptr;
  }
  std::vector<InputLayout> nearest_now;
  const Executable* nearest = nullptr;
  std::string sizes_differ;  // the first variant whose signature matched
  for (Lru::iterator entry : it->second) {
    std::vector<InputLayout> sig = entry->exe->signature_of(data);
    std::string why;
    if (sig == entry->exe->input_layouts()) {
      if (entry->exe->sizes_agree(g, data, outputs, &why)) {
        lru_.splice(lru_.begin(), lru_, entry);  // now the most recently used
        return entry->exe;
      }
      if (sizes_differ.empty()) sizes_differ = std::move(why);
    }
    if (nearest == nullptr) {
      nearest = entry->exe.get();
      nearest_now = std::move(sig);
    }
  }
  *miss_reason = sizes_differ.empty() ? describe_difference(nearest->input_layouts(), nearest_now) : sizes_differ;
  return nullptr;
}

std::string ExecutableCache::explain_new_graph(const Executable& exe) const {
  std::shared_ptr<const Executable> nearest;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = by_skeleton_.find(exe.skeleton_hash());
    if (it != by_skeleton_.end()) nearest = it->second.lock();
  }
  if (!nearest || nearest.get() == &exe || exe.traced_text().empty() || nearest->traced_text().empty()) {
    return "new graph";
  }
  // Same operators and wiring: the first line that differs names the
  // attribute or dtype that changed.
  std::istringstream now(exe.traced_text()), then(nearest->traced_text());
  for (std::string a, b; std::getline(now, a) && std::getline(then, b);) {
    if (a == b) continue;
    const auto trim = [](std::string l) { return l.substr(l.find_first_not_of(' ')); };
    return "new graph: `" + trim(a) + "` was `" + trim(b) + "`";
  }
  return "new graph";
}

void ExecutableCache::insert(uint64_t graph_hash, std::shared_ptr<const Executable> exe) {
  std::lock_guard<std::mutex> lock(mutex_);
  by_skeleton_[exe->skeleton_hash()] = exe;
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

size_t ExecutableCache::variants(uint64_t graph_hash) const {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = by_hash_.find(graph_hash);
  return it == by_hash_.end() ? 0 : it->second.size();
}

size_t ExecutableCache::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return lru_.size();
}

void ExecutableCache::clear() {
  std::lock_guard<std::mutex> lock(mutex_);
  lru_.clear();
  by_hash_.clear();
  by_skeleton_.clear();
  detail::set_cache_size(0);
}

}  // namespace lz::lazy
