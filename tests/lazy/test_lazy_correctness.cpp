// Regression tests for the ways lazy mode once disagreed with eager mode:
// writes through views of to_lazy() tensors, failures reaching unrelated
// values, lost values, pow's special exponents, the layout of clone/to, the
// memory to_eager() hands out, as_strided bounds, LZ_PASSES=none.
#include <cmath>
#include <fstream>
#include <functional>
#include <limits>

#include "lazy/lazy_tensor_impl.h"
#include "lazy/trace.h"
#include "tests/lazy/lazy_test_util.h"

using namespace lazy_test;

namespace {

using lz::IntArrayRef;

struct ViewKind {
  const char* name;
  std::function<Tensor(const Tensor&)> take;  // of a [4, 6] tensor
};

const std::vector<ViewKind>& view_kinds() {
  static const std::vector<ViewKind> kinds = {
      {"t", [](const Tensor& b) { return b.t(); }},
      {"transpose", [](const Tensor& b) { return b.transpose(0, 1); }},
      {"permute", [](const Tensor& b) { return b.permute({1, 0}); }},
      {"select", [](const Tensor& b) { return b.select(0, 2); }},
      {"index", [](const Tensor& b) { return b[1]; }},
      {"narrow", [](const Tensor& b) { return b.narrow(1, 2, 3); }},
      {"slice with a step", [](const Tensor& b) { return b.slice(1, 1, 6, 2); }},
      {"view", [](const Tensor& b) { return b.view({6, 4}); }},
      {"reshape", [](const Tensor& b) { return b.reshape({24}); }},
      {"flatten", [](const Tensor& b) { return b.flatten(); }},
      {"unsqueeze", [](const Tensor& b) { return b.unsqueeze(0); }},
      {"squeeze", [](const Tensor& b) { return b.unsqueeze(1).squeeze(1); }},
      {"as_strided", [](const Tensor& b) { return b.as_strided({2, 3}, {6, 2}, 1); }},
      {"split piece", [](const Tensor& b) { return lz::split(b, 2, 0)[1]; }},
      {"chunk piece", [](const Tensor& b) { return lz::chunk(b, 3, 1)[2]; }},
      {"view of a view", [](const Tensor& b) { return b.t()[3].narrow(0, 1, 2); }},
  };
  return kinds;
}

struct Write {
  const char* name;
  std::function<void(Tensor&)> apply;  // in place, on a float tensor
};

const std::vector<Write>& writes() {
  static const std::vector<Write> w = {
      {"add_", [](Tensor& v) { v.add_(Scalar(1.5)); }},
      {"mul_", [](Tensor& v) { v.mul_(Scalar(-2.0)); }},
      {"sub_", [](Tensor& v) { v.sub_(lz::ones(v.sizes())); }},
      {"fill_", [](Tensor& v) { v.fill_(Scalar(7.0)); }},
      {"zero_", [](Tensor& v) { v.zero_(); }},
      {"copy_", [](Tensor& v) { v.copy_(lz::full(v.sizes(), 3.0)); }},
      {"exp_", [](Tensor& v) { v.exp_(); }},
      {"clamp_", [](Tensor& v) { v.clamp_(Scalar(-0.5), Scalar(0.5)); }},
      {"masked_fill_", [](Tensor& v) { v.masked_fill_(v.gt(Scalar(0.0)), Scalar(9.0)); }},
      {"+=", [](Tensor& v) { v += 2.0; }},
      {"mul_out into it", [](Tensor& v) { lz::mul_out(v, lz::ones(v.sizes()), lz::full(v.sizes(), 4.0)); }},
  };
  return w;
}

// The values of `t`, in row-major order, as doubles.
std::vector<double> values_of(const Tensor& t) {
  const Tensor d = t.to_eager().to(lz::kFloat64).contiguous();
  const double* p = d.data_ptr<double>();
  return std::vector<double>(p, p + d.numel());
}

Tensor input_values() { return lz::arange(24, lz::kFloat32).reshape({4, 6}).sub(Scalar(11.0)).div(Scalar(4.0)); }

}  // namespace

// ---- 1. Writes through views of to_lazy() tensors ------------------------------------------

TEST_CASE("lazy writes through a dropped view of a to_lazy() tensor reach the tensor", "[lazy]") {
  fresh_start();
  for (const ViewKind& view : view_kinds()) {
    for (const Write& write : writes()) {
      INFO("view " << view.name << ", write " << write.name);
      Tensor eager = input_values();
      {
        Tensor v = view.take(eager);
        write.apply(v);
      }
      Tensor lazy = input_values().to_lazy();
      {
        Tensor v = view.take(lazy);
        write.apply(v);
      }  // the view is gone before the base is read
      check_same(lazy, eager);
      // Read again, and computed on: the value stays.
      check_same(lazy.add(Scalar(1.0)), eager.add(Scalar(1.0)));
    }
  }
}

