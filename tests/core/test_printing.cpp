// Expected strings follow PyTorch's torch/_tensor_str.py rules: 4 decimals;
// "1." when every nonzero finite value is whole; scientific when
// max/min of the nonzero finite magnitudes > 1000, max > 1e8, or (for non
// whole values) min < 1e-4; column width from the nonzero finite values only
// (nan/inf/0 are padded to it but never widen it); bool and int columns are
// as wide as the widest value; elements per line = (80 - indent) / (width + 2);
// summarise above 1000 elements with 3 edge items; dtype suffix unless the
// dtype is float32, int64 or bool, and for empty tensors unless it is float32;
// a suffix goes on a new line (indented 7) when last_line_len + len + 2 > 80,
// where last_line_len is len(text) - text.rfind("\n") + 1 (so len + 2 with
// no newline).
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <cmath>
#include <limits>
#include <sstream>
#include <string>

using namespace lz;

namespace {
const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();
}  // namespace

TEST_CASE("printing: integer tensors", "[core]") {
  CHECK(lz::tensor({1, 2, 3}).to_string() == "tensor([1, 2, 3])");
  CHECK(lz::tensor({1, 2, 3}, kInt32).to_string() == "tensor([1, 2, 3], dtype=lz.int32)");
  CHECK(lz::tensor({1, 255}, kUInt8).to_string() == "tensor([  1, 255], dtype=lz.uint8)");
  CHECK(lz::tensor({-1, 100}).to_string() == "tensor([ -1, 100])");
  CHECK(lz::tensor({5}).to_string() == "tensor([5])");
  // int64 values print exactly, beyond double precision too.
  CHECK(lz::tensor({int64_t{9007199254740993}}).to_string() == "tensor([9007199254740993])");
  CHECK(lz::tensor({std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()}).to_string() ==
        "tensor([-9223372036854775808,  9223372036854775807])");
}

TEST_CASE("printing: float tensors", "[core]") {
  CHECK(lz::tensor({1.5, 2.0}).to_string() == "tensor([1.5000, 2.0000])");
  CHECK(lz::tensor({1.0, 2.0}).to_string() == "tensor([1., 2.])");
  CHECK(lz::tensor({-1.0, 10.0}).to_string() == "tensor([-1., 10.])");
  CHECK(lz::tensor({0.0, 0.0}).to_string() == "tensor([0., 0.])");
  CHECK(lz::tensor({1e-5, 1e3}).to_string() == "tensor([1.0000e-05, 1.0000e+03])");
  CHECK(lz::tensor({1e-5, 2e-5}).to_string() == "tensor([1.0000e-05, 2.0000e-05])");
  CHECK(lz::tensor({0.0, 1e-5}).to_string() == "tensor([0.0000e+00, 1.0000e-05])");
  CHECK(lz::tensor({1.0, 1e9}).to_string() == "tensor([1.0000e+00, 1.0000e+09])");   // whole but huge
  CHECK(lz::tensor({1.0, 1001.0}).to_string() == "tensor([1.0000e+00, 1.0010e+03])");  // ratio > 1000
  CHECK(lz::tensor({1.0, 1000.0}).to_string() == "tensor([   1., 1000.])");           // ratio == 1000
  CHECK(lz::tensor({0.5, -0.25}).to_string() == "tensor([ 0.5000, -0.2500])");
  CHECK(lz::tensor({-1.5, 2.0}).to_string() == "tensor([-1.5000,  2.0000])");
  CHECK(lz::tensor({0.0001, 0.1}).to_string() == "tensor([1.0000e-04, 1.0000e-01])");  // float32 0.0001 < 1e-4
}

