#include "runner.h"

#include <algorithm>
#include <chrono>
#include <sstream>

#include "lazy/config.h"

namespace lz::bench_runner {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0.0 : n % 2 == 1 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

std::vector<Tensor> copies(const std::vector<Tensor>& in, bool lazy) {
  std::vector<Tensor> out;
  for (const Tensor& t : in) out.push_back(lazy ? t.clone().to_lazy() : t.clone());
  return out;
}

// Waits for the work queued on a CUDA device (CPU work is done on return).
void finish(Device device) {
  if (device.is_cuda()) cuda::synchronize(device.index());
}

// What one run of the workload does over `inputs` (which must outlive it).
Workload::Step step_of(const Workload& w, std::vector<Tensor>& inputs) {
  if (w.make_step) return w.make_step(inputs);
  return [&w, &inputs] { return w.run(inputs); };
}

// One run: the workload, its lazy results materialised.
std::vector<Tensor> run_once(const Workload::Step& step, bool lazy) {
  std::vector<Tensor> out = step();
  if (lazy) sync(out);
  return out;
}

// A timed run: `rounds` runs (W8: trace + materialise, again and again),
// to the end of the device's work.
double timed_ms(const Workload::Step& step, int rounds, bool lazy, Device device) {
  finish(device);
  const Clock::time_point t0 = Clock::now();
  for (int i = 0; i < rounds; ++i) run_once(step, lazy);
  finish(device);
  return ms_since(t0);
}

struct StepProfile {
  double wall_ms = 0, matmul_ms = 0, steps_ms = 0;
  std::vector<std::pair<std::string, double>> other_ms;  // costliest first
};

// `runs` lazy runs with step profiling on; the run of median wall time
// (the machine's speed moves between runs: its parts are compared within
// one run).
StepProfile profile_steps(const Workload::Step& step, int runs, Device device) {
  lazy::Settings s = lazy::settings();
  const bool was = s.profile_steps;
  s.profile_steps = true;
  lazy::set_settings(s);
  std::vector<StepProfile> profiles;
  for (int i = 0; i < runs; ++i) {
    const lazy::LazyMetrics before = lazy::metrics();
    StepProfile p;
    p.wall_ms = timed_ms(step, 1, true, device);
    for (const auto& [op, ms] : lazy::metrics().step_ms) {
      auto it = before.step_ms.find(op);
      const double d = ms - (it == before.step_ms.end() ? 0.0 : it->second);
      p.steps_ms += d;
      if (op == lazy::LazyMetrics::kMatrixProducts) {
        p.matmul_ms += d;
      } else if (d > 0) {
        p.other_ms.emplace_back(op, d);
      }
    }
    std::sort(p.other_ms.begin(), p.other_ms.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    profiles.push_back(std::move(p));
  }
  s.profile_steps = was;
  lazy::set_settings(s);
  std::sort(profiles.begin(), profiles.end(), [](const auto& a, const auto& b) { return a.wall_ms < b.wall_ms; });
  return profiles[profiles.size() / 2];
}

std::string shapes_of(const std::vector<Tensor>& inputs) {
  std::ostringstream s;
  for (size_t i = 0; i < inputs.size(); ++i) {
    s << (i ? ", " : "") << "[";
    for (int64_t d = 0; d < inputs[i].dim(); ++d) s << (d ? ", " : "") << inputs[i].size(d);
    s << "]";
  }
  return s.str();
}

// Lazy against eager, in float32: the largest |lazy - eager|, the largest
// |lazy - eager| / max(|eager|, atol) and whether every element is within
// atol + rtol |eager|.
void compare(const std::vector<Tensor>& lazy, const std::vector<Tensor>& eager, WorkloadResult& r) {
  for (size_t i = 0; i < eager.size(); ++i) {
    const Tensor b = eager[i].to(Device(kCPU), kFloat32);
    const Tensor a = lazy[i].to_eager().to(Device(kCPU), kFloat32);
    const Tensor diff = (a - b).abs();
    r.max_abs_err = std::max(r.max_abs_err, diff.max().item<double>());
    r.max_rel_err = std::max(r.max_rel_err, (diff / b.abs().clamp_min(r.atol)).max().item<double>());
    r.ok = r.ok && diff.le(b.abs() * r.rtol + r.atol).all().item<bool>();
  }
}

}  // namespace

WorkloadResult measure(const Workload& w, const RunOptions& options, BandwidthProbe& bandwidth) {
  WorkloadResult r;
  r.id = w.id;
  r.name = w.name;
  r.bandwidth_bound = w.bandwidth_bound;
  // bfloat16 keeps 8 bits: its results agree to about 2^-8.
  r.atol = options.dtype == kBFloat16 ? 2e-2 : w.atol;
  r.rtol = options.dtype == kBFloat16 ? 2e-2 : w.rtol;
  std::vector<Tensor> inputs = w.make_inputs(options.quick, options.dtype);
  for (Tensor& t : inputs) t = t.to(options.device);
  r.sizes = shapes_of(inputs);
  r.bytes = w.bytes(inputs) * w.rounds;

  std::vector<Tensor> eager_in = copies(inputs, false), lazy_in = copies(inputs, true);
  const Workload::Step eager_step = step_of(w, eager_in), lazy_step = step_of(w, lazy_in);
  const std::vector<Tensor> reference = run_once(eager_step, false);
  lazy::clear_executable_cache();
  const lazy::LazyMetrics start = lazy::metrics();
  Clock::time_point t0 = Clock::now();
  const std::vector<Tensor> first = run_once(lazy_step, true);
  finish(options.device);
  r.first_ms = ms_since(t0);
  r.first_while_compiling = static_cast<int64_t>(lazy::metrics().launches_while_compiling - start.launches_while_compiling);
  compare(first, reference, r);
  // The steady state runs compiled code only: the first call's compiles,
  // and those of variants a second call asks for, finish untimed.
  lazy::wait_for_compiles();
  run_once(lazy_step, true);
  lazy::wait_for_compiles();

  std::vector<double> eager_ms, lazy_ms, copy_gbps;
  // Kernels and eager steps of the lazy runs only: on CUDA the eager runs
  // and the bandwidth probe launch kernels too (one-op graphs).
  uint64_t lazy_kernels = 0, lazy_eager_steps = 0;
  for (int rep = 0; rep < options.repetitions; ++rep) {
    copy_gbps.push_back(bandwidth.copy_gbps());
    eager_ms.push_back(timed_ms(eager_step, w.rounds, false, options.device));
    copy_gbps.push_back(bandwidth.copy_gbps());
    const lazy::LazyMetrics before = lazy::metrics();
    lazy_ms.push_back(timed_ms(lazy_step, w.rounds, true, options.device));
    const lazy::LazyMetrics after = lazy::metrics();
    lazy_kernels += after.kernels_launched - before.kernels_launched;
    lazy_eager_steps += after.eager_steps_total - before.eager_steps_total;
  }
  const lazy::LazyMetrics end = lazy::metrics();
  const double runs = static_cast<double>(options.repetitions) * w.rounds;
  r.kernels = static_cast<int64_t>(static_cast<double>(lazy_kernels) / runs);
  r.eager_steps = static_cast<int64_t>(static_cast<double>(lazy_eager_steps) / runs);
  r.cache_hits = static_cast<int64_t>(end.cache_hits - start.cache_hits);
  r.cache_misses = static_cast<int64_t>(end.cache_misses - start.cache_misses);
  r.compile_ms = end.jit_compile_ms - start.jit_compile_ms;

  r.eager_ms = median(eager_ms);
  r.lazy_ms = median(lazy_ms);
  r.speedup = r.eager_ms / r.lazy_ms;
  r.bandwidth_gbps = median(copy_gbps);
  r.gbps = r.bytes / (r.lazy_ms * 1e6);
  r.eager_gbps = r.bytes / (r.eager_ms * 1e6);
  r.pct_of_bandwidth = 100 * r.gbps / r.bandwidth_gbps;
  r.eager_pct_of_bandwidth = 100 * r.eager_gbps / r.bandwidth_gbps;

  if (w.make_step && options.repetitions > 0) {
    const StepProfile p = profile_steps(lazy_step, options.repetitions, options.device);
    r.profiled_ms = p.wall_ms;
    r.matmul_ms = p.matmul_ms;
    r.steps_ms = p.steps_ms;
    r.top_other_steps_ms.assign(p.other_ms.begin(), p.other_ms.begin() + std::min<size_t>(3, p.other_ms.size()));
  }

  if (w.rounds > 1) {  // W8: what a traced operator and a cache-hit run cost
    const Tensor x = lazy_in[0];
    std::vector<double> trace_ms;
    for (int rep = 0; rep < options.repetitions; ++rep) {
      double ms = 0;
      for (int i = 0; i < w.rounds; ++i) {
        t0 = Clock::now();
        Tensor y = w8_chain(x);
        ms += ms_since(t0);
        y = Tensor();
        sync_all();  // nothing live: frees the nodes, outside the timing
      }
      trace_ms.push_back(ms);
    }
    const double trace_per_run_ns = median(trace_ms) * 1e6 / w.rounds;
    r.ns_per_traced_op = trace_per_run_ns / kW8Ops;
    r.cache_hit_overhead_ns = r.lazy_ms * 1e6 / w.rounds - trace_per_run_ns;
  }
  return r;
}

}  // namespace lz::bench_runner
