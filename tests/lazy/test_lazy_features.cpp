// The lazy tracing layer, feature by feature: every lazy result is compared
// with the same operators run on eager tensors, and the lazy metrics
// (process-wide: each test resets them first) show what ran and why.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/lazy/lazy_test_util.h"

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

using lz::Scalar;
using lz::Tensor;

namespace {

using namespace lazy_test;
// 20 pointwise operators; the same code runs on eager and lazy tensors.
Tensor chain20(const Tensor& x0) {
  Tensor x = x0;
  x = x.mul(Scalar(0.5));          // 1
  x = x.sin();                     // 2
  x = x.add(Scalar(1.5));          // 3  (in [1, 2])
  x = x.log();                     // 4
  x = x.exp();                     // 5
  x = x.sqrt();                    // 6
  x = x.tanh();                    // 7
  x = x.neg();                     // 8
  x = x.abs();                     // 9
  x = x.sigmoid();                 // 10
  x = x.square();                  // 11
  x = x.cos();                     // 12
  x = x.reciprocal();              // 13
  x = x.relu();                    // 14
  x = x.sub(Scalar(0.25));         // 15
  x = x.mul(x0);                   // 16
  x = x.clamp_min(Scalar(-1.0));   // 17
  x = x.add(x0, Scalar(2.0));      // 18
  x = x.div(Scalar(3.0));          // 19
  x = x.erf();                     // 20
  return x;
}

}  // namespace

// ---- 1. Graph shapes ---------------------------------------------------------------

TEST_CASE("lazy chain of 20 pointwise ops equals eager", "[lazy]") {
  fresh_start();
  const Tensor xe = lz::randn({4, 8});
  const Tensor expected = chain20(xe);

  const Tensor y = chain20(xe.to_lazy());
  REQUIRE(y.is_lazy());
  CHECK(sizes_of(y) == std::vector<int64_t>{4, 8});
  CHECK(y.dtype() == lz::kFloat32);
  CHECK(lzl::metrics().ops_traced == 20);
  CHECK(lzl::pending_operators() == 20);
  CHECK(lzl::pending_nodes() >= 21);  // and the inputs
  CHECK(lzl::metrics().graphs_materialized == 0);

  check_same(y, expected);
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(m.graphs_materialized == 1);
  CHECK(m.kernels_launched == 1);  // the whole chain is one fused kernel
  CHECK(m.eager_steps_total == 0);
  CHECK(lzl::count_of(m.syncs, "to_eager") == 1);
  CHECK(lzl::pending_nodes() == 0);
}

TEST_CASE("lazy diamond computes the shared value once", "[lazy]") {
  fresh_start();
  const Tensor xe = lz::randn({5, 3});
  auto diamond = [](const Tensor& x) {
    const Tensor a = x.exp();
    const Tensor left = a.sin();
    const Tensor right = a.cos();
    return (left * right).add(a, Scalar(0.5));
  };
  const Tensor expected = diamond(xe);
  const Tensor y = diamond(xe.to_lazy());
  REQUIRE(y.is_lazy());
  CHECK(lzl::metrics().ops_traced == 5);
  check_same(y, expected);
  CHECK(lzl::metrics().graphs_materialized == 1);
  CHECK(lzl::metrics().kernels_launched == 1);  // both branches in one kernel
  CHECK(lzl::metrics().eager_steps_total == 0);
  // Without fusion, exp runs once for both branches.
  fresh_start();
  lzl::Settings no_fusion = lzl::settings();
  no_fusion.fusion = false;
  lzl::set_settings(no_fusion);
  check_same(diamond(xe.to_lazy()), expected);
  no_fusion.fusion = true;
  lzl::set_settings(no_fusion);
  CHECK(lzl::metrics().eager_steps_total == 5);
  CHECK(lzl::count_of(lzl::metrics().eager_steps, "exp") == 1);
}

TEST_CASE("lazy value reused by several live outputs is materialised in one graph", "[lazy]") {
  fresh_start();
  const Tensor xe = lz::randn({3, 4});
  const Tensor ye = lz::randn({3, 4});
  const Tensor ae = xe.exp();
  const Tensor o1e = ae.add(Scalar(1.0));
  const Tensor o2e = ae * ye;
  const Tensor o3e = ae.sum();

  const Tensor a = xe.to_lazy().exp();
  const Tensor o1 = a.add(Scalar(1.0));
  const Tensor o2 = a * ye.to_lazy();
  const Tensor o3 = a.sum();
  REQUIRE(lzl::pending_nodes() > 0);

  check_same(o1, o1e);
  const lzl::LazyMetrics after_first = lzl::metrics();
  CHECK(after_first.graphs_materialized == 1);
  CHECK(lzl::pending_nodes() == 0);

  check_same(o2, o2e);
  check_same(o3, o3e);
  check_same(a, ae);
  const lzl::LazyMetrics after_all = lzl::metrics();
  CHECK(after_all.graphs_materialized == 1);
  CHECK(after_all.eager_steps_total == after_first.eager_steps_total);
  CHECK(lzl::count_of(after_all.syncs, "to_eager") == 1);
  CHECK(lzl::pending_nodes() == 0);
}

