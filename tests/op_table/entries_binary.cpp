// Table entries: binary element-wise operators (arithmetic, comparisons,
// logical and bitwise operators, equal and allclose). Ternary operators
// (where, clamp, lerp, addcmul / addcdiv, masked_fill): entries_ternary.cpp.
#include <cmath>
#include <cstdint>
#include <tuple>

#include "tests/op_table/binary_builders.h"
#include "tests/op_table/entry_builders.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

using lz::Scalar;
using lz::ScalarType;
using lz::Tensor;

inline std::vector<ScalarType> integral_and_bool_types() {
  return {lz::kBool, lz::kUInt8, lz::kInt8, lz::kInt16, lz::kInt32, lz::kInt64};
}
inline std::vector<ScalarType> integral_types() { return {lz::kUInt8, lz::kInt8, lz::kInt16, lz::kInt32, lz::kInt64}; }

// ---- Independent references (float64 / int64 arithmetic) ----------------------

double python_mod(double x, double y) {
  double r = std::fmod(x, y);
  if (r != 0 && ((r < 0) != (y < 0))) r += y;
  return r;
}

// x ** y as the result dtype computes it: integers by repeated
// multiplication modulo 2^64 (negative exponents: 1 / x ** |y| truncated),
// floats with the real power.
double power(ScalarType result, double x, double y) {
  if (!is_int(result)) return std::pow(x, y);
  const int64_t a = static_cast<int64_t>(as_stored(result, x));
  const int64_t b = static_cast<int64_t>(as_stored(result, y));
  if (b < 0) return a == 1 ? 1 : a == -1 ? (b % 2 == 0 ? 1 : -1) : 0;
  uint64_t r = 1;
  for (int64_t i = 0; i < b; ++i) r *= static_cast<uint64_t>(a);
  return static_cast<double>(static_cast<int64_t>(r));
}

// A number first, a tensor second (remainder(3, x)): the overloads libtorch
// implements by wrapping the number, checked against `ref(number, x)`.
OpInfo scalar_self_entry(const std::string& name, std::vector<ScalarType> dtypes,
                         Tensor (*fn)(const Scalar&, const Tensor&), std::function<double(double, double)> ref,
                         std::vector<lz::IValue> numbers, Domain domain = {}) {
  OpInfo op;
  op.name = name;
  op.dtypes = std::move(dtypes);
  op.samples = [numbers, domain](ScalarType dt) { return with_kwarg(unary_samples(dt, domain), "self", numbers); };
  op.op = [fn](const SampleInput& s) { return std::vector<Tensor>{fn(s.scalar_arg("self"), s[0])}; };
  op.reference = [ref](const SampleInput& s) {
    const Scalar a = s.scalar_arg("self");
    const ScalarType r = lz::result_type(s[0], a);
    return std::vector<Expected>{map_reference(s[0], r, [ref, v = as_stored(r, a.to_double())](double y) { return ref(v, y); })};
  };
  return op;
}

// ---- Error inputs ---------------------------------------------------------------

std::vector<ErrorInput> broadcast_errors(const std::string& name) {
  return {LZT_EXPECT_ERROR(ShapeError, (SampleInput{{lz::zeros({3}), lz::zeros({4})}, {}, "[3] and [4]"}),
                           "[" + name + "] self shape [3] and other shape [4] are not broadcastable"),
          LZT_EXPECT_ERROR(ValueError, (SampleInput{{lz::zeros({3}), Tensor()}, {}, "undefined other"}),
                           "[" + name + "] other: expected a defined tensor")};
}

ErrorInput zero_division_error(ScalarType t) {
  return LZT_EXPECT_ERROR(ValueError,
                          (SampleInput{{make_tensor({1, 2, 3}, t), make_tensor({1, 0, 1}, t)}, {},
                                       "integer divisor with a zero"}),
                          "ZeroDivisionError");
}

// ---- Entries ---------------------------------------------------------------------

