// C++ numbers in lazy arithmetic (x * 2.5, x > 0, x.pow(2)): the
// Tensor-Scalar overload is recorded as itself with the number as a runtime
// scalar, so tracing makes no 0-dim tensor and no graph input, a new
// number reuses the executable, and every result equals eager, with the
// number taking part in type promotion as a wrapped number.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "tests/lazy/lazy_test_util.h"

#include <functional>
#include <string>
#include <vector>

using lz::Scalar;
using lz::ScalarType;
using lz::Tensor;

namespace {

using namespace lazy_test;

struct NumberOp {
  std::string schema;  // the operator the call records
  std::function<Tensor(const Tensor&)> call;
};

// One call per Tensor-Scalar overload that is traced as itself.
std::vector<NumberOp> number_ops() {
  return {
      {"add.Scalar", [](const Tensor& x) { return x + 2.5; }},
      {"sub.Scalar", [](const Tensor& x) { return x - 2.5; }},
      {"mul.Scalar", [](const Tensor& x) { return x * 2.5; }},
      {"div.Scalar", [](const Tensor& x) { return x / 2.5; }},
      {"div.Scalar_mode", [](const Tensor& x) { return lz::div(x, Scalar(2.5), "floor"); }},
      {"pow.Tensor_Scalar", [](const Tensor& x) { return x.pow(Scalar(3)); }},
      {"remainder.Scalar", [](const Tensor& x) { return x.remainder(Scalar(0.75)); }},
      {"eq.Scalar", [](const Tensor& x) { return x.eq(Scalar(0.5)); }},
      {"ne.Scalar", [](const Tensor& x) { return x.ne(Scalar(0.5)); }},
      {"lt.Scalar", [](const Tensor& x) { return x.lt(Scalar(0.5)); }},
      {"le.Scalar", [](const Tensor& x) { return x.le(Scalar(0.5)); }},
      {"gt.Scalar", [](const Tensor& x) { return x.gt(Scalar(0.5)); }},
      {"ge.Scalar", [](const Tensor& x) { return x.ge(Scalar(0.5)); }},
  };
}

}  // namespace

TEST_CASE("lazy: a C++ number is a runtime scalar of the Scalar overload, not a graph input", "[lazy][scalar]") {
  const Tensor xe = lz::randn({3, 5});
  for (const NumberOp& op : number_ops()) {
    INFO(op.schema);
    fresh_start();
    const Tensor y = op.call(xe.to_lazy());
    // x and the operator: no 0-dim input for the number.
    CHECK(lzl::pending_nodes() == 2);
    CHECK(lzl::pending_operators() == 1);
    const std::string dump = lzl::dump_trace();
    INFO(dump);
    CHECK(dump.find(" = " + op.schema + "(%0, ") != std::string::npos);
    check_same(y, op.call(xe));
    CHECK(lzl::metrics().kernels_launched == 1);
    CHECK(lzl::metrics().eager_fallbacks.empty());
  }
}

TEST_CASE("lazy: bitwise operators take integer numbers as runtime scalars", "[lazy][scalar]") {
  const Tensor xe = lz::arange(0, 40, 3).to(ScalarType::Int);
  fresh_start();
  const auto f = [](const Tensor& x) {
    return lz::bitwise_xor(lz::bitwise_or(lz::bitwise_and(x, Scalar(6)), Scalar(16)), Scalar(5));
  };
  const Tensor y = f(xe.to_lazy());
  CHECK(lzl::pending_nodes() == 4);
  check_same(y, f(xe));
  CHECK(lzl::metrics().kernels_launched == 1);
}

TEST_CASE("lazy: a new number reuses the executable, while 0 and 1 are structure", "[lazy][scalar]") {
  const Tensor xe = lz::randn({64});
  fresh_start();
  lzl::clear_executable_cache();
  for (double v : {2.5, -3.0, 1e-3, 7.25}) {
    INFO("v = " << v);
    check_same((xe.to_lazy() * v).exp(), (xe * v).exp());
  }
  CHECK(lzl::metrics().cache_misses == 1);
  CHECK(lzl::metrics().cache_hits == 3);
  // x * 1 folds away (simplify): a graph of its own, and still right.
  check_same((xe.to_lazy() * 1.0).exp(), xe.exp());
  CHECK(lzl::metrics().cache_misses == 2);
  // An integer number is another scalar kind: a new graph too (for a float
  // tensor the result type is the same, so only the hash tells them apart).
  check_same((xe.to_lazy() * 3).exp(), (xe * 3).exp());
  CHECK(lzl::metrics().cache_misses == 3);
}

