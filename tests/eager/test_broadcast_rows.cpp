// A two-input row with one operand a broadcast number (x - 2, 2 - x, a 0-dim
// tensor, a [n, 1] column) reads the number from a block filled once, with
// the two-input loop of the operator (eager_kernels/cpu/loops.h,
// broadcast_row): every length around the block size and an output large
// enough to be streamed must match the reference element by element.
#include <cstdint>
#include <functional>
#include <vector>

#include "test_util.h"

using namespace lz;

namespace {

// Lengths below, at and around one 1024-element block, several blocks, and
// (5M floats, 20 MB) past the streaming-store threshold of 16 MB.
const std::vector<int64_t> kBroadcastRowLengths = {1, 17, 1023, 1024, 1025, 3000, 5'000'003};

struct NumberOp {
  const char* name;
  std::function<Tensor(const Tensor&)> op;
  std::function<double(double)> reference;
};

}  // namespace

TEST_CASE("binary operators with a broadcast number on either side match the reference", "[binary][broadcast]") {
  const std::vector<NumberOp> ops = {
      {"x - 2.5", [](const Tensor& x) { return x - 2.5; }, [](double v) { return v - 2.5; }},
      {"2.5 - x", [](const Tensor& x) { return 2.5 - x; }, [](double v) { return 2.5 - v; }},
      {"3 / x", [](const Tensor& x) { return 3.0 / x; }, [](double v) { return 3.0 / v; }},
      {"x lt 0-dim 1", [](const Tensor& x) { return x.lt(lz::scalar_tensor(1.0)); },
       [](double v) { return v < 1.0 ? 1.0 : 0.0; }},
      {"0-dim 1 lt x", [](const Tensor& x) { return lz::scalar_tensor(1.0).lt(x); },
       [](double v) { return 1.0 < v ? 1.0 : 0.0; }},
  };
  for (const int64_t n : kBroadcastRowLengths) {
    const Tensor x = lzt::sample_tensor({n}, kFloat32, 7, /*nonzero=*/true);
    const std::vector<double> xs = lzt::values(x);
    for (const NumberOp& op : ops) {
      INFO(op.name << " over " << n << " elements");
      std::vector<double> expected(xs.size());
      for (size_t i = 0; i < xs.size(); ++i) expected[i] = op.reference(xs[i]);
      const Tensor result = op.op(x);
      CHECK(lzt::mismatch(result, expected, lzt::rtol_for(kFloat32)) == "");
    }
  }
}

TEST_CASE("integer and bool rows against a broadcast column", "[binary][broadcast]") {
  // [rows, 1] against [rows, 3000]: each row's number is different, so a
  // block filled for one row must not leak into the next.
  const Tensor column = lzt::sample_tensor({5, 1}, kInt32, 3);
  const Tensor rows = lzt::sample_tensor({5, 3000}, kInt32, 4);
  CHECK(lzt::mismatch(lz::sub(column, rows), lzt::binary_reference(column, rows, {5, 3000},
                                                                   [](double a, double b) { return a - b; }),
                      0) == "");
  CHECK(lzt::mismatch(lz::sub(rows, column), lzt::binary_reference(rows, column, {5, 3000},
                                                                   [](double a, double b) { return a - b; }),
                      0) == "");
  const Tensor flags = lzt::sample_tensor({5, 3000}, kBool, 5);
  const Tensor flag_column = lzt::sample_tensor({5, 1}, kBool, 6);
  CHECK(lzt::mismatch(lz::logical_xor(flag_column, flags),
                      lzt::binary_reference(flag_column, flags, {5, 3000},
                                            [](double a, double b) { return (a != 0) != (b != 0) ? 1.0 : 0.0; }),
                      0) == "");
}
