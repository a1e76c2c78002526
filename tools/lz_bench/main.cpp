// lz-bench: the fusion benchmark runner (docs/lz-bench.md).
// Runs the workloads of shared/bench/workloads.md eagerly and lazily, each
// next to a memory bandwidth measurement, checks lazy against eager and
// prints a table (optionally JSON and an SVG chart). Exit status: 0 when
// every lazy result agrees with eager, 1 when one does not, 2 for bad
// options or an unavailable device.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include <lazuli/lazuli.h>

#include "bandwidth.h"
#include "report.h"
#include "runner.h"
#include "workloads.h"

namespace {

using namespace lz::bench_runner;

struct Options {
  RunOptions run;
  std::set<std::string> ids;  // empty: all
  int threads = 0;            // 0: Lazuli's default
  std::string device = "cpu";
  std::string json, svg;
  bool list = false;
};

constexpr std::string_view kUsage = R"(usage: lz-bench [options]
Runs the fusion workloads eagerly and lazily and reports them against the
machine's memory bandwidth (measured next to every run).
  --workloads W1,W4,...  run these workloads only (default: all, W1-W17)
  --quick                small sizes and 3 repetitions (a smoke run, < 1 minute)
  --reps N               timed repetitions per workload (default 10; --quick 3)
  --threads N            CPU threads (default: LZ_NUM_THREADS or all CPUs)
  --device cpu|cuda      where the workloads run (default cpu)
  --dtype f32|bf16       element type of the inputs (default f32)
  --json FILE            also write the results as JSON
  --svg FILE             also draw eager vs lazy against the bandwidth as SVG
  --list                 list the workloads and exit
)";

[[noreturn]] void fail(const std::string& message) {
  std::cerr << "lz-bench: " << message << "\n" << kUsage;
  std::exit(2);
}

int positive(const std::string& option, const std::string& value) {
  char* end = nullptr;
  const long v = std::strtol(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || v < 1 || v > 1000000) fail(option + " needs a positive integer, got '" + value + "'");
  return static_cast<int>(v);
}

Options parse(int argc, char** argv) {
  Options o;
  bool reps_given = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i], value;
    if (const size_t eq = arg.find('='); arg.rfind("--", 0) == 0 && eq != std::string::npos) {
      value = arg.substr(eq + 1);
      arg = arg.substr(0, eq);
    }
    const auto take = [&]() -> std::string {
      if (!value.empty()) return value;
      if (i + 1 >= argc) fail(arg + " needs a value");
      return argv[++i];
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << kUsage;
      std::exit(0);
    } else if (arg == "--quick") {
      o.run.quick = true;
    } else if (arg == "--list") {
      o.list = true;
    } else if (arg == "--workloads") {
      std::stringstream list(take());
      for (std::string id; std::getline(list, id, ',');) {
        if (!id.empty()) o.ids.insert(id);
      }
    } else if (arg == "--reps") {
      o.run.repetitions = positive(arg, take());
      reps_given = true;
    } else if (arg == "--threads") {
      o.threads = positive(arg, take());
    } else if (arg == "--device") {
      o.device = take();
    } else if (arg == "--dtype") {
      const std::string t = take();
      if (t != "f32" && t != "bf16") fail("--dtype must be f32 or bf16, got '" + t + "'");
      o.run.dtype = t == "bf16" ? lz::kBFloat16 : lz::kFloat32;
    } else if (arg == "--json") {
      o.json = take();
    } else if (arg == "--svg") {
      o.svg = take();
    } else {
      fail("unknown option '" + arg + "'");
    }
  }
  if (o.run.quick && !reps_given) o.run.repetitions = 3;
  std::set<std::string> known;
  for (const Workload& w : all_workloads()) known.insert(w.id);
  for (const std::string& id : o.ids) {
    if (known.count(id) == 0) fail("unknown workload '" + id + "' (W1-W9)");
  }
  try {
    o.run.device = lz::Device(o.device);
  } catch (const lz::Error&) {
    fail("--device must be cpu, cuda or cuda:N, got '" + o.device + "'");
  }
  if (o.run.device.is_cuda()) {
    // Checked before any work: a run that cannot happen says so at once.
    std::string why;
    if (!lz::cuda::is_available()) {
      why = lz::cuda::unavailable_reason();
    } else if (o.run.device.index() >= lz::cuda::device_count()) {
      why = "there are " + std::to_string(lz::cuda::device_count()) + " CUDA devices";
    }
    if (!why.empty()) {
      std::cerr << "lz-bench: device '" << o.device << "' unavailable: CUDA unavailable: " << why << "\n";
      std::exit(2);
    }
  }
  return o;
}