TEST_CASE("lazy: numbers promote as wrapped numbers, as in eager", "[lazy][scalar]") {
  struct Case {
    const char* what;
    Tensor x;
    std::function<Tensor(const Tensor&)> f;
    ScalarType result;
  };
  const std::vector<Case> cases = {
      {"int32 * 2.5 is float", lz::arange(-4, 5).to(ScalarType::Int), [](const Tensor& x) { return x * 2.5; },
       ScalarType::Float},
      {"int64 + 3 stays int64", lz::arange(-4, 5), [](const Tensor& x) { return x + 3; }, ScalarType::Long},
      {"uint8 + 300 wraps in uint8", lz::arange(0, 250, 25).to(ScalarType::Byte),
       [](const Tensor& x) { return x + 300; }, ScalarType::Byte},
      {"int32 - 2^40 wraps in int32", lz::arange(-5, 5).to(ScalarType::Int),
       [](const Tensor& x) { return x - (int64_t{1} << 40); }, ScalarType::Int},
      {"int32 / 4 is true division", lz::arange(-9, 10).to(ScalarType::Int), [](const Tensor& x) { return x / 4; },
       ScalarType::Float},
      {"int32 floor-divides by -4 in int32", lz::arange(-9, 10).to(ScalarType::Int),
       [](const Tensor& x) { return lz::div(x, Scalar(-4), "floor"); }, ScalarType::Int},
      {"int32 < 2.5 compares in float", lz::arange(-4, 5).to(ScalarType::Int),
       [](const Tensor& x) { return x.lt(Scalar(2.5)); }, ScalarType::Bool},
      {"bool * true stays bool", lz::arange(0, 6).remainder(Scalar(2)).to(ScalarType::Bool),
       [](const Tensor& x) { return x * true; }, ScalarType::Bool},
      {"bool + 2 is int64", lz::arange(0, 6).remainder(Scalar(2)).to(ScalarType::Bool),
       [](const Tensor& x) { return x + 2; }, ScalarType::Long},
      {"bf16 * 3.3 stays bf16", lz::randn({17}).to(ScalarType::BFloat16), [](const Tensor& x) { return x * 3.3; },
       ScalarType::BFloat16},
      {"3.3 - bf16 (a wrapped 0-dim input) stays bf16", lz::randn({17}).to(ScalarType::BFloat16),
       [](const Tensor& x) { return 3.3 - x; }, ScalarType::BFloat16},
      {"f16 > 0.1 is bool", lz::randn({17}).to(ScalarType::Half), [](const Tensor& x) { return x.gt(Scalar(0.1)); },
       ScalarType::Bool},
      {"f64 ** 0.5", lz::rand({9}).to(ScalarType::Double), [](const Tensor& x) { return x.pow(Scalar(0.5)); },
       ScalarType::Double},
      {"int64 % -3 has the divisor's sign", lz::arange(-7, 8), [](const Tensor& x) { return x.remainder(Scalar(-3)); },
       ScalarType::Long},
      {"0-dim f32 * 2.5", lz::scalar_tensor(Scalar(1.5)), [](const Tensor& x) { return x * 2.5; }, ScalarType::Float},
      {"0-size f32 + 1.5", lz::randn({0, 3}), [](const Tensor& x) { return x + 1.5; }, ScalarType::Float},
      {"transposed f32 - 0.5", lz::randn({4, 6}).t(), [](const Tensor& x) { return x - 0.5; }, ScalarType::Float},
      {"broadcast view f32 * -2", lz::randn({1, 5}).expand({3, 5}), [](const Tensor& x) { return x * -2; },
       ScalarType::Float},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    fresh_start();
    const Tensor expected = c.f(c.x);
    CHECK(expected.dtype() == c.result);
    check_same(c.f(c.x.to_lazy()), expected);
    CHECK(lzl::metrics().eager_fallbacks.empty());
  }
}

TEST_CASE("lazy: in-place arithmetic with a number records the functional overload", "[lazy][scalar]") {
  const Tensor xe = lz::randn({6});
  fresh_start();
  Tensor x = xe.to_lazy();
  x.mul_(Scalar(3.0)).add_(Scalar(0.5)).div_(Scalar(4.0)).sub_(Scalar(1.0));
  Tensor ye = xe.clone();
  ye.mul_(Scalar(3.0)).add_(Scalar(0.5)).div_(Scalar(4.0)).sub_(Scalar(1.0));
  const std::string dump = lzl::dump_trace();
  INFO(dump);
  CHECK(dump.find("mul.Scalar(") != std::string::npos);
  CHECK(dump.find("sub.Scalar(") != std::string::npos);
  check_same(x, ye);
  CHECK(lzl::metrics().eager_fallbacks.empty());
}

TEST_CASE("lazy: bad numbers raise at the call with the eager message", "[lazy][scalar]") {
  const Tensor ints = lz::arange(1, 5);
  const Tensor bools = ints.gt(Scalar(2));
  for (const bool lazy : {false, true}) {
    INFO((lazy ? "lazy" : "eager"));
    fresh_start();
    const Tensor i = lazy ? ints.to_lazy() : ints;
    const Tensor b = lazy ? bools.to_lazy() : bools;
    CHECK(message_of<lz::ValueError>([&] { (void)i.pow(Scalar(-1)); }) ==
          "[pow] exponent: integers to negative integer powers are not allowed (self int64, exponent -1)");
    CHECK(message_of<lz::TypeError>([&] { (void)(b - 1); })
              .find("[sub] subtraction, the `-` operator, with a bool tensor is not supported") == 0);
    CHECK(message_of<lz::TypeError>([&] { (void)i.add(Scalar(1), Scalar(0.5)); })
              .find("[add] alpha: for integral input tensors (int64)") == 0);
    Tensor in_place = lazy ? ints.to_lazy() : ints.clone();
    CHECK(message_of<lz::TypeError>([&] { in_place.mul_(Scalar(2.5)); }).find("mul_.Scalar") != std::string::npos);
    CHECK(lzl::pending_operators() == 0);
  }
}