// ---- 2. Result cache ---------------------------------------------------------------

TEST_CASE("lazy result is stored and a later graph takes it as an input", "[lazy]") {
  fresh_start();
  const Tensor xe = lz::randn({4, 8});
  const Tensor expected = chain20(xe);
  const Tensor y = chain20(xe.to_lazy());

  const Tensor first = y.to_eager();
  const lzl::LazyMetrics m1 = lzl::metrics();
  CHECK(m1.graphs_materialized == 1);
  const Tensor second = y.to_eager();
  const lzl::LazyMetrics m2 = lzl::metrics();
  CHECK(second.is_same(first));
  CHECK(m2.graphs_materialized == m1.graphs_materialized);
  CHECK(m2.eager_steps_total == m1.eager_steps_total);
  CHECK(m2.syncs == m1.syncs);
  check_same(second, expected);

  const Tensor z = y.mul(Scalar(3.0)).add(Scalar(1.0));
  const std::string dump = lzl::dump_trace();
  INFO(dump);
  CHECK(dump.find("input") != std::string::npos);
  CHECK(dump.find("mul") != std::string::npos);
  CHECK(dump.find("sin(") == std::string::npos);
  CHECK(dump.find("tanh(") == std::string::npos);
  CHECK(dump.find("sigmoid(") == std::string::npos);
  CHECK(lzl::pending_operators() == 2);

  const uint64_t kernels_before = lzl::metrics().kernels_launched;
  check_same(z, expected.mul(Scalar(3.0)).add(Scalar(1.0)));
  CHECK(lzl::metrics().graphs_materialized == 2);
  CHECK(lzl::metrics().kernels_launched == kernels_before + 1);
}

// ---- 3. Executable cache -------------------------------------------------------------

TEST_CASE("lazy executable cache hits when only Scalars change", "[lazy]") {
  fresh_start();
  lzl::clear_executable_cache();
  Tensor we = lz::randn({8, 8});
  const Tensor ge = lz::randn({8, 8});
  Tensor w = we.to_lazy();
  for (int i = 0; i < 5; ++i) {
    // Never a special value (0, 1, 0.5, ...: ir::is_special_scalar), which
    // would be part of the structure (x * 1 folds), a graph of its own.
    const double lr = 0.1 * (i + 1) + 0.01;
    const double decay = 0.99 - 0.01 * i;
    w = w.sub(ge.to_lazy(), Scalar(lr)).mul(Scalar(decay));
    we = we.sub(ge, Scalar(lr)).mul(Scalar(decay));
    w.to_eager();
    INFO("iteration " << i);
    check_same(w, we);
  }
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(m.graphs_materialized == 5);
  CHECK(m.cache_misses == 1);
  CHECK(m.cache_hits == 4);
  CHECK(lzl::count_of(m.cache_miss_reasons, "new graph") == 1);
}

TEST_CASE("lazy executable cache misses on a new shape attribute", "[lazy]") {
  fresh_start();
  lzl::clear_executable_cache();
  const Tensor xe = lz::randn({4, 8});
  auto run = [&](std::vector<int64_t> shape) {
    const Tensor y = xe.to_lazy().reshape(shape).exp();
    check_same(y, xe.reshape(shape).exp());
  };
  run({8, 4});
  run({8, 4});
  run({2, 16});
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(m.graphs_materialized == 3);
  CHECK(m.cache_misses == 2);
  CHECK(m.cache_hits == 1);
  CHECK(lzl::count_of(m.cache_miss_reasons, "new graph") == 1);
  // The second miss names the node whose attribute changed.
  CHECK(lzl::count_of(m.cache_miss_reasons,
                      "new graph: `%1 : f32[2, 16] = view(%0, size=[2, 16])` was `%1 : f32[8, 4] = view(%0, size=[8, 4])`") == 1);
}

