// Gathers in fused kernels (passes/lowering_gather.cpp): index_select and
// embedding run as one kernel with their users, lazy equals eager over
// dtypes, dims, layouts, 0-dim and empty indices, and an index out of range
// raises eager's IndexError whether the kernel is interpreted (small) or
// compiled (large).
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/lazy/lazy_test_util.h"

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using lz::Tensor;

namespace {

using namespace lazy_test;

Tensor long_tensor(const std::vector<int64_t>& v) { return lz::tensor(v); }

// Runs f lazily (the result read with to_eager) and eagerly; checks the
// values and that one kernel and no eager step computed it.
template <class F>
void check_one_kernel(F&& f, const Tensor& source, const Tensor& index) {
  const Tensor expected = f(source, index);
  lzl::reset_metrics();
  Tensor lazy = f(source.to_lazy(), index.to_lazy());
  check_same(lazy, expected);
  CHECK(lzl::metrics().kernels_launched == 1);
  CHECK(lzl::metrics().eager_steps_total == 0);
}

// Runs f with every kernel compiled at its first launch, then with every
// kernel interpreted.
template <class F>
void compiled_and_interpreted(F&& f) {
  SettingsGuard guard;
  for (const int64_t threshold : {int64_t{1}, std::numeric_limits<int64_t>::max()}) {
    INFO((threshold == 1 ? "compiled" : "interpreted"));
    lzl::Settings s = lzl::settings();
    s.jit_threshold = threshold;
    lzl::set_settings(s);
    f();
  }
}

}  // namespace

TEST_CASE("gathers: index_select and its users are one kernel over dtypes and dims", "[lazy][fusion]") {
  fresh_start();
  compiled_and_interpreted([&] {
    const Tensor index = long_tensor({3, 0, 4, 4, 1});
    for (lz::ScalarType t : {lz::ScalarType::Float, lz::ScalarType::Double, lz::ScalarType::Half,
                             lz::ScalarType::Long, lz::ScalarType::Int, lz::ScalarType::Bool}) {
      INFO("dtype " << t);
      const Tensor x = (lz::randn({5, 6, 7}) * 3).to(t);
      for (int64_t dim : {0, 1, -1}) {
        INFO("dim " << dim);
        const Tensor idx = index.remainder(x.size(dim));
        check_one_kernel([dim](const Tensor& s, const Tensor& i) { return lz::index_select(s, dim, i).mul(2); }, x,
                         idx);
      }
    }
  });
}

TEST_CASE("gathers: compiled kernels (large launches) over dtypes and dims", "[lazy][fusion]") {
  fresh_start();
  for (lz::ScalarType t : {lz::ScalarType::Float, lz::ScalarType::Half, lz::ScalarType::Long, lz::ScalarType::Bool}) {
    INFO("dtype " << t);
    const Tensor x = (lz::randn({300, 500}) * 3).to(t);
    for (int64_t dim : {0, 1}) {
      INFO("dim " << dim);
      // 400 indices: 120000 or 200000 points, compiled at the first launch.
      const Tensor idx = lz::randint(0, x.size(dim), {400}, lz::TensorOptions(lz::ScalarType::Long));
      check_one_kernel([dim](const Tensor& s, const Tensor& i) { return lz::index_select(s, dim, i).mul(2); }, x,
                       idx);
      check_one_kernel([dim](const Tensor& s, const Tensor& i) { return lz::index_select(s.t(), dim, i).mul(2); }, x,
                       idx.remainder(x.size(1 - dim)));
    }
  }
}