TEST_CASE("printing: 0-dim tensors", "[core]") {
  CHECK(lz::scalar_tensor(3.5, kFloat32).to_string() == "tensor(3.5000)");
  CHECK(lz::scalar_tensor(3.0, kFloat32).to_string() == "tensor(3.)");
  CHECK(lz::scalar_tensor(3, kInt64).to_string() == "tensor(3)");
  CHECK(lz::scalar_tensor(-7, kInt32).to_string() == "tensor(-7, dtype=lz.int32)");
  CHECK(lz::scalar_tensor(3.5, kFloat64).to_string() == "tensor(3.5000, dtype=lz.float64)");
  CHECK(lz::scalar_tensor(true, kBool).to_string() == "tensor(True)");
  CHECK(lz::scalar_tensor(1e-6, kFloat32).to_string() == "tensor(1.0000e-06)");
}

TEST_CASE("printing: bool tensors", "[core]") {
  // Columns are as wide as "False" once one is present (PyTorch prints tensor([ True, False])).
  CHECK(lz::tensor({true, false}).to_string() == "tensor([ True, False])");
  CHECK(lz::tensor({true, true}).to_string() == "tensor([True, True])");
  CHECK(lz::tensor({false}).to_string() == "tensor([False])");
}

TEST_CASE("printing: empty tensors", "[core]") {
  CHECK(lz::empty({0}).to_string() == "tensor([])");
  CHECK(lz::zeros({0, 3}).to_string() == "tensor([], size=(0, 3))");
  CHECK(lz::zeros({2, 0, 1}).to_string() == "tensor([], size=(2, 0, 1))");
  // No values to infer the dtype from: anything but float32 is spelled out,
  // int64 and bool included.
  CHECK(lz::empty({0}, kInt64).to_string() == "tensor([], dtype=lz.int64)");
  CHECK(lz::empty({0}, kInt32).to_string() == "tensor([], dtype=lz.int32)");
  CHECK(lz::empty({0}, kFloat64).to_string() == "tensor([], dtype=lz.float64)");
  CHECK(lz::empty({2, 0}, kBool).to_string() == "tensor([], size=(2, 0), dtype=lz.bool)");
}

TEST_CASE("printing: 16-bit and 64-bit float dtypes", "[core]") {
  CHECK(lz::tensor({1.5, 2.0}, kFloat16).to_string() == "tensor([1.5000, 2.0000], dtype=lz.float16)");
  CHECK(lz::tensor({1.5, 2.0}, kBFloat16).to_string() == "tensor([1.5000, 2.0000], dtype=lz.bfloat16)");
  CHECK(lz::tensor({1.5, 2.0}, kFloat64).to_string() == "tensor([1.5000, 2.0000], dtype=lz.float64)");
  // The stored (rounded) value is printed: bfloat16(0.1) = 0.10009765625.
  CHECK(lz::tensor({0.1, 0.2}, kFloat16).to_string() == "tensor([0.1000, 0.2000], dtype=lz.float16)");
  CHECK(lz::tensor({0.1}, kBFloat16).to_string() == "tensor([0.1001], dtype=lz.bfloat16)");
  CHECK(lz::tensor({1.0, 2.0}, kFloat64).to_string() == "tensor([1., 2.], dtype=lz.float64)");
}

TEST_CASE("printing: nan and inf", "[core]") {
  CHECK(lz::tensor({kNan, 1.5f, kInf, -kInf}).to_string() == "tensor([   nan, 1.5000,    inf,   -inf])");
  CHECK(lz::tensor({1.0f, kInf}).to_string() == "tensor([1., inf])");
  CHECK(lz::tensor({kNan, -kInf}).to_string() == "tensor([nan, -inf])");
  CHECK(lz::tensor({0.0f, kNan}).to_string() == "tensor([0., nan])");
  CHECK(lz::tensor({-kInf, 1.0f, 1e-5f}).to_string() == "tensor([      -inf, 1.0000e+00, 1.0000e-05])");
}