TEST_CASE("lazy executable cache misses on a strided input where a contiguous one was", "[lazy]") {
  fresh_start();
  lzl::clear_executable_cache();
  const Tensor contiguous = lz::randn({6, 6});
  const Tensor strided = lz::randn({6, 6}).t();
  REQUIRE_FALSE(strided.is_contiguous());
  auto run = [](const Tensor& e) {
    const Tensor y = e.to_lazy().mul(Scalar(2.0)).exp();
    check_same(y, e.mul(Scalar(2.0)).exp());
  };
  run(contiguous);
  run(strided);
  run(strided);
  run(contiguous);
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(m.cache_misses == 2);
  CHECK(m.cache_hits == 2);
  CHECK(lzl::count_of(m.cache_miss_reasons, "new graph") == 1);
  std::string layout_reason;
  for (const auto& [reason, n] : m.cache_miss_reasons) {
    if (reason != "new graph") layout_reason = reason;
  }
  INFO(m.report());
  CHECK(layout_reason.find("input") == 0);
  CHECK(layout_reason.find("contiguous -> strided") != std::string::npos);
}

TEST_CASE("lazy executable cache reuses an executable for other sizes", "[lazy]") {
  fresh_start();
  lzl::clear_executable_cache();
  const Tensor a = lz::randn({4, 8});
  const Tensor c = lz::randn({2, 3});
  auto body = [](const Tensor& x) { return x.exp().sum(std::vector<int64_t>{1}).mul(x.amax(std::vector<int64_t>{1})); };
  check_same(body(a.to_lazy()), body(a));
  check_same(body(c.to_lazy()), body(c));
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(m.cache_misses == 1);
  CHECK(m.cache_hits == 1);
}

// Two independent updates of one shape run as one merged kernel over one
// domain; the same program with shapes that differ must not reuse it.
TEST_CASE("lazy executable cache misses when merged sibling kernels no longer share sizes", "[lazy]") {
  fresh_start();
  lzl::clear_executable_cache();
  auto body = [](const Tensor& a, const Tensor& b) {
    return std::vector<Tensor>{a.mul(Scalar(0.5)).exp(), b.add(Scalar(1.0)).sin()};
  };
  auto run = [&](std::vector<int64_t> a_shape, std::vector<int64_t> b_shape) {
    const Tensor a = lz::randn(a_shape), b = lz::randn(b_shape);
    const std::vector<Tensor> lazy = body(a.to_lazy(), b.to_lazy());
    lz::sync(lazy);
    const std::vector<Tensor> eager = body(a, b);
    check_same(lazy[0], eager[0]);
    check_same(lazy[1], eager[1]);
  };
  run({4, 8}, {4, 8});  // built: one kernel over [4, 8]
  lzl::LazyMetrics m = lzl::metrics();
  REQUIRE(m.cache_misses == 1);
  CHECK(m.kernels_launched == 1);
  run({3, 5}, {3, 5});  // still equal: the same executable
  run({3, 5}, {6, 2});  // equal no more: a second variant, two kernels
  run({2, 7}, {5, 3});  // the second variant serves unequal sizes
  run({2, 7}, {2, 7});  // and the first equal ones
  m = lzl::metrics();
  INFO(m.report());
  CHECK(m.cache_misses == 2);
  CHECK(m.cache_hits == 3);
  CHECK(m.kernels_launched == 1 + 1 + 2 + 2 + 1);
  CHECK(lzl::count_of(m.cache_miss_reasons, "kernel 0 merged siblings over [3, 5] and [6, 2]") == 1);
}

// A hit finds kernel sizes at the node id of the trace the executable was
// built from when that node has the same hash there, else through the
// traced cone's post order: dead nodes recorded first shift the ids.
TEST_CASE("lazy executable cache hit takes sizes from its own trace, node ids shifted or not", "[lazy]") {
  fresh_start();
  lzl::clear_executable_cache();
  auto body = [](const Tensor& x) {  // sizes [n, m], then [n]
    return x.mul(Scalar(2.5)).neg().amax(std::vector<int64_t>{1}).add(Scalar(0.5)).abs().sqrt();
  };
  const Tensor a = lz::randn({4, 8}), b = lz::randn({3, 5}), c = lz::randn({6, 2});
  check_same(body(a.to_lazy()), body(a));
  check_same(body(b.to_lazy()), body(b));  // the same ids
  const Tensor cl = c.to_lazy();
  { const Tensor dead = cl.exp().exp().exp().exp(); }
  const Tensor lazy_c = body(cl);
  CHECK(lzl::pending_nodes() == 1 + 4 + 6);  // c, the dead exps, the body's operators
  check_same(lazy_c, body(c));  // ids shifted by 4: the built output's id is neg's now
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(m.cache_misses == 1);
  CHECK(m.cache_hits == 2);
}

