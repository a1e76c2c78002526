// Table entries: reductions and scans (sum, mean, prod, var, std, norm,
// logsumexp, all, any, cumsum). References are float64 / exact int64 loops
// over the inputs' values (tests/op_table/reference.h), never a Lazuli
// kernel. max, min, amax, amin, argmax, argmin:
// entries_reduction_extremum.cpp; shared samples and references:
// reduction_helpers.h.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "tests/op_table/entry_builders.h"
#include "tests/op_table/reduction_helpers.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

using lz::IValue;
using lz::ScalarType;
using lz::Tensor;

// ---- Tolerances ------------------------------------------------------------------

// A float sum of n terms of magnitude <= m may differ from the exact sum by
// about log2(n) * eps * n * m: scale the absolute tolerance by the group size.
Tolerance sum_tolerance(ScalarType t) {
  switch (t) {
    case lz::kFloat16: return {4e-3, 2.0};
    case lz::kBFloat16: return {2e-2, 16.0};
    case lz::kFloat32: return {1e-5, 1e-2};
    case lz::kFloat64: return {1e-12, 1e-9};
    default: return {0, 0};
  }
}

// Results computed in float32 (or float64) and rounded once, after a few
// float32 operations per element (pow, exp, log, sqrt).
Tolerance float_math_tolerance(ScalarType t) {
  switch (t) {
    case lz::kFloat16: return {2e-3, 1e-4};
    case lz::kBFloat16: return {1.6e-2, 1e-3};
    case lz::kFloat32: return {2e-5, 1e-5};
    case lz::kFloat64: return {1e-11, 1e-12};
    default: return {0, 0};
  }
}

// Products of up to 300 factors rounded once each.
Tolerance prod_tolerance(ScalarType t) {
  switch (t) {
    case lz::kFloat16: return {3e-3, 1e-7};
    case lz::kBFloat16: return {1.6e-2, 1e-30};
    case lz::kFloat32: return {5e-5, 1e-30};
    case lz::kFloat64: return {1e-12, 1e-300};
    default: return {0, 0};
  }
}

// ---- Sample inputs ---------------------------------------------------------------

// A few samples with an explicit dtype kwarg (float64 and int64 results).
std::vector<SampleInput> dtype_samples(ScalarType t, bool single_dim, bool floating_only = false) {
  std::vector<SampleInput> out;
  std::vector<ScalarType> targets = {lz::kFloat64};
  if (!floating_only) targets.push_back(lz::kInt64);
  for (ScalarType target : targets) {
    for (const auto& [name, x] : layouts({7, 33}, t, 300)) {
      SampleInput s{{x}, {{"dtype", IValue(target)}}, name + ", dtype " + std::string(lz::to_string(target))};
      out.push_back(s);  // the full reduction
      if (single_dim) {
        out.push_back(with(s, {{"dim", IValue(int64_t{1})}, {"keepdim", IValue(false)}}));
      } else {
        out.push_back(with(s, {{"dim", IValue(std::vector<int64_t>{1})}, {"keepdim", IValue(true)}}));
      }
    }
  }
  return out;
}

std::vector<SampleInput> concat(std::vector<SampleInput> a, std::vector<SampleInput> b) {
  for (SampleInput& s : b) a.push_back(std::move(s));
  return a;
}

// ---- Sample kwargs -----------------------------------------------------------------

std::optional<lz::Scalar> scalar_opt(const SampleInput& s, const std::string& name) {
  if (!s.has(name) || s.arg(name).is_none()) return std::nullopt;
  return s.scalar_arg(name);
}

// ---- References --------------------------------------------------------------------

double ref_sum(const std::vector<double>& v) {
  double a = 0;
  for (double x : v) a += x;
  return a;
}

double ref_mean(const std::vector<double>& v) { return ref_sum(v) / static_cast<double>(v.size()); }

double ref_prod(const std::vector<double>& v) {
  double a = 1;
  for (double x : v) a *= x;
  return a;
}

// Exact int64 product, wrapping modulo 2^64 like the int64 accumulator.
double ref_int_prod(const std::vector<double>& v) {
  uint64_t a = 1;
  for (double x : v) a *= static_cast<uint64_t>(static_cast<int64_t>(x));
  return static_cast<double>(static_cast<int64_t>(a));
}

