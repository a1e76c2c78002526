// bench_eager: large eager kernels against the machine's memory bandwidth
// (see bench/bandwidth.h). Run: ./build/bench/bench_eager
#include <benchmark/benchmark.h>

#include <lazuli/lazuli.h>

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("lazuli_threads", std::to_string(lz::get_num_threads()));
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