TEST_CASE("gathers: non-contiguous sources, int32, 0-dim and empty indices", "[lazy][fusion]") {
  fresh_start();
  const Tensor x = lz::randn({30, 20}).t();  // [20, 30], strides (1, 20)
  const Tensor i32 = lz::tensor(std::vector<int32_t>{29, 0, 7});
  check_one_kernel([](const Tensor& s, const Tensor& i) { return lz::index_select(s, 1, i).exp(); }, x, i32);
  check_one_kernel([](const Tensor& s, const Tensor& i) { return lz::index_select(s, 0, i).neg(); }, x,
                   long_tensor({19}));
  // A 0-dim index picks one slice.
  check_one_kernel([](const Tensor& s, const Tensor& i) { return lz::index_select(s, 0, i).abs(); }, x,
                   long_tensor({5}).reshape({}));
  // A broadcast operand and a slice of the source.
  const Tensor row = lz::randn({20});
  const Tensor in_slice = lz::tensor(std::vector<int32_t>{9, 0, 7});
  const Tensor expected = lz::index_select(x.slice(1, 2, 12), 1, in_slice) + row.unsqueeze(1);
  REQUIRE(sizes_of(expected) == std::vector<int64_t>{20, 3});
  check_same(lz::index_select(x.to_lazy().slice(1, 2, 12), 1, in_slice.to_lazy()) + row.to_lazy().unsqueeze(1),
             expected);
  // No index: an empty result, still right.
  fresh_start();
  const Tensor none = lz::empty({0}, lz::TensorOptions(lz::ScalarType::Long));
  check_same(lz::index_select(x.to_lazy(), 0, none.to_lazy()) * 2, lz::index_select(x, 0, none) * 2);
  // An empty source with no index.
  const Tensor empty_source = lz::randn({0, 4});
  check_same(lz::index_select(empty_source.to_lazy(), 0, none.to_lazy()) + 1, lz::index_select(empty_source, 0, none) + 1);
}

TEST_CASE("gathers: embedding and its users are one kernel, large and small", "[lazy][fusion]") {
  fresh_start();
  for (int64_t rows : {int64_t{8}, int64_t{4096}}) {
    INFO("rows " << rows);
    const Tensor weight = lz::randn({rows, 64});
    const Tensor idx = lz::randint(0, rows, {64, 32}, lz::TensorOptions(lz::ScalarType::Long));
    const Tensor expected = lz::embedding(weight, idx) * 8.0 + 1.0;
    lzl::reset_metrics();
    Tensor lazy = lz::embedding(weight.to_lazy(), idx.to_lazy()) * 8.0 + 1.0;
    check_same(lazy, expected);
    CHECK(lzl::metrics().kernels_launched == 1);
    CHECK(lzl::metrics().eager_steps_total == 0);
  }
}

TEST_CASE("gathers: a reshape the gathered layout cannot view still gives eager's answer", "[lazy][fusion]") {
  fresh_start();
  // Flattening merges the gathered dim with a transposed one: no view of
  // the source expresses it, so the kernel declines and the reference plan runs.
  const Tensor x = lz::randn({6, 5}).t();
  const Tensor idx = long_tensor({1, 4, 0});
  const Tensor expected = lz::index_select(x, 0, idx).reshape({-1}) * 2;
  Tensor lazy = lz::index_select(x.to_lazy(), 0, idx.to_lazy()).reshape({-1}) * 2;
  check_same(lazy, expected);
}

TEST_CASE("gathers: an index out of range raises eager's IndexError", "[lazy][fusion][errors]") {
  fresh_start();
  for (int64_t rows : {int64_t{10}, int64_t{100000}}) {  // interpreted, compiled
    INFO("rows " << rows);
    const Tensor x = lz::randn({rows, 4});
    for (int64_t bad : {rows, int64_t{-1}}) {
      std::vector<int64_t> values(static_cast<size_t>(rows), 0);
      values[values.size() / 2] = bad;
      const Tensor idx = long_tensor(values);
      const std::string eager = message_of<lz::IndexError>([&] { (void)lz::index_select(x, 0, idx); });
      REQUIRE(eager.find("out of bounds") != std::string::npos);
      const std::string lazy = message_of<lz::IndexError>([&] {
        Tensor y = lz::index_select(x.to_lazy(), 0, idx.to_lazy()) + 1;
        (void)y.to_eager();
      });
      CHECK(lazy == eager);
    }
  }
  // Only a slice of the result is read, or none of it: every index is still checked.
  const Tensor x = lz::randn({5, 3});
  const Tensor idx = long_tensor({0, 9});
  const std::string eager = message_of<lz::IndexError>([&] { (void)lz::index_select(x, 0, idx); });
  CHECK(message_of<lz::IndexError>([&] {
          Tensor y = lz::index_select(x.to_lazy(), 0, idx.to_lazy()).slice(0, 0, 1) * 2;
          (void)y.to_eager();
        }) == eager);
  CHECK(message_of<lz::IndexError>([&] {
          Tensor y = lz::index_select(x.to_lazy().slice(1, 0, 0), 0, idx.to_lazy()) * 2;
          (void)y.to_eager();
        }) == eager);
  fresh_start();
  // The trace is usable afterwards.
  const Tensor z = lz::randn({3, 2});
  check_same(lz::index_select(z.to_lazy(), 0, long_tensor({2}).to_lazy()) + 1,
             lz::index_select(z, 0, long_tensor({2})) + 1);
}