TEST_CASE("lazy executable cache evicts beyond its capacity", "[lazy]") {
  SettingsGuard guard;
  lzl::clear_executable_cache();
  lzl::Settings s = lzl::settings();
  s.cache_capacity = 2;
  lzl::set_settings(s);
  fresh_start();
  const Tensor x = lz::randn({5});
  check_same(x.to_lazy().exp(), x.exp());
  check_same(x.to_lazy().sin(), x.sin());
  check_same(x.to_lazy().cos(), x.cos());  // evicts exp's
  check_same(x.to_lazy().exp(), x.exp());  // a miss again
  check_same(x.to_lazy().cos(), x.cos());  // still cached
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(m.cache_misses == 4);
  CHECK(m.cache_hits == 1);
  CHECK(m.cache_evictions == 2);
  CHECK(m.cache_size == 2);
  lzl::Settings bad = s;
  bad.node_limit = 0;
  CHECK_THROWS_AS(lzl::set_settings(bad), lz::ValueError);
  bad = s;
  bad.cache_capacity = 0;
  CHECK_THROWS_AS(lzl::set_settings(bad), lz::ValueError);
  CHECK(lzl::settings().cache_capacity == 2);
}

// ---- 8. Synchronisation causes ----------------------------------------------------------

TEST_CASE("lazy sync and sync_all count their cause and compute siblings", "[lazy]") {
  fresh_start();
  const Tensor xe = lz::randn({6});
  const Tensor x = xe.to_lazy();
  const Tensor a = x.exp();
  const Tensor b = x.sin();
  lz::sync({a});
  CHECK(lzl::count_of(lzl::metrics().syncs, "sync") == 1);
  CHECK(lzl::metrics().graphs_materialized == 1);
  CHECK(lzl::pending_nodes() == 0);
  check_same(b, xe.sin());
  check_same(a, xe.exp());
  CHECK(lzl::metrics().graphs_materialized == 1);
  CHECK(lzl::count_of(lzl::metrics().syncs, "to_eager") == 0);

  lz::sync({a, b});  // nothing pending: nothing runs
  CHECK(lzl::count_of(lzl::metrics().syncs, "sync") == 1);
  CHECK(lzl::metrics().graphs_materialized == 1);

  const Tensor c = a.cos();
  const Tensor d = b.mul(c);
  lz::sync_all();
  CHECK(lzl::count_of(lzl::metrics().syncs, "sync") == 2);
  CHECK(lzl::metrics().graphs_materialized == 2);
  CHECK(lzl::pending_nodes() == 0);
  check_same(d, xe.sin() * xe.exp().cos());
  CHECK(lzl::metrics().graphs_materialized == 2);
}

TEST_CASE("lazy item materialises the siblings too", "[lazy]") {
  fresh_start();
  const Tensor xe = lz::randn({10});
  const Tensor x = xe.to_lazy();
  const Tensor d = x.mul(Scalar(2.0)).exp();
  const Tensor total = d.sum();
  const Tensor shifted = d.add(Scalar(1.0));
  const float v = total.item<float>();
  CHECK(v == Approx(xe.mul(Scalar(2.0)).exp().sum().item<float>()).epsilon(1e-5));
  CHECK(lzl::count_of(lzl::metrics().syncs, "item") == 1);
  CHECK(lzl::metrics().graphs_materialized == 1);
  CHECK(lzl::pending_nodes() == 0);
  check_same(shifted, xe.mul(Scalar(2.0)).exp().add(Scalar(1.0)));
  check_same(d, xe.mul(Scalar(2.0)).exp());
  CHECK(lzl::metrics().graphs_materialized == 1);
}

