// Matrix products through OpenBLAS, the packed GEMM and the integer
// fallback: GFLOP/s (2 * m * k * n per product); a product's epilogue in
// its pass against a kernel after it. Run: ./build/bench/bench_gemm
#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include <lazuli/lazuli.h>

namespace lz::bench {
namespace {

void set_flops(benchmark::State& state, double flops_per_iteration) {
  state.counters["GFLOPs"] = benchmark::Counter(flops_per_iteration * 1e-9,
                                                benchmark::Counter::kIsIterationInvariantRate);
}

// mm of [m, k] x [k, n]; with `out`, into a preallocated output.
void BM_Mm(benchmark::State& state, ScalarType dtype, int64_t m, int64_t k, int64_t n, bool out) {
  const Tensor a = randn({m, k}, make_generator(1)).to(dtype);
  const Tensor b = randn({k, n}, make_generator(2)).to(dtype);
  Tensor c = empty({m, n}, dtype);
  for (auto _ : state) {
    if (out) {
      mm_out(c, a, b);
      benchmark::DoNotOptimize(c.data_ptr());
    } else {
      benchmark::DoNotOptimize(mm(a, b));
    }
  }
  set_flops(state, 2.0 * m * k * n);
}
BENCHMARK_CAPTURE(BM_Mm, f32_512x1024x4096, kFloat32, 512, 1024, 4096, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Mm, f32_512x1024x4096_out, kFloat32, 512, 1024, 4096, true)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Mm, f64_512x1024x4096, kFloat64, 512, 1024, 4096, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Mm, bf16_512x1024x4096, kBFloat16, 512, 1024, 4096, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Mm, f16_512x1024x4096, kFloat16, 512, 1024, 4096, false)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Mm, f32_64x64x64, kFloat32, 64, 64, 64, false)->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(BM_Mm, i32_256x256x256, kInt32, 256, 256, 256, false)->Unit(benchmark::kMillisecond);

// The transposed operands of a linear layer's backward-style products, read in place.
void BM_MmTransposed(benchmark::State& state) {
  const Tensor a = randn({1024, 512}, make_generator(3)).t();  // [512, 1024], column-major
  const Tensor b = randn({4096, 1024}, make_generator(4)).t();  // [1024, 4096], column-major
  for (auto _ : state) benchmark::DoNotOptimize(mm(a, b));
  set_flops(state, 2.0 * 512 * 1024 * 4096);
}
BENCHMARK(BM_MmTransposed)->Unit(benchmark::kMillisecond);

// bmm of [batch, m, k] x [batch, k, n].
void BM_Bmm(benchmark::State& state) {
  const int64_t batch = state.range(0), m = state.range(1), k = state.range(2), n = state.range(3);
  const Tensor a = randn({batch, m, k}, make_generator(5));
  const Tensor b = randn({batch, k, n}, make_generator(6));
  for (auto _ : state) benchmark::DoNotOptimize(bmm(a, b));
  set_flops(state, 2.0 * batch * m * k * n);
}
BENCHMARK(BM_Bmm)
    ->Args({32, 128, 256, 128})
    ->Args({8, 512, 512, 512})
    ->Args({64, 256, 64, 256})  // W11's attention scores per head
    ->Args({64, 256, 256, 64})  // W11's attention-weighted values
    ->Args({16, 512, 256, 512})
    ->Unit(benchmark::kMillisecond);

// Attention's q @ k^T: [batch, m, k] x [batch, n, k]^T (k read transposed in place).
void BM_BmmTransposed(benchmark::State& state) {
  const int64_t batch = state.range(0), m = state.range(1), k = state.range(2), n = state.range(3);
  const Tensor q = randn({batch, m, k}, make_generator(5));
  const Tensor key = randn({batch, n, k}, make_generator(6));
  for (auto _ : state) benchmark::DoNotOptimize(bmm(q, key.transpose(1, 2)));
  set_flops(state, 2.0 * batch * m * k * n);
}
BENCHMARK(BM_BmmTransposed)->Args({64, 256, 64, 256})->Unit(benchmark::kMillisecond);

// matmul folding batch dims into one product: [8, 256, 1024] @ [1024, 1024].
void BM_MatmulFolded(benchmark::State& state) {
  const Tensor a = randn({8, 256, 1024}, make_generator(7));
  const Tensor b = randn({1024, 1024}, make_generator(8));
  for (auto _ : state) benchmark::DoNotOptimize(matmul(a, b));
  set_flops(state, 2.0 * 8 * 256 * 1024 * 1024);
}
BENCHMARK(BM_MatmulFolded)->Unit(benchmark::kMillisecond);