TEST_CASE("gathers: nll_loss and cross_entropy run without an eager step", "[lazy][fusion]") {
  fresh_start();
  compiled_and_interpreted([&] {
    for (int64_t batch : {int64_t{7}, int64_t{3000}}) {  // interpreted, compiled
      INFO("batch " << batch);
      const Tensor x = lz::randn({batch, 40}) * 4;
      Tensor target = lz::randint(0, 40, {batch}, lz::TensorOptions(lz::ScalarType::Long));
      target.index_put_({long_tensor({0, batch - 1})}, long_tensor({-100, 3}));  // one ignored target
      const Tensor weight = lz::rand({40}) + 0.5;
      for (int64_t reduction : {int64_t{1}, int64_t{2}}) {  // mean, sum
        INFO("reduction " << reduction);
        lzl::reset_metrics();
        const auto r = static_cast<lz::Reduction::Reduction>(reduction);
        check_same(lz::cross_entropy(x.to_lazy(), target.to_lazy(), std::nullopt, r),
                   lz::cross_entropy(x, target, std::nullopt, r), 1e-5, 1e-5);
        CHECK(lzl::metrics().eager_steps_total == 0);
        lzl::reset_metrics();
        const Tensor no_default = target.clamp_min(0);  // -100 is out of range unless ignored
        check_same(lz::nll_loss(x.to_lazy(), no_default.to_lazy(), weight.to_lazy(), reduction, /*ignore_index=*/3),
                   lz::nll_loss(x, no_default, weight, reduction, 3), 1e-5, 1e-5);
        CHECK(lzl::metrics().eager_steps_total == 0);
      }
      // uint8 targets and a half input.
      const Tensor small_target = target.remainder(40).to(lz::ScalarType::Byte);
      check_same(lz::nll_loss(x.to(lz::ScalarType::Half).to_lazy(), small_target.to_lazy()),
                 lz::nll_loss(x.to(lz::ScalarType::Half), small_target), 1e-3, 1e-3);
    }
    // Every target ignored: 0 / 0, NaN as in eager.
    const Tensor x = lz::randn({4, 5});
    const Tensor ignored = long_tensor({-100, -100, -100, -100});
    check_same(lz::nll_loss(x.to_lazy(), ignored.to_lazy()), lz::nll_loss(x, ignored));
  });
}

TEST_CASE("gathers: an nll_loss target out of range raises eager's IndexError", "[lazy][fusion][errors]") {
  fresh_start();
  compiled_and_interpreted([&] {
    for (int64_t batch : {int64_t{6}, int64_t{3000}}) {
      INFO("batch " << batch);
      const Tensor x = lz::randn({batch, 40});
      for (int64_t bad : {int64_t{40}, int64_t{-2}}) {
        Tensor target = lz::zeros({batch}, lz::TensorOptions(lz::ScalarType::Long));
        target.index_put_({long_tensor({batch / 2})}, long_tensor({bad}));
        const std::string eager = message_of<lz::IndexError>([&] { (void)lz::cross_entropy(x, target); });
        REQUIRE(eager.find("[nll_loss] target") != std::string::npos);
        CHECK(message_of<lz::IndexError>([&] {
                Tensor loss = lz::cross_entropy(x.to_lazy(), target.to_lazy());
                (void)loss.to_eager();
              }) == eager);
      }
    }
  });
}

