// Table entries: ternary and bounded element-wise operators (where,
// clamp / clamp_min / clamp_max, lerp, addcmul / addcdiv, masked_fill), with
// float64 / int64 references over the inputs' values.
#include <cmath>
#include <cstdint>
#include <optional>

#include "tests/op_table/binary_builders.h"
#include "tests/op_table/entry_builders.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

using lz::Scalar;
using lz::ScalarType;
using lz::Tensor;

// ---- Independent references (float64 arithmetic) -------------------------------

double clamp_ref(double x, std::optional<double> lo, std::optional<double> hi) {
  if (std::isnan(x) || (lo && std::isnan(*lo)) || (hi && std::isnan(*hi))) return NAN;
  if (lo && x < *lo) x = *lo;
  if (hi && x > *hi) x = *hi;
  return x;
}

// ---- Sample builders -------------------------------------------------------------

// Binary samples whose second tensor is bool (a mask) with the same shapes
// and layouts as binary_samples(dtype).
std::vector<SampleInput> masked_samples(ScalarType dtype) {
  std::vector<SampleInput> out = binary_samples(dtype);
  const std::vector<SampleInput> masks = binary_samples(lz::kBool);
  for (size_t i = 0; i < out.size(); ++i) out[i].tensors[1] = masks[i].tensors[1];
  return out;
}

// Ternary samples whose first tensor is a bool condition.
std::vector<SampleInput> where_samples(ScalarType dtype) {
  std::vector<SampleInput> out = ternary_samples(dtype);
  const std::vector<SampleInput> conds = ternary_samples(lz::kBool);
  for (size_t i = 0; i < out.size(); ++i) out[i].tensors[0] = conds[i].tensors[0];
  return out;
}

std::optional<Scalar> opt_scalar(const SampleInput& s, const std::string& name) {
  if (!s.has(name) || s.arg(name).is_none()) return std::nullopt;
  return s.scalar_arg(name);
}

}  // namespace

