#include "lazy/metrics.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <sstream>
#include <vector>

#include "lazy/code_generators.h"

namespace lz::lazy {

namespace {

// The hot counter (one per traced operator) is per thread: its thread adds
// with a plain load and store, no locked instruction (an atomic increment
// was one of the ~9 per traced operator). metrics() sums the live threads'
// counters and what exited threads left. Everything else changes once per
// materialisation or fallback and sits behind a mutex.
struct TracedCounters {
  std::mutex mutex;
  std::vector<const std::atomic<uint64_t>*> live;
  uint64_t exited = 0;
  uint64_t baseline = 0;  // the sum at the last reset_metrics()

  uint64_t sum() {
    std::lock_guard<std::mutex> lock(mutex);
    uint64_t n = exited;
    for (const std::atomic<uint64_t>* c : live) n += c->load(std::memory_order_relaxed);
    return n;
  }
};
// Never destroyed: threads may exit after static destructors have run.
TracedCounters& traced_counters() {
  static TracedCounters* counters = new TracedCounters;
  return *counters;
}

struct ThreadTraced {
  std::atomic<uint64_t> count{0};
  ThreadTraced() {
    TracedCounters& c = traced_counters();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.live.push_back(&count);
  }
  ~ThreadTraced() {
    TracedCounters& c = traced_counters();
    std::lock_guard<std::mutex> lock(c.mutex);
    c.exited += count.load(std::memory_order_relaxed);
    c.live.erase(std::find(c.live.begin(), c.live.end(), &count));
  }
};
thread_local ThreadTraced t_traced;

// The JIT counts for the process; metrics report what happened since the last reset.
JitCounts& jit_baseline() {
  static JitCounts base;
  return base;
}

std::mutex& metrics_mutex() {
  static std::mutex m;
  return m;
}
LazyMetrics& state() {
  static LazyMetrics m;
  return m;
}

template <class Map, class Value>
void increment(Map& m, std::string_view key, Value by) {
  auto it = m.find(key);
  if (it == m.end()) it = m.emplace(std::string(key), 0).first;
  it->second += by;
}

template <class Map>
void print_map(std::ostream& os, std::string_view title, const Map& m) {
  if (m.empty()) return;
  os << "  " << title << ":\n";
  for (const auto& [name, count] : m) os << "    " << name << ": " << count << "\n";
}

}  // namespace

LazyMetrics metrics() {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  LazyMetrics m = state();
  m.ops_traced = traced_counters().sum() - traced_counters().baseline;
  const JitCounts jit = jit_counts();
  const JitCounts& base = jit_baseline();
  m.jit_compiled = static_cast<uint64_t>(jit.compiled - base.compiled);
  m.jit_disk_hits = static_cast<uint64_t>(jit.disk_hits - base.disk_hits);
  m.jit_compile_ms = jit.compile_ms - base.compile_ms;
  m.jit_load_ms = jit.load_ms - base.load_ms;
  m.jit_compiles_pending = static_cast<uint64_t>(background_compiles_pending());
  return m;
}

void reset_metrics() {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  const uint64_t cache_size = state().cache_size;
  state() = LazyMetrics();
  state().cache_size = cache_size;
  jit_baseline() = jit_counts();
  traced_counters().baseline = traced_counters().sum();
}

std::string LazyMetrics::report() const {
  std::ostringstream os;
  os << "lazy metrics:\n"
     << "  ops traced: " << ops_traced << "\n"
     << "  graphs materialised: " << graphs_materialized << " (" << graphs_failed << " with failing values)\n"
     << "  executable cache: " << cache_hits << " hits, " << cache_misses << " misses, "
     << cache_evictions << " evictions, " << cache_size << " cached\n"
     << "  kernels: " << kernels_compiled << " compiled, " << kernels_launched << " launched ("
     << product_epilogues << " as a matrix product's epilogue, " << product_epilogues_declined
     << " planned as one but run after the product)\n"
     << "  LLVM: " << jit_compiled << " variants compiled in " << jit_compile_ms << " ms, " << jit_disk_hits
     << " loaded from the disk cache in " << jit_load_ms << " ms, " << kernels_interpreted
     << " small launches interpreted, " << launches_while_compiling << " launches while compiling in the background ("
     << eager_steps_while_compiling << " eager steps), " << jit_compiles_pending << " compiles pending\n"
     << "  eager steps: " << eager_steps_total << "\n"
     << "  nodes freed: " << nodes_freed << " (" << values_left_pending << " cheap live values left pending)\n"
     << "  bytes allocated by steps: " << bytes_allocated << "\n";
  print_map(os, "syncs by cause", syncs);
  print_map(os, "cache misses by reason", cache_miss_reasons);
  print_map(os, "eager fallbacks (not traced)", eager_fallbacks);
  print_map(os, "eager steps by operator", eager_steps);
  print_map(os, "not fused (op: reason)", not_fused);
  print_map(os, "code generator failures", codegen_failures);
  print_map(os, "step time in ms (LZ_PROFILE_STEPS)", step_ms);
  print_map(os, "compile time in ms by pipeline step", compile_ms);
  return os.str();
}

namespace detail {

void count_traced() {
  std::atomic<uint64_t>& n = t_traced.count;  // only this thread writes it
  n.store(n.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
}

void count_sync(SyncCause cause) {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  increment(state().syncs, to_string(cause), 1);
}

void count_fallback(std::string_view op) {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  increment(state().eager_fallbacks, op, 1);
}

void count_cache(bool hit, std::string_view miss_reason) {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  if (hit) {
    ++state().cache_hits;
  } else {
    ++state().cache_misses;
    increment(state().cache_miss_reasons, miss_reason, 1);
  }
}

void count_eviction(uint64_t cache_size) {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  ++state().cache_evictions;
  state().cache_size = cache_size;
}

void set_cache_size(uint64_t size) {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  state().cache_size = size;
}

void count_run(uint64_t graphs, uint64_t nodes_freed, uint64_t bytes_allocated, uint64_t left_pending) {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  state().values_left_pending += left_pending;
  state().graphs_materialized += graphs;
  state().nodes_freed += nodes_freed;
  state().bytes_allocated += bytes_allocated;
}

void count_failed_run() {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  ++state().graphs_failed;
}

void count_steps(std::span<const std::pair<std::string_view, uint64_t>> per_op) {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  for (const auto& [op, n] : per_op) {
    state().eager_steps_total += n;
    increment(state().eager_steps, op, n);
  }
}

void count_step_ms(std::span<const std::pair<std::string_view, double>> per_step) {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  for (const auto& [key, ms] : per_step) increment(state().step_ms, key, ms);
}

void count_kernels(uint64_t launched) {
  if (launched == 0) return;
  std::lock_guard<std::mutex> lock(metrics_mutex());
  state().kernels_launched += launched;
}

void count_product_epilogue(bool ran) {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  ++(ran ? state().product_epilogues : state().product_epilogues_declined);
}

void count_interpreted() {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  ++state().kernels_interpreted;
}

void count_run_while_compiling(uint64_t eager_steps) {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  ++state().launches_while_compiling;
  state().eager_steps_while_compiling += eager_steps;
}

void count_codegen_failure(const std::string& reason) {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  increment(state().codegen_failures, reason, 1);
}

void count_compile(uint64_t kernels, std::span<const std::string> not_fused) {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  state().kernels_compiled += kernels;
  for (const std::string& what : not_fused) increment(state().not_fused, what, 1);
}

void count_compile_ms(std::span<const std::pair<std::string_view, double>> per_step) {
  std::lock_guard<std::mutex> lock(metrics_mutex());
  for (const auto& [step, ms] : per_step) increment(state().compile_ms, step, ms);
}

}  // namespace detail
}  // namespace lz::lazy