TEST_CASE("lazy writes through dropped views survive sync, sync_all and the automatic cut", "[lazy]") {
  fresh_start();
  for (const ViewKind& view : view_kinds()) {
    INFO("view " << view.name);
    Tensor eager = input_values();
    Tensor lazy = input_values().to_lazy();
    Tensor other = lz::ones({2}).to_lazy().mul(Scalar(3.0));
    { Tensor v = view.take(eager); v.mul_(Scalar(3.0)); }
    { Tensor v = view.take(lazy); v.mul_(Scalar(3.0)); }
    lz::sync({other});  // runs the base's pending write too
    check_same(lazy, eager);
    { Tensor v = view.take(eager); v.add_(Scalar(1.0)); }
    { Tensor v = view.take(lazy); v.add_(Scalar(1.0)); }
    lz::sync_all();
    check_same(lazy, eager);
  }
  // A loop writing rows, with a sync every few steps and a small node limit.
  SettingsGuard restore;
  lzl::Settings s = lzl::settings();
  s.node_limit = 7;
  lzl::set_settings(s);
  Tensor we = lz::ones({8, 4});
  Tensor w = lz::ones({8, 4}).to_lazy();
  for (int i = 0; i < 40; ++i) {
    we[i % 8].mul_(Scalar(0.5));
    w[i % 8].mul_(Scalar(0.5));
    if (i % 5 == 4) lz::sync_all();
  }
  check_same(w, we);
  CHECK(lzl::metrics().syncs.count("auto_cut") == 1);
}

TEST_CASE("lazy writes through views of strided, offset and materialised inputs", "[lazy]") {
  fresh_start();
  const std::vector<std::function<Tensor()>> sources = {
      [] { return input_values().t(); },                       // strided
      [] { return lz::arange(40, lz::kFloat32).narrow(0, 7, 24).view({4, 6}); },  // offset
      [] { return input_values().to_lazy().mul(Scalar(2.0)); },  // computed, then materialised below
  };
  for (size_t k = 0; k < sources.size(); ++k) {
    INFO("source " << k);
    Tensor eager = sources[k]();
    if (eager.is_lazy()) eager = eager.to_eager().clone();
    Tensor lazy = sources[k]();
    lazy = lazy.is_lazy() ? lazy : lazy.to_lazy();
    if (k == 2) lz::sync({lazy});
    { Tensor v = eager.narrow(0, 1, 2); v.add_(Scalar(5.0)); Tensor w = v.select(1, 0); w.fill_(Scalar(-1.0)); }
    { Tensor v = lazy.narrow(0, 1, 2); v.add_(Scalar(5.0)); Tensor w = v.select(1, 0); w.fill_(Scalar(-1.0)); }
    check_same(lazy, eager);
  }
}

// ---- 2. A failing value fails only what it reaches ----------------------------------------

TEST_CASE("lazy failing graph: siblings are computed, dependents keep the original error", "[lazy]") {
  fresh_start();
  const Tensor le = lz::randn({3, 4});
  const Tensor l = le.to_lazy();
  const Tensor bad = lz::tensor({0L, 7L});
  const std::string eager_msg = message_of<lz::IndexError>([&] { (void)le.index_select(1, bad); });
  REQUIRE_FALSE(eager_msg.empty());
  const Tensor a = l * 2;
  const Tensor b = l.index_select(1, bad);  // the meta cannot see the index values
  const Tensor b_sum = b.sum();
  const Tensor e = l.exp();
  CHECK(message_of<lz::IndexError>([&] { (void)b.to_eager(); }) == eager_msg);
  check_same(a, le * 2);
  CHECK(message_of<lz::IndexError>([&] { (void)b.to_eager(); }) == eager_msg);
  CHECK(message_of<lz::IndexError>([&] { (void)b_sum.item<float>(); }) == eager_msg);
  check_same(e, le.exp());
  // Operating on a failed value raises its error at the call.
  CHECK(message_of<lz::IndexError>([&] { (void)b.add(Scalar(1.0)); }) == eager_msg);

  // sync of unaffected tensors returns; sync of a failed one, and sync_all
  // of a graph with a failing value, raise the failure.
  const Tensor c = l.index_select(1, bad);
  const Tensor d = l.neg();
  CHECK_THROWS_AS(lz::sync_all(), lz::IndexError);
  check_same(d, le.neg());
  CHECK_THROWS_AS(lz::sync({c}), lz::IndexError);
  const Tensor f = l.index_select(1, bad);
  const Tensor g = l.abs();
  CHECK_NOTHROW(lz::sync({g}));
  check_same(g, le.abs());
  CHECK_THROWS_AS(f.to_eager(), lz::IndexError);
}

