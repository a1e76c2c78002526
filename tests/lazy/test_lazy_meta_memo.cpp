// The meta memo (lazy/meta_memo.h): a traced call whose arguments have the
// types of the same operator's previous call reuses that call's output
// metas. Each case makes a call the memo would answer wrongly if its key
// left out one thing the meta function reads: sizes, dtype, a tensor left
// undefined, a number's kind or value.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/lazy/lazy_test_util.h"

using lz::Tensor;

using namespace lazy_test;

TEST_CASE("lazy meta memo: other sizes are checked again", "[lazy]") {
  const Tensor a = lz::randn({3}).to_lazy(), b = lz::randn({3}).to_lazy(), c = lz::randn({4}).to_lazy();
  for (int i = 0; i < 3; ++i) check_same((a + b).to_eager(), a.to_eager() + b.to_eager());
  CHECK_THROWS_AS(a + c, lz::ShapeError);
  // Broadcasting to new sizes after a memoised call: [3] + [2, 3].
  const Tensor m = lz::randn({2, 3}).to_lazy();
  const Tensor r = a + m;
  CHECK(sizes_of(r) == std::vector<int64_t>{2, 3});
  check_same(r.to_eager(), a.to_eager() + m.to_eager());
}

TEST_CASE("lazy meta memo: other dtypes promote again", "[lazy]") {
  const Tensor f = lz::randn({5}).to_lazy();
  const Tensor i = lz::arange(5, lz::kInt32).to_lazy();
  const Tensor d = lz::randn({5}, lz::kFloat64).to_lazy();
  for (int k = 0; k < 2; ++k) CHECK((f * f).dtype() == lz::kFloat32);
  CHECK((i * i).dtype() == lz::kInt32);
  CHECK((f * d).dtype() == lz::kFloat64);
  CHECK((i * f).dtype() == lz::kFloat32);
  check_same((i * d).to_eager(), i.to_eager() * d.to_eager());
}

TEST_CASE("lazy meta memo: a number's kind and value are part of the key", "[lazy]") {
  const Tensor i = lz::arange(1, 6, lz::kInt64).to_lazy();
  // Integer powers of an integer tensor: 2 is fine, -1 is an error (the
  // meta function reads the value), 2.5 promotes to float.
  for (int k = 0; k < 2; ++k) CHECK(lz::pow(i, 2).dtype() == lz::kInt64);
  CHECK_THROWS_AS(lz::pow(i, -1), lz::ValueError);
  CHECK(lz::pow(i, 2.5).dtype() == lz::kFloat32);
  check_same(lz::pow(i, 2).to_eager(), lz::pow(i.to_eager(), 2));
  // An integral alpha is fine for integer tensors, a floating one is not.
  CHECK(lz::add(i, i, 3).dtype() == lz::kInt64);
  CHECK_THROWS_AS(lz::add(i, i, 0.5), lz::TypeError);
}

TEST_CASE("lazy meta memo: an optional tensor left out is checked again", "[lazy]") {
  const Tensor x = lz::randn({6}).to_lazy(), lo = lz::zeros({6}).to_lazy();
  for (int k = 0; k < 2; ++k) {
    check_same(lz::clamp(x, lo, std::nullopt).to_eager(), lz::clamp(x.to_eager(), lo.to_eager(), std::nullopt));
  }
  CHECK_THROWS_AS(lz::clamp(x, std::optional<Tensor>(), std::optional<Tensor>()), lz::ValueError);
}

TEST_CASE("lazy meta memo: an error is raised again on the next equal call", "[lazy]") {
  const Tensor a = lz::randn({3}).to_lazy(), c = lz::randn({4}).to_lazy();
  CHECK_THROWS_AS(a + c, lz::ShapeError);
  CHECK_THROWS_AS(a + c, lz::ShapeError);
  check_same((a + a).to_eager(), a.to_eager() + a.to_eager());
}
