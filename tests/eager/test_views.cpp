// View operators: sizes, strides and storage offsets, storage sharing
// (writes through a view land in the base), version counters, and errors.
#include "test_util.h"

using namespace lz;
using lzt::values;

namespace {

// A [2, 3, 4] float32 tensor holding 0..23.
Tensor iota234() { return lz::arange(0, 24, kFloat32).view({2, 3, 4}); }

// Checks that `view` aliases `base`: same storage, and a write through the
// view is visible at the right place in the base.
void check_aliases(const Tensor& base, Tensor view) {
  REQUIRE(view.numel() > 0);
  CHECK(view.unsafe_get_impl()->storage() == base.unsafe_get_impl()->storage());
  const uint64_t v0 = base._version();
  // The first element of the view (in logical order) lives at storage_offset.
  const int64_t off = view.storage_offset() - base.storage_offset();
  const std::vector<double> before = values(base.contiguous().view({-1}));
  view.fill_(-7);
  CHECK(base._version() == v0 + 1);
  CHECK(view._version() == base._version());
  const std::vector<double> after = values(base.contiguous().view({-1}));
  // Every element of the view changed, and only those (count them).
  int64_t changed = 0;
  for (size_t i = 0; i < after.size(); ++i) changed += after[i] != before[i];
  CHECK(changed <= view.numel());
  CHECK(changed > 0);
  for (double v : values(view)) CHECK(v == -7);
  if (base.is_contiguous() && off >= 0 && off < base.numel()) CHECK(after[off] == -7);
}

}  // namespace

TEST_CASE("view", "[eager][views]") {
  const Tensor x = iota234();
  SECTION("shapes and strides") {
    const Tensor v = x.view({6, 4});
    CHECK_SHAPE(v, {6, 4});
    CHECK_STRIDES(v, {4, 1});
    CHECK(v.data_ptr() == x.data_ptr());
    CHECK_VALUES(v, values(x));
    CHECK_SHAPE(x.view({-1}), {24});
    CHECK_SHAPE(x.view({4, -1}), {4, 6});
    CHECK_SHAPE(x.view({2, 1, 3, 1, 4}), {2, 1, 3, 1, 4});
    CHECK_SHAPE(x.view({1, 24}), {1, 24});
    CHECK_SHAPE(lz::view(x, {3, 8}), {3, 8});
  }
  SECTION("shares storage") {
    Tensor base = x.clone();
    check_aliases(base, base.view({4, 6}).select(0, 1));
    Tensor v = base.view({24});
    v.slice(0, 0, 3).fill_(100);
    CHECK(values(base)[0] == 100);
    CHECK(values(base)[2] == 100);
    CHECK(values(base)[3] == 3);
  }
  SECTION("views of non-contiguous tensors when the strides allow it") {
    // Splitting and merging dims inside one contiguous chunk works.
    const Tensor s = x.select(2, 1);  // [2, 3], strides (12, 4)
    const Tensor v = s.view({6});
    CHECK_STRIDES(v, {4});
    CHECK_VALUES(v, values(s));
    const Tensor t = x.transpose(0, 1);  // [3, 2, 4], strides (4, 12, 1)
    const Tensor tv = t.view({3, 2, 2, 2});
    CHECK_STRIDES(tv, {4, 12, 2, 1});
    CHECK_VALUES(tv, values(t));
    const Tensor sl = x.slice(0, 1, 2).view({12});  // contiguous with an offset
    CHECK(sl.storage_offset() == 12);
    CHECK_VALUES(sl, std::vector<double>{12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23});
    const Tensor e = lz::tensor({1.0, 2.0}).expand({3, 2});
    CHECK_STRIDES(e.view({3, 1, 2}), {0, 2, 1});
  }
  SECTION("transposed tensors cannot be viewed flat") {
    const Tensor t = x.view({6, 4}).t();
    REQUIRE_THROWS_AS(t.view({24}), ShapeError);
    REQUIRE_THROWS_WITH(t.view({24}), Catch::Contains("[view]") && Catch::Contains("reshape") &&
                                          Catch::Contains("[4, 6]") && Catch::Contains("[1, 4]"));
    CHECK_THROWS_AS(x.slice(2, 0, 3).view({18}), ShapeError);
    // Every other element is one evenly strided run: that one is viewable.
    CHECK_STRIDES(x.slice(2, 0, 4, 2).view({12}), {2});
  }
  SECTION("bad sizes") {
    REQUIRE_THROWS_AS(x.view({5, 5}), ShapeError);
    REQUIRE_THROWS_WITH(x.view({5, 5}), Catch::Contains("[view]") && Catch::Contains("[5, 5]") &&
                                            Catch::Contains("24"));
    CHECK_THROWS_AS(x.view({-1, -1}), ShapeError);
    CHECK_THROWS_AS(x.view({5, -1}), ShapeError);
    CHECK_THROWS_AS(x.view({-2, 12}), Error);
  }
  SECTION("0-dim and 0-size") {
    const Tensor s = lz::scalar_tensor(3.0);
    CHECK_SHAPE(s.view({1}), {1});
    CHECK_SHAPE(s.view({1, 1, 1}), {1, 1, 1});
    CHECK(lz::tensor({5.0}).view({}).dim() == 0);
    CHECK(lz::tensor({5.0}).view({}).item<double>() == 5.0);
    const Tensor e = lz::empty({2, 0, 3});
    CHECK_SHAPE(e.view({0, 6}), {0, 6});
    CHECK_SHAPE(e.view({3, -1, 2}), {3, 0, 2});
    CHECK_SHAPE(e.view({-1}), {0});
    CHECK_THROWS_AS(e.view({-1, 0}), ShapeError);  // ambiguous: 0 * n for any n
  }
}