// ---- 3. A lost value is an internal error -------------------------------------------------

TEST_CASE("lazy value left without a result raises InternalError naming it", "[lazy]") {
  fresh_start();
  // A tensor whose pending value no registered tensor holds (what the view
  // bug once produced): the trace runs without it.
  lz::lazy::Trace& tr = lz::lazy::Trace::current();
  const Tensor x = lz::ones({2, 3}).to_lazy().mul(Scalar(2.0));
  const lz::ir::ValueId id = lz::lazy::lazy_impl(x)->own_value().id;
  const Tensor orphan(lz::make_intrusive<lz::lazy::LazyTensorImpl>(lz::meta_of(x), tr.pending(id)));
  lz::sync_all();
  const std::string msg = message_of<lz::InternalError>([&] { (void)orphan.to_eager(); });
  INFO(msg);
  CHECK(msg.find("lost its pending value %" + std::to_string(id)) != std::string::npos);
  CHECK(msg.find("[2, 3]") != std::string::npos);
  check_same(x, lz::full({2, 3}, 2.0));
}

// ---- 4. Smaller disagreements ---------------------------------------------------------------

TEST_CASE("lazy pow with a number exponent matches eager at special values", "[lazy]") {
  fresh_start();
  const double inf = std::numeric_limits<double>::infinity();
  const Tensor x64 = lz::tensor({-inf, -0.0, 0.0, inf, -4.0, 0.25, 9.0, std::nan("")});
  for (lz::ScalarType dtype : {lz::kFloat32, lz::kFloat64, lz::kFloat16, lz::kBFloat16}) {
    const Tensor x = x64.to(dtype);
    for (double e : {0.5, -0.5, 2.0, 3.0, -1.0, -2.0, 0.0, 1.0, 0.75, -1.5}) {
      INFO(lz::to_string(dtype) << " exponent " << e);
      const Tensor expected = lz::pow(x, Scalar(e));
      const Tensor actual = lz::pow(x.to_lazy(), Scalar(e)).to_eager();
      const std::vector<double> ev = values_of(expected), av = values_of(actual);
      for (size_t i = 0; i < ev.size(); ++i) {
        INFO("element " << i << ": eager " << ev[i] << ", lazy " << av[i]);
        if (std::isnan(ev[i])) {
          CHECK(std::isnan(av[i]));
        } else {
          CHECK(ev[i] == av[i]);
          CHECK(std::signbit(ev[i]) == std::signbit(av[i]));  // -0.0 stays -0.0
        }
      }
    }
  }
  // A tensor exponent, even 0-dim, is C's pow element by element in both modes.
  const Tensor half = lz::scalar_tensor(0.5);
  CHECK(std::isinf(lz::pow(x64, half)[0].item<double>()));
  check_same(lz::pow(x64.to_lazy(), half.to_lazy()), lz::pow(x64, half), 0, 0);
}

TEST_CASE("lazy clone and to of a strided tensor report eager's strides", "[lazy]") {
  fresh_start();
  const Tensor xe = lz::randn({3, 5});
  const Tensor x = xe.to_lazy();
  const std::vector<std::function<Tensor(const Tensor&)>> makers = {
      [](const Tensor& t) { return t.t().clone(); },
      [](const Tensor& t) { return t.t().to(lz::kFloat64); },
      [](const Tensor& t) { return t.t().clone(lz::MemoryFormat::Preserve); },
      [](const Tensor& t) { return t.t().clone(lz::MemoryFormat::Contiguous); },
      [](const Tensor& t) { return t.slice(1, 0, 5, 2).clone(); },  // not dense: contiguous
  };
  for (size_t k = 0; k < makers.size(); ++k) {
    INFO("case " << k);
    const Tensor e = makers[k](xe);
    const Tensor l = makers[k](x);
    CHECK(strides_of(l) == strides_of(e));
    CHECK(l.is_contiguous() == e.is_contiguous());
    const std::string eager_view = message_of<lz::Error>([&] { (void)e.view({-1}); });
    const std::string lazy_view = message_of<lz::Error>([&] { (void)l.view({-1}); });
    CHECK(lazy_view == eager_view);
    const Tensor le = l.to_eager();
    CHECK(strides_of(le) == strides_of(e));
    check_same(le, e, 0, 0);
    // Computed on, then written through a view: still eager's answer.
    Tensor e2 = makers[k](xe);
    Tensor l2 = makers[k](x);
    e2[1].add_(Scalar(1.0));
    l2[1].add_(Scalar(1.0));
    check_same(l2.mul(Scalar(2.0)), e2.mul(Scalar(2.0)), 0, 0);
  }
}