double ref_var(const std::vector<double>& v, double correction) {
  const double n = static_cast<double>(v.size());
  const double mean = ref_sum(v) / n;
  double m2 = 0;
  for (double x : v) m2 += (x - mean) * (x - mean);
  if (v.empty()) m2 = 0;
  return m2 / std::max(0.0, n - correction);
}

double ref_norm(const std::vector<double>& v, double p) {
  if (std::isinf(p)) {
    double a = p > 0 ? 0 : kInf;
    for (double x : v) {
      if (std::isnan(x)) return kNan;
      a = p > 0 ? std::max(a, std::fabs(x)) : std::min(a, std::fabs(x));
    }
    return a;
  }
  double a = 0;
  for (double x : v) a += p == 0 ? (x != 0 ? 1.0 : 0.0) : std::pow(std::fabs(x), p);
  if (p == 0 || p == 1) return a;
  return std::pow(a, 1.0 / p);
}

double ref_logsumexp(const std::vector<double>& v) {
  double m = -kInf;
  for (double x : v) {
    if (std::isnan(x)) return kNan;
    m = std::max(m, x);
  }
  if (std::isinf(m)) return m;  // all -inf (or empty): -inf; any +inf: +inf
  double s = 0;
  for (double x : v) s += std::exp(x - m);
  return std::log(s) + m;
}

ScalarType sum_dtype(ScalarType t) { return is_float(t) ? t : lz::kInt64; }
ScalarType logical_dtype(ScalarType t) { return t == lz::kUInt8 ? lz::kUInt8 : lz::kBool; }

// ---- Entries -------------------------------------------------------------------------

