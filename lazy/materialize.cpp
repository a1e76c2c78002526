// Trace::materialize: runs everything the live tensors of a trace still
// need as one executable (cached by structure), stores each result in its
// tensor and clears the graph.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <optional>
#include <sstream>

#include "absl/container/flat_hash_map.h"
#include "core/error.h"
#include "lazy/carry_over.h"
#include "lazy/compile.h"
#include "lazy/eager_check.h"
#include "lazy/executable_cache.h"
#include "lazy/config.h"
#include "lazy/functionalize.h"
#include "lazy/metrics.h"
#include "lazy/trace.h"

namespace lz::lazy {

namespace {

// The values of `tr` some live tensor still needs: bases' values (a base
// with views holds its group's) and the bases of views' groups. A view's
// own pending value is visited too (needed = false): views are read from
// their base's result afterwards (read_view_from_base).
template <class Fn>
void for_each_needed_value(const std::vector<LazyTensorImpl*>& registry, const Trace* tr,
                           uint64_t epoch, Fn fn) {
  for (LazyTensorImpl* t : registry) {
    if (!t->is_view()) {
      if (t->own_value().pending_in(tr, epoch)) fn(t->own_value(), true);
      continue;
    }
    if (t->own_value().pending_in(tr, epoch)) fn(t->own_value(), false);
    if (t->group().base.pending_in(tr, epoch)) fn(t->group().base, true);
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

namespace {

// What one run of a trace computed: a value or an error per output.
struct RunResult {
  std::vector<Tensor> values;
  std::vector<std::exception_ptr> errors;  // empty when every output was computed
  uint64_t bytes_allocated = 0;
};

// Runs the reference plan with every step's failure kept to what it
// reaches: the values a failing node does not feed are still computed, and
// those it does carry its error.
RunResult run_isolating_failures(const ir::Graph& g, const GraphData& data, std::span<const ir::ValueId> outputs) {
  RunResult r;
  const std::unique_ptr<Executable> reference = compile(g, data, outputs, CompileOptions::reference());
  r.values = reference->run(g, data, outputs, &r.bytes_allocated, &r.errors);
  return r;
}

}  // namespace

std::exception_ptr Trace::materialize(SyncCause cause, std::span<const ir::ValueId> requested) {
  std::lock_guard<TraceMutex> lock(mutex_);
  if (materializing_ || graph_.num_nodes() == 0) return nullptr;

  const std::vector<ir::ValueId> left_pending = values_to_leave_pending(requested);
  const std::vector<ir::ValueId> live = needed_values();
  std::vector<ir::ValueId> outputs;
  std::set_difference(live.begin(), live.end(), left_pending.begin(), left_pending.end(),
                      std::back_inserter(outputs));

  RunResult run;
  std::optional<EagerCheck> check;  // LZ_CHECK_EAGER
  if (!outputs.empty()) {
    materializing_ = true;
    detail::count_sync(cause);
    const auto start = std::chrono::steady_clock::now();
    const uint64_t key = graph_.hash_of(outputs);
    std::shared_ptr<const Executable> exe;
    bool hit = false;
    std::string miss_reason;
    try {
      exe = ExecutableCache::instance().lookup(key, graph_, data_, outputs, &miss_reason);
      hit = exe != nullptr;
      if (!exe) {
        exe = compile(graph_, data_, outputs);
        if (miss_reason == "new graph") miss_reason = ExecutableCache::instance().explain_new_graph(*exe);
        ExecutableCache::instance().insert(key, exe);
        warn_if_recompiling(key, miss_reason, cause);
      }
      detail::count_cache(hit, miss_reason);
      if (detail::check_eager()) check.emplace(data_);
      run.values = exe->run(graph_, data_, outputs, &run.bytes_allocated);
    } catch (...) {
      // Planning failed (every output fails alike), or a step raised on the
      // data: find which values the failure reaches.
      const std::exception_ptr failure = std::current_exception();
      if (exe) {
        try {
          run = run_isolating_failures(graph_, data_, outputs);
        } catch (...) {
          run = RunResult();
        }
      }
      if (run.values.size() != outputs.size()) run.errors.assign(outputs.size(), failure);
      detail::count_failed_run();
    }
    if (check && run.errors.empty()) {
      // A disagreement with the eager kernels is a bug here: every output
      // of the graph carries it.
      try {
        check->verify(graph_, outputs, run.values, *exe);
      } catch (...) {
        run.errors.assign(outputs.size(), std::current_exception());
      }
    }
    if (detail::debug_level() >= 1) {
      const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count();
      size_t failed = 0;
      for (const std::exception_ptr& e : run.errors) failed += e ? 1 : 0;
      std::fprintf(stderr, "[lazuli] graph %016llx (%s%s): %zu nodes, cache %s, %zu kernels, %zu eager steps, %.1f us%s\n",
                   static_cast<unsigned long long>(key), std::string(to_string(cause)).c_str(), site_of(cause).c_str(),
                   graph_.num_nodes(), hit ? "hit" : ("miss: " + miss_reason).c_str(),
                   exe ? exe->num_kernels() : 0, exe ? exe->num_eager_steps() : 0, us,
                   run.errors.empty() ? "" : (", " + std::to_string(failed) + " of " + std::to_string(outputs.size()) +
                                              " outputs failed").c_str());
    }
    materializing_ = false;
  }

  // The values left pending keep their cones, in a graph of their own.
  std::shared_ptr<PendingCones> cones;
  std::vector<ir::ValueId> cone_value;
  if (!left_pending.empty()) {
    cones = std::make_shared<PendingCones>();
    (void)copy_cones(
        graph_, left_pending, cones->graph,
        [&](ir::ValueId in) {
          const ir::Node& n = graph_.producer(in);
          cones->inputs.push_back(data_.input(n.input_index));
          return cones->graph.add_input(graph_.value(in).type, n.wrapped_number);
        },
        cone_value);
  }

  // Every tensor that held a value of this graph now holds its result, the
  // error that computing it raised, or its cone.
  absl::flat_hash_map<ir::ValueId, size_t> position;
  for (size_t i = 0; i < outputs.size(); ++i) position.emplace(outputs[i], i);
  std::exception_ptr first_error;
  std::string lost;
  for_each_needed_value(registry_, this, epoch_, [&](LazyValue& v, bool needed) {
    LazyValue computed;
    if (std::binary_search(left_pending.begin(), left_pending.end(), v.id)) {
      computed.cones = cones;
      computed.cone_value = cone_value[v.id];
      v = std::move(computed);
      return;
    }
    if (auto it = position.find(v.id); it != position.end()) {
      const size_t i = it->second;
      if (i < run.errors.size() && run.errors[i]) {
        computed.error = run.errors[i];
        if (!first_error) first_error = computed.error;
      } else {
        computed.data = run.values.at(i);
      }
    }
    if (needed && !computed.data.defined() && !computed.failed() && lost.empty()) {
      std::ostringstream os;
      os << "%" << v.id << " (" << graph_.value(v.id).type << ")";
      lost = os.str();
    }
    v = std::move(computed);
  });
  // Views read their base's result, current ones and those their base's
  // writes made stale alike.
  for (LazyTensorImpl* t : registry_) {
    if (!t->is_view() || (t->is_current() && !t->own_value().empty())) continue;
    if (!read_view_from_base(*t) && t->is_current() && lost.empty()) {
      std::ostringstream os;
      os << "a view (" << t->meta() << ") whose base has no value";
      lost = os.str();
    }
  }
  const uint64_t freed = graph_.num_nodes();
  graph_.clear();
  data_.clear();
  inputs_.clear();
  taken_back_.clear();
  ++epoch_;
  if (!outputs.empty() || freed > 0) {
    detail::count_run(outputs.empty() ? 0 : 1, freed, run.bytes_allocated, left_pending.size());
  }
  // A live tensor left with neither a value nor an error is a bug here,
  // never the user's: say so now, not when the tensor is next read.
  LZ_INTERNAL_ASSERT(lost.empty(), "materialisation left the live value ", lost, " without a result");
  return first_error;
}

}  // namespace lz::lazy
