// var, std, norm and logsumexp on the shared reduction layer.
#include <cmath>

#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/elementwise.h"
#include "eager_kernels/cpu/reduce.h"
#include "eager_kernels/cpu/reduction_kernels.h"
#include "eager_kernels/meta/reduction_meta.h"

namespace lz::cpu {

namespace {

using reduce::Mask;

template <class T>
using float_t = opmath_t<T>;  // float for 16-bit floats

// ---- var / std ---------------------------------------------------------------

struct Moments {
  int64_t n;
  double mean;
  double m2;  // sum of squared deviations from the mean
};

// Chan et al.'s pairwise update: exact merge of two blocks' moments.
inline Moments merge(const Moments& a, const Moments& b) {
  if (b.n == 0) return a;
  if (a.n == 0) return b;
  const int64_t n = a.n + b.n;
  const double delta = b.mean - a.mean;
  const double nb_over_n = static_cast<double>(b.n) / static_cast<double>(n);
  return Moments{n, a.mean + delta * nb_over_n,
                 a.m2 + b.m2 + delta * delta * static_cast<double>(a.n) * nb_over_n};
}

struct SquaredDeviation {
  double mean;
  template <class T>
  double operator()(T x) const {
    const double d = static_cast<double>(static_cast<opmath_t<T>>(x)) - mean;
    return d * d;
  }
};

template <class T>
LZ_CPU_CLONES void column_sq_dev_of(double* __restrict m2, const double* __restrict mean,
                                    const T* __restrict p, int64_t rows, int64_t row_stride, int64_t w) {
  for (int64_t r = 0; r < rows; ++r) {
    const T* __restrict row = p + r * row_stride;
    for (int64_t k = 0; k < w; ++k) {
      const double d = static_cast<double>(static_cast<opmath_t<T>>(row[k])) - mean[k];
      m2[k] += d * d;
    }
  }
}

// m2[k] += (row_r[k] - mean[k])^2 for every row r (16-bit floats widened:
// reduce::for_row_blocks).
template <class T>
void column_sq_dev(double* m2, const double* mean, const T* p, int64_t rows, int64_t row_stride, int64_t w) {
  reduce::for_row_blocks(p, rows, row_stride, w,
                         [&](const auto* q, int64_t m, int64_t stride, int64_t width, int64_t c) {
                           column_sq_dev_of(m2 + c, mean + c, q, m, stride, width);
                         });
}

template <class T, bool kStd>
struct VarOps {
  using in_t = T;
  using acc_t = Moments;
  static constexpr int64_t kLeaf = 4096;
  static constexpr int64_t kTile = 256;

  T* out;
  double correction;

  acc_t identity() const { return Moments{0, 0.0, 0.0}; }
  // Two passes over the block (in cache): its mean, then squared deviations.
  void accumulate(acc_t& a, const T* p, int64_t n, int64_t stride, int64_t) const {
    if (n == 0) return;
    const double sum = reduce::fold(p, n, stride, 0.0, reduce::Cast<double>{}, reduce::Add{});
    const double mean = sum / static_cast<double>(n);
    const double m2 = reduce::fold(p, n, stride, 0.0, SquaredDeviation{mean}, reduce::Add{});
    a = merge(a, Moments{n, mean, m2});
  }
  void accumulate_rows(acc_t* a, const T* p, int64_t rows, int64_t row_stride, int64_t w, int64_t) const {
    if (rows == 0) return;
    double sum[kTile], m2[kTile];
    for (int64_t k = 0; k < w; ++k) sum[k] = m2[k] = 0.0;
    reduce::fold_rows(sum, p, rows, row_stride, w, reduce::Cast<double>{}, reduce::Add{});
    for (int64_t k = 0; k < w; ++k) sum[k] /= static_cast<double>(rows);  // now the means
    column_sq_dev(m2, sum, p, rows, row_stride, w);
    for (int64_t k = 0; k < w; ++k) a[k] = merge(a[k], Moments{rows, sum[k], m2[k]});
  }
  acc_t combine(const acc_t& a, const acc_t& b) const { return merge(a, b); }
  void store(const acc_t& a, int64_t o, int64_t) const {
    // Bessel-style correction; no degrees of freedom left gives inf (or NaN
    // for a zero numerator), as in PyTorch.
    const double dof = std::max(0.0, static_cast<double>(a.n) - correction);
    const double var = a.m2 / dof;
    out[o] = static_cast<T>(kStd ? std::sqrt(var) : var);
  }
};

template <bool kStd>
void var_like(const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim,
              const std::optional<Scalar>& correction, bool keepdim, const char* op) {
  const Mask mask = meta::reduction_mask(op, self.dim(), dim);
  const reduce::Geometry g = reduce::make_geometry(self, mask, keepdim, out);
  const double c = correction ? correction->to_double() : 1.0;
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      reduce::run(g, self.data_ptr<T>(), VarOps<T, kStd>{out.data_ptr<T>(), c});
    } else {
      LZ_INTERNAL_ASSERT(false, op, ": non-floating dtype ", self.dtype());
    }
  });
}