void add_sum_mean_prod(std::vector<OpInfo>& t) {
  {
    OpInfo op;
    op.name = "sum";
    op.dtypes = all_types();
    op.samples = [](ScalarType d) { return concat(list_samples(d), dtype_samples(d, false)); };
    op.op = [](const SampleInput& s) {
      if (!has_dim(s)) return std::vector<Tensor>{lz::sum(s[0], dtype_of(s))};
      return std::vector<Tensor>{lz::sum(s[0], s.int_list_arg("dim"), keepdim_of(s), dtype_of(s))};
    };
    op.reference = [](const SampleInput& s) {
      return std::vector<Expected>{group_reference(s, dtype_of(s).value_or(sum_dtype(s[0].dtype())), ref_sum)};
    };
    op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
      if (!has_dim(s)) {
        lz::sum_out(outs[0], s[0], dtype_of(s));
      } else {
        lz::sum_out(outs[0], s[0], s.int_list_arg("dim"), keepdim_of(s), dtype_of(s));
      }
    };
    op.tolerance = sum_tolerance;
    op.errors = [] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(IndexError, error_input({2, 3}, lz::kFloat32, {{"dim", dims({2})}}, "dim 2 of a 2-D tensor"),
                           "[sum] dim: 2 is out of range for a 2-D tensor"),
          LZT_EXPECT_ERROR(ValueError, error_input({2, 3}, lz::kFloat32, {{"dim", dims({1, -1})}}, "repeated dim"),
                           "[sum] dim: dim 1 appears multiple times")};
    };
    t.push_back(std::move(op));
  }
  {
    OpInfo op;
    op.name = "mean";
    op.dtypes = all_types();
    op.samples = [](ScalarType d) {
      if (is_float(d)) return concat(list_samples(d), dtype_samples(d, false, true));
      // Integral inputs need a floating dtype.
      std::vector<SampleInput> out;
      for (const SampleInput& s : list_samples(d)) out.push_back(with(s, {{"dtype", IValue(lz::kFloat32)}}));
      for (SampleInput& s : dtype_samples(d, false, true)) out.push_back(std::move(s));
      return out;
    };
    op.op = [](const SampleInput& s) {
      if (!has_dim(s)) return std::vector<Tensor>{lz::mean(s[0], dtype_of(s))};
      return std::vector<Tensor>{lz::mean(s[0], s.int_list_arg("dim"), keepdim_of(s), dtype_of(s))};
    };
    op.reference = [](const SampleInput& s) {
      return std::vector<Expected>{group_reference(s, dtype_of(s).value_or(s[0].dtype()), ref_mean)};
    };
    op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
      lz::mean_out(outs[0], s[0], has_dim(s) ? s.int_list_arg("dim") : lz::IntArrayRef{}, keepdim_of(s),
                   dtype_of(s));
    };
    op.tolerance = [](ScalarType r) {
      Tolerance tol = default_tolerance(r);
      if (r == lz::kFloat32) tol.atol = 1e-6;
      return tol;
    };
    op.errors = [] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(TypeError, error_input({2, 3}, lz::kInt64, {}, "int64 input without dtype"),
                           "[mean] self: could not infer the output dtype: the input dtype must be floating point, got int64"),
          LZT_EXPECT_ERROR(TypeError, error_input({2, 3}, lz::kBool, {{"dim", dims({0})}}, "bool input without dtype"),
                           "[mean] self: could not infer the output dtype"),
          LZT_EXPECT_ERROR(TypeError, error_input({2, 3}, lz::kFloat32, {{"dim", dims({0})}, {"dtype", IValue(lz::kInt32)}}, "int32 dtype"),
                           "[mean] dtype: the result must have a floating point dtype, got int32"),
          LZT_EXPECT_ERROR(IndexError, error_input({2, 3}, lz::kFloat32, {{"dim", dims({-3})}}, "dim -3 of a 2-D tensor"),
                           "[mean] dim: -3 is out of range for a 2-D tensor")};
    };
    t.push_back(std::move(op));
  }
  {
    OpInfo op;
    op.name = "prod";
    op.dtypes = all_types();
    op.samples = [](ScalarType d) {
      const Domain domain = is_float(d) ? Domain{0.5, 1.5, false} : Domain{};
      return concat(single_dim_samples(d, true, domain), dtype_samples(d, true));
    };
    op.op = [](const SampleInput& s) {
      if (!has_dim(s)) return std::vector<Tensor>{lz::prod(s[0], dtype_of(s))};
      return std::vector<Tensor>{lz::prod(s[0], s.int_arg("dim"), keepdim_of(s), dtype_of(s))};
    };
    op.reference = [](const SampleInput& s) {
      const ScalarType r = dtype_of(s).value_or(sum_dtype(s[0].dtype()));
      return std::vector<Expected>{group_reference(s, r, is_float(r) ? GroupFn(ref_prod) : GroupFn(ref_int_prod))};
    };
    op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
      if (!has_dim(s)) {
        lz::prod_out(outs[0], s[0], dtype_of(s));
      } else {
        lz::prod_out(outs[0], s[0], s.int_arg("dim"), keepdim_of(s), dtype_of(s));
      }
    };
    op.tolerance = prod_tolerance;
    op.errors = [] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(IndexError, error_input({2, 3}, lz::kFloat32, {{"dim", IValue(int64_t{2})}}, "dim 2 of a 2-D tensor"),
                           "[prod] dim: 2 is out of range for a 2-D tensor"),
          LZT_EXPECT_ERROR(IndexError, error_input({}, lz::kInt32, {{"dim", IValue(int64_t{1})}}, "dim 1 of a 0-D tensor"),
                           "[prod] dim: 1 is out of range for a 0-D tensor")};
    };
    t.push_back(std::move(op));
  }
}