TEST_CASE("lazy live temporaries cheap to recompute are left pending, not stored", "[lazy]") {
  // lz::sum(x * x).item(): the temporary x * x is alive, but only the sum
  // is stored; read later, it is computed then.
  fresh_start();
  const Tensor xe = lz::randn({1000});
  const Tensor x = xe.to_lazy();
  {
    const Tensor squares = x * x;
    CHECK(lz::sum(squares).item<float>() == Approx((xe * xe).sum().item<float>()).epsilon(1e-5));
    CHECK(lzl::metrics().values_left_pending == 1);
    CHECK(lzl::metrics().kernels_launched == 1);
    CHECK(lzl::metrics().bytes_allocated < 1000 * sizeof(float));  // the sum only
    CHECK(lzl::pending_nodes() == 0);  // the cone waits in the tensor, not in the trace
    check_same(squares, xe * xe);
    CHECK(lzl::metrics().graphs_materialized == 2);
    check_same(squares, xe * xe);  // stored now
    CHECK(lzl::metrics().graphs_materialized == 2);
  }
  // Used by later work, the cone joins that graph (one kernel); a value
  // computed from a cone taken back is stored (a cone is recomputed once).
  fresh_start();
  {
    const Tensor twice = x * 2;
    (void)lz::sum(twice).item<float>();
    const Tensor shifted = twice + 1;
    const Tensor total = shifted.sum();
    check_same(total, (xe * 2 + 1).sum(), 1e-5, 1e-4);
    CHECK(lzl::metrics().values_left_pending == 1);
    check_same(shifted, xe * 2 + 1);
    check_same(twice, xe * 2);
    CHECK(lzl::metrics().graphs_materialized == 2);
  }
  // Stored: a requested value, an expensive one (exp), one behind a
  // reduction, and values synced together.
  fresh_start();
  {
    const Tensor e = x.exp();
    const Tensor centred = x - x.mean();
    (void)(e.sum() + centred.sum()).item<float>();
    const Tensor s = x * 3;
    const Tensor total = s.sum();
    lz::sync({total, s});
    CHECK(lzl::metrics().values_left_pending == 0);
    CHECK(lzl::metrics().graphs_materialized == 2);
    check_same(e, xe.exp());
    check_same(centred, xe - xe.mean());
    check_same(s, xe * 3);
    CHECK(lzl::metrics().graphs_materialized == 2);
  }
}

TEST_CASE("lazy print and data_ptr count their cause", "[lazy]") {
  fresh_start();
  const Tensor xe = lz::randn({2, 3});
  const Tensor g = xe.to_lazy().tanh();
  std::ostringstream os;
  os << g;
  CHECK(os.str() == xe.tanh().to_string());
  CHECK(lzl::count_of(lzl::metrics().syncs, "print") == 1);
  CHECK(lzl::metrics().graphs_materialized == 1);

  const Tensor h = xe.to_lazy().abs().add(Scalar(1.0));
  const float* p = h.data_ptr<float>();
  REQUIRE(p != nullptr);
  CHECK(lzl::count_of(lzl::metrics().syncs, "data_access") == 1);
  CHECK(lzl::metrics().graphs_materialized == 2);
  const Tensor he = xe.abs().add(Scalar(1.0)).contiguous();
  const float* q = he.data_ptr<float>();
  for (int i = 0; i < 6; ++i) CHECK_THAT(p[i], Catch::Matchers::WithinRel(q[i], 1e-6f));
  CHECK(lzl::pending_nodes() == 0);

  const Tensor k = xe.to_lazy().neg();
  (void)k.to_string();
  CHECK(lzl::count_of(lzl::metrics().syncs, "print") == 2);
  CHECK(lzl::count_of(lzl::metrics().syncs, "to_eager") == 0);
}

// ---- 9. Node freeing and automatic cuts -------------------------------------------------

TEST_CASE("lazy auto-cut at the node limit keeps traces short and results right", "[lazy]") {
  SettingsGuard guard;
  lzl::Settings s = lzl::settings();
  s.node_limit = 50;
  lzl::set_settings(s);
  fresh_start();
  const Tensor xe = lz::randn({16});
  Tensor y = xe.to_lazy();
  Tensor ye = xe;
  for (int i = 0; i < 200; ++i) {
    switch (i % 4) {
      case 0: y = y.sin(); ye = ye.sin(); break;
      case 1: y = y.mul(Scalar(1.5)); ye = ye.mul(Scalar(1.5)); break;
      case 2: y = y.add(Scalar(0.1)); ye = ye.add(Scalar(0.1)); break;
      default: y = y.tanh(); ye = ye.tanh(); break;
    }
    // Cut before the next operator once at the limit: one operator adds
    // itself and at most a couple of inputs beyond it.
    REQUIRE(lzl::pending_nodes() <= 50 + 3);
  }
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(lzl::count_of(m.syncs, "auto_cut") >= 3);
  CHECK(lzl::pending_nodes() < 50);
  CHECK(m.ops_traced == 200);
  check_same(y, ye, 1e-4, 1e-5);
  CHECK(lzl::pending_nodes() == 0);
}

TEST_CASE("lazy nodes of dropped tensors are freed and not run", "[lazy]") {
  fresh_start();
  const Tensor xe = lz::randn({8});
  {
    const Tensor a = xe.to_lazy().exp().sin();
    const Tensor b = a.cos();
    (void)b;
  }
  CHECK(lzl::pending_nodes() == 4);
  lz::sync_all();
  lzl::LazyMetrics m = lzl::metrics();
  CHECK(m.nodes_freed == 4);
  CHECK(m.graphs_materialized == 0);
  CHECK(m.eager_steps_total == 0);
  CHECK(lzl::pending_nodes() == 0);

  // One live result among dead ones: only what it needs runs.
  const Tensor keep = xe.to_lazy().exp();
  {
    const Tensor dead = keep.sin().cos();
    (void)dead;
  }
  lz::sync_all();
  m = lzl::metrics();
  CHECK(m.nodes_freed == 8);
  CHECK(m.graphs_materialized == 1);
  CHECK(m.kernels_launched == 1);
  CHECK(m.eager_steps_total == 0);
  CHECK(lzl::pending_nodes() == 0);
  check_same(keep, xe.exp());
}