TEST_CASE("reshape", "[eager][views]") {
  const Tensor x = iota234();
  SECTION("viewable: shares storage") {
    const Tensor r = x.reshape({4, 6});
    CHECK(r.data_ptr() == x.data_ptr());
    CHECK_STRIDES(r, {6, 1});
    CHECK_VALUES(r, values(x));
    CHECK_SHAPE(x.reshape({-1}), {24});
    Tensor base = x.clone();
    check_aliases(base, base.reshape({3, 8}).select(1, 2));
  }
  SECTION("not viewable: copies") {
    const Tensor t = x.view({6, 4}).t();
    const Tensor r = t.reshape({24});
    CHECK(r.is_contiguous());
    CHECK(r.unsafe_get_impl()->storage() != x.unsafe_get_impl()->storage());
    CHECK_VALUES(r, values(t));
    const Tensor r2 = x.slice(2, 1, 4, 2).reshape({-1, 3});
    CHECK_SHAPE(r2, {4, 3});
    CHECK_VALUES(r2, std::vector<double>{1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23});
  }
  SECTION("errors") {
    REQUIRE_THROWS_AS(x.reshape({7, -1}), ShapeError);
    REQUIRE_THROWS_WITH(x.reshape({7, -1}), Catch::Contains("[reshape]") && Catch::Contains("24"));
    CHECK_THROWS_AS(x.reshape({25}), ShapeError);
  }
}

TEST_CASE("flatten", "[eager][views]") {
  const Tensor x = iota234();
  CHECK_SHAPE(x.flatten(), {24});
  CHECK_SHAPE(x.flatten(1), {2, 12});
  CHECK_SHAPE(x.flatten(0, 1), {6, 4});
  CHECK_SHAPE(x.flatten(-2, -1), {2, 12});
  CHECK_SHAPE(x.flatten(1, 1), {2, 3, 4});
  CHECK(x.flatten().data_ptr() == x.data_ptr());
  CHECK_VALUES(x.flatten(), values(x));
  const Tensor s = lz::scalar_tensor(2.0).flatten();
  CHECK_SHAPE(s, {1});
  CHECK(s.item<double>() == 2.0);
  const Tensor t = x.transpose(0, 2).flatten();  // needs a copy
  CHECK_VALUES(t, values(x.transpose(0, 2)));
  REQUIRE_THROWS_AS(x.flatten(2, 1), ValueError);
  REQUIRE_THROWS_WITH(x.flatten(2, 1), Catch::Contains("[flatten]"));
  CHECK_THROWS_AS(x.flatten(0, 3), IndexError);
}

