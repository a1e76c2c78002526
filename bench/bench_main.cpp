// The main() of the Google Benchmark binaries that measure against the
// machine's bandwidth (bench_eager, bench_workloads): records the thread
// count Lazuli runs with next to the results.
#include <benchmark/benchmark.h>

#include <lazuli/lazuli.h>

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("lazuli_threads", std::to_string(lz::get_num_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
