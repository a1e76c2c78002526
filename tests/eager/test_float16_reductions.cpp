// float16 and bfloat16 reductions fold blocks widened to float with the
// float instance of the same loop (eager_kernels/cpu/reduce.h,
// fold_widened and for_row_blocks). Each result must be the float
// reduction of the widened input rounded once: exactly where the float
// kernel folds in the same order (runs of at most one block, columns), and
// within the 16-bit type's rounding where runs of several blocks are
// combined block by block.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "test_util.h"

using namespace lz;

namespace {

// Values in [-6, 6] varying along every dim, rounded to `dtype`; every
// seventh one zero (for any/all) and a repeated maximum (for argmax ties).
Tensor reduction_wave(IntArrayRef sizes, ScalarType dtype) {
  std::vector<double> v(static_cast<size_t>(lzt::numel_of(sizes)));
  for (size_t i = 0; i < v.size(); ++i) {
    v[i] = i % 7 == 3 ? 0.0 : 6 * std::sin(0.37 * static_cast<double>(i) + 0.2);
  }
  return lzt::make_tensor(v, sizes, dtype);
}

using Reduction = std::function<Tensor(const Tensor&)>;

struct ReductionCase {
  const char* name;
  Reduction reduce;
  bool exact_over_blocks;  // order-independent (extremum, logical)
};

const std::vector<ReductionCase>& reductions(int64_t dim) {
  static std::vector<ReductionCase> cases[2];
  std::vector<ReductionCase>& c = cases[dim];
  if (c.empty()) {
    c = {
        {"sum", [dim](const Tensor& x) { return lz::sum(x, IntArrayRef{dim}); }, false},
        {"mean", [dim](const Tensor& x) { return lz::mean(x, IntArrayRef{dim}); }, false},
        {"amax", [dim](const Tensor& x) { return lz::amax(x, {dim}); }, true},
        {"amin", [dim](const Tensor& x) { return lz::amin(x, {dim}); }, true},
        {"argmax", [dim](const Tensor& x) { return lz::argmax(x, dim); }, true},
        {"max values", [dim](const Tensor& x) { return std::get<0>(lz::max(x, dim)); }, true},
        {"any", [dim](const Tensor& x) { return lz::any(x, dim); }, true},
        {"all", [dim](const Tensor& x) { return lz::all(x, dim); }, true},
        {"var", [dim](const Tensor& x) { return lz::var(x, IntArrayRef{dim}); }, false},
        {"std", [dim](const Tensor& x) { return lz::std(x, IntArrayRef{dim}); }, false},
        {"norm 2", [dim](const Tensor& x) { return lz::norm(x, Scalar(2), {dim}); }, false},
        {"norm 1", [dim](const Tensor& x) { return lz::norm(x, Scalar(1), {dim}); }, false},
        {"norm inf", [dim](const Tensor& x) { return lz::norm(x, Scalar(INFINITY), {dim}); }, true},
        {"norm 3", [dim](const Tensor& x) { return lz::norm(x, Scalar(3), {dim}); }, false},
        {"logsumexp", [dim](const Tensor& x) { return lz::logsumexp(x, {dim}); }, false},
    };
  }
  return c;
}

// The float reduction of x's values, stored as the 16-bit result would be.
Tensor float_reference(const Reduction& reduce, const Tensor& x) {
  const Tensor r = reduce(x.to(kFloat32).contiguous());
  return r.dtype() == kFloat32 ? r.to(x.dtype()) : r;
}

struct ReductionLayout {
  const char* name;
  std::vector<int64_t> sizes;
  bool transpose;
  int64_t dim;
  bool single_block_runs;  // every run folded as one block: exact
};

// Inner runs of 3000 elements (three blocks, the last partial), columns of
// 1500 (past one widened row piece, and past a sum tile of 1024) over 37
// rows (not a multiple of four), strided runs, and short runs.
const std::vector<ReductionLayout>& reduction_layouts() {
  static const std::vector<ReductionLayout> kLayouts = {
      {"rows of 3000", {3, 3000}, false, 1, false},
      {"columns of 37 rows", {37, 1500}, false, 0, true},
      {"strided runs of 3000", {3000, 3}, true, 1, false},
      {"rows of 75", {40, 75}, false, 1, true},
      {"rows of 10", {300, 10}, false, 1, true},
  };
  return kLayouts;
}

}  // namespace

TEST_CASE("float16 and bfloat16 reductions are the float reduction rounded once", "[reduction][float16]") {
  for (const ScalarType dtype : {kFloat16, kBFloat16}) {
    for (const ReductionLayout& layout : reduction_layouts()) {
      const Tensor base = reduction_wave(layout.sizes, dtype);
      const Tensor x = layout.transpose ? base.t() : base;
      for (const ReductionCase& r : reductions(layout.dim)) {
        CAPTURE(dtype, layout.name, r.name);
        const Tensor result = r.reduce(x);
        const Tensor expected = float_reference(r.reduce, x);
        REQUIRE(result.dtype() == expected.dtype());
        if (layout.single_block_runs || r.exact_over_blocks) {
          CHECK(lzt::same_values(result, expected) == "");
        } else {
          REQUIRE(result.sizes() == expected.sizes());
          CHECK(lzt::mismatch(result, lzt::values(expected), lzt::rtol_for(dtype)) == "");
        }
      }
    }
  }
}

TEST_CASE("float16 full reductions fold blocks in order", "[reduction][float16]") {
  // 5000 elements: five blocks, one partial. The sum of 5000 ones is exact
  // in float whatever the order, so it must be exactly 5000 rounded to the
  // 16-bit type (float16: 5000; bfloat16: 4992).
  for (const ScalarType dtype : {kFloat16, kBFloat16}) {
    CAPTURE(dtype);
    const Tensor ones = lz::ones({5000}, dtype);
    CHECK(lzt::values(lz::sum(ones)) == std::vector<double>{lzt::round_to(dtype, 5000)});
    CHECK(lzt::values(lz::mean(ones)) == std::vector<double>{1.0});
    const Tensor x = reduction_wave({5000}, dtype);
    CHECK(lzt::same_values(lz::amax(x), lz::amax(x.to(kFloat32)).to(dtype)) == "");
    CHECK(lzt::values(lz::argmax(x)) == lzt::values(lz::argmax(x.to(kFloat32))));
  }
}