// ---- 10. Forced eager operators and strict mode ------------------------------------------

TEST_CASE("lazy forced eager operator falls back and stays correct", "[lazy]") {
  SettingsGuard guard;
  lzl::Settings s = lzl::settings();
  s.force_eager = {"exp"};
  s.strict = false;
  lzl::set_settings(s);
  fresh_start();
  const Tensor xe = lz::randn({3, 5});
  const Tensor y = xe.to_lazy().mul(Scalar(0.5)).exp().add(Scalar(1.0));
  CHECK(y.is_lazy());
  lzl::LazyMetrics m = lzl::metrics();
  CHECK(lzl::count_of(m.eager_fallbacks, "exp") == 1);
  CHECK(lzl::count_of(m.syncs, "fallback") == 1);  // the mul, needed by exp
  check_same(y, xe.mul(Scalar(0.5)).exp().add(Scalar(1.0)));

  // A full name ("add.Tensor") forces that overload only: sub.Tensor and
  // the other operators stay traced.
  s.force_eager = {"add.Tensor"};
  lzl::set_settings(s);
  lzl::reset_metrics();
  const Tensor z = xe.to_lazy().sin() + xe.to_lazy();
  const Tensor w = xe.to_lazy().sin().sub(xe.to_lazy());
  CHECK(z.is_lazy());
  CHECK(w.is_lazy());
  m = lzl::metrics();
  CHECK(lzl::count_of(m.eager_fallbacks, "add.Tensor") == 1);
  CHECK(lzl::count_of(m.eager_fallbacks, "sub.Tensor") == 0);
  CHECK(lzl::count_of(m.eager_fallbacks, "exp") == 0);
  CHECK(lzl::pending_operators() == 2);  // w's sin and sub
  check_same(z, xe.sin() + xe);
  check_same(w, xe.sin() - xe);
  CHECK(lzl::metrics().graphs_materialized == 2);  // z's sin for the fallback, then w
}

TEST_CASE("lazy step profiling times eager steps per operator and the fused kernels", "[lazy]") {
  SettingsGuard guard;
  fresh_start();
  const Tensor a = lz::randn({64, 64}), b = lz::randn({64, 64});
  // A reduction, not a pointwise epilogue run inside the product.
  const auto run = [&] { return (a.to_lazy().mm(b.to_lazy()).exp() + 1).sum(1).to_eager(); };
  run();
  CHECK(lzl::metrics().step_ms.empty());  // off by default: no clock reads
  lzl::Settings s = lzl::settings();
  s.profile_steps = true;
  lzl::set_settings(s);
  check_same(run(), (a.mm(b).exp() + 1).sum(1));
  lzl::LazyMetrics m = lzl::metrics();
  REQUIRE(m.step_ms.contains(lzl::LazyMetrics::kMatrixProducts));
  REQUIRE(m.step_ms.contains(lzl::LazyMetrics::kFusedKernels));
  CHECK(m.step_ms.at(std::string(lzl::LazyMetrics::kMatrixProducts)) > 0);
  CHECK(m.step_ms.at(std::string(lzl::LazyMetrics::kFusedKernels)) > 0);
  CHECK(m.step_ms.size() == 2);  // the mm step and the kernel of exp, add and sum
  CHECK(m.report().find("step time in ms (LZ_PROFILE_STEPS)") != std::string::npos);
  // A product with its epilogue: one pass, timed as the product.
  fresh_start();
  check_same((a.to_lazy().mm(b.to_lazy()).exp() + 1).to_eager(), a.mm(b).exp() + 1);
  m = lzl::metrics();
  REQUIRE(m.product_epilogues == 1);
  CHECK(m.step_ms.size() == 1);
  CHECK(m.step_ms.at(std::string(lzl::LazyMetrics::kMatrixProducts)) > 0);
}

