// float16 and bfloat16 element-wise kernels run the float loop of the same
// operator over rows converted in blocks (eager_kernels/cpu/loops.h,
// blocked_rows): each result must be the float kernel's result on the
// widened inputs, rounded once, at every layout the row loop tells apart.
#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include "test_util.h"

using namespace lz;

namespace {

// Values in [-6, 6] that vary along every dim, rounded to `dtype`.
Tensor wave(IntArrayRef sizes, ScalarType dtype, double phase) {
  std::vector<double> v(static_cast<size_t>(lzt::numel_of(sizes)));
  for (size_t i = 0; i < v.size(); ++i) v[i] = 6 * std::sin(0.37 * static_cast<double>(i) + phase);
  return lzt::make_tensor(v, sizes, dtype);
}

// Views of a [40, 75] tensor (3000 elements: rows of one, two and three
// 1024-element blocks): the ones the row loop runs differently.
struct RowLayout {
  const char* name;
  std::function<Tensor(const Tensor&)> view;
};

const std::vector<RowLayout>& row_layouts() {
  static const std::vector<RowLayout> kRowLayouts = {
      {"contiguous", [](const Tensor& t) { return t; }},
      {"transposed", [](const Tensor& t) { return t.t(); }},
      {"every other column", [](const Tensor& t) { return t.slice(1, 0, 75, 2); }},
      {"one column broadcast", [](const Tensor& t) { return t.slice(1, 0, 1).expand({40, 75}); }},
  };
  return kRowLayouts;
}

using Unary = std::function<Tensor(const Tensor&)>;
using Binary = std::function<Tensor(const Tensor&, const Tensor&)>;

const std::vector<std::pair<const char*, Unary>>& unary_ops() {
  static const std::vector<std::pair<const char*, Unary>> kOps = {
      {"exp", [](const Tensor& x) { return lz::exp(x); }},
      {"tanh", [](const Tensor& x) { return lz::tanh(x); }},
      {"sigmoid", [](const Tensor& x) { return lz::sigmoid(x); }},
      {"sqrt", [](const Tensor& x) { return lz::sqrt(x); }},  // NaN below zero
      {"neg", [](const Tensor& x) { return lz::neg(x); }},
      {"abs", [](const Tensor& x) { return lz::abs(x); }},
      {"relu", [](const Tensor& x) { return lz::relu(x); }},
      {"round", [](const Tensor& x) { return lz::round(x); }},
      {"isnan", [](const Tensor& x) { return lz::isnan(lz::sqrt(x)); }},
      {"pow 0.5", [](const Tensor& x) { return lz::pow(x, 0.5); }},
      {"pow 3", [](const Tensor& x) { return lz::pow(x, 3); }},
      {"pow 1.25", [](const Tensor& x) { return lz::pow(x, 1.25); }},
      {"add 2.5", [](const Tensor& x) { return lz::add(x, 2.5); }},
      {"lt 0.5", [](const Tensor& x) { return x.lt(0.5); }},
      {"clamp -1 2", [](const Tensor& x) { return lz::clamp(x, Scalar(-1), Scalar(2)); }},
      {"lerp toward 1", [](const Tensor& x) { return lz::lerp(x, lz::ones_like(x), 0.3); }},
  };
  return kOps;
}

const std::vector<std::pair<const char*, Binary>>& binary_ops() {
  static const std::vector<std::pair<const char*, Binary>> kOps = {
      {"add alpha", [](const Tensor& a, const Tensor& b) { return lz::add(a, b, 2.5); }},
      {"mul", [](const Tensor& a, const Tensor& b) { return lz::mul(a, b); }},
      {"div", [](const Tensor& a, const Tensor& b) { return lz::div(a, b); }},
      {"div floor", [](const Tensor& a, const Tensor& b) { return lz::div(a, b, "floor"); }},
      {"pow", [](const Tensor& a, const Tensor& b) { return lz::pow(lz::abs(a), b); }},
      {"atan2", [](const Tensor& a, const Tensor& b) { return lz::atan2(a, b); }},
      {"remainder", [](const Tensor& a, const Tensor& b) { return lz::remainder(a, b); }},
      {"fmod", [](const Tensor& a, const Tensor& b) { return lz::fmod(a, b); }},
      {"maximum", [](const Tensor& a, const Tensor& b) { return lz::maximum(a, b); }},
      {"lt", [](const Tensor& a, const Tensor& b) { return a.lt(b); }},
      {"eq", [](const Tensor& a, const Tensor& b) { return a.eq(lz::round(b)); }},
      {"logical_and", [](const Tensor& a, const Tensor& b) { return lz::logical_and(lz::round(a), b); }},
      {"where", [](const Tensor& a, const Tensor& b) { return lz::where(a.lt(b), a, b); }},
      {"clamp", [](const Tensor& a, const Tensor& b) { return lz::clamp(a, std::optional<Tensor>(b), lz::abs(b)); }},
      {"lerp", [](const Tensor& a, const Tensor& b) { return lz::lerp(a, b, lz::abs(b)); }},
      {"addcmul", [](const Tensor& a, const Tensor& b) { return lz::addcmul(a, a, b, 0.5); }},
      {"addcdiv", [](const Tensor& a, const Tensor& b) { return lz::addcdiv(a, b, a, 0.5); }},
  };
  return kOps;
}

// The float kernel's result rounded to `dtype` (a bool result as it is). The
// float kernel reads contiguous copies, so that it runs the same contiguous
// loop as the 16-bit rows (a strided loop may round differently).
Tensor rounded(const Tensor& float_result, ScalarType dtype) {
  return float_result.dtype() == kFloat32 ? float_result.to(dtype) : float_result;
}

}  // namespace