void add_var_std(std::vector<OpInfo>& t) {
  for (const bool is_std : {false, true}) {
    OpInfo op;
    op.name = is_std ? "std" : "var";
    op.dtypes = float_types();
    op.samples = [](ScalarType d) {
      std::vector<SampleInput> out;
      for (const SampleInput& s : list_samples(d)) {
        out.push_back(s);  // correction None (1)
        if (s[0].dim() == 2 && !keepdim_of(s)) {
          for (double c : {0.0, 2.0, 0.5}) out.push_back(with(s, {{"correction", IValue(c)}}));
        }
      }
      for (const SampleInput& s : full_samples(d)) {
        out.push_back(with(s, {{"dim", IValue()}}));  // dim=None
      }
      // Constant large-magnitude values (cancellation in a naive sum of squares).
      std::vector<double> v(4 * 1000);
      for (size_t i = 0; i < v.size(); ++i) v[i] = 256 + (i % 2 ? 0.25 : -0.25);
      out.push_back(SampleInput{{make_tensor(v, {4, 1000}, d)}, {{"dim", dims({1})}}, "256 +- 0.25"});
      out.push_back(SampleInput{{make_tensor(v, {1000, 4}, d)}, {{"dim", dims({0})}}, "256 +- 0.25, outer"});
      return out;
    };
    op.op = [is_std](const SampleInput& s) {
      std::optional<lz::IntArrayRef> d;
      if (has_dim(s)) d = s.int_list_arg("dim");
      const auto c = scalar_opt(s, "correction");
      return std::vector<Tensor>{is_std ? lz::std(s[0], d, c, keepdim_of(s)) : lz::var(s[0], d, c, keepdim_of(s))};
    };
    op.reference = [is_std](const SampleInput& s) {
      const double c = s.has("correction") ? s.scalar_arg("correction").to_double() : 1.0;
      return std::vector<Expected>{group_reference(s, s[0].dtype(), [c, is_std](const std::vector<double>& v) {
        const double var = ref_var(v, c);
        return is_std ? std::sqrt(var) : var;
      })};
    };
    op.out = [is_std](std::vector<Tensor>& outs, const SampleInput& s) {
      std::optional<lz::IntArrayRef> d;
      if (has_dim(s)) d = s.int_list_arg("dim");
      const auto c = scalar_opt(s, "correction");
      if (is_std) {
        lz::std_out(outs[0], s[0], d, c, keepdim_of(s));
      } else {
        lz::var_out(outs[0], s[0], d, c, keepdim_of(s));
      }
    };
    op.tolerance = float_math_tolerance;
    const std::string opname = op.name;
    op.errors = [opname] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(TypeError, error_input({3}, lz::kInt64, {}, "int64"),
                           "[" + opname + "] self: only floating point dtypes are supported, got int64"),
          LZT_EXPECT_ERROR(TypeError, error_input({3}, lz::kBool, {}, "bool"),
                           "[" + opname + "] self: only floating point dtypes are supported, got bool"),
          LZT_EXPECT_ERROR(ValueError, error_input({2, 3}, lz::kFloat32, {{"dim", dims({1, 1})}}, "repeated dim"),
                           "[" + opname + "] dim: dim 1 appears multiple times"),
          LZT_EXPECT_ERROR(IndexError, error_input({2, 3}, lz::kFloat64, {{"dim", dims({3})}}, "dim 3"),
                           "[" + opname + "] dim: 3 is out of range for a 2-D tensor")};
    };
    t.push_back(std::move(op));
  }
}