TEST_CASE("lazy to_eager() results and to_lazy() sources are independent of the lazy value", "[lazy]") {
  fresh_start();
  // Writing the tensor to_eager() returned leaves the lazy tensor alone.
  const Tensor y = lz::ones({3}).to_lazy() * 2;
  Tensor e = y.to_eager();
  CHECK(e.is_same(y.to_eager()));  // unmodified: the same tensor again, nothing copied
  e.add_(Scalar(100.0));
  check_same(y, lz::full({3}, 2.0));
  check_same(y + 0, lz::full({3}, 2.0));
  CHECK_FALSE(y.to_eager().is_same(e));
  CHECK(lz::equal(e, lz::full({3}, 102.0)));

  // ... through a view of the result, and for a lazy view's result.
  const Tensor z = lz::arange(6, lz::kFloat32).to_lazy().mul(Scalar(1.0 / 4)).view({2, 3});
  const Tensor zr = z[1];
  Tensor er = zr.to_eager();
  er[0].fill_(Scalar(-7.0));
  check_same(zr, lz::tensor({0.75f, 1.0f, 1.25f}));
  check_same(z.sum(), lz::scalar_tensor(3.75f));

  // Writing the source of to_lazy() leaves the lazy tensor alone, and a
  // round trip gives a tensor of its own.
  Tensor x = lz::full({4}, 5.0);
  const Tensor l = x.to_lazy();
  x.mul_(Scalar(2.0));
  check_same(l, lz::full({4}, 5.0));
  Tensor back = l.to_eager();
  back.fill_(Scalar(0.0));
  check_same(x, lz::full({4}, 10.0));
  check_same(l, lz::full({4}, 5.0));

  // to_eager() lays values out as clone() does: a dense view as it is (no
  // copy), a broadcast or strided window contiguous.
  const Tensor m = lz::randn({3, 4}).to_lazy().mul(Scalar(2.0));
  const Tensor mt = m.t().to_eager();
  CHECK(strides_of(mt) == std::vector<int64_t>{1, 4});
  CHECK(mt.data_ptr() == m.data_ptr());  // the memory moved to mt, m reads it still
  const Tensor wide = m[0].expand({2, 4}).to_eager();
  CHECK(strides_of(wide) == std::vector<int64_t>{4, 1});
  Tensor every_other = m.slice(1, 0, 4, 2).to_eager();
  CHECK(every_other.is_contiguous());
  every_other.fill_(Scalar(0.0));  // writable, and m is untouched
  CHECK(m.abs().sum().item<float>() > 0);

  // Data pointers of the eager side never move: a write copies for the lazy side.
  Tensor w = lz::zeros({1000});
  const void* before = w.data_ptr();
  const Tensor lw = w.to_lazy();
  w.add_(Scalar(1.0));
  CHECK(w.data_ptr() == before);
  CHECK(lw.sum().item<float>() == 0.0f);
}

TEST_CASE("lazy out-of-bounds as_strided raises at the call", "[lazy]") {
  fresh_start();
  const Tensor xe = lz::randn({4});
  const std::string eager_msg = message_of<lz::ValueError>([&] { (void)xe.as_strided({3}, {2}); });
  REQUIRE_FALSE(eager_msg.empty());
  const Tensor x = xe.to_lazy();
  const size_t before = lzl::pending_operators();
  CHECK(message_of<lz::ValueError>([&] { (void)x.as_strided({3}, {2}); }) == eager_msg);
  CHECK(message_of<lz::ValueError>([&] { (void)x.mul(Scalar(2.0)).as_strided({2}, {1}, 3); }) ==
        message_of<lz::ValueError>([&] { (void)xe.mul(Scalar(2.0)).as_strided({2}, {1}, 3); }));
  CHECK(lzl::pending_operators() == before + 1);  // the mul only
  check_same(x.as_strided({2}, {2}, 1), xe.as_strided({2}, {2}, 1));
}

TEST_CASE("lazy LZ_PASSES=none runs graphs without canonicalisation", "[lazy]") {
  fresh_start();
  SettingsGuard restore;
  lzl::Settings s = lzl::settings();
  s.pipeline = "none";
  lzl::set_settings(s);
  const Tensor xe = lz::randn({5, 7});
  check_same(lz::softmax(xe.to_lazy().mul(Scalar(1.0)), -1), lz::softmax(xe, -1));
}

