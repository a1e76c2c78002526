// The fusion decisions for the benchmark workloads (shared/bench/workloads.md),
// traced through the public API exactly as a user writes them (at small
// sizes): how many kernels and eager steps the materialisation ran, and that
// the fused result equals eager.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <functional>
#include <string>
#include <vector>

#include "lazy/api.h"
#include "lazy/config.h"
#include "lazy/executable_cache.h"
#include "lazy/metrics.h"

namespace {

using lz::Scalar;
using lz::Tensor;
namespace lzl = lz::lazy;

struct Ran {
  uint64_t kernels = 0;
  uint64_t eager_steps = 0;
  lzl::CountMap eager_per_op;
  uint64_t bytes_allocated = 0;
};

// Runs `f` on lazy copies of `inputs`, materialises every result, checks
// each against `f` on the eager inputs, and says what ran.
Ran run_lazy(const std::vector<Tensor>& inputs, const std::function<std::vector<Tensor>(std::vector<Tensor>&)>& f,
             double rtol = 1e-5, double atol = 1e-6) {
  lzl::ExecutableCache::instance().clear();
  std::vector<Tensor> eager_in;
  for (const Tensor& t : inputs) eager_in.push_back(t.clone());
  const std::vector<Tensor> expected = f(eager_in);
  std::vector<Tensor> lazy_in;
  for (const Tensor& t : inputs) lazy_in.push_back(t.clone().to_lazy());
  lzl::reset_metrics();
  std::vector<Tensor> results = f(lazy_in);
  for (const Tensor& r : results) REQUIRE(r.is_lazy());
  lz::sync(results);
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(m.graphs_materialized == 1);
  for (size_t i = 0; i < results.size(); ++i) {
    const Tensor got = results[i].to_eager();
    INFO("result " << i);
    REQUIRE(got.sizes() == expected[i].sizes());
    CHECK(lz::allclose(got, expected[i], rtol, atol));
  }
  return Ran{m.kernels_launched, m.eager_steps_total, m.eager_steps, m.bytes_allocated};
}

TEST_CASE("fusion W1 gelu_tanh is one kernel", "[fusion]") {
  const Tensor x = lz::randn({1000});
  const Ran r = run_lazy({x}, [](std::vector<Tensor>& in) {
    const Tensor& v = in[0];
    const Tensor inner = (v + v.pow(Scalar(3)) * 0.044715) * 0.7978845608;
    return std::vector<Tensor>{v * 0.5 * (inner.tanh() + 1)};
  });
  CHECK(r.kernels == 1);
  CHECK(r.eager_steps == 0);
}

TEST_CASE("fusion W2 chain of ten scalar ops is one kernel", "[fusion]") {
  const Tensor x = lz::randn({1000});
  const Ran r = run_lazy({x}, [](std::vector<Tensor>& in) {
    Tensor v = in[0];
    for (int i = 0; i < 5; ++i) v = (v * (1.0 + 0.01 * i)) + (0.1 * i);
    return std::vector<Tensor>{v};
  });
  CHECK(r.kernels == 1);
  CHECK(r.eager_steps == 0);
}

TEST_CASE("fusion W3 bias_relu broadcasts the bias inside one kernel", "[fusion]") {
  const Tensor x = lz::randn({64, 32});
  const Tensor b = lz::randn({32});
  const Ran r = run_lazy({x, b}, [](std::vector<Tensor>& in) { return std::vector<Tensor>{(in[0] + in[1]).relu()}; });
  CHECK(r.kernels == 1);
  CHECK(r.eager_steps == 0);
}

TEST_CASE("fusion W4 softmax is one row kernel", "[fusion]") {
  const Tensor x = lz::randn({64, 100});
  const Ran r = run_lazy({x}, [](std::vector<Tensor>& in) { return std::vector<Tensor>{lz::softmax(in[0], -1)}; });
  CHECK(r.kernels == 1);
  CHECK(r.eager_steps == 0);
}

TEST_CASE("fusion W5 layer_norm with weight and bias is one row kernel", "[fusion]") {
  const Tensor x = lz::randn({64, 100});
  const Tensor w = lz::randn({100});
  const Tensor b = lz::randn({100});
  const int64_t shape[] = {100};
  const Ran r = run_lazy({x, w, b}, [&](std::vector<Tensor>& in) {
    return std::vector<Tensor>{lz::layer_norm(in[0], shape, in[1], in[2], 1e-5)};
  }, 1e-4, 1e-5);
  CHECK(r.kernels == 1);
  CHECK(r.eager_steps == 0);
}

TEST_CASE("fusion W6 mlp is a matmul step and one epilogue kernel", "[fusion]") {
  const Tensor x = lz::randn({16, 32});
  const Tensor w = lz::randn({32, 24});
  const Tensor b = lz::randn({24});
  const Ran r = run_lazy({x, w, b}, [](std::vector<Tensor>& in) {
    return std::vector<Tensor>{lz::gelu(lz::matmul(in[0], in[1]) + in[2])};
  }, 1e-4, 1e-5);
  CHECK(r.kernels == 1);
  CHECK(r.eager_steps == 1);
  CHECK(lzl::count_of(r.eager_per_op, "mm") == 1);
  // The epilogue writes into the matmul's result at its last use.
  CHECK(r.bytes_allocated == 16 * 24 * sizeof(float));
}

TEST_CASE("fusion W7 adam step writes p, m and v from one kernel", "[fusion]") {
  const Tensor p = lz::randn({500});
  const Tensor g = lz::randn({500});
  const Tensor m = lz::randn({500}) * 0.1;
  const Tensor v = lz::rand({500}) * 0.1;
  const Ran r = run_lazy({p, g, m, v}, [](std::vector<Tensor>& in) {
    Tensor& pp = in[0];
    Tensor& mm = in[2];
    Tensor& vv = in[3];
    const double b1 = 0.9, b2 = 0.999, lr = 1e-3, eps = 1e-8;
    const int step = 10;
    mm.mul_(Scalar(b1)).add_(in[1], Scalar(1 - b1));
    vv.mul_(Scalar(b2)).addcmul_(in[1], in[1], Scalar(1 - b2));
    const double bc1 = 1 - std::pow(b1, step);
    const double bc2 = 1 - std::pow(b2, step);
    const Tensor denom = (vv.sqrt() / std::sqrt(bc2)).add_(Scalar(eps));
    pp.addcdiv_(mm, denom, Scalar(-lr / bc1));
    return std::vector<Tensor>{pp, mm, vv};
  }, 1e-5, 1e-6);
  CHECK(r.kernels == 1);
  CHECK(r.eager_steps == 0);
}

TEST_CASE("fusion W9 sum of squares is one reduction kernel", "[fusion]") {
  const Tensor x = lz::randn({10000});
  const Ran r = run_lazy({x}, [](std::vector<Tensor>& in) { return std::vector<Tensor>{(in[0] * in[0]).sum()}; },
                         1e-4, 1e-3);
  CHECK(r.kernels == 1);
  CHECK(r.eager_steps == 0);
}

TEST_CASE("fusion off runs every node eagerly with the same result", "[fusion]") {
  lzl::Settings s = lzl::settings();
  const lzl::Settings saved = s;
  s.fusion = false;
  lzl::set_settings(s);
  const Tensor x = lz::randn({64, 100});
  const Ran r = run_lazy({x}, [](std::vector<Tensor>& in) { return std::vector<Tensor>{lz::softmax(in[0], -1)}; });
  lzl::set_settings(saved);
  CHECK(r.kernels == 0);
  CHECK(r.eager_steps >= 4);
}

TEST_CASE("fusion sizes change without recompiling", "[fusion]") {
  lzl::ExecutableCache::instance().clear();
  lzl::reset_metrics();
  for (int64_t rows : {8, 16, 3}) {
    const Tensor x = lz::randn({rows, 40});
    const Tensor y = lz::softmax(x.to_lazy() * 2, -1).to_eager();
    CHECK(lz::allclose(y, lz::softmax(x * 2, -1), 1e-5, 1e-6));
  }
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(m.cache_misses == 1);
  CHECK(m.cache_hits == 2);
  CHECK(m.kernels_launched == 3);
}

TEST_CASE("fusion a size-1 dim that starts broadcasting recompiles and says why", "[fusion]") {
  lzl::ExecutableCache::instance().clear();
  lzl::reset_metrics();
  const Tensor x = lz::randn({4, 6});
  for (int64_t rows : {4, 1}) {
    const Tensor b = lz::randn({rows, 6});
    const Tensor y = (x.to_lazy() + b.to_lazy()).exp().to_eager();
    CHECK(lz::allclose(y, (x + b).exp(), 1e-5, 1e-6));
  }
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(m.cache_misses == 2);
  CHECK(lzl::count_of(m.cache_miss_reasons, "input 1: size-1 dims {} -> {0}") == 1);
}

}  // namespace

