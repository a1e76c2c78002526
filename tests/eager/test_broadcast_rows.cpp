// A row with operands that are broadcast numbers (x - 2, 2 - x, a 0-dim
// tensor, a [n, 1] column, where(c, x, 0.5), clamp(x, lo, hi)) reads each
// number from a block filled once, with the operator's one contiguous loop
// (eager_kernels/cpu/loops.h, blocked_rows): every length around the block
// size and an output large enough to be streamed must match the reference
// element by element.
#include <algorithm>
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

TEST_CASE("ternary operators with broadcast numbers and columns match the reference", "[ternary][broadcast]") {
  // One, two or three of where's, clamp's and addcmul's operands broadcast
  // along the row: each is filled into a block read by the three-input loop.
  for (const int64_t n : kBroadcastRowLengths) {
    const Tensor x = lzt::sample_tensor({n}, kFloat32, 8);
    const Tensor y = lzt::sample_tensor({n}, kFloat32, 9);
    const Tensor keep = lzt::sample_tensor({n}, kBool, 10);
    const std::vector<double> xs = lzt::values(x), ys = lzt::values(y), ks = lzt::values(keep);
    const auto expect = [&](const std::function<double(size_t)>& at) {
      std::vector<double> e(static_cast<size_t>(n));
      for (size_t i = 0; i < e.size(); ++i) e[i] = at(i);
      return e;
    };
    INFO(n << " elements");
    CHECK(lzt::mismatch(lz::where(keep, x, 0.5), expect([&](size_t i) { return ks[i] != 0 ? xs[i] : 0.5; }), 0) == "");
    CHECK(lzt::mismatch(lz::where(keep, lz::scalar_tensor(-1.5), y),
                        expect([&](size_t i) { return ks[i] != 0 ? -1.5 : ys[i]; }), 0) == "");
    CHECK(lzt::mismatch(lz::where(lz::scalar_tensor(true), x, y), expect([&](size_t i) { return xs[i]; }), 0) == "");
    CHECK(lzt::mismatch(lz::clamp(x, lz::scalar_tensor(-0.25), lz::scalar_tensor(0.75)),
                        expect([&](size_t i) { return std::min(std::max(xs[i], -0.25), 0.75); }), 0) == "");
    CHECK(lzt::mismatch(lz::addcmul(x, lz::scalar_tensor(2.0), y, 0.5),
                        expect([&](size_t i) { return static_cast<double>(static_cast<float>(xs[i] + 0.5 * 2.0 * ys[i])); }),
                        lzt::rtol_for(kFloat32)) == "");
  }
}

TEST_CASE("ternary rows against broadcast columns", "[ternary][broadcast]") {
  // [rows, 1] lower and upper bounds against [rows, 3000]: a block filled
  // for one row must not leak into the next.
  const Tensor x = lzt::sample_tensor({5, 3000}, kFloat32, 11);
  const Tensor lo = lzt::sample_tensor({5, 1}, kFloat32, 12) - 0.5;
  const Tensor hi = lo + 0.75;
  const std::vector<double> xs = lzt::values(x), los = lzt::values(lo), his = lzt::values(hi);
  std::vector<double> expected(xs.size());
  for (size_t i = 0; i < xs.size(); ++i) expected[i] = std::min(std::max(xs[i], los[i / 3000]), his[i / 3000]);
  CHECK(lzt::mismatch(lz::clamp(x, lo, hi), expected, 0) == "");
}
