// The matrix-product libraries issue 32 asked to compare, on W6's product and
// the products of a W10/W11 training step: OpenBLAS (what Lazuli uses),
// BLIS and oneDNN (matmul, with W6's bias + gelu as post-ops: the epilogue
// applied in the product's own pass). Built when CMake finds oneDNN
// (Debian: libdnnl-dev); OpenBLAS and BLIS (Debian's OpenMP build,
// libblis-openmp-dev) are opened at run time and a missing one is reported
// as an error of its benchmarks. Each library keeps its own thread
// pool, and pools left spinning slow each other several-fold on 2 cores, so
// run one library per process:
//   for lib in openblas blis onednn; do
//     OMP_WAIT_POLICY=passive ./build/bench/bench_gemm_candidates --benchmark_filter=$lib; done
// OPENBLAS_CORETYPE defaults to SkylakeX here, as Lazuli sets it on AVX-512 CPUs.
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include <dnnl.hpp>

namespace {

struct Shape {
  const char* name;
  int batch, m, k, n;
  bool trans_a, trans_b, epilogue;  // epilogue: + bias, gelu (W6)
};

const Shape kShapes[] = {
    {"W6_x@W", 1, 512, 1024, 4096, false, false, true},
    {"W10_forward", 1, 256, 1024, 4096, false, false, false},
    {"W10_xT@dy", 1, 1024, 256, 4096, true, false, false},
    {"W10_dy@WT", 1, 256, 4096, 1024, false, true, false},
    {"W11_q@kT", 64, 256, 64, 256, false, true, false},
    {"W11_p@v", 64, 256, 256, 64, false, false, false},
};

struct Operands {
  std::vector<float> a, b, c, bias;
  explicit Operands(const Shape& s)
      : a(size_t(s.batch) * s.m * s.k), b(size_t(s.batch) * s.k * s.n), c(size_t(s.batch) * s.m * s.n), bias(s.n) {
    std::mt19937 rng(1);
    std::normal_distribution<float> normal;
    for (std::vector<float>* v : {&a, &b, &bias}) {
      for (float& x : *v) x = normal(rng);
    }
  }
};

using Sgemm = void (*)(int, int, int, int, int, int, float, const float*, int, const float*, int, float, float*, int);

Sgemm open_sgemm(const char* library) {
  void* handle = dlopen(library, RTLD_NOW | RTLD_LOCAL);
  return handle == nullptr ? nullptr : reinterpret_cast<Sgemm>(dlsym(handle, "cblas_sgemm"));
}

void set_flops(benchmark::State& state, const Shape& s) {
  state.counters["GFLOPs"] = benchmark::Counter(2e-9 * s.batch * s.m * s.k * s.n,
                                                benchmark::Counter::kIsIterationInvariantRate);
}

// The product alone through a CBLAS sgemm (row-major), one call per matrix.
void BM_Blas(benchmark::State& state, const char* library, Shape s) {
  static std::unordered_map<std::string, Sgemm> opened;
  if (!opened.count(library)) opened[library] = open_sgemm(library);
  const Sgemm sgemm = opened[library];
  if (sgemm == nullptr) {
    state.SkipWithError((std::string(library) + " could not be opened").c_str());
    return;
  }
  Operands o(s);
  const size_t sa = size_t(s.m) * s.k, sb = size_t(s.k) * s.n, sc = size_t(s.m) * s.n;
  for (auto _ : state) {
    for (int i = 0; i < s.batch; ++i) {
      sgemm(101, s.trans_a ? 112 : 111, s.trans_b ? 112 : 111, s.m, s.n, s.k, 1.0f, o.a.data() + i * sa,
            s.trans_a ? s.m : s.k, o.b.data() + i * sb, s.trans_b ? s.k : s.n, 0.0f, o.c.data() + i * sc, s.n);
    }
    benchmark::DoNotOptimize(o.c.data());
  }
  set_flops(state, s);
}

// oneDNN's matmul; W6 with bias and gelu_erf fused into it.
void BM_Onednn(benchmark::State& state, Shape s) {
  using dnnl::memory;
  const dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  Operands o(s);
  const memory::dim sa = memory::dim(s.m) * s.k, sb = memory::dim(s.k) * s.n;
  const memory::desc a_md({s.batch, s.m, s.k}, memory::data_type::f32,
                          s.trans_a ? memory::dims{sa, 1, s.m} : memory::dims{sa, s.k, 1});
  const memory::desc b_md({s.batch, s.k, s.n}, memory::data_type::f32,
                          s.trans_b ? memory::dims{sb, 1, s.k} : memory::dims{sb, s.n, 1});
  const memory::desc c_md({s.batch, s.m, s.n}, memory::data_type::f32, memory::format_tag::abc);
  const memory::desc bias_md({1, 1, s.n}, memory::data_type::f32, memory::format_tag::abc);
  dnnl::post_ops post_ops;
  if (s.epilogue) post_ops.append_eltwise(1.0f, dnnl::algorithm::eltwise_gelu_erf, 0.0f, 0.0f);
  dnnl::primitive_attr attr;
  attr.set_post_ops(post_ops);
  const auto desc = s.epilogue ? dnnl::matmul::desc(a_md, b_md, bias_md, c_md) : dnnl::matmul::desc(a_md, b_md, c_md);
  const dnnl::matmul matmul(dnnl::matmul::primitive_desc(desc, attr, engine));
  std::unordered_map<int, memory> args{{DNNL_ARG_SRC, memory(a_md, engine, o.a.data())},
                                       {DNNL_ARG_WEIGHTS, memory(b_md, engine, o.b.data())},
                                       {DNNL_ARG_DST, memory(c_md, engine, o.c.data())}};
  if (s.epilogue) args.emplace(DNNL_ARG_BIAS, memory(bias_md, engine, o.bias.data()));
  for (auto _ : state) {
    matmul.execute(stream, args);
    stream.wait();
  }
  set_flops(state, s);
}

// Debian installs BLIS's threaded build beside the default (serial) one.
const char* const kBlis = "/usr/lib/x86_64-linux-gnu/blis-openmp/libblis.so.4";

const int kRegistered = [] {
  for (const Shape& s : kShapes) {
    const std::string name = std::string("/") + s.name + (s.epilogue ? "_product_only" : "");
    benchmark::RegisterBenchmark(("openblas" + name).c_str(), BM_Blas, "libopenblas.so.0", s)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("blis" + name).c_str(), BM_Blas, kBlis, s)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("onednn/" + std::string(s.name) + (s.epilogue ? "_bias_gelu_fused" : "")).c_str(),
                                 BM_Onednn, s)
        ->Unit(benchmark::kMillisecond);
  }
  return 0;
}();

}  // namespace

int main(int argc, char** argv) {
  setenv("OPENBLAS_CORETYPE", "SkylakeX", /*overwrite=*/0);
  // BLIS runs one thread unless told; the others default to every core.
  setenv("BLIS_NUM_THREADS", std::to_string(std::thread::hardware_concurrency()).c_str(), /*overwrite=*/0);
  benchmark::Initialize(&argc, argv);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