// ---- 6. LZ_CHECK_EAGER ----------------------------------------------------------------------

TEST_CASE("lazy LZ_CHECK_EAGER passes correct graphs of every kind", "[lazy]") {
  fresh_start();
  SettingsGuard restore;
  lzl::Settings s = lzl::settings();
  s.check_eager = true;
  lzl::set_settings(s);
  const Tensor xe = lz::randn({16, 33});
  const Tensor x = xe.to_lazy();
  check_same(lz::softmax(x * 3, -1), lz::softmax(xe * 3, -1));
  check_same(lz::layer_norm(x, {33}), lz::layer_norm(xe, {33}), 1e-4, 1e-5);
  check_same(lz::matmul(x, x.t()).relu().sum({0}), lz::matmul(xe, xe.t()).relu().sum({0}), 1e-4, 1e-4);
  check_same(x.gt(Scalar(0.0)).sum({1}), xe.gt(Scalar(0.0)).sum({1}));
  check_same(x.floor().mul(Scalar(0.5)), xe.floor().mul(Scalar(0.5)));
  const Tensor ie = lz::arange(100, lz::kInt64);
  check_same(ie.to_lazy().mul(Scalar(31)).remainder(Scalar(7)).sum(), ie.mul(Scalar(31)).remainder(Scalar(7)).sum());
  const Tensor he = xe.to(lz::kFloat16);
  check_same(he.to_lazy().exp().sum({-1}), he.exp().sum({-1}), 1e-2, 1e-2);
}

TEST_CASE("lazy LZ_CHECK_EAGER names the node a wrong lowering computes", "[lazy]") {
  fresh_start();
  SettingsGuard restore;
  const Tensor xe = lz::randn({8, 5});
  const Tensor w = lz::randn({5, 5}).mul(Scalar(0.25));
  // The product is an eager step (right); the kernel after it computes exp first.
  const auto program = [&](const Tensor& x) { return lz::matmul(x, w).exp().mul(Scalar(2.0)).sum({-1}); };
  lzl::Settings s = lzl::settings();
  s.lowering_fault = "exp";  // the kernel computing exp stores its results plus one
  lzl::set_settings(s);
  // Without the check, the wrong value goes through: the fault is real.
  const Tensor wrong = program(xe.to_lazy()).to_eager();
  CHECK_FALSE(lz::allclose(wrong, program(xe), 1e-4, 1e-4));

  s.check_eager = true;
  lzl::set_settings(s);
  const Tensor y = program(xe.to_lazy());
  const std::string msg = message_of<lz::InternalError>([&] { (void)y.to_eager(); });
  INFO(msg);
  CHECK(msg.find("[LZ_CHECK_EAGER] lazy and eager results differ at node") != std::string::npos);
  CHECK(msg.find("= exp(") != std::string::npos);     // the node's IR line
  CHECK(msg.find("operator exp (") != std::string::npos);
  CHECK(msg.find("f32[8, 5]") != std::string::npos);   // its types
  CHECK(msg.find("largest difference 1") != std::string::npos);
  const size_t at = msg.find("written to ");
  REQUIRE(at != std::string::npos);
  const std::string path = msg.substr(at + 11);
  std::ifstream dump(path);
  CHECK(dump.good());
  // The value carries the error; later graphs without the fault are fine.
  CHECK_THROWS_AS(y.to_eager(), lz::InternalError);
  s.lowering_fault.clear();
  lzl::set_settings(s);
  check_same(program(xe.to_lazy()), program(xe), 1e-5, 1e-5);
}

TEST_CASE("lazy division by a number keeps the sign of a zero quotient, compiled too", "[lazy]") {
  // hardswish(x) = x relu6(x + 3) / 6 is -0 below -3; atan2 tells -0 from
  // +0 (-pi against pi). The compiled division by an invariant divisor
  // refines its quotient with a sum, which must not turn -0 into +0.
  SettingsGuard guard;
  lzl::Settings s = lzl::settings();
  s.jit_threshold = 1;
  lzl::set_settings(s);
  fresh_start();
  const Tensor x = lz::linspace(-8, 8, 4099);
  auto f = [](const Tensor& v) { return lz::atan2(lz::hardswish(v), lz::full_like(v, -1)) + v / -6; };
  check_same(f(x.to_lazy()), f(x));
  CHECK(lzl::metrics().eager_steps_total == 0);
}