TEST_CASE("lazy strict mode refuses a forced eager operator naming it", "[lazy]") {
  SettingsGuard guard;
  lzl::Settings s = lzl::settings();
  s.force_eager = {"exp"};
  s.strict = true;
  lzl::set_settings(s);
  fresh_start();
  const Tensor xe = lz::randn({4});
  const Tensor x = xe.to_lazy().mul(Scalar(2.0));
  const size_t pending = lzl::pending_nodes();
  const std::string msg = message_of<lz::NotImplementedError>([&] { (void)x.exp(); });
  INFO(msg);
  CHECK(msg.find("exp") != std::string::npos);
  CHECK(lzl::pending_nodes() == pending);
  CHECK(lzl::count_of(lzl::metrics().eager_fallbacks, "exp") == 0);
  CHECK(lzl::metrics().graphs_materialized == 0);
  // Traceable operators still work in strict mode.
  check_same(x.sin(), xe.mul(Scalar(2.0)).sin());
}

// ---- 11. Random operators ------------------------------------------------------------------

TEST_CASE("lazy dropout draws the same numbers as eager", "[lazy]") {
  fresh_start();
  const Tensor x = lz::randn({37, 29});

  lz::manual_seed(7);
  const Tensor eager = lz::dropout(x, 0.5, true);
  const Tensor eager_next = lz::randn({5});
  const auto [eager_out, eager_mask] = lz::native_dropout(x, 0.3, true);
  const Tensor eager_last = lz::randn({3});

  lz::manual_seed(7);
  const Tensor lazy = lz::dropout(x.to_lazy(), 0.5, true);
  REQUIRE(lazy.is_lazy());
  const Tensor lazy_next = lz::randn({5});  // eager, drawn while the dropout is pending
  CHECK_FALSE(lazy_next.is_lazy());
  const auto [lazy_out, lazy_mask] = lz::native_dropout(x.to_lazy(), 0.3, true);
  REQUIRE(lazy_out.is_lazy());
  REQUIRE(lazy_mask.is_lazy());
  const Tensor lazy_last = lz::randn({3});
  CHECK(lzl::metrics().graphs_materialized == 0);

  CHECK(lz::equal(lazy.to_eager(), eager));
  CHECK(lz::equal(lazy_next, eager_next));
  CHECK(lz::equal(lazy_out.to_eager(), eager_out));
  CHECK(lz::equal(lazy_mask.to_eager(), eager_mask));
  CHECK(lz::equal(lazy_last, eager_last));
  CHECK(lzl::metrics().graphs_materialized == 1);
  // Some elements were dropped, some kept.
  const double kept = eager_mask.to(lz::kFloat32).mean().item<double>();
  CHECK(kept > 0.5);
  CHECK(kept < 0.9);

  // Replaying the same trace again (a cached executable) draws fresh numbers
  // in step with eager.
  lz::manual_seed(11);
  const Tensor e2 = lz::dropout(x, 0.5, true);
  lz::manual_seed(11);
  const Tensor l2 = lz::dropout(x.to_lazy(), 0.5, true);
  CHECK(lz::equal(l2.to_eager(), e2));
  CHECK_FALSE(lz::equal(e2, eager));

  // In place, on a lazy tensor.
  lz::manual_seed(5);
  Tensor de = x.clone();
  lz::dropout_(de, 0.4, true);
  const Tensor de_next = lz::randn({4});
  lz::manual_seed(5);
  Tensor dl = x.clone().to_lazy();
  lz::dropout_(dl, 0.4, true);
  const Tensor dl_next = lz::randn({4});
  CHECK(dl.is_lazy());
  CHECK(lz::equal(dl.to_eager(), de));
  CHECK(lz::equal(dl_next, de_next));
}

// ---- 12. Eager inputs modified before materialisation ----------------------------------

TEST_CASE("lazy computation keeps the value an eager input had when it was captured", "[lazy]") {
  fresh_start();
  Tensor e = lz::randn({4});
  const Tensor before = e.clone();
  const Tensor y = e.to_lazy().mul(Scalar(2.0));
  e.add_(Scalar(1.0));  // eagerly, y was computed before this write
  check_same(y, before.mul(Scalar(2.0)));
  check_same(e.to_lazy().mul(Scalar(2.0)), e.mul(Scalar(2.0)));

  // An eager operand of a mixed operation, written after the call and
  // before the graph runs; a later use of it sees the write.
  const Tensor xe = lz::randn({4});
  Tensor other = lz::randn({4});
  const Tensor other_before = other.clone();
  const Tensor z = xe.to_lazy().exp() + other;
  other.mul_(Scalar(2.0));
  const Tensor z2 = xe.to_lazy().exp() + other;
  check_same(z, xe.exp() + other_before);
  check_same(z2, xe.exp() + other);

  // A capture whose computation was dropped before the write is no error.
  Tensor w = lz::ones({3});
  { const Tensor dropped = lz::ones({3}).to_lazy() + w; }
  w.add_(Scalar(1.0));
  check_same(lz::ones({3}).to_lazy() + w, lz::full({3}, 3.0));
}

