// softmax and log_softmax. The input is seen as [outer, n, inner] around the
// softmax dim. inner == 1 (the last dim, the common case): rows run in
// parallel, each in three vectorised passes over the cache-resident row
// (max; exp into a buffer and its sum; the scaled result), so the input is
// read from memory once and the output, when large, is written with
// streaming stores. inner > 1: blocks of one vector of columns are
// processed together (max, sum of exp, result). Rows and columns go through
// the vector code of nn_kernels_math.h whole, so results do not depend on
// the thread count or on where a row lies in memory.
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

namespace lz::cpu {

namespace {

// The computation type, float for the 16-bit floats.
template <class T>
using C = opmath_t<T>;

// One row of n >= 1 values. `xbuf` (16-bit T only) and `ebuf` hold n
// elements of C. With `streaming`, the result is built in ebuf and written
// with non-temporal stores (T == C only).
template <bool kLog, class T>
LZ_CPU_CLONES void softmax_row(const T* in, T* out, int64_t n, C<T>* xbuf, C<T>* ebuf,
                               bool streaming, const T* next) {
  using CT = C<T>;
  using V = nn::Vec<CT>;
  const CT* x = nn::compute_row(in, n, xbuf);
  const CT m = nn::row_max(x, n);
  const CT sum = static_cast<CT>(nn::row_map_sum(ebuf, x, n, [m, next](V v, int64_t i) LZ_NN_LAMBDA {
    nn::prefetch_next_row(next, i);
    return nn::exp(v - m);
  }));
  // The result goes to ebuf (streamed out afterwards) or straight to out.
  T* dst = streaming ? reinterpret_cast<T*>(ebuf) : out;
  if constexpr (!kLog) {
    const CT inv = CT(1) / sum;
    nn::row_map(dst, ebuf, n, [inv](V e, int64_t) LZ_NN_LAMBDA { return e * inv; });
  } else {
    const CT lse = std::log(sum);
    nn::row_map(dst, x, n, [m, lse](V v, int64_t) LZ_NN_LAMBDA { return (v - m) - lse; });
  }
  if constexpr (std::is_same_v<T, CT>) {
    if (streaming) streaming_copy(out, ebuf, static_cast<size_t>(n) * sizeof(T));
  }
}

template <bool kLog, class T>
void softmax_rows(const T* in, T* out, int64_t rows, int64_t n) {
  using CT = C<T>;
  const bool streaming = std::is_same_v<T, CT> &&
                         rows * n * static_cast<int64_t>(sizeof(T)) >= kStreamingStoreBytes;
  const int64_t grain = std::max<int64_t>(1, 16384 / n);
  parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
    nn::RowBuffer<CT> xbuf(std::is_same_v<T, CT> ? 0 : n), ebuf(n);
    for (int64_t r = begin; r < end; ++r) {
      const T* next = r + 1 < end ? in + (r + 1) * n : nullptr;
      softmax_row<kLog, T>(in + r * n, out + r * n, n, xbuf.data(), ebuf.data(), streaming, next);
    }
    if (streaming) streaming_store_fence();
  });
}

// [outer, n, inner] with inner > 1: per (outer, block of one vector of
// columns), three passes down the n rows (max, sum of exp, result).
template <bool kLog, class T>
LZ_CPU_CLONES void softmax_columns_block(const T* in, T* out, int64_t n, int64_t inner, int64_t w) {
  using CT = C<T>;
  using V = nn::Vec<CT>;
  V mx = nn::splat(-std::numeric_limits<CT>::infinity()), acc = nn::splat(CT(0));
  for (int64_t l = 0; l < n; ++l) mx = nn::vmax<CT>(nn::load_n<CT>(in + l * inner, w, CT(0)), mx);
  for (int64_t l = 0; l < n; ++l) acc += nn::exp(nn::load_n<CT>(in + l * inner, w, CT(0)) - mx);
  V k;
  if constexpr (kLog) {
    for (int64_t j = 0; j < nn::kWidth<CT>; ++j) k[j] = std::log(acc[j]);
  } else {
    k = CT(1) / acc;
  }
  for (int64_t l = 0; l < n; ++l) {
    const V d = nn::load_n<CT>(in + l * inner, w, CT(0)) - mx;
    if constexpr (kLog) {
      nn::store_n<T, CT>(out + l * inner, d - k, w);
    } else {
      nn::store_n<T, CT>(out + l * inner, nn::exp(d) * k, w);
    }
  }
}

template <bool kLog, class T>
void softmax_columns(const T* in, T* out, int64_t outer, int64_t n, int64_t inner) {
  constexpr int64_t W = nn::kWidth<C<T>>;
  const int64_t blocks = (inner + W - 1) / W;
  const int64_t tasks = outer * blocks;
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, n * W));
  parallel_for(0, tasks, grain, [&](int64_t begin, int64_t end) {
    for (int64_t t = begin; t < end; ++t) {
      const int64_t o = t / blocks, j0 = (t % blocks) * W;
      const int64_t w = std::min(W, inner - j0);
      const int64_t offset = o * n * inner + j0;
      softmax_columns_block<kLog, T>(in + offset, out + offset, n, inner, w);
    }
  });
}

// A contiguous tensor with t's values in `dtype` (t itself when it already is one).
Tensor contiguous_as(const Tensor& t, ScalarType dtype) {
  if (t.dtype() == dtype && t.is_contiguous()) return t;
  Tensor c = empty_tensor(t.sizes(), dtype, t.device());
  return copy_(c, t, /*non_blocking=*/false);
}

template <bool kLog>
void softmax_kernel(const Tensor& out, const Tensor& self, int64_t dim) {
  if (out.numel() == 0) return;
  const ScalarType dtype = out.dtype();
  const Tensor x = contiguous_as(self, dtype);
  const Tensor target = out.is_contiguous() ? out : empty_tensor(out.sizes(), dtype, out.device());
  int64_t outer = 1, n = 1, inner = 1;
  if (x.dim() > 0) {
    const int64_t d = wrap_dim(dim, x.dim(), kLog ? "log_softmax" : "softmax");
    for (int64_t i = 0; i < d; ++i) outer *= x.size(i);
    n = x.size(d);
    for (int64_t i = d + 1; i < x.dim(); ++i) inner *= x.size(i);
  }
  visit_dtype(dtype, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      const T* in = x.data_ptr<T>();
      T* o = target.data_ptr<T>();
      if (inner == 1) {
        softmax_rows<kLog, T>(in, o, outer, n);
      } else {
        softmax_columns<kLog, T>(in, o, outer, n, inner);
      }
    } else {
      LZ_INTERNAL_ASSERT(false, "softmax: unsupported dtype ", dtype);
    }
  });
  if (!target.is_same(out)) copy_(out, target, false);
}

}  // namespace

void softmax_impl(const Tensor& out, const Tensor& self, int64_t dim, std::optional<ScalarType>) {
  softmax_kernel<false>(out, self, dim);
}

void log_softmax_impl(const Tensor& out, const Tensor& self, int64_t dim,
                      std::optional<ScalarType>) {
  softmax_kernel<true>(out, self, dim);
}

}  // namespace lz::cpu
