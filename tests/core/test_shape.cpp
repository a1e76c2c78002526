#include <catch2/catch.hpp>

#include <algorithm>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <vector>

#include "core/error.h"
#include "core/shape.h"

using namespace lz;
using Catch::Matchers::Contains;

namespace {

using Vec = std::vector<int64_t>;

SizeVec sv(std::initializer_list<int64_t> v) { return SizeVec(v.begin(), v.end()); }

int64_t numel_of(const Vec& sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// Memory offset of the element with row-major linear index `linear`.
int64_t offset_of(int64_t linear, const Vec& sizes, const Vec& strides) {
  int64_t off = 0;
  for (size_t d = sizes.size(); d-- > 0;) {
    off += (linear % sizes[d]) * strides[d];
    linear /= sizes[d];
  }
  return off;
}

// Whether `new_strides` make every element of the (new_sizes) view address
// the same memory as the same row-major element of (sizes, strides).
bool view_matches(const Vec& sizes, const Vec& strides, const Vec& new_sizes, const Vec& new_strides) {
  const int64_t n = numel_of(sizes);
  for (int64_t i = 0; i < n; ++i) {
    if (offset_of(i, sizes, strides) != offset_of(i, new_sizes, new_strides)) return false;
  }
  return true;
}

// Brute force: a stride for a new dim of size > 1 is forced (it is the offset
// of one step along that dim); size-1 dims take any stride. So a valid
// stride vector exists iff the forced one works.
bool view_possible(const Vec& sizes, const Vec& strides, const Vec& new_sizes) {
  if (numel_of(sizes) == 0) return true;
  Vec forced(new_sizes.size(), 0);
  int64_t step = 1;
  for (size_t k = new_sizes.size(); k-- > 0;) {
    if (new_sizes[k] > 1) {
      forced[k] = offset_of(step, sizes, strides) - offset_of(0, sizes, strides);
    }
    step *= new_sizes[k];
  }
  return view_matches(sizes, strides, new_sizes, forced);
}

Vec random_factorization(int64_t n, std::mt19937& rng) {
  Vec out;
  int64_t rest = n;
  for (int64_t p = 2; p <= rest;) {
    if (rest % p == 0) {
      out.push_back(p);
      rest /= p;
    } else {
      ++p;
    }
  }
  // Merge random neighbours, then sprinkle size-1 dims.
  std::shuffle(out.begin(), out.end(), rng);
  while (out.size() > 1 && rng() % 3 == 0) {
    const size_t i = rng() % (out.size() - 1);
    out[i] *= out[i + 1];
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(i) + 1);
  }
  const int ones = static_cast<int>(rng() % 3);
  for (int k = 0; k < ones; ++k) out.insert(out.begin() + static_cast<std::ptrdiff_t>(rng() % (out.size() + 1)), 1);
  return out;
}

}  // namespace

TEST_CASE("shape_str", "[core]") {
  CHECK(shape_str(sv({2, 3})) == "[2, 3]");
  CHECK(shape_str(sv({})) == "[]");
  CHECK(shape_str(sv({0})) == "[0]");
}

TEST_CASE("broadcast_shapes follows NumPy rules", "[core]") {
  CHECK(broadcast_shapes(sv({2, 3}), sv({3}), "add", "self", "other") == sv({2, 3}));
  CHECK(broadcast_shapes(sv({4, 1, 3}), sv({2, 1}), "add", "self", "other") == sv({4, 2, 3}));
  CHECK(broadcast_shapes(sv({}), sv({2, 3}), "add", "self", "other") == sv({2, 3}));
  CHECK(broadcast_shapes(sv({2, 3}), sv({}), "add", "self", "other") == sv({2, 3}));
  CHECK(broadcast_shapes(sv({}), sv({}), "add", "self", "other") == sv({}));
  CHECK(broadcast_shapes(sv({1}), sv({1, 1}), "add", "self", "other") == sv({1, 1}));
  // 0-size dims broadcast against 1 and stay 0.
  CHECK(broadcast_shapes(sv({0, 3}), sv({1, 3}), "add", "self", "other") == sv({0, 3}));
  CHECK(broadcast_shapes(sv({1}), sv({0}), "add", "self", "other") == sv({0}));
  CHECK(broadcast_shapes(sv({2, 0}), sv({0}), "add", "self", "other") == sv({2, 0}));
  CHECK(broadcast_shapes(sv({5, 1, 0}), sv({3, 1}), "add", "self", "other") == sv({5, 3, 0}));
  CHECK_THROWS_AS(broadcast_shapes(sv({0}), sv({2}), "add", "self", "other"), ShapeError);
  CHECK_THROWS_AS(broadcast_shapes(sv({2, 3}), sv({3, 2}), "add", "self", "other"), ShapeError);
}