TEST_CASE("lazy kernel error at materialisation fails the values it reaches only", "[lazy]") {
  fresh_start();
  const Tensor a = lz::tensor({4, 5, 6}, lz::kInt64);
  const Tensor z = lz::tensor({1, 0, 2}, lz::kInt64);
  const std::string eager_msg = message_of<lz::ValueError>([&] { (void)a.div(z, "trunc"); });
  REQUIRE_FALSE(eager_msg.empty());
  const Tensor q = a.to_lazy().div(z.to_lazy(), "trunc");  // the meta cannot see the zero
  const Tensor q_plus = q.add(Scalar(1));
  const Tensor sibling = a.to_lazy().mul(Scalar(2));
  CHECK(message_of<lz::ValueError>([&] { (void)q.to_eager(); }) == eager_msg);
  CHECK(lzl::pending_nodes() == 0);
  CHECK(lzl::metrics().graphs_failed == 1);
  // The sibling was computed; the values computed from q keep q's error.
  check_same(sibling, a.mul(Scalar(2)));
  CHECK(message_of<lz::ValueError>([&] { (void)q.to_eager(); }) == eager_msg);
  CHECK(message_of<lz::ValueError>([&] { (void)q_plus.to_eager(); }) == eager_msg);
  CHECK(message_of<lz::ValueError>([&] { (void)q.add(Scalar(1)); }) == eager_msg);
  // Later work is unaffected.
  check_same(a.to_lazy().add(Scalar(1)), a.add(Scalar(1)));
  CHECK(a.to_lazy().sum().item<int64_t>() == 15);
}

// ---- 13. 0-dim and 0-size tensors ---------------------------------------------------------

TEST_CASE("lazy 0-dim tensors through several ops", "[lazy]") {
  fresh_start();
  const Tensor se = lz::scalar_tensor(0.75);
  const Tensor s = se.to_lazy();
  const Tensor r = (s.exp() * s).add(Scalar(1.0));
  CHECK(r.is_lazy());
  CHECK(r.dim() == 0);
  CHECK(r.numel() == 1);
  check_same(r, (se.exp() * se).add(Scalar(1.0)));
  CHECK(r.item<double>() == Approx(std::exp(0.75) * 0.75 + 1.0).epsilon(1e-6));

  const Tensor ve = lz::randn({3});
  const Tensor b = ve.to_lazy() + s.sin();
  CHECK(sizes_of(b) == std::vector<int64_t>{3});
  check_same(b, ve + se.sin());
  const Tensor total = ve.to_lazy().sum();
  CHECK(total.dim() == 0);
  check_same(total, ve.sum());
  const Tensor ie = lz::scalar_tensor(Scalar(int64_t{7}), lz::kInt64);
  check_same(ie.to_lazy().mul(Scalar(int64_t{3})).sub(Scalar(int64_t{1})), ie.mul(Scalar(int64_t{3})).sub(Scalar(int64_t{1})));
}

TEST_CASE("lazy 0-size tensors through several ops", "[lazy]") {
  fresh_start();
  const Tensor ze = lz::randn({0, 4});
  const Tensor z = ze.to_lazy();
  const Tensor r1 = z.exp().mul(Scalar(2.0));
  const Tensor r2 = z.sum(std::vector<int64_t>{0});
  const Tensor r3 = z.sum();
  const Tensor r4 = z.t().reshape({2, 0, 2});
  const Tensor r5 = z + lz::randn({4}).to_lazy();
  CHECK(sizes_of(r1) == std::vector<int64_t>{0, 4});
  CHECK(sizes_of(r2) == std::vector<int64_t>{4});
  CHECK(r3.dim() == 0);
  CHECK(sizes_of(r4) == std::vector<int64_t>{2, 0, 2});
  CHECK(sizes_of(r5) == std::vector<int64_t>{0, 4});
  check_same(r1, ze.exp().mul(Scalar(2.0)));
  check_same(r2, lz::zeros({4}));
  check_same(r3, lz::scalar_tensor(0.0, lz::kFloat32));
  check_same(r4, ze.t().reshape({2, 0, 2}));
  CHECK(r5.numel() == 0);
  Tensor w = lz::empty({0, 3}).to_lazy();
  w.add_(Scalar(1.0));
  w.fill_(Scalar(2.0));
  CHECK(sizes_of(w) == std::vector<int64_t>{0, 3});
  check_same(w, lz::empty({0, 3}));
}
