// What one operator call costs before any arithmetic: the dispatcher, the
// meta function, output allocation and the kernel launch on a 1-element
// tensor; and the CPU allocator under it. Public API only: the dispatcher's
// boxed calling convention and a do-nothing registered operator are not
// reachable from here (the boxed path's cost is in every traced operator,
// bench_lazy's BM_TraceOnly). Run: ./build/bench/bench_dispatch
#include <benchmark/benchmark.h>

#include <lazuli/lazuli.h>

namespace {

// A 1-element add through the full dispatcher: the number the foundation
// issue asks for.
void BM_EagerAdd1Element(benchmark::State& state) {
  const lz::Tensor a = lz::ones({1}), b = lz::ones({1});
  for (auto _ : state) benchmark::DoNotOptimize(lz::add(a, b));
}
BENCHMARK(BM_EagerAdd1Element);

void BM_EagerAddInplace1Element(benchmark::State& state) {
  lz::Tensor a = lz::ones({1});
  const lz::Tensor b = lz::zeros({1});
  for (auto _ : state) benchmark::DoNotOptimize(a.add_(b));
}
BENCHMARK(BM_EagerAddInplace1Element);

// x + 2.5: add.Scalar, whose eager kernel wraps the number as a 0-dim tensor.
void BM_EagerAddScalar1Element(benchmark::State& state) {
  const lz::Tensor a = lz::ones({1});
  for (auto _ : state) benchmark::DoNotOptimize(a + 2.5);
}
BENCHMARK(BM_EagerAddScalar1Element);

// A cached 64-byte allocation and free (the output of a 1-element op).
void BM_CpuAllocatorCachedBlock(benchmark::State& state) {
  lz::Allocator* alloc = lz::get_allocator(lz::DeviceType::CPU);
  for (auto _ : state) benchmark::DoNotOptimize(alloc->allocate(4, lz::Device(lz::DeviceType::CPU)));
}
BENCHMARK(BM_CpuAllocatorCachedBlock);

// A 64 MiB buffer written once per iteration, reused from the cache.
void BM_Fill64MiBReused(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(lz::zeros({16 << 20}));
  state.SetBytesProcessed(state.iterations() * (int64_t{64} << 20));
}
BENCHMARK(BM_Fill64MiBReused)->Unit(benchmark::kMillisecond);

// The same with the cache disabled: every iteration maps fresh pages and
// pays a page fault per page on the first write.
void BM_Fill64MiBFresh(benchmark::State& state) {
  lz::CpuCachingAllocator& alloc = lz::cpu_caching_allocator();
  const size_t limit = alloc.stats().cache_limit_bytes;
  alloc.set_cache_limit(0);
  for (auto _ : state) benchmark::DoNotOptimize(lz::zeros({16 << 20}));
  alloc.set_cache_limit(limit);
  state.SetBytesProcessed(state.iterations() * (int64_t{64} << 20));
}
BENCHMARK(BM_Fill64MiBFresh)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
