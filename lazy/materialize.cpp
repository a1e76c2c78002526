// Trace::materialize: runs everything the live tensors of a trace still
// need as one executable (cached by structure), stores each result in its
// tensor and clears the graph.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>

#include "absl/container/flat_hash_map.h"
#include "core/error.h"
#include "lazy/executable_cache.h"
#include "lazy/config.h"
#include "lazy/functionalize.h"
#include "lazy/metrics.h"
#include "lazy/trace.h"

namespace lz::lazy {

namespace {

bool pending_here(const LazyValue& v, const Trace* tr, uint64_t epoch) {
  return v.pending() && v.trace.get() == tr && v.epoch == epoch;
}

// The values of `tr` some live tensor still needs: own values of bases and
// current views, and the bases of alias groups (views are recomputed from
// them after a write).
template <class Fn>
void for_each_needed_value(const std::vector<LazyTensorImpl*>& registry, const Trace* tr,
                           uint64_t epoch, Fn fn) {
  for (LazyTensorImpl* t : registry) {
    if (t->is_current() && pending_here(t->own_value(), tr, epoch)) fn(t->own_value(), true);
    if (t->is_view() && !t->is_current() && pending_here(t->own_value(), tr, epoch)) {
      fn(t->own_value(), false);  // stale: recomputed from the base when read
    }
    if (t->has_group() && pending_here(t->group().base, tr, epoch)) fn(t->group().base, true);
  }
}

void check_inputs_unchanged(const ir::Graph& g, const std::vector<uint64_t>& versions,
                            const std::vector<InputLayout>& used) {
  for (const InputLayout& in : used) {
    const Tensor& t = g.input_data(in.input_index);
    LZ_CHECK(t._version() == versions[in.input_index], ValueError,
             "[lazy] an eager tensor (shape ", shape_str(t.sizes()), ", ", t.dtype(),
             ") used by a lazy computation was modified in place before the computation ran; "
             "clone it before modifying, or materialise the lazy results first");
  }
}

// One graph compiled in many variants (input layouts, size-1 patterns)
// usually means a loop feeding changing layouts: say so once per graph.
// Where the user asked for the values ("at model.cpp:42 (train_step)"), for
// syncs the user's code requested; "" for implicit ones (item, print, ...).
std::string site_of(SyncCause cause) {
  const std::source_location& s = sync_site();
  if ((cause != SyncCause::ToEager && cause != SyncCause::Explicit) || s.line() == 0) return "";
  return std::string(" at ") + s.file_name() + ":" + std::to_string(s.line()) + " (" + s.function_name() + ")";
}

void warn_if_recompiling(uint64_t key, const std::string& reason, SyncCause cause) {
  const size_t variants = ExecutableCache::instance().variants(key);
  const size_t limit = settings().recompile_warn;
  if (variants != limit + 1) return;
  std::fprintf(stderr,
               "[lazuli] warning: graph %016llx materialised%s has been compiled %zu times "
               "(LZ_RECOMPILE_WARN=%zu); last reason: %s. LZ_DEBUG=1 shows each materialisation.\n",
               static_cast<unsigned long long>(key), site_of(cause).c_str(), variants, limit, reason.c_str());
}

}  // namespace

std::vector<ir::ValueId> Trace::needed_values() {
  std::lock_guard<TraceMutex> lock(mutex_);
  std::vector<ir::ValueId> values;
  for_each_needed_value(registry_, this, epoch_, [&](const LazyValue& v, bool needed) {
    if (needed) values.push_back(v.id);
  });
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

void Trace::materialize(SyncCause cause) {
  std::lock_guard<TraceMutex> lock(mutex_);
  if (materializing_ || graph_.num_nodes() == 0) return;

  // Views whose base was written since they were read are brought up to
  // date first, so they are computed with everything else.
  std::vector<LazyTensorImpl*> stale;
  for (LazyTensorImpl* t : registry_) {
    if (t->is_view() && !t->is_current() && pending_here(t->group().base, this, epoch_)) stale.push_back(t);
  }
  for (LazyTensorImpl* t : stale) refresh_view(*this, *t);

  const std::vector<ir::ValueId> outputs = needed_values();

  absl::flat_hash_map<ir::ValueId, Tensor> results;
  uint64_t bytes_allocated = 0;
  std::exception_ptr error;
  if (!outputs.empty()) {
    materializing_ = true;
    detail::count_sync(cause);
    try {
      const auto start = std::chrono::steady_clock::now();
      const uint64_t key = graph_.hash_of(outputs);
      std::string miss_reason;
      std::shared_ptr<const Executable> exe = ExecutableCache::instance().lookup(key, graph_, &miss_reason);
      const bool hit = exe != nullptr;
      if (!exe) {
        exe = Executable::build(graph_, outputs);
        if (miss_reason == "new graph") miss_reason = ExecutableCache::instance().explain_new_graph(*exe);
        ExecutableCache::instance().insert(key, exe);
        warn_if_recompiling(key, miss_reason, cause);
      }
      detail::count_cache(hit, miss_reason);
      check_inputs_unchanged(graph_, input_versions_, exe->input_layouts());
      std::vector<Tensor> values = exe->run(graph_, outputs, &bytes_allocated);
      if (detail::debug_level() >= 1) {
        const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
        std::fprintf(stderr, "[lazuli] graph %016llx (%s%s): %zu nodes, cache %s, %zu kernels, %zu eager steps, %.1f us\n",
                     static_cast<unsigned long long>(key), std::string(to_string(cause)).c_str(), site_of(cause).c_str(),
                     graph_.num_nodes(),
                     hit ? "hit" : ("miss: " + miss_reason).c_str(), exe->num_kernels(), exe->num_eager_steps(), us);
      }
      for (size_t i = 0; i < outputs.size(); ++i) results.emplace(outputs[i], std::move(values[i]));
    } catch (...) {
      error = std::current_exception();
    }
    materializing_ = false;
  }

  // Every tensor that held a value of this graph now holds its result (or,
  // after a failure, nothing: reading it raises an error that says why).
  for_each_needed_value(registry_, this, epoch_, [&](LazyValue& v, bool) {
    LazyValue computed;
    if (auto it = results.find(v.id); it != results.end()) computed.data = it->second;
    v = std::move(computed);
  });
  const uint64_t freed = graph_.num_nodes();
  graph_.clear();
  inputs_.clear();
  input_versions_.clear();
  ++epoch_;
  if (!outputs.empty() || freed > 0) detail::count_run(outputs.empty() ? 0 : 1, freed, bytes_allocated);
  if (error) std::rethrow_exception(error);
}

}  // namespace lz::lazy