TEST_CASE("permute and transpose", "[eager][views]") {
  const Tensor x = iota234();
  SECTION("permute") {
    const Tensor p = x.permute({2, 0, 1});
    CHECK_SHAPE(p, {4, 2, 3});
    CHECK_STRIDES(p, {1, 12, 4});
    CHECK(p.data_ptr() == x.data_ptr());
    CHECK(!p.is_contiguous());
    // p[k][i][j] == x[i][j][k]
    CHECK(p[3][1][2].item<double>() == 1 * 12 + 2 * 4 + 3);
    CHECK_STRIDES(x.permute({-1, -3, -2}), {1, 12, 4});
    CHECK(x.permute({0, 1, 2}).is_contiguous());
    Tensor base = x.clone();
    check_aliases(base, base.permute({1, 2, 0}).select(0, 2));
  }
  SECTION("permute errors") {
    REQUIRE_THROWS_AS(x.permute({0, 0, 1}), ValueError);
    REQUIRE_THROWS_WITH(x.permute({0, 0, 1}), Catch::Contains("[permute]") && Catch::Contains("[0, 0, 1]"));
    CHECK_THROWS_AS(x.permute({0, 1, -3}), ValueError);  // -3 is dim 0 again
    REQUIRE_THROWS_AS(x.permute({0, 1}), ShapeError);
    REQUIRE_THROWS_WITH(x.permute({0, 1}), Catch::Contains("[permute]"));
    CHECK_THROWS_AS(x.permute({0, 1, 3}), IndexError);
  }
  SECTION("transpose") {
    const Tensor t = x.transpose(0, 2);
    CHECK_SHAPE(t, {4, 3, 2});
    CHECK_STRIDES(t, {1, 4, 12});
    CHECK(t[1][2][0].item<double>() == 0 * 12 + 2 * 4 + 1);
    CHECK_STRIDES(x.transpose(-1, 0), {1, 4, 12});
    CHECK_STRIDES(x.transpose(1, 1), {12, 4, 1});
    CHECK_STRIDES(lz::transpose(x, 1, 2), {12, 1, 4});
    REQUIRE_THROWS_AS(x.transpose(0, 3), IndexError);
    REQUIRE_THROWS_WITH(x.transpose(0, 3), Catch::Contains("[transpose]") && Catch::Contains("3"));
    const Tensor s = lz::scalar_tensor(1.0);
    CHECK(s.transpose(0, -1).dim() == 0);
    CHECK_THROWS_AS(s.transpose(0, 1), IndexError);
  }
  SECTION("t") {
    const Tensor m = x.view({6, 4});
    CHECK_SHAPE(m.t(), {4, 6});
    CHECK_STRIDES(m.t(), {1, 4});
    CHECK(m.t().t().is_contiguous());
    const Tensor v = lz::tensor({1.0, 2.0, 3.0});
    CHECK_SHAPE(v.t(), {3});
    CHECK_STRIDES(v.t(), {1});
    CHECK(lz::scalar_tensor(1.0).t().dim() == 0);
    REQUIRE_THROWS_AS(x.t(), ShapeError);
    REQUIRE_THROWS_WITH(x.t(), Catch::Contains("[t]") && Catch::Contains("3-D"));
  }
}

TEST_CASE("expand", "[eager][views]") {
  const Tensor c = lz::tensor({{1.0}, {2.0}, {3.0}});  // [3, 1]
  SECTION("sizes and strides") {
    const Tensor e = c.expand({3, 4});
    CHECK_SHAPE(e, {3, 4});
    CHECK_STRIDES(e, {1, 0});
    CHECK(e.data_ptr() == c.data_ptr());
    CHECK_VALUES(e, std::vector<double>{1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3});
    const Tensor e2 = c.expand({2, 3, 5});
    CHECK_SHAPE(e2, {2, 3, 5});
    CHECK_STRIDES(e2, {0, 1, 0});
    CHECK_SHAPE(c.expand({-1, 2}), {3, 2});
    CHECK_SHAPE(c.expand({3, 1}), {3, 1});
    CHECK_SHAPE(c.expand({3, 0}), {3, 0});
    CHECK_SHAPE(lz::scalar_tensor(2.0).expand({2, 2}), {2, 2});
    CHECK_STRIDES(lz::scalar_tensor(2.0).expand({2, 2}), {0, 0});
    CHECK_SHAPE(c.expand_as(lz::empty({7, 3, 6})), {7, 3, 6});
  }
  SECTION("a write to the base shows in every expanded position") {
    Tensor base = c.clone();
    const Tensor e = base.expand({3, 4});
    base.select(0, 1).fill_(9);
    CHECK_VALUES(e, std::vector<double>{1, 1, 1, 1, 9, 9, 9, 9, 3, 3, 3, 3});
    CHECK(e._version() == base._version());
  }
  SECTION("errors") {
    REQUIRE_THROWS_AS(c.expand({4, 4}), ShapeError);
    REQUIRE_THROWS_WITH(c.expand({4, 4}), Catch::Contains("[expand]") && Catch::Contains("[4, 4]") &&
                                              Catch::Contains("[3, 1]"));
    REQUIRE_THROWS_AS(c.expand({4}), ShapeError);  // fewer dims than the tensor
    REQUIRE_THROWS_WITH(c.expand({4}), Catch::Contains("[expand]"));
    CHECK_THROWS_AS(c.expand({-1, 3, 4}), ShapeError);  // -1 in a new leading dim
    CHECK_THROWS_AS(lz::tensor({1.0, 2.0}).expand({3}), ShapeError);
    CHECK_THROWS_AS(c.expand({3, -2}), ShapeError);
  }
}