void add_ternary_ops(std::vector<OpInfo>& t) {
  {
    OpInfo op;
    op.name = "where";
    op.dtypes = all_types();
    op.samples = [](ScalarType dt) {
      std::vector<SampleInput> s = where_samples(dt);
      // other of another dtype: the result promotes self and other.
      uint32_t seed = 900;
      for (ScalarType other : all_types()) {
        if (other == dt) continue;
        s.push_back(SampleInput{{domain_tensor({2, 1}, lz::kBool, seed), domain_tensor({2, 3}, dt, seed + 1),
                                 domain_tensor({3}, other, seed + 2)},
                                {},
                                "other " + std::string(lz::to_string(other))});
        seed += 3;
      }
      return s;
    };
    op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::where(s[0], s[1], s[2])}; };
    op.reference = [](const SampleInput& s) {
      return std::vector<Expected>{map_reference(s[0], s[1], s[2], lz::promote_types(s[1].dtype(), s[2].dtype()),
                                                 [](double c, double x, double y) { return c != 0 ? x : y; })};
    };
    op.out = [](std::vector<Tensor>& outs, const SampleInput& s) { lz::where_out(outs[0], s[0], s[1], s[2]); };
    op.errors = [] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(TypeError, (SampleInput{{lz::zeros({2}), lz::zeros({2}), lz::zeros({2})}, {}, "float condition"}),
                           "[where] condition: expected a bool tensor, got float32"),
          LZT_EXPECT_ERROR(TypeError, (SampleInput{{lz::zeros({2}, lz::kUInt8), lz::zeros({2}), lz::zeros({2})}, {}, "uint8 condition"}),
                           "[where] condition: expected a bool tensor, got uint8"),
          LZT_EXPECT_ERROR(ShapeError,
                           (SampleInput{{lz::zeros({3}, lz::kBool), lz::zeros({2, 3}), lz::zeros({4})}, {}, "[3], [2, 3], [4]"}),
                           "and other shape [4] are not broadcastable"),
          LZT_EXPECT_ERROR(ShapeError,
                           (SampleInput{{lz::zeros({2}, lz::kBool), lz::zeros({3}), lz::zeros({3})}, {}, "[2], [3], [3]"}),
                           "[where] condition shape [2] and self shape [3] are not broadcastable"),
          LZT_EXPECT_ERROR(ValueError, (SampleInput{{Tensor(), lz::zeros({2}), lz::zeros({2})}, {}, "undefined condition"}),
                           "[where] condition: expected a defined tensor")};
    };
    t.push_back(std::move(op));
  }
  {
    // where with a Scalar other (and a Scalar self when "self" is given).
    OpInfo op;
    op.name = "where.Scalar";
    op.dtypes = all_types();
    op.samples = [](ScalarType dt) {
      std::vector<SampleInput> s = masked_samples(dt);
      for (SampleInput& x : s) std::swap(x.tensors[0], x.tensors[1]);  // condition first
      std::vector<SampleInput> out = with_kwarg(s, "other", {lz::IValue(int64_t{2}), lz::IValue(-1.5), lz::IValue(false)});
      std::vector<SampleInput> both = with_kwarg(s, "other", {lz::IValue(int64_t{2})});
      both = with_kwarg(both, "self", {lz::IValue(0.5), lz::IValue(int64_t{-7})});
      out.insert(out.end(), both.begin(), both.end());
      // A number where the condition holds, a tensor elsewhere (where.ScalarSelf).
      std::vector<SampleInput> self_only = with_kwarg(s, "self", {lz::IValue(int64_t{3}), lz::IValue(-0.5)});
      for (SampleInput& x : self_only) x.description += " (number self)";
      out.insert(out.end(), self_only.begin(), self_only.end());
      return out;
    };
    op.op = [](const SampleInput& s) {
      if (!s.has("other")) return std::vector<Tensor>{lz::where(s[0], s.scalar_arg("self"), s[1])};
      if (s.has("self")) return std::vector<Tensor>{lz::where(s[0], s.scalar_arg("self"), s.scalar_arg("other"))};
      return std::vector<Tensor>{lz::where(s[0], s[1], s.scalar_arg("other"))};
    };
    op.reference = [](const SampleInput& s) {
      if (!s.has("other")) {
        const ScalarType r = lz::result_type(s[1], s.scalar_arg("self"));
        const double a = as_stored(r, s.scalar_arg("self").to_double());
        return std::vector<Expected>{
            map_reference(s[0], s[1], r, [a](double c, double x) { return c != 0 ? a : x; })};
      }
      const Scalar other = s.scalar_arg("other");
      if (s.has("self")) {
        lz::ResultTypeState st;
        st.add(s.scalar_arg("self"));
        st.add(other);
        const double a = s.scalar_arg("self").to_double(), b = other.to_double();
        return std::vector<Expected>{map_reference(s[0], st.result(), [a, b](double c) { return c != 0 ? a : b; })};
      }
      const ScalarType r = lz::result_type(s[1], other);
      const double b = as_stored(r, other.to_double());
      return std::vector<Expected>{
          map_reference(s[0], s[1], r, [b](double c, double x) { return c != 0 ? x : b; })};
    };
    t.push_back(std::move(op));
  }
  // clamp with Scalar bounds.
  {
    OpInfo op;
    op.name = "clamp";
    op.dtypes = numeric_types();
    op.samples = [](ScalarType dt) {
      using M = std::map<std::string, lz::IValue>;
      std::vector<M> sets = {M{{"min", lz::IValue(int64_t{2})}, {"max", lz::IValue(int64_t{5})}},
                             M{{"min", lz::IValue(int64_t{3})}},
                             M{{"max", lz::IValue(int64_t{4})}},
                             M{{"min", lz::IValue(int64_t{6})}, {"max", lz::IValue(int64_t{2})}},  // min > max
                             M{{"min", lz::IValue(1.5)}, {"max", lz::IValue(6.25)}}};
      if (dt != lz::kUInt8) {
        sets.push_back(M{{"min", lz::IValue(int64_t{-3})}, {"max", lz::IValue(2.5)}});
        sets.push_back(M{{"max", lz::IValue(-0.5)}});
      }
      return with_kwargs(unary_samples(dt), sets);
    };
    op.op = [](const SampleInput& s) {
      return std::vector<Tensor>{lz::clamp(s[0], opt_scalar(s, "min"), opt_scalar(s, "max"))};
    };
    op.reference = [](const SampleInput& s) {
      const auto lo = opt_scalar(s, "min"), hi = opt_scalar(s, "max");
      lz::ResultTypeState st;
      st.add(s[0]);
      if (lo) st.add(*lo);
      if (hi) st.add(*hi);
      std::optional<double> l, h;
      if (lo) l = lo->to_double();
      if (hi) h = hi->to_double();
      return std::vector<Expected>{map_reference(s[0], st.result(), [l, h](double x) { return clamp_ref(x, l, h); })};
    };
    op.inplace = [](Tensor& self, const SampleInput& s) { self.clamp_(opt_scalar(s, "min"), opt_scalar(s, "max")); };
    op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
      lz::clamp_out(outs[0], s[0], opt_scalar(s, "min"), opt_scalar(s, "max"));
    };
    op.errors = [] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(ValueError, (SampleInput{{lz::ones({2})}, {}, "no bounds"}),
                           "[clamp] min, max: at least one of min and max must be given"),
          LZT_EXPECT_ERROR(TypeError, (SampleInput{{lz::ones({2}, lz::kBool)}, {{"min", lz::IValue(false)}}, "bool"}),
                           "[clamp] self: not implemented for bool"),
          LZT_EXPECT_ERROR(ValueError, (SampleInput{{lz::ones({2}, lz::kUInt8)}, {{"min", lz::IValue(int64_t{-1})}}, "uint8 and -1"}),
                           "cannot be converted to uint8"),
          LZT_EXPECT_ERROR(ValueError, (SampleInput{{lz::ones({2}, lz::kFloat16)}, {{"max", lz::IValue(1e6)}}, "float16 and 1e6"}),
                           "cannot be converted to float16")};
    };
    t.push_back(std::move(op));
  }
  {
    // clamp with tensor bounds broadcasting against self; kwargs "which"
    // selects min only / max only.
    OpInfo op;
    op.name = "clamp.Tensor";
    op.dtypes = numeric_types();
    op.samples = [](ScalarType dt) {
      std::vector<SampleInput> s = ternary_samples(dt);
      std::vector<SampleInput> out = s;
      for (SampleInput x : s) {
        x.kwargs["which"] = lz::IValue("min");
        out.push_back(x);
        x.kwargs["which"] = lz::IValue("max");
        out.push_back(x);
      }
      return out;
    };
    auto bounds = [](const SampleInput& s) -> std::pair<std::optional<Tensor>, std::optional<Tensor>> {
      if (!s.has("which")) return {s[1], s[2]};
      if (s.arg("which").to_string_view() == "min") return {s[1], std::nullopt};
      return {std::nullopt, s[2]};
    };
    op.op = [bounds](const SampleInput& s) {
      const auto [lo, hi] = bounds(s);
      return std::vector<Tensor>{lz::clamp(s[0], lo, hi)};
    };
    op.reference = [](const SampleInput& s) {
      const std::string which = s.has("which") ? std::string(s.arg("which").to_string_view()) : "both";
      const ScalarType r = s[0].dtype();
      if (which == "min") {
        return std::vector<Expected>{map_reference(s[0], s[1], r, [](double x, double l) { return clamp_ref(x, l, std::nullopt); })};
      }
      if (which == "max") {
        return std::vector<Expected>{map_reference(s[0], s[2], r, [](double x, double h) { return clamp_ref(x, std::nullopt, h); })};
      }
      return std::vector<Expected>{map_reference(s[0], s[1], s[2], r, [](double x, double l, double h) { return clamp_ref(x, l, h); })};
    };
    op.inplace = [bounds](Tensor& self, const SampleInput& s) {
      const auto [lo, hi] = bounds(s);
      lz::clamp_(self, lo, hi);
    };
    op.out = [bounds](std::vector<Tensor>& outs, const SampleInput& s) {
      const auto [lo, hi] = bounds(s);
      lz::clamp_out(outs[0], s[0], lo, hi);
    };
    op.errors = [] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(TypeError, (SampleInput{{lz::ones({2}, lz::kBool), lz::ones({2}, lz::kBool), lz::ones({2}, lz::kBool)}, {}, "bool"}),
                           "[clamp] self: not implemented for bool"),
          LZT_EXPECT_ERROR(ShapeError, (SampleInput{{lz::ones({2}), lz::ones({3}), lz::ones({2})}, {}, "[2] and [3]"}),
                           "[clamp] self shape [2] and min shape [3] are not broadcastable")};
    };
    t.push_back(std::move(op));
  }
  // clamp_min / clamp_max with a tensor bound (type promotion, broadcasting).
  for (const char* which : {"clamp_min", "clamp_max"}) {
    const bool is_min = std::string(which) == "clamp_min";
    OpInfo op = binary_entry(
        which, numeric_types(),
        {[is_min](const Tensor& a, const Tensor& b) { return is_min ? lz::clamp_min(a, b) : lz::clamp_max(a, b); },
         [is_min](Tensor& a, const Tensor& b) -> Tensor& { return is_min ? lz::clamp_min_(a, b) : lz::clamp_max_(a, b); },
         [is_min](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& {
           return is_min ? lz::clamp_min_out(o, a, b) : lz::clamp_max_out(o, a, b);
         }},
        [is_min](double x, double b) { return is_min ? clamp_ref(x, b, std::nullopt) : clamp_ref(x, std::nullopt, b); });
    const std::string name = which;
    op.errors = [name] {
      return std::vector<ErrorInput>{dtype_error(name, lz::kBool, lz::kBool, "[" + name + "] self: not implemented for bool")};
    };
    t.push_back(std::move(op));
    t.push_back(scalar_entry(
        name + ".Scalar", numeric_types(),
        {[is_min](const Tensor& a, const Scalar& s) { return is_min ? lz::clamp_min(a, s) : lz::clamp_max(a, s); },
         [is_min](Tensor& a, const Scalar& s) { is_min ? lz::clamp_min_(a, s) : lz::clamp_max_(a, s); },
         [is_min](Tensor& o, const Tensor& a, const Scalar& s) { is_min ? lz::clamp_min_out(o, a, s) : lz::clamp_max_out(o, a, s); }},
        [is_min](double x, double b) { return is_min ? clamp_ref(x, b, std::nullopt) : clamp_ref(x, std::nullopt, b); },
        same_dtype, {lz::IValue(int64_t{3}), lz::IValue(2.5)}));
  }
  // lerp: floating dtypes; values and weights are exact in float32, so the
  // two-sided formula and the float64 reference agree to rounding.
  {
    OpInfo op = binary_entry(
        "lerp.Scalar", float_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::lerp(a, b, 0.25); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.lerp_(b, 0.25); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::lerp_out(o, a, b, 0.25); }},
        nullptr);
    // Same-dtype samples only (lerp does not promote), with several weights.
    op.samples = [](ScalarType dt) {
      return with_kwarg(binary_samples(dt), "weight", {lz::IValue(0.25), lz::IValue(0.75), lz::IValue(-1.5), lz::IValue(int64_t{2})});
    };
    op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::lerp(s[0], s[1], s.scalar_arg("weight"))}; };
    op.inplace = [](Tensor& self, const SampleInput& s) { self.lerp_(s[1], s.scalar_arg("weight")); };
    op.out = [](std::vector<Tensor>& outs, const SampleInput& s) { lz::lerp_out(outs[0], s[0], s[1], s.scalar_arg("weight")); };
    op.reference = [](const SampleInput& s) {
      const double w = s.scalar_arg("weight").to_double();
      return std::vector<Expected>{map_reference(s[0], s[1], s[0].dtype(), [w](double a, double b) { return a + w * (b - a); })};
    };
    op.errors = [] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(TypeError, (SampleInput{{lz::ones({2}, lz::kInt32), lz::ones({2}, lz::kInt32)}, {{"weight", lz::IValue(0.5)}}, "int32"}),
                           "[lerp] self: expected a floating point tensor, got int32"),
          LZT_EXPECT_ERROR(TypeError, (SampleInput{{lz::ones({2}), lz::ones({2}, lz::kFloat64)}, {{"weight", lz::IValue(0.5)}}, "float32 and float64"}),
                           "[lerp] end: expected dtype float32 (self's dtype), got float64"),
          LZT_EXPECT_ERROR(ShapeError, (SampleInput{{lz::ones({2}), lz::ones({3})}, {{"weight", lz::IValue(0.5)}}, "[2] and [3]"}),
                           "[lerp] self shape [2] and end shape [3] are not broadcastable")};
    };
    t.push_back(std::move(op));
  }
  {
    OpInfo op;
    op.name = "lerp.Tensor";
    op.dtypes = float_types();
    op.samples = [](ScalarType dt) { return ternary_samples(dt, Domain{}, Domain{}, Domain{-1.5, 1.5}); };
    op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::lerp(s[0], s[1], s[2])}; };
    op.inplace = [](Tensor& self, const SampleInput& s) { lz::lerp_(self, s[1], s[2]); };
    op.out = [](std::vector<Tensor>& outs, const SampleInput& s) { lz::lerp_out(outs[0], s[0], s[1], s[2]); };
    op.reference = [](const SampleInput& s) {
      return std::vector<Expected>{map_reference(s[0], s[1], s[2], s[0].dtype(),
                                                 [](double a, double b, double w) { return a + w * (b - a); })};
    };
    op.errors = [] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(TypeError, (SampleInput{{lz::ones({2}), lz::ones({2}), lz::ones({2}, lz::kFloat64)}, {}, "float64 weight"}),
                           "[lerp] weight: expected dtype float32 (self's dtype), got float64")};
    };
    t.push_back(std::move(op));
  }
  // addcmul / addcdiv: type promotion over three tensors.
  for (const char* which : {"addcmul", "addcdiv"}) {
    const bool mul = std::string(which) == "addcmul";
    OpInfo op;
    op.name = which;
    op.dtypes = mul ? numeric_types() : float_types();
    op.samples = [mul](ScalarType dt) {
      std::vector<SampleInput> s = ternary_samples(dt, Domain{}, Domain{}, mul ? Domain{} : kNonzero);
      // tensor1 / tensor2 of a float dtype promote an integer self.
      s.push_back(SampleInput{{domain_tensor({2, 3}, mul ? lz::kInt32 : lz::kInt64, 950), domain_tensor({3}, dt, 951),
                               domain_tensor({2, 1}, dt, 952, kNonzero)},
                              {},
                              "integer self"});
      std::vector<lz::IValue> values = {lz::IValue(int64_t{1}), lz::IValue(int64_t{-2})};
      if (is_float(dt)) values.push_back(lz::IValue(0.5));
      return with_kwarg(s, "value", values);
    };
    op.op = [mul](const SampleInput& s) {
      const Scalar v = s.scalar_arg("value");
      return std::vector<Tensor>{mul ? lz::addcmul(s[0], s[1], s[2], v) : lz::addcdiv(s[0], s[1], s[2], v)};
    };
    op.inplace = [mul](Tensor& self, const SampleInput& s) {
      mul ? self.addcmul_(s[1], s[2], s.scalar_arg("value")) : self.addcdiv_(s[1], s[2], s.scalar_arg("value"));
    };
    op.out = [mul](std::vector<Tensor>& outs, const SampleInput& s) {
      const Scalar v = s.scalar_arg("value");
      mul ? lz::addcmul_out(outs[0], s[0], s[1], s[2], v) : lz::addcdiv_out(outs[0], s[0], s[1], s[2], v);
    };
    op.reference = [mul](const SampleInput& s) {
      const double v = s.scalar_arg("value").to_double();
      const ScalarType r = lz::promote_types(lz::promote_types(s[0].dtype(), s[1].dtype()), s[2].dtype());
      return std::vector<Expected>{map_reference(s[0], s[1], s[2], r, [v, mul](double x, double a, double b) {
        return mul ? x + v * a * b : x + v * a / b;
      })};
    };
    if (!mul) {
      // An inexact quotient next to a cancelling self: allow its rounding absolutely.
      op.tolerance = [](ScalarType r) {
        Tolerance tol = default_tolerance(r);
        if (r == lz::kFloat32) tol.atol = 2e-5;
        if (r == lz::kFloat64) tol.atol = 1e-13;
        return tol;
      };
    }
    const std::string name = which;
    op.errors = [name, mul] {
      std::vector<ErrorInput> e;
      if (mul) {
        e.push_back(LZT_EXPECT_ERROR(TypeError,
                                     (SampleInput{{lz::ones({2}, lz::kBool), lz::ones({2}, lz::kBool), lz::ones({2}, lz::kBool)}, {{"value", lz::IValue(int64_t{1})}}, "bool"}),
                                     "[addcmul] self: not implemented for bool"));
      } else {
        e.push_back(LZT_EXPECT_ERROR(TypeError,
                                     (SampleInput{{lz::ones({2}), lz::ones({2}, lz::kInt32), lz::ones({2}, lz::kInt64)}, {{"value", lz::IValue(int64_t{1})}}, "integer tensor1 and tensor2"}),
                                     "[addcdiv] tensor1, tensor2: integer division with addcdiv is not supported"));
      }
      e.push_back(LZT_EXPECT_ERROR(ShapeError,
                                   (SampleInput{{lz::ones({2}), lz::ones({2}), lz::ones({3})}, {{"value", lz::IValue(int64_t{1})}}, "[2], [2], [3]"}),
                                   "[" + name + "] self and tensor1 (broadcast) shape [2] and tensor2 shape [3] are not broadcastable"));
      return e;
    };
    t.push_back(std::move(op));
  }
  // masked_fill: self's dtype; mask bool; the result broadcasts self and mask.
  {
    OpInfo op;
    op.name = "masked_fill";
    op.dtypes = all_types();
    op.samples = [](ScalarType dt) {
      std::vector<lz::IValue> values = {lz::IValue(int64_t{3}), lz::IValue(true)};
      if (dt != lz::kBool) values.push_back(lz::IValue(int64_t{0}));
      if (is_float(dt)) values.push_back(lz::IValue(-2.5));
      return with_kwarg(masked_samples(dt), "value", values);
    };
    op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::masked_fill(s[0], s[1], s.scalar_arg("value"))}; };
    op.inplace = [](Tensor& self, const SampleInput& s) { self.masked_fill_(s[1], s.scalar_arg("value")); };
    op.reference = [](const SampleInput& s) {
      const double v = as_stored(s[0].dtype(), s.scalar_arg("value").to_double());
      return std::vector<Expected>{map_reference(s[0], s[1], s[0].dtype(), [v](double x, double m) { return m != 0 ? v : x; })};
    };
    op.errors = [] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(TypeError, (SampleInput{{lz::ones({2}), lz::ones({2}, lz::kUInt8)}, {{"value", lz::IValue(int64_t{1})}}, "uint8 mask"}),
                           "[masked_fill] mask: expected a bool mask, got dtype uint8"),
          LZT_EXPECT_ERROR(ValueError, (SampleInput{{lz::ones({2}, lz::kUInt8), lz::ones({2}, lz::kBool)}, {{"value", lz::IValue(int64_t{300})}}, "300 into uint8"}),
                           "cannot be converted to uint8"),
          LZT_EXPECT_ERROR(ShapeError, (SampleInput{{lz::ones({2}), lz::ones({3}, lz::kBool)}, {{"value", lz::IValue(int64_t{1})}}, "[2] and [3]"}),
                           "[masked_fill] self shape [2] and mask shape [3] are not broadcastable")};
    };
    t.push_back(std::move(op));
  }
  {
    // The value as a 0-dim tensor of any dtype, converted to self's.
    OpInfo op;
    op.name = "masked_fill.Tensor";
    op.dtypes = all_types();
    op.samples = [](ScalarType dt) {
      std::vector<SampleInput> out;
      std::vector<std::pair<double, ScalarType>> values = {{3, lz::kInt64}, {1, lz::kBool}, {2, dt}};
      if (dt != lz::kBool) values.push_back({4, lz::kUInt8});
      if (is_float(dt)) values.push_back({-1.25, lz::kFloat64});
      for (const auto& [v, vt] : values) {
        for (SampleInput s : masked_samples(dt)) {
          s.tensors.push_back(make_tensor({v}, {}, vt));
          out.push_back(std::move(s));
        }
      }
      return out;
    };
    op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::masked_fill(s[0], s[1], s[2])}; };
    op.inplace = [](Tensor& self, const SampleInput& s) { self.masked_fill_(s[1], s[2]); };
    op.reference = [](const SampleInput& s) {
      const double v = as_stored(s[0].dtype(), values(s[2])[0]);
      return std::vector<Expected>{map_reference(s[0], s[1], s[0].dtype(), [v](double x, double m) { return m != 0 ? v : x; })};
    };
    op.errors = [] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(ShapeError, (SampleInput{{lz::ones({2}), lz::ones({2}, lz::kBool), lz::ones({1})}, {}, "1-D value"}),
                           "[masked_fill] value: expected a 0-dim value tensor, got one with shape [1]"),
          LZT_EXPECT_ERROR(ValueError, (SampleInput{{lz::ones({2}), lz::ones({2}, lz::kBool), Tensor()}, {}, "undefined value"}),
                           "[masked_fill] value: expected a defined tensor")};
    };
    t.push_back(std::move(op));
  }
}

}  // namespace lzt