TEST_CASE("gathers: gather reads self's leading part along the index's sizes, in one kernel", "[lazy][fusion]") {
  fresh_start();
  compiled_and_interpreted([&] {
    for (int64_t rows : {int64_t{6}, int64_t{2000}}) {
      INFO("rows " << rows);
      const Tensor x = lz::randn({rows, 50});
      // The same sizes as self but along dim; then an index narrower than self.
      for (const std::vector<int64_t>& sizes : {std::vector<int64_t>{rows, 7}, std::vector<int64_t>{rows / 2, 30}}) {
        const Tensor idx = lz::randint(0, 50, sizes, lz::TensorOptions(lz::ScalarType::Long));
        check_one_kernel([](const Tensor& s, const Tensor& i) { return lz::gather(s, 1, i) * 3; }, x, idx);
        const Tensor row_idx = lz::randint(0, rows, sizes, lz::TensorOptions(lz::ScalarType::Long));
        check_one_kernel([](const Tensor& s, const Tensor& i) { return lz::gather(s, 0, i).neg(); }, x, row_idx);
        check_one_kernel([](const Tensor& s, const Tensor& i) { return lz::gather(s.t(), 0, i).neg(); }, x.t().contiguous(),
                         row_idx);
      }
      // An index computed in the program (take the row maximum back).
      const Tensor picked = lz::gather(x, 1, x.argmax(1, true));
      check_same(lz::gather(x.to_lazy(), 1, x.to_lazy().argmax(1, true)), picked);
      check_same(picked, std::get<0>(x.max(1, true)));
      // Out of range: eager's error.
      Tensor bad = lz::zeros({rows, 2}, lz::TensorOptions(lz::ScalarType::Long));
      bad.index_put_({long_tensor({rows - 1}), long_tensor({1})}, long_tensor({50}));
      const std::string eager = message_of<lz::IndexError>([&] { (void)lz::gather(x, 1, bad); });
      REQUIRE(eager.find("[gather]") != std::string::npos);
      CHECK(message_of<lz::IndexError>([&] {
              Tensor y = lz::gather(x.to_lazy(), 1, bad.to_lazy()) + 1;
              (void)y.to_eager();
            }) == eager);
    }
  });
}

TEST_CASE("gathers: a cheap producer only a gather reads is recomputed at the gathered points", "[lazy][fusion]") {
  fresh_start();
  // cross_entropy = nll_loss(log_softmax(x)): the [N, C] log-probabilities
  // are recomputed where nll_loss gathers them, never stored; so is the
  // scaled table an embedding reads. The counts below are the compiled
  // kernels': a first run waits for them (LZ_JIT_ASYNC=1 would run it on
  // eager steps meanwhile).
  SettingsGuard guard;
  lzl::Settings s = lzl::settings();
  s.compile_in_background = false;
  lzl::set_settings(s);
  const int64_t rows = 512, classes = 1000;
  const Tensor x = lz::randn({rows, classes}) * 4;
  const Tensor target = lz::randint(0, classes, {rows}, lz::TensorOptions(lz::ScalarType::Long));
  lzl::reset_metrics();
  check_same(lz::cross_entropy(x.to_lazy(), target.to_lazy()), lz::cross_entropy(x, target), 1e-5, 1e-5);
  CHECK(lzl::metrics().eager_steps_total == 0);
  CHECK(lzl::metrics().bytes_allocated < static_cast<uint64_t>(rows * classes) * sizeof(float));
  const Tensor table = lz::randn({classes, 64});
  const Tensor idx = lz::randint(0, classes, {rows}, lz::TensorOptions(lz::ScalarType::Long));
  lzl::reset_metrics();
  Tensor looked_up = lz::embedding(table.to_lazy() * 0.5, idx.to_lazy()) + 1;
  check_same(looked_up, lz::embedding(table * 0.5, idx) + 1);
  CHECK(lzl::metrics().kernels_launched == 1);
  CHECK(lzl::metrics().bytes_allocated == static_cast<uint64_t>(rows * 64) * sizeof(float));
}