TEST_CASE("broadcast_shapes error names the op, both arguments and both shapes", "[core]") {
  try {
    broadcast_shapes(sv({2, 3}), sv({4, 3}), "mul", "self", "other");
    FAIL("expected a ShapeError");
  } catch (const ShapeError& e) {
    const std::string msg = e.what();
    CHECK_THAT(msg, Contains("[mul]"));
    CHECK_THAT(msg, Contains("self"));
    CHECK_THAT(msg, Contains("other"));
    CHECK_THAT(msg, Contains("[2, 3]"));
    CHECK_THAT(msg, Contains("[4, 3]"));
  }
}

TEST_CASE("is_expandable_to", "[core]") {
  CHECK(is_expandable_to(sv({3}), sv({2, 3})));
  CHECK(is_expandable_to(sv({1, 3}), sv({2, 3})));
  CHECK(is_expandable_to(sv({}), sv({2, 3})));
  CHECK(is_expandable_to(sv({}), sv({})));
  CHECK(is_expandable_to(sv({2, 3}), sv({2, 3})));
  CHECK(is_expandable_to(sv({1}), sv({0})));
  CHECK(is_expandable_to(sv({0}), sv({0})));
  CHECK_FALSE(is_expandable_to(sv({2, 3}), sv({3})));    // more dims than the target
  CHECK_FALSE(is_expandable_to(sv({2}), sv({2, 3})));    // trailing dims mismatch
  CHECK_FALSE(is_expandable_to(sv({3, 1}), sv({3})));
  CHECK_FALSE(is_expandable_to(sv({0}), sv({1})));       // unlike broadcasting, only 1 expands
  CHECK_FALSE(is_expandable_to(sv({2, 3}), sv({1, 3})));
}

TEST_CASE("wrap_dim", "[core]") {
  CHECK(wrap_dim(0, 3, "sum") == 0);
  CHECK(wrap_dim(2, 3, "sum") == 2);
  CHECK(wrap_dim(-1, 3, "sum") == 2);
  CHECK(wrap_dim(-3, 3, "sum") == 0);
  CHECK_THROWS_AS(wrap_dim(3, 3, "sum"), IndexError);
  CHECK_THROWS_AS(wrap_dim(-4, 3, "sum"), IndexError);
  // A 0-dim tensor accepts 0 and -1, like PyTorch.
  CHECK(wrap_dim(0, 0, "sum") == 0);
  CHECK(wrap_dim(-1, 0, "sum") == 0);
  CHECK_THROWS_AS(wrap_dim(1, 0, "sum"), IndexError);
  CHECK_THROWS_AS(wrap_dim(-2, 0, "sum"), IndexError);
  CHECK_THROWS_WITH(wrap_dim(3, 2, "sum"), Contains("[sum]") && Contains("3") &&
                                               Contains("2-D") && Contains("[-2, 1]"));
  CHECK_THROWS_WITH(wrap_dim(-3, 2, "softmax"), Contains("[softmax]") && Contains("-3"));
}

TEST_CASE("infer_size", "[core]") {
  CHECK(infer_size(sv({2, -1}), 6, "view") == sv({2, 3}));
  CHECK(infer_size(sv({-1}), 6, "view") == sv({6}));
  CHECK(infer_size(sv({-1, 1, 2}), 6, "view") == sv({3, 1, 2}));
  CHECK(infer_size(sv({3, 2}), 6, "view") == sv({3, 2}));
  CHECK(infer_size(sv({}), 1, "view") == sv({}));
  CHECK(infer_size(sv({-1}), 0, "view") == sv({0}));
  CHECK(infer_size(sv({2, 0, 3}), 0, "view") == sv({2, 0, 3}));
  CHECK_THROWS_AS(infer_size(sv({-1, -1}), 6, "view"), ShapeError);
  CHECK_THROWS_WITH(infer_size(sv({-1, 2, -1}), 6, "view"), Contains("[view]") && Contains("-1"));
  CHECK_THROWS_AS(infer_size(sv({4, -1}), 6, "view"), ShapeError);   // 6 is not divisible by 4
  CHECK_THROWS_AS(infer_size(sv({4, 2}), 6, "view"), ShapeError);
  CHECK_THROWS_WITH(infer_size(sv({4, 2}), 6, "reshape"),
                    Contains("[reshape]") && Contains("[4, 2]") && Contains("6"));
  CHECK_THROWS_AS(infer_size(sv({}), 2, "view"), ShapeError);
  CHECK_THROWS_AS(infer_size(sv({0, -1}), 0, "view"), ShapeError);  // -1 is ambiguous
  CHECK_THROWS_AS(infer_size(sv({2, -2}), 4, "view"), ValueError);
}