void add_norm(std::vector<OpInfo>& t) {
  OpInfo op;
  op.name = "norm";
  op.dtypes = float_types();
  op.samples = [](ScalarType d) {
    std::vector<SampleInput> out;
    const std::vector<IValue> ps = {IValue(), IValue(2.0), IValue(int64_t{1}), IValue(0.0), IValue(kInf),
                                    IValue(-kInf), IValue(3.0), IValue(0.5), IValue(-1.0)};
    for (const SampleInput& s : list_samples(d)) {
      // Negative and infinite orders of an empty group have no identity.
      const bool empty_group = has_empty_group(s);
      for (const IValue& p : ps) {
        if (empty_group && !p.is_none() && (p.to_double() < 0 || std::isinf(p.to_double()))) continue;
        out.push_back(with(s, {{"p", p}}));
      }
    }
    // The full-tensor overload norm(self, p).
    for (const SampleInput& s : full_samples(d)) {
      out.push_back(with(s, {{"scalar_p", IValue(2.0)}}));
      out.push_back(with(s, {{"scalar_p", IValue(int64_t{1})}}));
    }
    return out;
  };
  op.op = [](const SampleInput& s) {
    if (s.has("scalar_p")) return std::vector<Tensor>{lz::norm(s[0], s.scalar_arg("scalar_p"))};
    return std::vector<Tensor>{lz::norm(s[0], scalar_opt(s, "p"), s.int_list_arg("dim"), keepdim_of(s))};
  };
  op.reference = [](const SampleInput& s) {
    double p = 2;
    if (s.has("scalar_p")) p = s.scalar_arg("scalar_p").to_double();
    if (s.has("p") && !s.arg("p").is_none()) p = s.scalar_arg("p").to_double();
    return std::vector<Expected>{
        group_reference(s, s[0].dtype(), [p](const std::vector<double>& v) { return ref_norm(v, p); })};
  };
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
    if (s.has("scalar_p")) {
      lz::norm_out(outs[0], s[0], s.scalar_arg("scalar_p"), {});
    } else {
      lz::norm_out(outs[0], s[0], scalar_opt(s, "p"), s.int_list_arg("dim"), keepdim_of(s));
    }
  };
  op.tolerance = float_math_tolerance;
  op.errors = [] {
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(TypeError, error_input({3}, lz::kInt32, {{"dim", dims({})}, {"p", IValue(2.0)}}, "int32"),
                         "[norm] self: only floating point dtypes are supported, got int32"),
        LZT_EXPECT_ERROR(ValueError, error_input({0}, lz::kFloat32, {{"dim", dims({})}, {"p", IValue(kInf)}}, "inf norm of an empty tensor"),
                         "[norm] p: cannot compute the inf norm of the empty tensor of shape [0]"),
        LZT_EXPECT_ERROR(ValueError, error_input({2, 0}, lz::kFloat32, {{"dim", dims({1})}, {"p", IValue(-1.0)}}, "-1 norm over a size-0 dim"),
                         "[norm] p: cannot compute the -1 norm over dim 1 of size 0"),
        LZT_EXPECT_ERROR(IndexError, error_input({2, 3}, lz::kFloat32, {{"dim", dims({2})}, {"p", IValue()}}, "dim 2"),
                         "[norm] dim: 2 is out of range for a 2-D tensor")};
  };
  t.push_back(std::move(op));
}

void add_logsumexp(std::vector<OpInfo>& t) {
  OpInfo op;
  op.name = "logsumexp";
  op.dtypes = all_types();
  op.samples = [](ScalarType d) { return list_samples(d); };
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::logsumexp(s[0], s.int_list_arg("dim"), keepdim_of(s))};
  };
  op.reference = [](const SampleInput& s) {
    return std::vector<Expected>{group_reference(s, float_result(s[0].dtype()), ref_logsumexp)};
  };
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
    lz::logsumexp_out(outs[0], s[0], s.int_list_arg("dim"), keepdim_of(s));
  };
  op.tolerance = float_math_tolerance;
  op.errors = [] {
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(IndexError, error_input({2, 3}, lz::kFloat32, {{"dim", dims({-3})}}, "dim -3"),
                         "[logsumexp] dim: -3 is out of range for a 2-D tensor"),
        LZT_EXPECT_ERROR(ValueError, error_input({2, 3}, lz::kInt32, {{"dim", dims({0, 0})}}, "repeated dim"),
                         "[logsumexp] dim: dim 0 appears multiple times")};
  };
  t.push_back(std::move(op));
}

void add_all_any(std::vector<OpInfo>& t) {
  for (const bool is_all : {true, false}) {
    OpInfo op;
    op.name = is_all ? "all" : "any";
    op.dtypes = all_types();
    op.samples = [](ScalarType d) {
      // Values in [-1, 1] for floats and [0, 2] for integers: zeros are common.
      const Domain domain = is_float(d) ? kUnit : Domain{0, 2, false};
      return concat(single_dim_samples(d, true, domain), full_samples(d, domain));
    };
    op.op = [is_all](const SampleInput& s) {
      if (!has_dim(s)) return std::vector<Tensor>{is_all ? lz::all(s[0]) : lz::any(s[0])};
      return std::vector<Tensor>{is_all ? lz::all(s[0], s.int_arg("dim"), keepdim_of(s))
                                        : lz::any(s[0], s.int_arg("dim"), keepdim_of(s))};
    };
    op.reference = [is_all](const SampleInput& s) {
      return std::vector<Expected>{group_reference(s, logical_dtype(s[0].dtype()), [is_all](const std::vector<double>& v) {
        for (double x : v) {
          const bool nonzero = x != 0;  // NaN is nonzero
          if (is_all && !nonzero) return 0.0;
          if (!is_all && nonzero) return 1.0;
        }
        return is_all ? 1.0 : 0.0;
      })};
    };
    op.out = [is_all](std::vector<Tensor>& outs, const SampleInput& s) {
      if (!has_dim(s)) {
        if (is_all) lz::all_out(outs[0], s[0]);
        else lz::any_out(outs[0], s[0]);
      } else if (is_all) {
        lz::all_out(outs[0], s[0], s.int_arg("dim"), keepdim_of(s));
      } else {
        lz::any_out(outs[0], s[0], s.int_arg("dim"), keepdim_of(s));
      }
    };
    const std::string opname = op.name;
    op.errors = [opname] {
      return std::vector<ErrorInput>{
          LZT_EXPECT_ERROR(IndexError, error_input({2, 3}, lz::kBool, {{"dim", IValue(int64_t{2})}}, "dim 2"),
                           "[" + opname + "] dim: 2 is out of range for a 2-D tensor")};
    };
    t.push_back(std::move(op));
  }
}