// Attention-style batched matmul with broadcast batch dims:
// [4, 8, 256, 64] @ [1, 8, 64, 256].
void BM_MatmulBroadcast(benchmark::State& state) {
  const Tensor q = randn({4, 8, 256, 64}, make_generator(9));
  const Tensor k = randn({1, 8, 64, 256}, make_generator(10));
  for (auto _ : state) benchmark::DoNotOptimize(matmul(q, k));
  set_flops(state, 2.0 * 4 * 8 * 256 * 64 * 256);
}
BENCHMARK(BM_MatmulBroadcast)->Unit(benchmark::kMillisecond);

// linear: [2048, 1024] input, [4096, 1024] weight, bias (one addmm).
void BM_Linear(benchmark::State& state) {
  const Tensor x = randn({2048, 1024}, make_generator(11));
  const Tensor w = randn({4096, 1024}, make_generator(12));
  const Tensor b = randn({4096}, make_generator(13));
  for (auto _ : state) benchmark::DoNotOptimize(linear(x, w, b));
  set_flops(state, 2.0 * 2048 * 1024 * 4096);
}
BENCHMARK(BM_Linear)->Unit(benchmark::kMillisecond);

// A float32 product and its pointwise epilogue (GELU of the product plus a
// bias), alternating in each iteration between the two ways lazy mode can
// run them: the epilogue on each block between OpenBLAS calls (one step)
// and the product then a fused kernel over it (the product eager, the rest
// lazy). Counters: the median milliseconds of each way and their ratio.
// `linear` reads the weight transposed, with the bias as addmm's input.
void BM_ProductEpilogue(benchmark::State& state, int64_t m, int64_t k, int64_t n, bool linear_weight) {
  const Tensor x = randn({m, k}, make_generator(14));
  const Tensor w = (linear_weight ? randn({n, k}, make_generator(15)) : randn({k, n}, make_generator(15))) * 0.05;
  const Tensor b = randn({n}, make_generator(16));
  const auto epilogue_in_product = [&] {
    const Tensor xl = x.to_lazy(), wl = w.to_lazy(), bl = b.to_lazy();
    return gelu(linear_weight ? linear(xl, wl, bl) : mm(xl, wl) + bl).to_eager();
  };
  const auto kernel_after = [&] {
    const Tensor product = linear_weight ? linear(x, w, b) : mm(x, w);
    return gelu(linear_weight ? product.to_lazy() : product.to_lazy() + b.to_lazy()).to_eager();
  };
  const uint64_t epilogues = lazy::metrics().product_epilogues;
  epilogue_in_product();  // compiles both
  kernel_after();
  if (lazy::metrics().product_epilogues == epilogues) {
    state.SkipWithError("the epilogue ran after the product");
    return;
  }
  std::vector<double> in_product, after;
  for (auto _ : state) {
    for (const bool fused : {true, false}) {
      const auto start = std::chrono::steady_clock::now();
      benchmark::DoNotOptimize(fused ? epilogue_in_product() : kernel_after());
      (fused ? in_product : after)
          .push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    state.SetIterationTime((in_product.back() + after.back()) * 1e-3);
  }
  const auto median = [](std::vector<double> v) {
    std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(v.size() / 2), v.end());
    return v[v.size() / 2];
  };
  state.counters["in_product_ms"] = median(in_product);
  state.counters["kernel_after_ms"] = median(after);
  state.counters["ratio"] = median(in_product) / median(after);
}
// W6; W10's layers (x @ W^T); W11's projections and MLP.
BENCHMARK_CAPTURE(BM_ProductEpilogue, w6_512x1024x4096, 512, 1024, 4096, false)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ProductEpilogue, w10_256x1024x4096, 256, 1024, 4096, true)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ProductEpilogue, w10_256x4096x4096, 256, 4096, 4096, true)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ProductEpilogue, w10_256x4096x1024, 256, 4096, 1024, true)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ProductEpilogue, w11_2048x512x1536, 2048, 512, 1536, true)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ProductEpilogue, w11_2048x512x2048, 2048, 512, 2048, true)->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_ProductEpilogue, w11_2048x2048x512, 2048, 2048, 512, true)->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace lz::bench

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  benchmark::AddCustomContext("lazuli_threads", std::to_string(lz::get_num_threads()));
  benchmark::AddCustomContext("openblas_core", lz::blas_core_name());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
