// The interpreter evaluates batches of points: results must not depend on
// where batch and slice boundaries fall (inner domains shorter and longer
// than a batch, several outer points per batch, large inner domains).
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <vector>

#include "tests/kernel/kernel_test_util.h"

using namespace lz;
using namespace lz::ir;
using namespace lz::codegen_interp;
using namespace lz::kernel_testing;

namespace {

// Row softmax computed point by point with the IR's semantics: float32 ops
// rounded once each, the sum accumulated in double and rounded at the end.
std::vector<float> softmax_reference(const std::vector<float>& x, int64_t rows, int64_t cols) {
  std::vector<float> out(x.size());
  for (int64_t r = 0; r < rows; ++r) {
    const float* row = x.data() + r * cols;
    double m = -INFINITY;
    for (int64_t c = 0; c < cols; ++c) m = std::max<double>(m, row[c]);
    double sum = 0;
    for (int64_t c = 0; c < cols; ++c) sum += static_cast<float>(std::exp(static_cast<double>(static_cast<float>(row[c] - m))));
    const auto s = static_cast<float>(sum);
    for (int64_t c = 0; c < cols; ++c) {
      const auto e = static_cast<float>(std::exp(static_cast<double>(static_cast<float>(row[c] - m))));
      out[static_cast<size_t>(r * cols + c)] = static_cast<float>(static_cast<double>(e) / s);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("kernel interpreter: softmax rows around the batch size", "[kernel]") {
  for (const int64_t cols : {1, 3, 511, 512, 513, 1500}) {
    for (const int64_t rows : {1, 5, 700}) {
      std::vector<float> x(static_cast<size_t>(rows * cols)), out(x.size(), -1);
      for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(std::sin(0.37 * static_cast<double>(i)) * 5);
      run_kernel(softmax_kernel(), {{rows, cols}, {bind(x, {cols, 1}), bind(out, {cols, 1})}, {}});
      CAPTURE(rows, cols);
      CHECK(out == softmax_reference(x, rows, cols));
    }
  }
}

TEST_CASE("kernel interpreter: multi-axis inner domains and broadcast batches", "[kernel]") {
  // Sum over axes {0, 2} of a [40, 6, 30] int64 tensor read transposed: each
  // inner domain (1200 points) spans several slices, crossing axis 2's rows.
  Kernel k;
  k.name = "sum02";
  k.rank = 3;
  k.reduce_axes = 0b101;
  KernelBuilder b(&k);
  const uint32_t in = b.add_access({b.add_buffer(kLong, 3, false), {}});
  const uint32_t out = b.add_access({b.add_buffer(kLong, 3, true), {}});
  const uint32_t r = b.add_reduction(ReduceOp::Sum, b.load(in, kLong), kLong);
  b.add_store(out, b.reduced(r), true);
  std::vector<int64_t> x(40 * 6 * 30), sums(6, -1);
  for (size_t i = 0; i < x.size(); ++i) x[i] = static_cast<int64_t>(i * i % 1009);
  // x stored as [30, 6, 40] contiguous: domain (a, b, c) at c * 240 + b * 40 + a.
  run_kernel(k, {{40, 6, 30}, {bind(x, {1, 40, 240}), bind(sums, {0, 1, 0})}, {}});
  for (int64_t j = 0; j < 6; ++j) {
    int64_t want = 0;
    for (int64_t a = 0; a < 40; ++a)
      for (int64_t c = 0; c < 30; ++c) want += x[static_cast<size_t>(c * 240 + j * 40 + a)];
    CHECK(sums[static_cast<size_t>(j)] == want);
  }

  // Pointwise over [700, 3] with a broadcast row: batches cross many rows.
  std::vector<int32_t> m(2100), row = {10, 20, 30}, t(2100, -1);
  for (size_t i = 0; i < m.size(); ++i) m[i] = static_cast<int32_t>(i);
  run_kernel(binary_kernel(ScalarOp::Mul, kInt, 2), {{700, 3}, {bind(m, {3, 1}), bind(row, {0, 1}), bind(t, {3, 1})}, {}});
  bool all_ok = true;
  for (size_t i = 0; i < t.size(); ++i) all_ok &= t[i] == m[i] * row[i % 3];
  CHECK(all_ok);
}

TEST_CASE("kernel interpreter: a very large inner domain", "[kernel]") {
  // 2 rows of 600000 points: too many offsets to tabulate, sliced on the fly.
  Kernel k;
  k.name = "rowmax";
  k.rank = 2;
  k.reduce_axes = 0b10;
  KernelBuilder b(&k);
  const uint32_t in = b.add_access({b.add_buffer(kFloat, 2, false), {}});
  const uint32_t out = b.add_access({b.add_buffer(kFloat, 2, true), {}});
  const ExprId x = b.load(in, kFloat);
  const uint32_t rmax = b.add_reduction(ReduceOp::Max, x, kFloat);
  const uint32_t rsum = b.add_reduction(ReduceOp::Sum, x, kFloat);
  b.add_store(out, b.binary(ScalarOp::Sub, b.reduced(rmax), b.reduced(rsum), kFloat), true);
  const int64_t n = 600000;
  std::vector<float> v(static_cast<size_t>(2 * n)), res(2, 0);
  for (size_t i = 0; i < v.size(); ++i) v[i] = static_cast<float>(i % 1000) * 0.5f;
  v[static_cast<size_t>(n + 12345)] = NAN;
  run_kernel(k, {{2, n}, {bind(v, {n, 1}), bind(res, {1, 0})}, {}});
  double sum = 0;
  for (int64_t i = 0; i < n; ++i) sum += v[static_cast<size_t>(i)];
  CHECK(res[0] == static_cast<float>(499.5 - static_cast<double>(static_cast<float>(sum))));
  CHECK(std::isnan(res[1]));
}
