// softmax and log_softmax. The input is seen as [outer, n, inner] around the
// softmax dim. inner == 1 (the last dim, the common case): rows run in
// parallel, each in three vectorised passes over the cache-resident row
// (max; exp into a buffer and its sum; the scaled result), so the input is
// read from memory once and the output, when large, is written with
// streaming stores. inner > 1: chunks of adjacent columns are processed
// together, row piece by row piece (max, sum of exp, result). Rows and columns go through
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

// [outer, n, inner] with inner > 1: a chunk of up to kColumnChunk adjacent
// columns goes down the n rows three times (max, sum of exp, result), each
// pass reading contiguous pieces of the rows while the chunk's column
// maxima, sums and factors stay in cache. (One vector of columns at a time
// read a cache line per row at a stride of a whole row and measured 8% of
// the adjacent copy for softmax(x, 0) of a [4096, 4096] matrix.) Every
// column goes through the same vector code in row order, so results do not
// depend on the chunking or the thread count.
inline constexpr int64_t kColumnChunk = 1024;

template <bool kLog, class T>
LZ_CPU_CLONES void softmax_columns_chunk(const T* in, T* out, int64_t n, int64_t inner, int64_t w,
                                         C<T>* mx, C<T>* k) {
  using CT = C<T>;
  using V = nn::Vec<CT>;
  constexpr int64_t W = nn::kWidth<CT>;
  for (int64_t j = 0; j < w; j += W) {
    nn::store(mx + j, nn::splat(-std::numeric_limits<CT>::infinity()));
    nn::store(k + j, nn::splat(CT(0)));
  }
  auto load = [&](int64_t l, int64_t j) LZ_NN_LAMBDA {
    return nn::load_n<CT>(in + l * inner + j, std::min(W, w - j), CT(0));
  };
  for (int64_t l = 0; l < n; ++l) {
    for (int64_t j = 0; j < w; j += W) nn::store(mx + j, nn::vmax<CT>(load(l, j), nn::load(mx + j)));
  }
  // k accumulates the sums of exp, then becomes log(sum) or 1 / sum.
  for (int64_t l = 0; l < n; ++l) {
    for (int64_t j = 0; j < w; j += W) {
      nn::store(k + j, nn::load(k + j) + nn::exp(load(l, j) - nn::load(mx + j)));
    }
  }
  for (int64_t j = 0; j < w; ++j) k[j] = kLog ? std::log(k[j]) : CT(1) / k[j];
  for (int64_t l = 0; l < n; ++l) {
    for (int64_t j = 0; j < w; j += W) {
      const V d = load(l, j) - nn::load(mx + j);
      V r;
      if constexpr (kLog) {
        r = d - nn::load(k + j);
      } else {
        r = nn::exp(d) * nn::load(k + j);
      }
      nn::store_n<T, CT>(out + l * inner + j, r, std::min(W, w - j));
    }
  }
}

template <bool kLog, class T>
void softmax_columns(const T* in, T* out, int64_t outer, int64_t n, int64_t inner) {
  constexpr int64_t W = nn::kWidth<C<T>>;
  auto round_up = [](int64_t x) { return (x + W - 1) / W * W; };
  // Chunks of whole vectors; smaller ones when there would be fewer tasks
  // than two per thread.
  int64_t chunk = std::min(round_up(inner), kColumnChunk);
  const int64_t threads = get_num_threads();
  while (chunk > W && outer * ((inner + chunk - 1) / chunk) < 2 * threads) chunk = round_up(chunk / 2);
  const int64_t chunks = (inner + chunk - 1) / chunk;
  const int64_t grain = std::max<int64_t>(1, 16384 / std::max<int64_t>(1, n * chunk));
  parallel_for(0, outer * chunks, grain, [&](int64_t begin, int64_t end) {
    nn::RowBuffer<C<T>> mx(chunk), k(chunk);
    for (int64_t t = begin; t < end; ++t) {
      const int64_t o = t / chunks, j0 = (t % chunks) * chunk;
      const int64_t offset = o * n * inner + j0;
      softmax_columns_chunk<kLog, T>(in + offset, out + offset, n, inner,
                                     std::min(chunk, inner - j0), mx.data(), k.data());
    }
  });
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