TEST_CASE("narrow and slice", "[eager][views]") {
  const Tensor x = iota234();
  SECTION("narrow") {
    const Tensor n = x.narrow(2, 1, 2);
    CHECK_SHAPE(n, {2, 3, 2});
    CHECK_STRIDES(n, {12, 4, 1});
    CHECK(n.storage_offset() == 1);
    CHECK_VALUES(n.select(0, 0).select(0, 0), std::vector<double>{1, 2});
    CHECK(x.narrow(-1, -2, 2).storage_offset() == 2);
    CHECK_SHAPE(x.narrow(1, 3, 0), {2, 0, 4});
    Tensor base = x.clone();
    check_aliases(base, base.narrow(1, 1, 2));
    REQUIRE_THROWS_AS(x.narrow(2, 3, 2), IndexError);
    REQUIRE_THROWS_WITH(x.narrow(2, 3, 2), Catch::Contains("[narrow]") && Catch::Contains("4"));
    CHECK_THROWS_AS(x.narrow(2, 5, 0), IndexError);
    CHECK_THROWS_AS(x.narrow(2, -5, 1), IndexError);
    CHECK_THROWS_AS(x.narrow(2, 0, -1), IndexError);
    CHECK_THROWS_AS(x.narrow(3, 0, 1), IndexError);
    CHECK_THROWS_AS(lz::scalar_tensor(1.0).narrow(0, 0, 1), IndexError);
  }
  SECTION("slice") {
    const Tensor s = x.slice(2, 1, 4, 2);
    CHECK_SHAPE(s, {2, 3, 2});
    CHECK_STRIDES(s, {12, 4, 2});
    CHECK(s.storage_offset() == 1);
    CHECK_VALUES(s.select(0, 1).select(0, 2), std::vector<double>{21, 23});
    // Python bounds: negative, clamped, empty.
    CHECK_SHAPE(x.slice(2, -3), {2, 3, 3});
    CHECK(x.slice(2, -3).storage_offset() == 1);
    CHECK_SHAPE(x.slice(2, 0, 100), {2, 3, 4});
    CHECK_SHAPE(x.slice(2, -100, 2), {2, 3, 2});
    CHECK_SHAPE(x.slice(2, 3, 1), {2, 3, 0});
    CHECK_SHAPE(x.slice(1, 0, 3, 5), {2, 1, 4});
    CHECK_SHAPE(x.slice(1, std::nullopt, -1), {2, 2, 4});
    CHECK_SHAPE(x.slice(), {2, 3, 4});
    CHECK_SHAPE(x.slice(0, 1), {1, 3, 4});
    CHECK_STRIDES(x.slice(1, 0, 3, 2).slice(1, 0, 2, 2), {12, 16, 1});
    Tensor base = x.clone();
    check_aliases(base, base.slice(0, 1).slice(2, 0, 4, 3));
    REQUIRE_THROWS_AS(x.slice(1, 0, 3, 0), ValueError);
    REQUIRE_THROWS_WITH(x.slice(1, 0, 3, 0), Catch::Contains("[slice]") && Catch::Contains("step"));
    CHECK_THROWS_AS(x.slice(1, 0, 3, -1), ValueError);
    REQUIRE_THROWS_AS(x.slice(3), IndexError);
    REQUIRE_THROWS_WITH(x.slice(-4), Catch::Contains("[slice]") && Catch::Contains("-4"));
    CHECK_THROWS_AS(lz::scalar_tensor(1.0).slice(0), IndexError);
  }
}

