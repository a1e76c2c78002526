// layer_norm and rms_norm over the last dims (rows of normalized_shape's
// numel). Rows run in parallel; each row is read from memory once and then
// reduced and rescaled from the cache: layer_norm takes two passes for the
// statistics (mean, then the mean squared deviation: no cancellation) and
// one to write; rms_norm one and one. 16-bit inputs compute in float.
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "core/empty_tensor.h"
#include "core/parallel.h"
#include "eager_kernels/cpu/copy_kernels.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/loops.h"
#include "eager_kernels/cpu/nn_kernels.h"
#include "eager_kernels/cpu/nn_kernels_math.h"
#include "eager_kernels/cpu/streaming_store.h"
#include "eager_kernels/meta/nn_meta.h"

namespace lz::cpu {

namespace {

template <class T>
using C = opmath_t<T>;

// n values of an optional parameter in the computation type, `fill` when absent.
template <class CT>
std::vector<CT> param_values(const std::optional<Tensor>& p, int64_t n, CT fill) {
  std::vector<CT> v(static_cast<size_t>(n), fill);
  if (!p || !p->defined() || n == 0) return v;
  const ScalarType ct = std::is_same_v<CT, double> ? ScalarType::Double : ScalarType::Float;
  const Tensor c = contiguous_as(*p, ct);
  const CT* src = c.data_ptr<CT>();
  std::copy(src, src + n, v.begin());
  return v;
}

// One row: the statistics, then y written to out (or to ybuf, streamed out
// afterwards). layer_norm works with deviations from the row's first value
// x0: x - x0 is exact for values close to each other and their mean dm is
// small, so a row with a large offset (1e4 + noise) keeps its digits; the
// mean itself (x0 + dm) is never rounded to the computation type.
template <bool kLayer, class T>
LZ_CPU_CLONES void norm_row(const T* in, T* out, int64_t n, const C<T>* w, const C<T>* b,
                            C<T>* xbuf, C<T>* ybuf, double eps, bool streaming, const T* next) {
  using CT = C<T>;
  using V = nn::Vec<CT>;
  const CT* x = nn::compute_row(in, n, xbuf);
  T* dst = streaming ? reinterpret_cast<T*>(ybuf) : out;
  constexpr int64_t W = nn::kWidth<CT>;
  // w and b padded with the tail of their row: read whole vectors only
  // where the row has them.
  auto param = [n](const CT* p, int64_t i) LZ_NN_LAMBDA {
    return i + W <= n ? nn::load(p + i) : nn::load_n<CT>(p + i, n - i, CT(0));
  };
  if constexpr (kLayer) {
    const CT x0 = x[0];
    const CT dm = static_cast<CT>(nn::row_sum(x, n, [x0](V v) LZ_NN_LAMBDA { return v - x0; }) /
                                  static_cast<double>(n));
    const double var = nn::row_sum(x, n, [x0, dm](V v) LZ_NN_LAMBDA {
                         const V d = (v - x0) - dm;
                         return d * d;
                       }) / static_cast<double>(n);
    const CT rstd = static_cast<CT>(1.0 / std::sqrt(var + eps));
    nn::row_map(dst, x, n, [&](V v, int64_t i) LZ_NN_LAMBDA {
      nn::prefetch_next_row(next, i);
      return ((v - x0) - dm) * rstd * param(w, i) + param(b, i);
    });
  } else {
    const double ms = nn::row_sum(x, n, [](V v) LZ_NN_LAMBDA { return v * v; }) / static_cast<double>(n);
    const CT rstd = static_cast<CT>(1.0 / std::sqrt(ms + eps));
    nn::row_map(dst, x, n, [&](V v, int64_t i) LZ_NN_LAMBDA {
      nn::prefetch_next_row(next, i);
      return v * rstd * param(w, i);
    });
  }
  if constexpr (std::is_same_v<T, CT>) {
    if (streaming) streaming_copy(out, ybuf, static_cast<size_t>(n) * sizeof(T));
  }
}

template <bool kLayer>
void norm_kernel(const Tensor& out, const Tensor& input, int64_t rows, int64_t n,
                 const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                 double eps) {
  if (out.numel() == 0) return;
  const ScalarType dtype = out.dtype();
  const Tensor x = contiguous_as(input, dtype);
  const Tensor target = out.is_contiguous() ? out : empty_tensor(out.sizes(), dtype, out.device());
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      using CT = C<T>;
      const std::vector<CT> w = param_values<CT>(weight, n, CT(1));
      const std::vector<CT> b = param_values<CT>(bias, n, CT(0));
      const T* in = x.data_ptr<T>();
      T* o = target.data_ptr<T>();
      const bool streaming =
          std::is_same_v<T, CT> && rows * n * static_cast<int64_t>(sizeof(T)) >= kStreamingStoreBytes;
      const int64_t grain = std::max<int64_t>(1, 16384 / n);
      parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
        nn::RowBuffer<CT> xbuf(std::is_same_v<T, CT> ? 0 : n), ybuf(n);
        for (int64_t r = begin; r < end; ++r) {
          const T* next = r + 1 < end ? in + (r + 1) * n : nullptr;
          norm_row<kLayer, T>(in + r * n, o + r * n, n, w.data(), b.data(), xbuf.data(),
                              ybuf.data(), eps, streaming, next);
        }
        if (streaming) streaming_store_fence();
      });
    } else {
      LZ_INTERNAL_ASSERT(false, "norm: unsupported dtype ", dtype);
    }
  });
  if (!target.is_same(out)) copy_(out, target, false);
}

}  // namespace

void layer_norm_impl(const Tensor& out, const Tensor& input, IntArrayRef normalized_shape,
                     const std::optional<Tensor>& weight, const std::optional<Tensor>& bias,
                     double eps, bool) {
  const meta::NormRows r = meta::check_norm_shapes("layer_norm", input, normalized_shape, weight, bias);
  norm_kernel<true>(out, input, r.rows, r.row_size, weight, bias, eps);
}

void rms_norm_impl(const Tensor& out, const Tensor& input, IntArrayRef normalized_shape,
                   const std::optional<Tensor>& weight, std::optional<double> eps) {
  const meta::NormRows r =
      meta::check_norm_shapes("rms_norm", input, normalized_shape, weight, std::nullopt);
  // PyTorch's default: the machine epsilon of the computation type.
  const double e = eps ? *eps
                       : input.dtype() == ScalarType::Double
                             ? std::numeric_limits<double>::epsilon()
                             : static_cast<double>(std::numeric_limits<float>::epsilon());
  norm_kernel<false>(out, input, r.rows, r.row_size, weight, std::nullopt, e);
}

}  // namespace lz::cpu
