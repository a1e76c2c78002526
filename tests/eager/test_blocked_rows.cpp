// Element-wise kernels over layouts the contiguous loop cannot read in place
// (eager_kernels/cpu/loops.h): rows of a few elements that do not merge
// (blocks cut across rows), narrow strides (gathered), wide strides (a
// transpose: element by element), strided and float16 outputs, numbers and
// columns broadcast along short rows. Sizes are past the parallel grain
// (32768 elements), so chunks start and end inside rows. Every result must
// match the reference element by element.
#include <cmath>
#include <cstdint>
#include <vector>

#include "test_util.h"

using namespace lz;

namespace {

// 50001 rows of four: 200004 elements, split by the thread pool mid-row.
constexpr int64_t kShortRows = 50001;

std::vector<double> add_reference(const Tensor& a, const Tensor& b, IntArrayRef sizes) {
  return lzt::binary_reference(a, b, sizes, [](double x, double y) { return x + y; });
}

}  // namespace

TEST_CASE("rows of four with a transposed operand match the reference", "[binary][layout]") {
  for (const ScalarType dtype : {kFloat32, kInt64, kFloat16, kBFloat16, kInt8}) {
    INFO(dtype);
    const Tensor a = lzt::sample_tensor({kShortRows, 4}, dtype, 1);
    const Tensor b = lzt::sample_tensor({4, kShortRows}, dtype, 2).t();
    const Tensor sum = lz::add(a, b);
    CHECK(lzt::mismatch(sum, add_reference(a, b, {kShortRows, 4}), lzt::rtol_for(dtype)) == "");
  }
}

TEST_CASE("narrow and wide strides match the reference", "[binary][unary][layout]") {
  // Every other column (an 8-byte stride: gathered in blocks) and a
  // transpose of odd sizes (a 4116-byte stride: element by element).
  const Tensor wide = lzt::sample_tensor({37, 2 * 1029}, kFloat32, 3);
  const Tensor every_other = wide.slice(1, 0, 2 * 1029, 2);
  const Tensor rows = lzt::sample_tensor({37, 1029}, kFloat32, 4);
  CHECK(lzt::mismatch(lz::add(every_other, rows), add_reference(every_other, rows, {37, 1029}), 0) == "");
  const Tensor transposed = lzt::sample_tensor({1029, 37}, kFloat32, 5).t();
  CHECK(lzt::mismatch(lz::add(transposed, rows), add_reference(transposed, rows, {37, 1029}), 0) == "");
  CHECK(lzt::mismatch(lz::exp(transposed), lzt::map_values(transposed, [](double v) { return std::exp(v); }),
                      lzt::rtol_for(kFloat32)) == "");
  const Tensor half_columns = lzt::sample_tensor({37, 2 * 1029}, kFloat16, 6).slice(1, 0, 2 * 1029, 2);
  CHECK(lzt::mismatch(lz::exp(half_columns), lzt::map_values(half_columns, [](double v) { return std::exp(v); }),
                      lzt::rtol_for(kFloat16)) == "");
}

TEST_CASE("strided outputs are written at their strides only", "[binary][layout]") {
  for (const ScalarType dtype : {kFloat32, kFloat16, kInt32}) {
    INFO(dtype);
    const Tensor a = lzt::sample_tensor({kShortRows}, dtype, 7);
    const Tensor b = lzt::sample_tensor({kShortRows}, dtype, 8);
    // Column 0 of a [n, 2] tensor whose column 1 holds a sentinel.
    Tensor pairs = lz::full({kShortRows, 2}, 3.0, dtype);
    Tensor column = pairs.select(1, 0);
    lz::mul_out(column, a, b);
    const std::vector<double> expected_products =
        lzt::binary_reference(a, b, {kShortRows}, [](double x, double y) { return x * y; });
    CHECK(lzt::mismatch(column, expected_products, lzt::rtol_for(dtype)) == "");
    CHECK(lzt::mismatch(pairs.select(1, 1), std::vector<double>(kShortRows, 3.0), 0) == "");
    // A transposed output of rows of four.
    Tensor transposed_out = lz::empty({4, kShortRows}, dtype).t();
    const Tensor c = lzt::sample_tensor({kShortRows, 4}, dtype, 9);
    const Tensor d = lzt::sample_tensor({kShortRows, 4}, dtype, 10);
    lz::add_out(transposed_out, c, d);
    CHECK(lzt::mismatch(transposed_out, add_reference(c, d, {kShortRows, 4}), lzt::rtol_for(dtype)) == "");
  }
}

TEST_CASE("numbers and columns broadcast along short rows match the reference", "[binary][ternary][broadcast]") {
  const Tensor x = lzt::sample_tensor({kShortRows, 8}, kFloat32, 11).slice(1, 0, 3);  // rows of 3, 8 apart
  const Tensor column = lzt::sample_tensor({kShortRows, 1}, kFloat32, 12);
  CHECK(lzt::mismatch(lz::mul(x, 2.0), lzt::map_values(x, [](double v) { return v * 2; }), 0) == "");
  CHECK(lzt::mismatch(lz::sub(x, column),
                      lzt::binary_reference(x, column, {kShortRows, 3}, [](double p, double q) { return p - q; }),
                      0) == "");
  // where(condition, transposed, column): three operands of three layouts.
  const Tensor keep = lzt::sample_tensor({kShortRows, 3}, kBool, 13);
  const Tensor y = lzt::sample_tensor({3, kShortRows}, kFloat32, 14).t();
  const std::vector<double> ks = lzt::values(keep), ys = lzt::values(y);
  const std::vector<double> cs = lzt::broadcast_values(column, {kShortRows, 3});
  std::vector<double> expected(ks.size());
  for (size_t i = 0; i < ks.size(); ++i) expected[i] = ks[i] != 0 ? ys[i] : cs[i];
  CHECK(lzt::mismatch(lz::where(keep, y, column), expected, 0) == "");
  // One input broadcast along every row: each row's value is computed once.
  const Tensor expanded = column.expand({kShortRows, 5});
  CHECK(lzt::mismatch(lz::neg(expanded), lzt::map_values(expanded, [](double v) { return -v; }), 0) == "");
}