TEST_CASE("select and indexing", "[eager][views]") {
  const Tensor x = iota234();
  const Tensor s = x.select(1, 2);
  CHECK_SHAPE(s, {2, 4});
  CHECK_STRIDES(s, {12, 1});
  CHECK(s.storage_offset() == 8);
  CHECK_VALUES(s, std::vector<double>{8, 9, 10, 11, 20, 21, 22, 23});
  CHECK(x.select(-1, -1).storage_offset() == 3);
  CHECK_VALUES(x.select(-1, -1), std::vector<double>{3, 7, 11, 15, 19, 23});
  CHECK(x[1][2][3].item<double>() == 23);
  CHECK(x[1][2][3].dim() == 0);
  CHECK(x[-1][0][-4].item<double>() == 12);
  CHECK(x[0].is_contiguous());
  Tensor base = x.clone();
  check_aliases(base, base[1][0]);
  Tensor scalar_view = base[0][1][2];
  scalar_view.fill_(55);
  CHECK(values(base)[6] == 55);

  REQUIRE_THROWS_AS(x.select(1, 3), IndexError);
  REQUIRE_THROWS_WITH(x.select(1, 3), Catch::Contains("[select]") && Catch::Contains("out of bounds") &&
                                          Catch::Contains("3"));
  CHECK_THROWS_AS(x.select(1, -4), IndexError);
  CHECK_THROWS_AS(x[2], IndexError);
  CHECK_THROWS_AS(x.select(3, 0), IndexError);
  CHECK_THROWS_AS(x[0][0][0][0], IndexError);  // 0-dim
  CHECK_THROWS_AS(lz::empty({0, 3})[0], IndexError);
}

TEST_CASE("squeeze and unsqueeze", "[eager][views]") {
  const Tensor x = lz::arange(0, 6, kFloat32).view({1, 2, 1, 3, 1});
  SECTION("squeeze") {
    const Tensor s = x.squeeze();
    CHECK_SHAPE(s, {2, 3});
    CHECK_STRIDES(s, {3, 1});
    CHECK(s.data_ptr() == x.data_ptr());
    CHECK_SHAPE(x.squeeze(2), {1, 2, 3, 1});
    CHECK_SHAPE(x.squeeze(-1), {1, 2, 1, 3});
    CHECK_SHAPE(x.squeeze(1), {1, 2, 1, 3, 1});  // not size 1: unchanged
    CHECK_THROWS_AS(x.squeeze(5), IndexError);
    CHECK_SHAPE(lz::empty({0, 1}).squeeze(), {0});
    CHECK_SHAPE(lz::ones({1, 1}).squeeze(), {});
    Tensor base = x.clone();
    check_aliases(base, base.squeeze().select(1, 1));
  }
  SECTION("unsqueeze") {
    const Tensor m = lz::arange(0, 6, kFloat32).view({2, 3});
    CHECK_SHAPE(m.unsqueeze(0), {1, 2, 3});
    CHECK_STRIDES(m.unsqueeze(0), {6, 3, 1});
    CHECK_SHAPE(m.unsqueeze(1), {2, 1, 3});
    CHECK_STRIDES(m.unsqueeze(1), {3, 3, 1});
    CHECK_SHAPE(m.unsqueeze(2), {2, 3, 1});
    CHECK_STRIDES(m.unsqueeze(2), {3, 1, 1});
    CHECK_SHAPE(m.unsqueeze(-1), {2, 3, 1});
    CHECK_SHAPE(m.unsqueeze(-3), {1, 2, 3});
    CHECK(m.unsqueeze(1).is_contiguous());
    CHECK_STRIDES(m.t().unsqueeze(1), {1, 6, 3});
    REQUIRE_THROWS_AS(m.unsqueeze(3), IndexError);
    REQUIRE_THROWS_WITH(m.unsqueeze(3), Catch::Contains("[unsqueeze]"));
    CHECK_THROWS_AS(m.unsqueeze(-4), IndexError);
    CHECK(m.unsqueeze(0).squeeze(0).is_contiguous());
  }
  SECTION("0-dim tensors") {
    const Tensor s = lz::scalar_tensor(4.0);
    CHECK(s.squeeze().dim() == 0);
    CHECK(s.squeeze(0).dim() == 0);
    CHECK(s.squeeze(-1).dim() == 0);
    CHECK_THROWS_AS(s.squeeze(1), IndexError);
    CHECK_SHAPE(s.unsqueeze(0), {1});
    CHECK_SHAPE(s.unsqueeze(-1), {1});
    CHECK(s.unsqueeze(0).item<double>() == 4.0);
    CHECK_THROWS_AS(s.unsqueeze(1), IndexError);
    CHECK_THROWS_AS(s.unsqueeze(-2), IndexError);
  }
}