TEST_CASE("checked_numel", "[core]") {
  CHECK(checked_numel(sv({}), "empty") == 1);
  CHECK(checked_numel(sv({2, 3, 4}), "empty") == 24);
  CHECK(checked_numel(sv({2, 0, 4}), "empty") == 0);
  const int64_t big = int64_t{1} << 32;
  CHECK(checked_numel(sv({big, (int64_t{1} << 30)}), "empty") == (int64_t{1} << 62));
  CHECK_THROWS_AS(checked_numel(sv({big, big}), "empty"), ValueError);
  CHECK_THROWS_AS(checked_numel(sv({std::numeric_limits<int64_t>::max(), 2}), "empty"), ValueError);
  CHECK_THROWS_WITH(checked_numel(sv({big, big, 1}), "zeros"), Contains("[zeros]"));
  CHECK_THROWS_AS(checked_numel(sv({2, -1}), "empty"), ValueError);
  CHECK_THROWS_WITH(checked_numel(sv({2, -3}), "ones"), Contains("[ones]") && Contains("-3"));
}

TEST_CASE("contiguous_strides", "[core]") {
  CHECK(contiguous_strides(sv({2, 3, 4})) == sv({12, 4, 1}));
  CHECK(contiguous_strides(sv({})) == sv({}));
  CHECK(contiguous_strides(sv({5})) == sv({1}));
  CHECK(contiguous_strides(sv({2, 1, 3})) == sv({3, 3, 1}));
  // Size-0 dims count as 1 (PyTorch): strides stay positive.
  CHECK(contiguous_strides(sv({2, 0, 3})) == sv({3, 3, 1}));
}

TEST_CASE("is_contiguous", "[core]") {
  CHECK(is_contiguous(sv({2, 3}), sv({3, 1})));
  CHECK_FALSE(is_contiguous(sv({2, 3}), sv({1, 2})));       // transposed
  CHECK_FALSE(is_contiguous(sv({2, 3}), sv({6, 2})));       // sliced with step 2
  CHECK_FALSE(is_contiguous(sv({2, 3}), sv({0, 1})));       // expanded
  CHECK(is_contiguous(sv({}), sv({})));
  // Size-1 dims are ignored whatever their stride.
  CHECK(is_contiguous(sv({2, 1, 3}), sv({3, 100, 1})));
  CHECK(is_contiguous(sv({1, 3}), sv({0, 1})));
  CHECK(is_contiguous(sv({3, 1}), sv({1, 7})));
  // Empty tensors are contiguous.
  CHECK(is_contiguous(sv({0, 3}), sv({1, 5})));
  for (auto s : {sv({2, 3, 4}), sv({1, 1}), sv({0, 2}), sv({7})}) {
    CHECK(is_contiguous(s, contiguous_strides(s)));
  }
}

TEST_CASE("is_non_overlapping_and_dense", "[core]") {
  CHECK(is_non_overlapping_and_dense(sv({2, 3}), sv({3, 1})));
  CHECK(is_non_overlapping_and_dense(sv({2, 3}), sv({1, 2})));         // transposed
  CHECK(is_non_overlapping_and_dense(sv({2, 3, 4}), sv({1, 8, 2})));   // permuted
  CHECK(is_non_overlapping_and_dense(sv({2, 1, 3}), sv({1, 99, 2})));
  CHECK(is_non_overlapping_and_dense(sv({}), sv({})));
  CHECK_FALSE(is_non_overlapping_and_dense(sv({2, 3}), sv({6, 2})));  // gaps
  CHECK_FALSE(is_non_overlapping_and_dense(sv({2, 3}), sv({0, 1})));  // overlap
  CHECK_FALSE(is_non_overlapping_and_dense(sv({2, 3}), sv({1, 1})));  // overlap
  // Every contiguous layout, empty ones included, is non-overlapping and dense.
  for (auto s : {sv({2, 3, 4}), sv({1, 1}), sv({2, 0}), sv({0, 2}), sv({3, 0, 2}), sv({7})}) {
    INFO(shape_str(s));
    CHECK(is_non_overlapping_and_dense(s, contiguous_strides(s)));
  }
}