void add_arithmetic(std::vector<OpInfo>& t) {
  {
    OpInfo op = binary_entry(
        "add", all_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::add(a, b); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.add_(b); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::add_out(o, a, b); }},
        [](double x, double y) { return x + y; });
    op.errors = [] { return broadcast_errors("add"); };
    t.push_back(std::move(op));
  }
  {
    OpInfo op = binary_entry(
        "add.alpha", numeric_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::add(a, b, 3); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.add_(b, 3); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::add_out(o, a, b, 3); }},
        [](double x, double y) { return x + 3 * y; });
    // Samples use alpha 3; an error sample may pass its own.
    op.op = [](const SampleInput& s) {
      return std::vector<Tensor>{lz::add(s[0], s[1], s.has("alpha") ? s.scalar_arg("alpha") : lz::Scalar(3))};
    };
    op.errors = [] {
      return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
          TypeError,
          (SampleInput{{lz::zeros({2}, lz::kInt32), lz::zeros({2}, lz::kInt32)}, {{"alpha", lz::IValue(2.5)}},
                       "int inputs, float alpha"}),
          "alpha must not be a floating point number")};
    };
    t.push_back(std::move(op));
  }
  {
    OpInfo op = binary_entry(
        "sub", numeric_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::sub(a, b); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.sub_(b); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::sub_out(o, a, b); }},
        [](double x, double y) { return x - y; });
    op.errors = [] {
      std::vector<ErrorInput> e = broadcast_errors("sub");
      e.push_back(dtype_error("sub", lz::kBool, lz::kBool,
                              "[sub] subtraction, the `-` operator, with a bool tensor is not supported"));
      return e;
    };
    t.push_back(std::move(op));
  }
  {
    OpInfo op = binary_entry(
        "mul", all_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::mul(a, b); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.mul_(b); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::mul_out(o, a, b); }},
        [](double x, double y) { return x * y; });
    op.errors = [] { return broadcast_errors("mul"); };
    t.push_back(std::move(op));
  }
  {
    OpInfo op = binary_entry(
        "div", all_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::div(a, b); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.div_(b); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::div_out(o, a, b); }},
        [](double x, double y) { return x / y; }, to_float);
    op.errors = [] { return broadcast_errors("div"); };
    t.push_back(std::move(op));
  }
  // div with a rounding mode: integer results for integer inputs.
  for (const char* mode : {"trunc", "floor"}) {
    const std::string m = mode;
    OpInfo op = binary_entry(
        "div." + m, numeric_types(),
        {[m](const Tensor& a, const Tensor& b) { return lz::div(a, b, m); },
         [m](Tensor& a, const Tensor& b) -> Tensor& { return a.div_(b, m); },
         [m](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::div_out(o, a, b, m); }},
        [m](double x, double y) { return m == "trunc" ? std::trunc(x / y) : std::floor(x / y); }, same_dtype,
        Domain{}, kNonzero);
    op.errors = [m] {
      std::vector<ErrorInput> e = broadcast_errors("div");
      e.push_back(dtype_error("div", lz::kBool, lz::kBool, "[div] self: rounding_mode \"" + m + "\" is not implemented for bool"));
      for (ScalarType it : integral_types()) e.push_back(zero_division_error(it));
      return e;
    };
    t.push_back(std::move(op));
  }
  {
    // The Scalar overload with a mode, and the mode errors.
    OpInfo op;
    op.name = "div.Scalar_mode";
    op.dtypes = numeric_types();
    op.samples = [](ScalarType dt) {
      return with_kwargs(unary_samples(dt), {{{"other", lz::IValue(int64_t{3})}, {"rounding_mode", lz::IValue("trunc")}},
                                             {{"other", lz::IValue(-2.5)}, {"rounding_mode", lz::IValue("floor")}},
                                             {{"other", lz::IValue(int64_t{-4})}, {"rounding_mode", lz::IValue("floor")}},
                                             {{"other", lz::IValue(int64_t{2})}, {"rounding_mode", lz::IValue()}}});
    };
    auto mode_of = [](const SampleInput& s) -> std::optional<std::string_view> {
      if (s.arg("rounding_mode").is_none()) return std::nullopt;
      return s.arg("rounding_mode").to_string_view();
    };
    op.op = [mode_of](const SampleInput& s) {
      return std::vector<Tensor>{lz::div(s[0], s.scalar_arg("other"), mode_of(s))};
    };
    op.reference = [](const SampleInput& s) {
      const Scalar other = s.scalar_arg("other");
      const double v = other.to_double();
      if (s.arg("rounding_mode").is_none()) {
        return std::vector<Expected>{
            map_reference(s[0], to_float(lz::result_type(s[0], other)), [v](double x) { return x / v; })};
      }
      const bool trunc = s.arg("rounding_mode").to_string_view() == "trunc";
      // uint8 // -4: -4 is 252 in uint8.
      const double d = as_stored(lz::result_type(s[0], other), v);
      return std::vector<Expected>{map_reference(s[0], lz::result_type(s[0], other), [d, trunc](double x) {
        return trunc ? std::trunc(x / d) : std::floor(x / d);
      })};
    };
    op.inplace = [mode_of](Tensor& self, const SampleInput& s) { self.div_(s.scalar_arg("other"), mode_of(s)); };
    op.errors = [] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(ValueError,
                           (SampleInput{{lz::ones({2})}, {{"other", lz::IValue(int64_t{2})}, {"rounding_mode", lz::IValue("round")}}, "bad mode"}),
                           "[div] rounding_mode: expected \"trunc\", \"floor\" or None (true division), got \"round\""),
          LZT_EXPECT_ERROR(ValueError,
                           (SampleInput{{lz::ones({2}, lz::kInt64)}, {{"other", lz::IValue(int64_t{0})}, {"rounding_mode", lz::IValue("floor")}}, "int by 0"}),
                           "[div] other: ZeroDivisionError"),
          LZT_EXPECT_ERROR(ValueError,
                           (SampleInput{{lz::ones({2}, lz::kUInt8)}, {{"other", lz::IValue(int64_t{256})}, {"rounding_mode", lz::IValue("trunc")}}, "uint8 by 256 (0 in uint8)"}),
                           "ZeroDivisionError")};
    };
    t.push_back(std::move(op));
  }

  // floor_divide: div(rounding_mode="floor") under libtorch's name (its errors are div's).
  {
    OpInfo op = binary_entry(
        "floor_divide", numeric_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::floor_divide(a, b); }, nullptr, nullptr},
        [](double x, double y) { return std::floor(x / y); }, same_dtype, Domain{}, kNonzero);
    op.errors = [] {
      std::vector<ErrorInput> e = broadcast_errors("div");
      for (ScalarType it : integral_types()) e.push_back(zero_division_error(it));
      return e;
    };
    t.push_back(std::move(op));
  }
  t.push_back(scalar_entry(
      "floor_divide.Scalar", numeric_types(),
      {[](const Tensor& a, const Scalar& s) { return a.floor_divide(s); }, nullptr, nullptr},
      [](double x, double y) { return std::floor(x / y); }, same_dtype, {lz::IValue(int64_t{3}), lz::IValue(-2.5)}));

  const std::vector<lz::IValue> scalars = {lz::IValue(int64_t{2}), lz::IValue(2.5)};
  t.push_back(scalar_entry(
      "add.Scalar", numeric_types(),
      {[](const Tensor& a, const Scalar& s) { return lz::add(a, s); }, [](Tensor& a, const Scalar& s) { a.add_(s); }, nullptr},
      [](double x, double y) { return x + y; }, same_dtype, scalars));
  t.push_back(scalar_entry(
      "sub.Scalar", numeric_types(),
      {[](const Tensor& a, const Scalar& s) { return lz::sub(a, s); }, [](Tensor& a, const Scalar& s) { a.sub_(s); }, nullptr},
      [](double x, double y) { return x - y; }, same_dtype, scalars));
  t.push_back(scalar_entry(
      "mul.Scalar", numeric_types(),
      {[](const Tensor& a, const Scalar& s) { return lz::mul(a, s); }, [](Tensor& a, const Scalar& s) { a.mul_(s); }, nullptr},
      [](double x, double y) { return x * y; }, same_dtype, scalars));
  t.push_back(scalar_entry(
      "div.Scalar", numeric_types(),
      {[](const Tensor& a, const Scalar& s) { return lz::div(a, s); }, [](Tensor& a, const Scalar& s) { a.div_(s); }, nullptr},
      [](double x, double y) { return x / y; }, to_float, scalars));

  // pow: integers and floats differ for negative exponents, so the reference
  // takes the result dtype. Bases in [-4, 4] and exponents in [-3, 3] keep
  // float16 finite.
  const Domain base{-4, 4}, expo{-3, 3};
  {
    OpInfo op = binary_entry(
        "pow", numeric_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::pow(a, b); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.pow_(b); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::pow_out(o, a, b); }},
        nullptr, same_dtype, base, expo);
    op.reference = [](const SampleInput& s) {
      const ScalarType r = lz::promote_types(s[0].dtype(), s[1].dtype());
      return std::vector<Expected>{map_reference(s[0], s[1], r, [r](double x, double y) { return power(r, x, y); })};
    };
    op.errors = [] {
      return std::vector<ErrorInput>{
          dtype_error("pow", lz::kBool, lz::kBool, "[pow] self: not implemented for bool"),
          LZT_EXPECT_ERROR(ShapeError, (SampleInput{{lz::zeros({3}), lz::zeros({4})}, {}, "[3] and [4]"}),
                           "[pow] self shape [3] and exponent shape [4] are not broadcastable"),
          LZT_EXPECT_ERROR(ValueError, (SampleInput{{lz::zeros({3}), Tensor()}, {}, "undefined exponent"}),
                           "[pow] exponent: expected a defined tensor")};
    };
    t.push_back(std::move(op));
  }
  {
    OpInfo op;
    op.name = "pow.Tensor_Scalar";
    op.dtypes = numeric_types();
    op.samples = [base](ScalarType dt) {
      std::vector<lz::IValue> exps = {lz::IValue(int64_t{2}), lz::IValue(int64_t{3}), lz::IValue(0.5),
                                      lz::IValue(2.5),       lz::IValue(int64_t{0}), lz::IValue(-0.5),
                                      lz::IValue(-1.0),      lz::IValue(-2.0),      lz::IValue(true)};
      if (is_float(dt)) {
        exps.push_back(lz::IValue(int64_t{-1}));
        exps.push_back(lz::IValue(int64_t{-2}));
      }
      return with_kwarg(unary_samples(dt, base), "exponent", exps);
    };
    op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::pow(s[0], s.scalar_arg("exponent"))}; };
    op.reference = [](const SampleInput& s) {
      const Scalar e = s.scalar_arg("exponent");
      const ScalarType r = lz::result_type(s[0], e);
      return std::vector<Expected>{
          map_reference(s[0], r, [r, v = e.to_double()](double x) { return power(r, x, v); })};
    };
    op.inplace = [](Tensor& self, const SampleInput& s) { self.pow_(s.scalar_arg("exponent")); };
    op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
      lz::pow_out(outs[0], s[0], s.scalar_arg("exponent"));
    };
    op.errors = [] {
      std::vector<ErrorInput> e;
      for (ScalarType it : integral_and_bool_types()) {
        e.push_back(LZT_EXPECT_ERROR(ValueError,
                                     (SampleInput{{lz::ones({2}, it)}, {{"exponent", lz::IValue(int64_t{-1})}}, "negative int power"}),
                                     "[pow] exponent: integers to negative integer powers are not allowed"));
      }
      return e;
    };
    t.push_back(std::move(op));
  }
  {
    // Scalar base, tensor exponent.
    OpInfo op;
    op.name = "pow.Scalar";
    op.dtypes = numeric_types();
    op.samples = [expo](ScalarType dt) {
      return with_kwarg(unary_samples(dt, expo), "self",
                        {lz::IValue(int64_t{2}), lz::IValue(-1.5), lz::IValue(int64_t{-3}), lz::IValue(int64_t{1})});
    };
    op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::pow(s.scalar_arg("self"), s[0])}; };
    op.reference = [](const SampleInput& s) {
      const Scalar b = s.scalar_arg("self");
      const ScalarType r = lz::result_type(s[0], b);
      return std::vector<Expected>{
          map_reference(s[0], r, [r, v = b.to_double()](double y) { return power(r, v, y); })};
    };
    op.out = [](std::vector<Tensor>& outs, const SampleInput& s) { lz::pow_out(outs[0], s.scalar_arg("self"), s[0]); };
    t.push_back(std::move(op));
  }

  {
    OpInfo op = binary_entry(
        "remainder", numeric_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::remainder(a, b); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.remainder_(b); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::remainder_out(o, a, b); }},
        python_mod, same_dtype, Domain{}, kNonzero);
    op.errors = [] {
      std::vector<ErrorInput> e = broadcast_errors("remainder");
      e.push_back(dtype_error("remainder", lz::kBool, lz::kBool, "[remainder] self: not implemented for bool"));
      for (ScalarType it : integral_types()) e.push_back(zero_division_error(it));
      return e;
    };
    t.push_back(std::move(op));
  }
  t.push_back(scalar_entry(
      "remainder.Scalar", numeric_types(),
      {[](const Tensor& a, const Scalar& s) { return lz::remainder(a, s); },
       [](Tensor& a, const Scalar& s) { a.remainder_(s); },
       [](Tensor& o, const Tensor& a, const Scalar& s) { lz::remainder_out(o, a, s); }},
      python_mod, same_dtype, {lz::IValue(int64_t{3}), lz::IValue(int64_t{-5}), lz::IValue(-2.5)}));
  // Nonzero divisors: an integral zero raises (the remainder entry checks it).
  t.push_back(scalar_self_entry("remainder.Scalar_Tensor", numeric_types(), lz::remainder, python_mod,
                                {lz::IValue(int64_t{7}), lz::IValue(-2.5)}, kNonzero));
  {
    OpInfo op = binary_entry(
        "fmod", numeric_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::fmod(a, b); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.fmod_(b); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::fmod_out(o, a, b); }},
        [](double x, double y) { return std::fmod(x, y); }, same_dtype, Domain{}, kNonzero);
    op.errors = [] {
      std::vector<ErrorInput> e = broadcast_errors("fmod");
      e.push_back(dtype_error("fmod", lz::kBool, lz::kBool, "[fmod] self: not implemented for bool"));
      for (ScalarType it : integral_types()) e.push_back(zero_division_error(it));
      return e;
    };
    t.push_back(std::move(op));
  }
  t.push_back(scalar_entry(
      "fmod.Scalar", numeric_types(),
      {[](const Tensor& a, const Scalar& s) { return lz::fmod(a, s); },
       [](Tensor& a, const Scalar& s) { a.fmod_(s); },
       [](Tensor& o, const Tensor& a, const Scalar& s) { lz::fmod_out(o, a, s); }},
      [](double x, double y) { return std::fmod(x, y); }, same_dtype,
      {lz::IValue(int64_t{3}), lz::IValue(int64_t{-5}), lz::IValue(-2.5)}));
  {
    OpInfo op = binary_entry(
        "atan2", all_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::atan2(a, b); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.atan2_(b); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::atan2_out(o, a, b); }},
        [](double y, double x) { return std::atan2(y, x); }, to_float);
    op.errors = [] { return broadcast_errors("atan2"); };
    t.push_back(std::move(op));
  }
  {
    OpInfo op = binary_entry(
        "maximum", all_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::maximum(a, b); }, nullptr,
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::maximum_out(o, a, b); }},
        [](double x, double y) { return x > y ? x : y; });
    op.errors = [] { return broadcast_errors("maximum"); };
    t.push_back(std::move(op));
  }
  {
    OpInfo op = binary_entry(
        "minimum", all_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::minimum(a, b); }, nullptr,
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::minimum_out(o, a, b); }},
        [](double x, double y) { return x < y ? x : y; });
    op.errors = [] { return broadcast_errors("minimum"); };
    t.push_back(std::move(op));
  }
}