// Writes `f`'s output to `path` (an error names the file).
template <class F>
void write_file(const std::string& path, F&& f) {
  std::ofstream out(path);
  f(out);
  if (!out) {
    std::cerr << "lz-bench: cannot write '" << path << "'\n";
    std::exit(2);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  if (o.list) {
    for (const Workload& w : all_workloads()) std::cout << w.id << "  " << w.name << "  " << w.sizes << "\n";
    return 0;
  }
  if (o.threads > 0) lz::set_num_threads(o.threads);

  RunReport report;
  report.device = o.run.device.str();
  if (o.run.device.is_cuda()) {
    const lz::cuda::DeviceProperties& p = lz::cuda::device_properties(o.run.device.index());
    report.device += " (" + p.name + ", " + p.arch() + ")";
  }
  report.dtype = o.run.dtype == lz::kBFloat16 ? "bf16" : "f32";
  report.threads = lz::get_num_threads();
  report.repetitions = o.run.repetitions;
  report.quick = o.run.quick;
  // On a GPU the arrays must be far larger than its L2 cache (50 MB on an H100).
  const int64_t probe_elements = o.run.device.is_cuda() ? int64_t{64} << 20 : int64_t{16} << 20;
  BandwidthProbe bandwidth(o.run.quick ? int64_t{4} << 20 : probe_elements, o.run.device);
  bandwidth.copy_gbps();  // the first pass pays for page faults
  report.startup_copy_gbps = bandwidth.copy_gbps();
  report.startup_triad_gbps = bandwidth.triad_gbps();
  std::cerr << "lz-bench: " << report.threads << " threads, copy " << static_cast<int>(report.startup_copy_gbps)
            << " GB/s, triad " << static_cast<int>(report.startup_triad_gbps) << " GB/s\n";

  std::vector<const Workload*> chosen;
  for (const Workload& w : all_workloads()) {
    if (o.ids.empty() || o.ids.count(w.id) != 0) chosen.push_back(&w);
  }
  for (size_t i = 0; i < chosen.size(); ++i) {
    const Workload& w = *chosen[i];
    std::cerr << "[" << i + 1 << "/" << chosen.size() << "] " << w.id << " " << w.name << " ..." << std::flush;
    try {
      report.workloads.push_back(measure(w, o.run, bandwidth));
    } catch (const std::exception& e) {
      std::cerr << " failed: " << e.what() << "\n";
      return 1;
    }
    const WorkloadResult& r = report.workloads.back();
    std::cerr << std::setprecision(3) << " eager " << r.eager_ms << " ms, lazy " << r.lazy_ms << " ms"
              << (r.ok ? "" : "  MISMATCH") << "\n";
  }

  print_table(std::cout, report);
  if (!o.json.empty()) write_file(o.json, [&](std::ostream& out) { write_json(out, report); });
  if (!o.svg.empty()) write_file(o.svg, [&](std::ostream& out) { write_svg(out, report); });
  if (!report.all_ok()) {
    std::cerr << "lz-bench: a lazy result disagrees with eager beyond its tolerance (see the table)\n";
    return 1;
  }
  return 0;
}