// out[i] = running sum along dim of the (dtype-converted) values.
Expected scan_reference(const SampleInput& s, ScalarType result) {
  const Tensor& x = s[0];
  std::vector<double> v = values(x);
  if (const auto dt = dtype_of(s)) {
    for (double& e : v) e = as_stored(*dt, e);
  }
  const int64_t nd = x.dim();
  const int64_t d = nd == 0 ? 0 : (s.int_arg("dim") % nd + nd) % nd;
  int64_t stride = 1;  // row-major stride of dim d
  for (int64_t k = nd - 1; k > d; --k) stride *= x.size(k);
  const int64_t len = nd == 0 ? 1 : x.size(d);
  Expected e{lz::SizeVec(x.sizes().begin(), x.sizes().end()), result, {}};
  std::vector<double> acc(v.size());
  for (size_t i = 0; i < v.size(); ++i) {
    const int64_t pos = (static_cast<int64_t>(i) / stride) % len;
    acc[i] = pos == 0 ? v[i] : acc[i - static_cast<size_t>(stride)] + v[i];
    e.values.push_back(is_float(result) ? round_to(result, acc[i]) : as_stored(result, acc[i]));
  }
  return e;
}

void add_cumsum(std::vector<OpInfo>& t) {
  OpInfo op;
  op.name = "cumsum";
  op.dtypes = all_types();
  op.samples = [](ScalarType d) {
    std::vector<SampleInput> out = single_dim_samples(d, false);
    for (const SampleInput& s : dtype_samples(d, true)) {
      if (has_dim(s)) out.push_back(s);
    }
    // A long scan along a non-innermost dim (the column path).
    out.push_back(SampleInput{{domain_tensor({600, 3, 70}, d, 5)}, {{"dim", IValue(int64_t{0})}}, "[600, 3, 70] along dim 0"});
    return out;
  };
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::cumsum(s[0], s.int_arg("dim"), dtype_of(s))};
  };
  op.reference = [](const SampleInput& s) {
    return std::vector<Expected>{scan_reference(s, dtype_of(s).value_or(sum_dtype(s[0].dtype())))};
  };
  op.inplace = [](Tensor& self, const SampleInput& s) { lz::cumsum_(self, s.int_arg("dim"), dtype_of(s)); };
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
    lz::cumsum_out(outs[0], s[0], s.int_arg("dim"), dtype_of(s));
  };
  op.tolerance = sum_tolerance;
  op.errors = [] {
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(IndexError, error_input({2, 3}, lz::kFloat32, {{"dim", IValue(int64_t{2})}}, "dim 2"),
                         "[cumsum] dim: 2 is out of range for a 2-D tensor"),
        LZT_EXPECT_ERROR(IndexError, error_input({}, lz::kInt64, {{"dim", IValue(int64_t{-2})}}, "dim -2 of a 0-D tensor"),
                         "[cumsum] dim: -2 is out of range for a 0-D tensor")};
  };
  t.push_back(std::move(op));
}

}  // namespace

void add_reduction_ops(std::vector<OpInfo>& t) {
  add_sum_mean_prod(t);
  add_extremum_ops(t);
  add_var_std(t);
  add_norm(t);
  add_logsumexp(t);
  add_all_any(t);
  add_cumsum(t);
}

}  // namespace lzt