void add_comparisons(std::vector<OpInfo>& t) {
  struct Cmp {
    const char* name;
    Tensor (*op)(const Tensor&, const Tensor&);
    Tensor (*op_s)(const Tensor&, const Scalar&);
    Tensor& (*inplace)(Tensor&, const Tensor&);
    Tensor& (*inplace_s)(Tensor&, const Scalar&);
    Tensor& (*out)(Tensor&, const Tensor&, const Tensor&);
    Tensor& (*out_s)(Tensor&, const Tensor&, const Scalar&);
    bool (*ref)(double, double);
  };
  const Cmp cmps[] = {
      {"eq", lz::eq, lz::eq, lz::eq_, lz::eq_, lz::eq_out, lz::eq_out, [](double x, double y) { return x == y; }},
      {"ne", lz::ne, lz::ne, lz::ne_, lz::ne_, lz::ne_out, lz::ne_out, [](double x, double y) { return x != y; }},
      {"lt", lz::lt, lz::lt, lz::lt_, lz::lt_, lz::lt_out, lz::lt_out, [](double x, double y) { return x < y; }},
      {"le", lz::le, lz::le, lz::le_, lz::le_, lz::le_out, lz::le_out, [](double x, double y) { return x <= y; }},
      {"gt", lz::gt, lz::gt, lz::gt_, lz::gt_, lz::gt_out, lz::gt_out, [](double x, double y) { return x > y; }},
      {"ge", lz::ge, lz::ge, lz::ge_, lz::ge_, lz::ge_out, lz::ge_out, [](double x, double y) { return x >= y; }},
  };
  for (const Cmp& c : cmps) {
    const std::string name = c.name;
    auto ref = [r = c.ref](double x, double y) { return r(x, y) ? 1.0 : 0.0; };
    OpInfo op = binary_entry(
        name, all_types(),
        {c.op, [f = c.inplace](Tensor& a, const Tensor& b) -> Tensor& { return f(a, b); },
         [f = c.out](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return f(o, a, b); }},
        ref, to_bool);
    op.errors = [name] { return broadcast_errors(name); };
    t.push_back(std::move(op));
    // Scalars exact in every dtype (a uint8 tensor compares 2.5 in float32).
    t.push_back(scalar_entry(
        name + ".Scalar", all_types(),
        {c.op_s, [f = c.inplace_s](Tensor& a, const Scalar& s) { f(a, s); },
         [f = c.out_s](Tensor& o, const Tensor& a, const Scalar& s) { f(o, a, s); }},
        ref, to_bool, {lz::IValue(int64_t{2}), lz::IValue(2.5), lz::IValue(-1.0), lz::IValue(true)}));
  }

  struct Logical {
    const char* name;
    Tensor (*op)(const Tensor&, const Tensor&);
    Tensor& (*inplace)(Tensor&, const Tensor&);
    Tensor& (*out)(Tensor&, const Tensor&, const Tensor&);
    bool (*ref)(bool, bool);
  };
  const Logical logicals[] = {
      {"logical_and", lz::logical_and, lz::logical_and_, lz::logical_and_out, [](bool a, bool b) { return a && b; }},
      {"logical_or", lz::logical_or, lz::logical_or_, lz::logical_or_out, [](bool a, bool b) { return a || b; }},
      {"logical_xor", lz::logical_xor, lz::logical_xor_, lz::logical_xor_out, [](bool a, bool b) { return a != b; }},
  };
  for (const Logical& l : logicals) {
    const std::string name = l.name;
    OpInfo op = binary_entry(
        name, all_types(),
        {l.op, [f = l.inplace](Tensor& a, const Tensor& b) -> Tensor& { return f(a, b); },
         [f = l.out](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return f(o, a, b); }},
        [r = l.ref](double x, double y) { return r(x != 0, y != 0) ? 1.0 : 0.0; }, to_bool);
    op.errors = [name] { return broadcast_errors(name); };
    t.push_back(std::move(op));
  }

  struct Bitwise {
    const char* name;
    Tensor (*op)(const Tensor&, const Tensor&);
    Tensor (*op_s)(const Tensor&, const Scalar&);
    Tensor (*op_scalar_self)(const Scalar&, const Tensor&);
    Tensor& (Tensor::*inplace)(const Tensor&);
    Tensor& (*inplace_s)(Tensor&, const Scalar&);
    Tensor& (*out)(Tensor&, const Tensor&, const Tensor&);
    Tensor& (*out_s)(Tensor&, const Tensor&, const Scalar&);
    int64_t (*ref)(int64_t, int64_t);
  };
  const Bitwise bitwises[] = {
      {"bitwise_and", lz::bitwise_and, lz::bitwise_and, lz::bitwise_and, &Tensor::bitwise_and_, lz::bitwise_and_, lz::bitwise_and_out,
       lz::bitwise_and_out, [](int64_t a, int64_t b) { return a & b; }},
      {"bitwise_or", lz::bitwise_or, lz::bitwise_or, lz::bitwise_or, &Tensor::bitwise_or_, lz::bitwise_or_, lz::bitwise_or_out,
       lz::bitwise_or_out, [](int64_t a, int64_t b) { return a | b; }},
      {"bitwise_xor", lz::bitwise_xor, lz::bitwise_xor, lz::bitwise_xor, &Tensor::bitwise_xor_, lz::bitwise_xor_, lz::bitwise_xor_out,
       lz::bitwise_xor_out, [](int64_t a, int64_t b) { return a ^ b; }},
  };
  for (const Bitwise& b : bitwises) {
    const std::string name = b.name;
    auto ref = [r = b.ref](double x, double y) {
      return static_cast<double>(r(static_cast<int64_t>(x), static_cast<int64_t>(y)));
    };
    OpInfo op = binary_entry(
        name, integral_and_bool_types(),
        {b.op, [f = b.inplace](Tensor& a, const Tensor& o) -> Tensor& { return (a.*f)(o); },
         [f = b.out](Tensor& o, const Tensor& a, const Tensor& c) -> Tensor& { return f(o, a, c); }},
        ref);
    op.errors = [name] {
      std::vector<ErrorInput> e = broadcast_errors(name);
      e.push_back(dtype_error(name, lz::kFloat32, lz::kInt32,
                              "[" + name + "] self: bitwise operators are only implemented for integral and bool dtypes"));
      e.push_back(dtype_error(name, lz::kBool, lz::kFloat16, "float16"));
      return e;
    };
    t.push_back(std::move(op));
    t.push_back(scalar_entry(
        name + ".Scalar", integral_and_bool_types(),
        {b.op_s, [f = b.inplace_s](Tensor& a, const Scalar& s) { f(a, s); },
         [f = b.out_s](Tensor& o, const Tensor& a, const Scalar& s) { f(o, a, s); }},
        ref, same_dtype, {lz::IValue(int64_t{6}), lz::IValue(int64_t{-2}), lz::IValue(true)}));
    t.push_back(scalar_self_entry(name + ".Scalar_Tensor", integral_and_bool_types(), b.op_scalar_self, ref,
                                  {lz::IValue(int64_t{6}), lz::IValue(true)}));
  }
}