TEST_CASE("as_strided", "[eager][views]") {
  const Tensor x = lz::arange(0, 10, kFloat32);
  SECTION("sliding windows") {
    const Tensor w = x.as_strided({4, 3}, {2, 1}, 1);
    CHECK_SHAPE(w, {4, 3});
    CHECK_STRIDES(w, {2, 1});
    CHECK(w.storage_offset() == 1);
    CHECK_VALUES(w, std::vector<double>{1, 2, 3, 3, 4, 5, 5, 6, 7, 7, 8, 9});
    CHECK_VALUES(x.as_strided({2, 2}, {0, 3}), std::vector<double>{0, 3, 0, 3});
  }
  SECTION("default offset is self's") {
    const Tensor s = x.slice(0, 4);
    const Tensor w = s.as_strided({2}, {1});
    CHECK(w.storage_offset() == 4);
    CHECK_VALUES(w, std::vector<double>{4, 5});
    CHECK_VALUES(s.as_strided({2}, {1}, 0), std::vector<double>{0, 1});
  }
  SECTION("writes through") {
    Tensor base = x.clone();
    Tensor w = base.as_strided({3}, {3}, 1);
    w.fill_(-1);
    CHECK_VALUES(base, std::vector<double>{0, -1, 2, 3, -1, 5, 6, -1, 8, 9});
  }
  SECTION("bounds") {
    CHECK_NOTHROW(x.as_strided({10}, {1}));
    CHECK_NOTHROW(x.as_strided({5, 2}, {2, 1}));
    CHECK_NOTHROW(x.as_strided({0, 100}, {100, 1}, 50));  // empty: never read
    REQUIRE_THROWS_AS(x.as_strided({11}, {1}), ValueError);
    REQUIRE_THROWS_WITH(x.as_strided({11}, {1}), Catch::Contains("[as_strided]") &&
                                                     Catch::Contains("[11]") && Catch::Contains("10"));
    CHECK_THROWS_AS(x.as_strided({4, 3}, {3, 1}, 1), ValueError);  // reaches element 12
    CHECK_THROWS_AS(x.as_strided({1}, {1}, 10), ValueError);
    CHECK_THROWS_AS(x.slice(0, 8).as_strided({3}, {1}), ValueError);
    CHECK_THROWS_AS(x.as_strided({2}, {-1}), ValueError);
    CHECK_THROWS_AS(x.as_strided({2}, {1}, -1), ValueError);
    CHECK_THROWS_AS(x.as_strided({2, 2}, {1}), ShapeError);
  }
}

TEST_CASE("views share the version counter and chain", "[eager][views]") {
  Tensor base = lz::zeros({4, 5});
  const Tensor v = base.t().slice(0, 1, 4).select(1, 2);  // base[2, 1:4]
  CHECK_SHAPE(v, {3});
  CHECK_STRIDES(v, {1});
  CHECK(v.storage_offset() == 11);
  const uint64_t v0 = v._version();
  base.add_(1);
  CHECK(v._version() == v0 + 1);
  Tensor w = v;
  w.mul_(lz::tensor({2.0, 3.0, 4.0}));
  CHECK(base._version() == v0 + 2);
  CHECK_VALUES(base, std::vector<double>{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 3, 4, 1, 1, 1, 1, 1, 1});
  // A view outlives its base's handle.
  Tensor keep;
  {
    Tensor tmp = lz::arange(0, 6, kFloat32);
    keep = tmp.view({2, 3}).select(0, 1);
  }
  CHECK_VALUES(keep, std::vector<double>{3, 4, 5});
}

TEST_CASE("view ops reject undefined tensors", "[eager][views][errors]") {
  const Tensor u;
  CHECK_THROWS_AS(u.view({1}), Error);
  CHECK_THROWS_AS(lz::reshape(u, {1}), Error);
  CHECK_THROWS_AS(u.permute({0}), Error);
  CHECK_THROWS_AS(u.select(0, 0), Error);
}