TEST_CASE("printing: 2-D and 3-D layout", "[core]") {
  CHECK(lz::tensor({{1.5, -2.0}, {0.25, 3.0}}).to_string() ==
        "tensor([[ 1.5000, -2.0000],\n"
        "        [ 0.2500,  3.0000]])");
  CHECK(lz::tensor({{1, 2, 3}, {40, 5, -6}}).to_string() ==
        "tensor([[ 1,  2,  3],\n"
        "        [40,  5, -6]])");
  CHECK(lz::arange(8).view({2, 2, 2}).to_string() ==
        "tensor([[[0, 1],\n"
        "         [2, 3]],\n"
        "\n"
        "        [[4, 5],\n"
        "         [6, 7]]])");
  CHECK(lz::zeros({1, 1, 1, 1}, kInt32).to_string() == "tensor([[[[0]]]], dtype=lz.int32)");
}

TEST_CASE("printing: non-contiguous tensors print in logical order", "[core]") {
  const Tensor m = lz::tensor({{1, 2, 3}, {4, 5, 6}});
  CHECK(m.t().to_string() ==
        "tensor([[1, 4],\n"
        "        [2, 5],\n"
        "        [3, 6]])");
  CHECK(lz::arange(10).slice(0, 1, 10, 3).to_string() == "tensor([1, 4, 7])");
  CHECK(lz::tensor({1, 2}).expand({2, 2}).to_string() ==
        "tensor([[1, 2],\n"
        "        [1, 2]])");
  CHECK(m.select(1, 2).to_string() == "tensor([3, 6])");
}

TEST_CASE("printing: long rows wrap at 80 columns", "[core]") {
  CHECK(lz::arange(30).to_string() ==
        "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n"
        "        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29])");
  // Rows of a matrix are indented one more, so fewer fit: (80 - 8) / 4 = 18.
  const std::string row0 =
      "[ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n"
      "         18, 19]";
  const std::string printed = lz::arange(40).view({2, 20}).to_string();
  CHECK(printed.rfind("tensor([" + row0 + ",\n        [20, 21,", 0) == 0);
}

TEST_CASE("printing: more than 1000 elements are summarised", "[core]") {
  CHECK(lz::arange(1000).to_string().find("...") == std::string::npos);
  CHECK(lz::arange(1001).to_string() == "tensor([   0,    1,    2,  ...,  998,  999, 1000])");
  CHECK(lz::arange(2000).view({2, 1000}).to_string() ==
        "tensor([[   0,    1,    2,  ...,  997,  998,  999],\n"
        "        [1000, 1001, 1002,  ..., 1997, 1998, 1999]])");
  CHECK(lz::arange(3000).view({1000, 3}).to_string() ==
        "tensor([[   0,    1,    2],\n"
        "        [   3,    4,    5],\n"
        "        [   6,    7,    8],\n"
        "        ...,\n"
        "        [2991, 2992, 2993],\n"
        "        [2994, 2995, 2996],\n"
        "        [2997, 2998, 2999]])");
  // The formatter only sees the shown values: 0..2 and 1997..1999 span > 1000x.
  CHECK(lz::arange(2000, kFloat32).to_string() ==
        "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
        "        1.9990e+03])");
}

TEST_CASE("printing: operator<< and undefined tensors", "[core]") {
  std::ostringstream os;
  os << lz::tensor({1, 2}, kInt32);
  CHECK(os.str() == "tensor([1, 2], dtype=lz.int32)");
  CHECK(Tensor().to_string() == "tensor(undefined)");
}

TEST_CASE("printing: a suffix that would pass 80 columns wraps", "[core]") {
  // 59 characters + 2 + ", dtype=lz.int32" fits...
  CHECK(lz::arange(13, kInt32).to_string() ==
        "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12], dtype=lz.int32)");
  // ...63 does not.
  CHECK(lz::arange(14, kInt32).to_string() ==
        "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13],\n"
        "       dtype=lz.int32)");
  // After a wrapped row only the last line counts.
  CHECK(lz::arange(30, kInt32).to_string() ==
        "tensor([ 0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15, 16, 17,\n"
        "        18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29], dtype=lz.int32)");
  CHECK(lz::tensor({{1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5}}, kFloat64).to_string() ==
        "tensor([[1.5000, 2.5000, 3.5000, 4.5000, 5.5000, 6.5000, 7.5000, 8.5000]],\n"
        "       dtype=lz.float64)");
}
