// The batch loops: one switch per expression (op, dtype class, rounding),
// then a loop over the batch calling the scalar semantics with the op fixed
// at compile time, so the per-point dtype dispatch is gone.
#include "codegen_interp/batch_eval.h"

#include <cstring>

#include "core/error.h"

namespace lz::codegen_interp::detail {

namespace {

// o[j] = f(a[j]) rounded to r; the rounding switch is outside the loop.
template <class F>
void map_f(const double* a, double* o, int64_t n, Round r, F f) {
  switch (r) {
    case Round::None: for (int64_t j = 0; j < n; ++j) o[j] = f(a[j]); return;
    case Round::F32: for (int64_t j = 0; j < n; ++j) o[j] = static_cast<float>(f(a[j])); return;
    default: for (int64_t j = 0; j < n; ++j) o[j] = round_as(f(a[j]), r); return;
  }
}

template <class F>
void map2_f(const double* a, const double* b, double* o, int64_t n, Round r, F f) {
  switch (r) {
    case Round::None: for (int64_t j = 0; j < n; ++j) o[j] = f(a[j], b[j]); return;
    case Round::F32: for (int64_t j = 0; j < n; ++j) o[j] = static_cast<float>(f(a[j], b[j])); return;
    default: for (int64_t j = 0; j < n; ++j) o[j] = round_as(f(a[j], b[j]), r); return;
  }
}

template <class F>
void map_i(const int64_t* a, int64_t* o, int64_t n, Wrap w, F f) {
  switch (w) {
    case Wrap::None: for (int64_t j = 0; j < n; ++j) o[j] = f(a[j]); return;
    default: for (int64_t j = 0; j < n; ++j) o[j] = wrap_as(f(a[j]), w); return;
  }
}

template <class F>
void map2_i(const int64_t* a, const int64_t* b, int64_t* o, int64_t n, Wrap w, F f) {
  switch (w) {
    case Wrap::None: for (int64_t j = 0; j < n; ++j) o[j] = f(a[j], b[j]); return;
    default: for (int64_t j = 0; j < n; ++j) o[j] = wrap_as(f(a[j], b[j]), w); return;
  }
}

#define LZ_FLOAT_UNARY_OPS(_) \
  _(Neg) _(Abs) _(Sign) _(Reciprocal) _(Square) _(Exp) _(Exp2) _(Expm1) _(Log) _(Log2) _(Log1p) _(Sqrt) \
  _(Rsqrt) _(Sin) _(Cos) _(Tan) _(Tanh) _(Sigmoid) _(Erf) _(Floor) _(Ceil) _(Round) _(Trunc)
#define LZ_INT_UNARY_OPS(_) _(Neg) _(Abs) _(Sign) _(Square) _(Floor) _(Ceil) _(Round) _(Trunc) _(BitwiseNot)
#define LZ_FLOAT_BINARY_OPS(_) \
  _(Add) _(Sub) _(Mul) _(Div) _(FloorDiv) _(TruncDiv) _(Remainder) _(Fmod) _(Pow) _(Atan2) _(Maximum) _(Minimum)
#define LZ_INT_BINARY_OPS(_)                                                                       \
  _(Add) _(Sub) _(Mul) _(Div) _(TruncDiv) _(FloorDiv) _(Remainder) _(Fmod) _(Pow) _(Maximum) _(Minimum) \
  _(BitwiseAnd) _(BitwiseOr) _(BitwiseXor)

void unary_f(ScalarOp op, const double* a, double* o, int64_t n, Round r) {
  switch (op) {
#define LZ_CASE(X) \
  case ScalarOp::X: return map_f(a, o, n, r, [](double x) { return unary_float(ScalarOp::X, x); });
    LZ_FLOAT_UNARY_OPS(LZ_CASE)
#undef LZ_CASE
    default: return map_f(a, o, n, r, [op](double x) { return unary_float(op, x); });
  }
}

void unary_i(ScalarOp op, const int64_t* a, int64_t* o, int64_t n, Wrap w, ScalarType t) {
  switch (op) {
#define LZ_CASE(X) \
  case ScalarOp::X: return map_i(a, o, n, w, [t](int64_t x) { return unary_int(ScalarOp::X, x, t); });
    LZ_INT_UNARY_OPS(LZ_CASE)
#undef LZ_CASE
    default: return map_i(a, o, n, w, [op, t](int64_t x) { return unary_int(op, x, t); });
  }
}

void binary_f(ScalarOp op, const double* a, const double* b, double* o, int64_t n, Round r, ScalarType t) {
  switch (op) {
#define LZ_CASE(X)                                                                                   \
  case ScalarOp::X:                                                                                  \
    return map2_f(a, b, o, n, r, [t](double x, double y) { return binary_float(ScalarOp::X, x, y, t); });
    LZ_FLOAT_BINARY_OPS(LZ_CASE)
#undef LZ_CASE
    default: return map2_f(a, b, o, n, r, [op, t](double x, double y) { return binary_float(op, x, y, t); });
  }
}

void binary_i(ScalarOp op, const int64_t* a, const int64_t* b, int64_t* o, int64_t n, Wrap w, ScalarType t) {
  switch (op) {
#define LZ_CASE(X)                                                                                      \
  case ScalarOp::X:                                                                                     \
    return map2_i(a, b, o, n, w, [t](int64_t x, int64_t y) { return binary_int(ScalarOp::X, x, y, t); });
    LZ_INT_BINARY_OPS(LZ_CASE)
#undef LZ_CASE
    default: return map2_i(a, b, o, n, w, [op, t](int64_t x, int64_t y) { return binary_int(op, x, y, t); });
  }
}

// out[p] = cv(element at point p) for every point of ps.
template <class T, class O, class Cv>
void gather(const T* base, const PointSet& ps, uint32_t a, O* out, Cv cv) {
  const int64_t* oo = ps.outer + a * ps.ostride;
  const int64_t* io = ps.inner + a * ps.istride;
  const int64_t per = ps.per_outer;
  if (per == 1) {
    const T* b = base + io[0];
    const int64_t s = ps.olin[a];
    if (s == 1) {  // contiguous: a loop the compiler vectorises
      b += oo[0];
      for (int64_t k = 0; k < ps.n_outer; ++k) out[k] = cv(b[k]);
    } else {
      for (int64_t k = 0; k < ps.n_outer; ++k) out[k] = cv(b[oo[k]]);
    }
    return;
  }
  const bool contiguous = ps.ilin[a] == 1;
  for (int64_t k = 0; k < ps.n_outer; ++k) {
    const T* b = base + oo[k];
    O* o = out + k * per;
    if (contiguous) {
      b += io[0];
      for (int64_t j = 0; j < per; ++j) o[j] = cv(b[j]);
    } else {
      for (int64_t j = 0; j < per; ++j) o[j] = cv(b[io[j]]);
    }
  }
}

// element at point p = cv(in[p]) for every point of ps.
template <class T, class I, class Cv>
void scatter(T* base, const PointSet& ps, uint32_t a, const I* in, Cv cv) {
  const int64_t* oo = ps.outer + a * ps.ostride;
  const int64_t* io = ps.inner + a * ps.istride;
  const int64_t per = ps.per_outer;
  if (per == 1) {
    T* b = base + io[0];
    if (ps.olin[a] == 1) {
      b += oo[0];
      for (int64_t k = 0; k < ps.n_outer; ++k) b[k] = cv(in[k]);
    } else {
      for (int64_t k = 0; k < ps.n_outer; ++k) b[oo[k]] = cv(in[k]);
    }
    return;
  }
  const bool contiguous = ps.ilin[a] == 1;
  for (int64_t k = 0; k < ps.n_outer; ++k) {
    T* b = base + oo[k];
    const I* v = in + k * per;
    if (contiguous) {
      b += io[0];
      for (int64_t j = 0; j < per; ++j) b[j] = cv(v[j]);
    } else {
      for (int64_t j = 0; j < per; ++j) b[io[j]] = cv(v[j]);
    }
  }
}

// The element of dtype t at p, in its class.
Value read_value(const char* p, ScalarType t) {
  const auto get = [p](auto tag) {
    decltype(tag) x;
    std::memcpy(&x, p, sizeof x);
    return x;
  };
  switch (t) {
    case ScalarType::Bool: return of_int(get(bool{}) ? 1 : 0);
    case ScalarType::Byte: return of_int(get(uint8_t{}));
    case ScalarType::Char: return of_int(get(int8_t{}));
    case ScalarType::Short: return of_int(get(int16_t{}));
    case ScalarType::Int: return of_int(get(int32_t{}));
    case ScalarType::Long: return of_int(get(int64_t{}));
    case ScalarType::Half: return of_double(static_cast<float>(get(Half{})));
    case ScalarType::BFloat16: return of_double(static_cast<float>(get(BFloat16{})));
    case ScalarType::Float: return of_double(get(float{}));
    case ScalarType::Double: return of_double(get(double{}));
    default: break;
  }
  LZ_INTERNAL_ASSERT(false, "interpreter: gather of an unsupported dtype ", t);
}

// Reads access a's elements of dtype bt into a column of bt's class.
void load_col(char* data, ScalarType bt, const PointSet& ps, uint32_t a, double* fd, int64_t* fi) {
  switch (bt) {
    case ScalarType::Bool:
      return gather(reinterpret_cast<const bool*>(data), ps, a, fi, [](bool x) -> int64_t { return x ? 1 : 0; });
    case ScalarType::Byte:
      return gather(reinterpret_cast<const uint8_t*>(data), ps, a, fi, [](uint8_t x) -> int64_t { return x; });
    case ScalarType::Char:
      return gather(reinterpret_cast<const int8_t*>(data), ps, a, fi, [](int8_t x) -> int64_t { return x; });
    case ScalarType::Short:
      return gather(reinterpret_cast<const int16_t*>(data), ps, a, fi, [](int16_t x) -> int64_t { return x; });
    case ScalarType::Int:
      return gather(reinterpret_cast<const int32_t*>(data), ps, a, fi, [](int32_t x) -> int64_t { return x; });
    case ScalarType::Long:
      return gather(reinterpret_cast<const int64_t*>(data), ps, a, fi, [](int64_t x) { return x; });
    case ScalarType::Half:
      return gather(reinterpret_cast<const Half*>(data), ps, a, fd,
                    [](Half x) -> double { return static_cast<float>(x); });
    case ScalarType::BFloat16:
      return gather(reinterpret_cast<const BFloat16*>(data), ps, a, fd,
                    [](BFloat16 x) -> double { return static_cast<float>(x); });
    case ScalarType::Float:
      return gather(reinterpret_cast<const float*>(data), ps, a, fd, [](float x) -> double { return x; });
    case ScalarType::Double:
      return gather(reinterpret_cast<const double*>(data), ps, a, fd, [](double x) { return x; });
    default: break;
  }
  LZ_INTERNAL_ASSERT(false, "kernel interpreter: load of dtype ", bt);
}

template <class T>
void fill(T* o, int64_t n, T v) {
  for (int64_t j = 0; j < n; ++j) o[j] = v;
}

// Operand o of e converted to e's dtype (a no-op in verified kernels, where
// arithmetic operands already have it), in scratch column `scratch` if needed.
const double* farg(const std::vector<ExprPlan>& plans, const ExprPlan& e, int o, int64_t n, const Columns& c,
                   uint32_t scratch) {
  const ExprPlan& q = plans[e.operands[o]];
  if (q.t == e.t) return c.fcol(q.slot);
  convert_col(q.t, c.fcol(q.slot), c.icol(q.slot), e.t, c.fs(scratch), nullptr, n);
  return c.fs(scratch);
}

const int64_t* iarg(const std::vector<ExprPlan>& plans, const ExprPlan& e, int o, int64_t n, const Columns& c,
                    uint32_t scratch) {
  const ExprPlan& q = plans[e.operands[o]];
  if (q.t == e.t) return c.icol(q.slot);
  convert_col(q.t, c.fcol(q.slot), c.icol(q.slot), e.t, nullptr, c.is(scratch), n);
  return c.is(scratch);
}

// out[j] = f(truth of operand o at j) for a bool-valued op; a floating
// result dtype (the verifier rejects it) keeps the value's d, which is 0.
template <class F>
void bool_result(const ExprPlan& e, int64_t n, const Columns& c, F f) {
  if (e.fp) return fill(c.fcol(e.slot), n, 0.0);
  int64_t* o = c.icol(e.slot);
  for (int64_t j = 0; j < n; ++j) o[j] = f(j) ? 1 : 0;
}

// A bool r converted to e's dtype (convert(of_int(r), Bool, t)): r in either class.
template <class F>
void bool_converted(const ExprPlan& e, int64_t n, const Columns& c, F f) {
  if (e.fp) {
    double* o = c.fcol(e.slot);
    for (int64_t j = 0; j < n; ++j) o[j] = f(j) ? 1.0 : 0.0;
  } else {
    int64_t* o = c.icol(e.slot);
    for (int64_t j = 0; j < n; ++j) o[j] = f(j) ? 1 : 0;
  }
}

}  // namespace

void convert_col(ScalarType from, const double* fd, const int64_t* fi, ScalarType to, double* td, int64_t* ti,
                 int64_t n) {
  const bool ff = is_float(from), tf = is_float(to);
  if (from == to) {
    if (ff) std::copy(fd, fd + n, td); else std::copy(fi, fi + n, ti);
    return;
  }
  if (ff) {
    if (to == ScalarType::Bool) {
      for (int64_t j = 0; j < n; ++j) ti[j] = fd[j] != 0 ? 1 : 0;
    } else if (tf) {
      const Round r = round_kind(to);
      for (int64_t j = 0; j < n; ++j) td[j] = round_as(fd[j], r);
    } else {
      for (int64_t j = 0; j < n; ++j) ti[j] = float_to_int(fd[j], to);
    }
    return;
  }
  if (to == ScalarType::Bool) {
    for (int64_t j = 0; j < n; ++j) ti[j] = fi[j] != 0 ? 1 : 0;
  } else if (to == ScalarType::Double) {
    for (int64_t j = 0; j < n; ++j) td[j] = static_cast<double>(fi[j]);
  } else if (tf) {
    const Round r = round_kind(to);
    for (int64_t j = 0; j < n; ++j) td[j] = round_as(static_cast<float>(fi[j]), r);  // one rounding to float
  } else {
    const Wrap w = wrap_kind(to);
    for (int64_t j = 0; j < n; ++j) ti[j] = wrap_as(fi[j], w);
  }
}

// Gather e at every point of ps: access e.index's element at the point, its
// gathered axis at the index column instead (IndexError outside the extent).
void gather_col(const ExprPlan& e, const PointSet& ps, const int64_t* index, double* fd, int64_t* fi) {
  const uint32_t a = e.index;
  const int64_t* oo = ps.outer + a * ps.ostride;
  const int64_t* io = ps.inner + a * ps.istride;
  const size_t item = element_size(e.src);
  for (int64_t k = 0, j = 0; k < ps.n_outer; ++k) {
    for (int64_t i = 0; i < ps.per_outer; ++i, ++j) {
      const int64_t at = index[j];
      if (static_cast<uint64_t>(at) >= static_cast<uint64_t>(e.gather_extent)) {
        LZ_FAIL(IndexError, "[gather] index ", at, " is out of bounds for a gathered axis of size ", e.gather_extent);
      }
      const char* p = e.data + (oo[k] + io[i] + at * e.gather_stride) * static_cast<int64_t>(item);
      const Value v = read_value(p, e.src);
      if (is_float(e.src)) {
        fd[j] = v.d;
      } else {
        fi[j] = v.i;
      }
    }
  }
}

void eval_expr(const std::vector<ExprPlan>& plans, uint32_t id, const PointSet& ps, const Value* reduced,
               uint32_t nred, const Columns& c) {
  const ExprPlan& e = plans[id];
  const int64_t n = ps.size();
  double* fo = c.fcol(e.slot);
  int64_t* io = c.icol(e.slot);
  auto opnd = [&](int o) -> const ExprPlan& { return plans[e.operands[o]]; };
  auto truth = [&](int o) {
    const ExprPlan& q = opnd(o);
    return [fp = q.fp, d = c.fcol(q.slot), i = c.icol(q.slot)](int64_t j) { return fp ? d[j] != 0 : i[j] != 0; };
  };
  switch (e.op) {
    case ScalarOp::Load: {
      if (e.src == e.t) return load_col(e.data, e.src, ps, e.index, fo, io);
      load_col(e.data, e.src, ps, e.index, c.fs(0), c.is(0));
      return convert_col(e.src, c.fs(0), c.is(0), e.t, fo, io, n);
    }
    case ScalarOp::Gather: {
      const int64_t* index = c.icol(opnd(0).slot);
      if (e.src == e.t) return gather_col(e, ps, index, fo, io);
      gather_col(e, ps, index, c.fs(0), c.is(0));
      return convert_col(e.src, c.fs(0), c.is(0), e.t, fo, io, n);
    }
    case ScalarOp::Constant: case ScalarOp::Param: case ScalarOp::ReduceCount: case ScalarOp::InPiece:
      return e.fp ? fill(fo, n, e.uniform.d) : fill(io, n, e.uniform.i);
    case ScalarOp::Reduced:
      for (int64_t k = 0; k < ps.n_outer; ++k) {
        const Value v = convert(reduced[k * nred + e.index], e.src, e.t);
        if (e.fp) fill(fo + k * ps.per_outer, ps.per_outer, v.d); else fill(io + k * ps.per_outer, ps.per_outer, v.i);
      }
      return;
    case ScalarOp::Cast: {
      const ExprPlan& q = opnd(0);
      return convert_col(q.t, c.fcol(q.slot), c.icol(q.slot), e.t, fo, io, n);
    }
    case ScalarOp::LogicalNot: return bool_result(e, n, c, [t = truth(0)](int64_t j) { return !t(j); });
    case ScalarOp::IsNan: case ScalarOp::IsInf: {
      const ExprPlan& q = opnd(0);
      if (!q.fp) return bool_result(e, n, c, [](int64_t) { return false; });
      const double* d = c.fcol(q.slot);
      if (e.op == ScalarOp::IsNan) return bool_result(e, n, c, [d](int64_t j) { return std::isnan(d[j]); });
      return bool_result(e, n, c, [d](int64_t j) { return std::isinf(d[j]); });
    }
    case ScalarOp::LogicalAnd:
      return bool_converted(e, n, c, [a = truth(0), b = truth(1)](int64_t j) { return a(j) && b(j); });
    case ScalarOp::LogicalOr:
      return bool_converted(e, n, c, [a = truth(0), b = truth(1)](int64_t j) { return a(j) || b(j); });
    case ScalarOp::LogicalXor:
      return bool_converted(e, n, c, [a = truth(0), b = truth(1)](int64_t j) { return a(j) != b(j); });
    case ScalarOp::Eq: case ScalarOp::Ne: case ScalarOp::Lt:
    case ScalarOp::Le: case ScalarOp::Gt: case ScalarOp::Ge: {
      const ExprPlan &qa = opnd(0), &qb = opnd(1);
      const ScalarOp op = e.op;
      if (!qa.fp && !qb.fp) {
        const int64_t *a = c.icol(qa.slot), *b = c.icol(qb.slot);
        return bool_converted(e, n, c, [=](int64_t j) { return compare(op, a[j], b[j]); });
      }
      // Mixed classes compare in double (the verifier requires equal dtypes).
      const double* a = qa.fp ? c.fcol(qa.slot) : c.fs(0);
      const double* b = qb.fp ? c.fcol(qb.slot) : c.fs(1);
      if (!qa.fp) convert_col(qa.t, nullptr, c.icol(qa.slot), ScalarType::Double, c.fs(0), nullptr, n);
      if (!qb.fp) convert_col(qb.t, nullptr, c.icol(qb.slot), ScalarType::Double, c.fs(1), nullptr, n);
      return bool_converted(e, n, c, [=](int64_t j) { return compare(op, a[j], b[j]); });
    }
    case ScalarOp::Select: {
      const auto cond = truth(0);
      if (e.fp) {
        const double *a = farg(plans, e, 1, n, c, 1), *b = farg(plans, e, 2, n, c, 2);
        for (int64_t j = 0; j < n; ++j) fo[j] = cond(j) ? a[j] : b[j];
      } else {
        const int64_t *a = iarg(plans, e, 1, n, c, 1), *b = iarg(plans, e, 2, n, c, 2);
        for (int64_t j = 0; j < n; ++j) io[j] = cond(j) ? a[j] : b[j];
      }
      return;
    }
    default: break;
  }
  if (ir::arity(e.op) == 1) {
    if (e.fp) return unary_f(e.op, farg(plans, e, 0, n, c, 1), fo, n, e.rnd);
    return unary_i(e.op, iarg(plans, e, 0, n, c, 1), io, n, e.wrp, e.t);
  }
  if (e.fp) return binary_f(e.op, farg(plans, e, 0, n, c, 1), farg(plans, e, 1, n, c, 2), fo, n, e.rnd, e.t);
  return binary_i(e.op, iarg(plans, e, 0, n, c, 1), iarg(plans, e, 1, n, c, 2), io, n, e.wrp, e.t);
}

void store_col(const ExprPlan& e, const PointSet& ps, uint32_t a, char* data, ScalarType bt, const Columns& c) {
  const double* fd = c.fcol(e.slot);
  const int64_t* fi = c.icol(e.slot);
  if (e.t != bt) {
    convert_col(e.t, fd, fi, bt, c.fs(3), c.is(3), ps.size());
    fd = c.fs(3);
    fi = c.is(3);
  }
  switch (bt) {
    case ScalarType::Bool:
      return scatter(reinterpret_cast<bool*>(data), ps, a, fi, [](int64_t v) { return v != 0; });
    case ScalarType::Byte:
      return scatter(reinterpret_cast<uint8_t*>(data), ps, a, fi, [](int64_t v) { return static_cast<uint8_t>(v); });
    case ScalarType::Char:
      return scatter(reinterpret_cast<int8_t*>(data), ps, a, fi, [](int64_t v) { return static_cast<int8_t>(v); });
    case ScalarType::Short:
      return scatter(reinterpret_cast<int16_t*>(data), ps, a, fi, [](int64_t v) { return static_cast<int16_t>(v); });
    case ScalarType::Int:
      return scatter(reinterpret_cast<int32_t*>(data), ps, a, fi, [](int64_t v) { return static_cast<int32_t>(v); });
    case ScalarType::Long: return scatter(reinterpret_cast<int64_t*>(data), ps, a, fi, [](int64_t v) { return v; });
    case ScalarType::Half:
      return scatter(reinterpret_cast<Half*>(data), ps, a, fd, [](double v) { return Half(static_cast<float>(v)); });
    case ScalarType::BFloat16:
      return scatter(reinterpret_cast<BFloat16*>(data), ps, a, fd,
                     [](double v) { return BFloat16(static_cast<float>(v)); });
    case ScalarType::Float:
      return scatter(reinterpret_cast<float*>(data), ps, a, fd, [](double v) { return static_cast<float>(v); });
    case ScalarType::Double: return scatter(reinterpret_cast<double*>(data), ps, a, fd, [](double v) { return v; });
    default: break;
  }
  LZ_INTERNAL_ASSERT(false, "kernel interpreter: store of dtype ", bt);
}

void combine_f(ReduceOp op, const double* v, int64_t n, double& acc) {
  double a = acc;
  switch (op) {
    case ReduceOp::Sum: for (int64_t j = 0; j < n; ++j) a = a + v[j]; break;  // in order: no reassociation
    case ReduceOp::Prod: for (int64_t j = 0; j < n; ++j) a = a * v[j]; break;
    case ReduceOp::Max: for (int64_t j = 0; j < n; ++j) a = max_nan(a, v[j]); break;
    case ReduceOp::Min: for (int64_t j = 0; j < n; ++j) a = min_nan(a, v[j]); break;
    case ReduceOp::All: for (int64_t j = 0; j < n; ++j) a = a != 0 && v[j] != 0 ? 1 : 0; break;
    case ReduceOp::Any: for (int64_t j = 0; j < n; ++j) a = a != 0 || v[j] != 0 ? 1 : 0; break;
  }
  acc = a;
}

void combine_i(ReduceOp op, const int64_t* v, int64_t n, int64_t& acc, Wrap w) {
  int64_t a = acc;
  switch (op) {
    case ReduceOp::Sum: for (int64_t j = 0; j < n; ++j) a = wrap_as(add_wrap(a, v[j]), w); break;
    case ReduceOp::Prod: for (int64_t j = 0; j < n; ++j) a = wrap_as(mul_wrap(a, v[j]), w); break;
    case ReduceOp::Max: for (int64_t j = 0; j < n; ++j) a = std::max(a, v[j]); break;
    case ReduceOp::Min: for (int64_t j = 0; j < n; ++j) a = std::min(a, v[j]); break;
    case ReduceOp::All: for (int64_t j = 0; j < n; ++j) a = a != 0 && v[j] != 0 ? 1 : 0; break;
    case ReduceOp::Any: for (int64_t j = 0; j < n; ++j) a = a != 0 || v[j] != 0 ? 1 : 0; break;
  }
  acc = a;
}

}  // namespace lz::codegen_interp::detail