namespace {

TEST_CASE("fusion a changed attribute names the node in the miss reason", "[fusion]") {
  lzl::ExecutableCache::instance().clear();
  lzl::reset_metrics();
  const Tensor x = lz::randn({4, 6});
  for (int64_t dim : {1, 0}) {
    const int64_t dims[] = {dim};
    (void)lz::sum(x.to_lazy().exp(), dims).to_eager();
  }
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(m.cache_misses == 2);
  bool named = false;
  for (const auto& [reason, count] : m.cache_miss_reasons) {
    INFO(reason);
    if (reason.find("dim=[0]") != std::string::npos && reason.find("was") != std::string::npos &&
        reason.find("dim=[1]") != std::string::npos) {
      named = true;
    }
  }
  CHECK(named);
}

}  // namespace

namespace {

TEST_CASE("fusion a chain longer than one kernel holds continues in new kernels", "[fusion]") {
  // 3000 operators: three kernels of at most 1024 nodes, lowered without
  // deep recursion, equal to eager.
  const Tensor x = lz::randn({64});
  const Ran r = run_lazy({x}, [](std::vector<Tensor>& in) {
    Tensor v = in[0];
    for (int i = 0; i < 3000; ++i) v = (i % 2) ? v * 1.0001 : v + 0.001;
    return std::vector<Tensor>{v};
  }, 1e-4, 1e-4);
  CHECK(r.kernels >= 3);
  CHECK(r.kernels <= 6);
  CHECK(r.eager_steps == 0);
}

}  // namespace