// ---- norm --------------------------------------------------------------------

enum class NormKind { L0, L1, L2, Inf, NegInf, P };

template <class Acc>
struct AbsPow {
  Acc p;
  template <class T>
  Acc operator()(T x) const {
    return std::pow(std::abs(static_cast<Acc>(static_cast<opmath_t<T>>(x))), p);
  }
};
template <class Acc>
struct Abs {
  template <class T>
  Acc operator()(T x) const {
    return std::abs(static_cast<Acc>(static_cast<opmath_t<T>>(x)));
  }
};
template <class Acc>
struct Square {
  template <class T>
  Acc operator()(T x) const {
    const Acc v = static_cast<Acc>(static_cast<opmath_t<T>>(x));
    return v * v;
  }
};
template <class Acc>
struct NonZeroCount {
  template <class T>
  Acc operator()(T x) const {
    return static_cast<opmath_t<T>>(x) != opmath_t<T>(0) ? Acc(1) : Acc(0);
  }
};

template <class T, NormKind kKind>
struct NormOps {
  using in_t = T;
  using acc_t = float_t<T>;
  using Op = std::conditional_t<kKind == NormKind::Inf, reduce::MaxNan,
                                std::conditional_t<kKind == NormKind::NegInf, reduce::MinNan, reduce::Add>>;
  static constexpr int64_t kLeaf = 4096;
  static constexpr int64_t kTile = 1024;

  T* out;
  acc_t p;

  auto map() const {
    if constexpr (kKind == NormKind::L0) return NonZeroCount<acc_t>{};
    else if constexpr (kKind == NormKind::L2) return Square<acc_t>{};
    else if constexpr (kKind == NormKind::P) return AbsPow<acc_t>{p};
    else return Abs<acc_t>{};
  }
  acc_t identity() const {
    return kKind == NormKind::NegInf ? std::numeric_limits<acc_t>::infinity() : acc_t(0);
  }
  void accumulate(acc_t& a, const T* q, int64_t n, int64_t stride, int64_t) const {
    a = Op{}(a, reduce::fold(q, n, stride, identity(), map(), Op{}));
  }
  void accumulate_rows(acc_t* a, const T* q, int64_t rows, int64_t row_stride, int64_t w, int64_t) const {
    reduce::fold_rows(a, q, rows, row_stride, w, map(), Op{});
  }
  acc_t combine(acc_t a, acc_t b) const { return Op{}(a, b); }
  void store(acc_t a, int64_t o, int64_t) const {
    acc_t r = a;
    if constexpr (kKind == NormKind::L2) r = std::sqrt(a);
    if constexpr (kKind == NormKind::P) r = std::pow(a, acc_t(1) / p);
    out[o] = static_cast<T>(r);
  }
};

template <class T, NormKind kKind>
void run_norm(const Tensor& out, const Tensor& self, const reduce::Geometry& g, double p) {
  reduce::run(g, self.data_ptr<T>(), NormOps<T, kKind>{out.data_ptr<T>(), static_cast<float_t<T>>(p)});
}

void norm_common(const Tensor& out, const Tensor& self, double p, const Mask& mask, bool keepdim) {
  const reduce::Geometry g = reduce::make_geometry(self, mask, keepdim, out);
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      if (p == 2) run_norm<T, NormKind::L2>(out, self, g, p);
      else if (p == 1) run_norm<T, NormKind::L1>(out, self, g, p);
      else if (p == 0) run_norm<T, NormKind::L0>(out, self, g, p);
      else if (std::isinf(p) && p > 0) run_norm<T, NormKind::Inf>(out, self, g, p);
      else if (std::isinf(p)) run_norm<T, NormKind::NegInf>(out, self, g, p);
      else run_norm<T, NormKind::P>(out, self, g, p);
    } else {
      LZ_INTERNAL_ASSERT(false, "norm: non-floating dtype ", self.dtype());
    }
  });
}