// equal and allclose return a C++ bool: the table sees it as a 0-dim bool tensor.
void add_whole_tensor_comparisons(std::vector<OpInfo>& t) {
  // Pairs that are equal (a copy of self in another layout), nearly equal
  // (one element changed, or every element moved by `delta`), and the
  // usual binary samples (other values, broadcasting shapes).
  auto pair_samples = [](ScalarType dt, double delta) {
    std::vector<SampleInput> out = binary_samples(dt);
    uint32_t seed = 300;
    for (const std::vector<int64_t>& shape : {std::vector<int64_t>{3, 4}, {2, 3, 4}, {}, {0, 3}, {300, 257}}) {
      for (auto& [name, a] : layouts(shape, dt, seed++)) {
        const std::vector<double> v = values(a);
        out.push_back(SampleInput{{a, make_tensor(v, a.sizes(), dt)}, {}, name + " and a contiguous copy"});
        if (v.empty()) continue;
        std::vector<double> w = v;
        w[w.size() / 2] = dt == lz::kBool ? 1 - w[w.size() / 2] : w[w.size() / 2] + 1;
        out.push_back(SampleInput{{make_tensor(w, a.sizes(), dt), a}, {}, name + " with one element changed"});
        if (delta != 0) {
          std::vector<double> d = v;
          for (double& x : d) x += delta;
          out.push_back(SampleInput{{a, make_tensor(d, a.sizes(), dt)}, {}, name + " moved by a small delta"});
        }
      }
    }
    return out;
  };
  {
    OpInfo op;
    op.name = "equal";
    op.dtypes = all_types();
    op.samples = [pair_samples](ScalarType dt) {
      std::vector<SampleInput> out = pair_samples(dt, 0);
      // Values compare after promotion: the same values in float64 are equal.
      const Tensor a = domain_tensor({2, 3}, dt, 400);
      out.push_back(SampleInput{{a, make_tensor(values(a), a.sizes(), lz::kFloat64)}, {}, "the same values in float64"});
      return out;
    };
    op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::scalar_tensor(lz::equal(s[0], s[1]))}; };
    op.reference = [](const SampleInput& s) {
      bool eq = s[0].sizes() == s[1].sizes();
      if (eq) {
        const std::vector<double> a = values(s[0]), b = values(s[1]);
        for (size_t i = 0; i < a.size() && eq; ++i) eq = a[i] == b[i];
      }
      return std::vector<Expected>{Expected{{}, lz::kBool, {eq ? 1.0 : 0.0}}};
    };
    op.errors = [] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(ValueError, (SampleInput{{Tensor(), lz::ones({2})}, {}, "undefined self"}),
                           "[equal] self: expected a defined tensor")};
    };
    t.push_back(std::move(op));
  }
  {
    OpInfo op;
    op.name = "allclose";
    op.dtypes = all_types();
    op.samples = [pair_samples](ScalarType dt) {
      // A delta the default tolerances accept for values away from 0 (exact in the dtype).
      const double delta = dt == lz::kFloat64 ? std::ldexp(1.0, -30) : dt == lz::kFloat32 ? std::ldexp(1.0, -20) : 0;
      std::vector<SampleInput> base = pair_samples(dt, delta);
      std::vector<SampleInput> out = base;
      for (SampleInput s : base) {
        s.kwargs = {{"rtol", lz::IValue(0.0)}, {"atol", lz::IValue(0.5)}};
        out.push_back(s);
        s.kwargs = {{"rtol", lz::IValue(0.25)}, {"atol", lz::IValue(0.0)}, {"equal_nan", lz::IValue(true)}};
        out.push_back(s);
      }
      return out;
    };
    auto tol = [](const SampleInput& s) {
      return std::tuple<double, double, bool>{s.has("rtol") ? s.double_arg("rtol") : 1e-5,
                                              s.has("atol") ? s.double_arg("atol") : 1e-8,
                                              s.has("equal_nan") && s.bool_arg("equal_nan")};
    };
    op.op = [tol](const SampleInput& s) {
      const auto [rtol, atol, equal_nan] = tol(s);
      return std::vector<Tensor>{lz::scalar_tensor(lz::allclose(s[0], s[1], rtol, atol, equal_nan))};
    };
    op.reference = [tol](const SampleInput& s) {
      const auto [rtol, atol, equal_nan] = tol(s);
      const lz::SizeVec sizes = broadcast_sizes({s[0].sizes(), s[1].sizes()});
      const std::vector<double> a = broadcast_values(s[0], sizes), b = broadcast_values(s[1], sizes);
      bool close = true;
      for (size_t i = 0; i < a.size() && close; ++i) {
        if (std::isnan(a[i]) || std::isnan(b[i])) {
          close = equal_nan && std::isnan(a[i]) && std::isnan(b[i]);
        } else if (std::isinf(a[i]) || std::isinf(b[i])) {
          close = a[i] == b[i];
        } else {
          close = std::fabs(a[i] - b[i]) <= atol + rtol * std::fabs(b[i]);
        }
      }
      return std::vector<Expected>{Expected{{}, lz::kBool, {close ? 1.0 : 0.0}}};
    };
    op.errors = [] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(TypeError, (SampleInput{{lz::ones({2}), lz::ones({2}, lz::kFloat64)}, {}, "float32 and float64"}),
                           "[allclose] expected both inputs to have the same dtype, got self float32 and other float64"),
          LZT_EXPECT_ERROR(ShapeError, (SampleInput{{lz::ones({2}), lz::ones({3})}, {}, "[2] and [3]"}),
                           "[allclose] self shape [2] and other shape [3] are not broadcastable"),
          LZT_EXPECT_ERROR(ValueError, (SampleInput{{lz::ones({2}), lz::ones({2})}, {{"rtol", lz::IValue(-1.0)}}, "negative rtol"}),
                           "[allclose] rtol and atol must be >= 0")};
    };
    t.push_back(std::move(op));
  }
}

}  // namespace

void add_binary_ops(std::vector<OpInfo>& t) {
  add_arithmetic(t);
  add_comparisons(t);
  add_ternary_ops(t);
  add_whole_tensor_comparisons(t);
}

}  // namespace lzt