TEST_CASE("float16 and bfloat16 unary kernels equal the float kernel rounded once", "[eager][float16]") {
  for (ScalarType dtype : {kFloat16, kBFloat16}) {
    const Tensor base = wave({40, 75}, dtype, 0.1);
    for (const RowLayout& layout : row_layouts()) {
      const Tensor x = layout.view(base);
      for (const auto& [name, op] : unary_ops()) {
        INFO(dtype << " " << name << " on a " << layout.name << " input");
        const Tensor result = op(x);
        CHECK(lzt::same_values(result, rounded(op(x.to(kFloat32).contiguous()), dtype)) == "");
      }
    }
  }
}

TEST_CASE("float16 and bfloat16 binary and ternary kernels equal the float kernel rounded once",
          "[eager][float16]") {
  for (ScalarType dtype : {kFloat16, kBFloat16}) {
    const Tensor base_a = wave({40, 75}, dtype, 0.1);
    const Tensor base_b = wave({40, 75}, dtype, 2.0);
    for (const RowLayout& layout : row_layouts()) {
      const Tensor a = layout.view(base_a);
      // The other operand in the same layout, and contiguous.
      for (const Tensor& b : {layout.view(base_b), layout.view(base_b).contiguous()}) {
        for (const auto& [name, op] : binary_ops()) {
          INFO(dtype << " " << name << " on " << layout.name << " operands, other strides "
                     << lz::shape_str(b.strides()));
          const Tensor result = op(a, b);
          CHECK(lzt::same_values(result, rounded(op(a.to(kFloat32).contiguous(), b.to(kFloat32).contiguous()), dtype)) == "");
        }
      }
    }
  }
}

TEST_CASE("float16 out= into a transposed view rounds each element of the float kernel", "[eager][float16]") {
  const Tensor x = wave({75, 40}, kFloat16, 0.5);
  Tensor out = lz::empty({40, 75}, kFloat16);
  Tensor out_view = out.t();
  lz::exp_out(out_view, x);
  CHECK(lzt::same_values(out.t(), lz::exp(x.to(kFloat32)).to(kFloat16)) == "");
}

TEST_CASE("integer operands of a float16 kernel round through float16 first", "[eager][float16]") {
  // 2049 and 4097 are not float16 numbers: int + half promotes to half, so
  // they become 2048 and 4096 before the float loop sees them.
  const Tensor ints = lzt::make_tensor({2049, 4097, -2049}, kInt64);
  const Tensor zeros = lz::zeros({3}, kFloat16);
  const Tensor sum = lz::add(ints, zeros);
  CHECK(sum.dtype() == kFloat16);
  CHECK_VALUES(sum, {2048, 4096, -2048});
  CHECK_VALUES(ints.eq(lzt::make_tensor({2048, 4096, -2048}, kFloat16)), {1, 1, 1});
  CHECK_VALUES(lz::where(ints.gt(0), lz::zeros({3}, kBFloat16), ints), {0, 0, -2048});
}