// ---- logsumexp ---------------------------------------------------------------

// log(s) + shift(m): m is the block maximum (NaN-propagating), s the sum of
// exp(x - shift(m)), where shift(m) is m when finite and 0 otherwise.
template <class V>
struct LseAcc {
  V m;
  V s;
};

template <class V>
inline V lse_shift(V m) {
  return std::isfinite(m) ? m : V(0);
}

template <class V>
struct ExpShifted {
  V shift;
  template <class T>
  V operator()(T x) const {
    return std::exp(static_cast<V>(static_cast<opmath_t<T>>(x)) - shift);
  }
};

template <class T>
struct LogSumExpOps {
  using in_t = T;
  using V = float_t<T>;
  using acc_t = LseAcc<V>;
  static constexpr int64_t kLeaf = 4096;
  static constexpr int64_t kTile = 256;

  T* out;

  static V term(const acc_t& a, V shift) {
    if (a.m == -std::numeric_limits<V>::infinity()) return V(0);  // empty or all -inf
    return a.s * std::exp(lse_shift(a.m) - shift);
  }
  static acc_t merge(const acc_t& a, const acc_t& b) {
    const V m = reduce::MaxNan{}(a.m, b.m);
    if (m != m) return acc_t{m, V(0)};
    const V shift = lse_shift(m);
    return acc_t{m, term(a, shift) + term(b, shift)};
  }

  acc_t identity() const { return acc_t{-std::numeric_limits<V>::infinity(), V(0)}; }
  void accumulate(acc_t& a, const T* p, int64_t n, int64_t stride, int64_t) const {
    if (n == 0) return;
    const V m = reduce::fold(p, n, stride, -std::numeric_limits<V>::infinity(), reduce::Cast<V>{},
                             reduce::MaxNan{});
    if (m != m) {
      a = acc_t{m, V(0)};
      return;
    }
    const V s = reduce::fold(p, n, stride, V(0), ExpShifted<V>{lse_shift(m)}, reduce::Add{});
    a = merge(a, acc_t{m, s});
  }
  void accumulate_rows(acc_t* a, const T* p, int64_t rows, int64_t row_stride, int64_t w, int64_t) const {
    for (int64_t k = 0; k < w; ++k) accumulate(a[k], p + k, rows, row_stride, 0);
  }
  acc_t combine(const acc_t& a, const acc_t& b) const { return merge(a, b); }
  void store(const acc_t& a, int64_t o, int64_t) const {
    V r;
    if (a.m != a.m) r = a.m;
    else if (a.m == -std::numeric_limits<V>::infinity()) r = a.m;
    else r = std::log(a.s) + lse_shift(a.m);
    out[o] = static_cast<T>(r);
  }
};

}  // namespace

void var_impl(const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim,
              const std::optional<Scalar>& correction, bool keepdim) {
  var_like<false>(out, self, dim, correction, keepdim, "var");
}

void std_impl(const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim,
              const std::optional<Scalar>& correction, bool keepdim) {
  var_like<true>(out, self, dim, correction, keepdim, "std");
}

void norm_impl(const Tensor& out, const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim,
               bool keepdim) {
  norm_common(out, self, p ? p->to_double() : 2.0, meta::reduction_mask("norm", self.dim(), dim),
              keepdim);
}

void norm_scalar_impl(const Tensor& out, const Tensor& self, const Scalar& p) {
  norm_common(out, self, p.to_double(), reduce::mask_all(self.dim()), false);
}

void logsumexp_impl(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim) {
  const Tensor src = self.dtype() == out.dtype() ? self : cast_to(self, out.dtype());
  const Mask mask = meta::reduction_mask("logsumexp", src.dim(), dim);
  const reduce::Geometry g = reduce::make_geometry(src, mask, keepdim, out);
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      reduce::run(g, src.data_ptr<T>(), LogSumExpOps<T>{out.data_ptr<T>()});
    } else {
      LZ_INTERNAL_ASSERT(false, "logsumexp: non-floating dtype ", out.dtype());
    }
  });
}

}  // namespace lz::cpu