TEST_CASE("compute_view_strides: simple cases", "[core]") {
  // Contiguous tensors view as anything with the same numel.
  CHECK(compute_view_strides(sv({2, 3}), sv({3, 1}), sv({6})) == sv({1}));
  CHECK(compute_view_strides(sv({2, 3}), sv({3, 1}), sv({3, 2})) == sv({2, 1}));
  CHECK(compute_view_strides(sv({6}), sv({1}), sv({1, 2, 1, 3})).has_value());
  // A transposed 2x3 cannot be flattened, nor viewed as 2x3.
  CHECK_FALSE(compute_view_strides(sv({3, 2}), sv({1, 3}), sv({6})).has_value());
  CHECK_FALSE(compute_view_strides(sv({3, 2}), sv({1, 3}), sv({2, 3})).has_value());
  CHECK_FALSE(view_possible({3, 2}, {1, 3}, {6}));
  CHECK_FALSE(view_possible({3, 2}, {1, 3}, {2, 3}));
  // ...but it can keep its shape or gain size-1 dims.
  CHECK(compute_view_strides(sv({3, 2}), sv({1, 3}), sv({3, 2})) == sv({1, 3}));
  auto with_ones = compute_view_strides(sv({3, 2}), sv({1, 3}), sv({3, 1, 2}));
  REQUIRE(with_ones.has_value());
  CHECK((*with_ones)[0] == 1);
  CHECK((*with_ones)[2] == 3);
  // Splitting a strided dim keeps the stride on the inner part.
  CHECK(compute_view_strides(sv({4, 6}), sv({12, 2}), sv({4, 2, 3})) == sv({12, 6, 2}));
  // 0-dim <-> [1, 1].
  CHECK(compute_view_strides(sv({}), sv({}), sv({1, 1})).has_value());
  CHECK(compute_view_strides(sv({1, 1}), sv({5, 9}), sv({})) == sv({}));
  // Empty tensors view freely.
  CHECK(compute_view_strides(sv({0, 3}), sv({1, 0}), sv({3, 0})).has_value());
}

TEST_CASE("compute_view_strides agrees with brute force on random strided tensors", "[core]") {
  std::mt19937 rng(20240611);
  int checked = 0, viewable = 0;
  for (int iter = 0; iter < 4000; ++iter) {
    // A contiguous base, then a permutation, slices with steps, and expands.
    const int rank = static_cast<int>(rng() % 5);
    Vec base(rank);
    for (auto& s : base) s = 1 + static_cast<int64_t>(rng() % 4);
    Vec base_strides(rank);
    int64_t st = 1;
    for (int d = rank - 1; d >= 0; --d) {
      base_strides[d] = st;
      st *= base[d];
    }
    Vec sizes = base, strides = base_strides;
    for (int d = 0; d < rank; ++d) {
      switch (rng() % 6) {
        case 0:  // step slice
          if (sizes[d] > 1) {
            const int64_t step = 2;
            sizes[d] = (sizes[d] + step - 1) / step;
            strides[d] *= step;
          }
          break;
        case 1:  // narrow
          if (sizes[d] > 1) sizes[d] -= 1;
          break;
        case 2:  // expand a size-1 dim
          if (sizes[d] == 1) {
            sizes[d] = 2 + static_cast<int64_t>(rng() % 2);
            strides[d] = 0;
          }
          break;
        default: break;
      }
    }
    Vec perm(rank);
    std::iota(perm.begin(), perm.end(), 0);
    if (rng() % 2) std::shuffle(perm.begin(), perm.end(), rng);
    Vec p_sizes(rank), p_strides(rank);
    for (int d = 0; d < rank; ++d) {
      p_sizes[d] = sizes[perm[d]];
      p_strides[d] = strides[perm[d]];
    }
    const int64_t n = numel_of(p_sizes);
    for (int k = 0; k < 4; ++k) {
      const Vec new_sizes = random_factorization(n, rng);
      const auto got = compute_view_strides(p_sizes, p_strides, new_sizes);
      const bool possible = view_possible(p_sizes, p_strides, new_sizes);
      INFO("sizes " << shape_str(p_sizes) << " strides " << shape_str(p_strides) << " -> "
                    << shape_str(new_sizes));
      REQUIRE(got.has_value() == possible);
      if (got) {
        REQUIRE(got->size() == new_sizes.size());
        REQUIRE(view_matches(p_sizes, p_strides, new_sizes, Vec(got->begin(), got->end())));
        ++viewable;
      }
      ++checked;
    }
  }
  // The generator must have produced both outcomes in quantity.
  CHECK(viewable > checked / 10);
  CHECK(viewable < checked - checked / 10);
}
