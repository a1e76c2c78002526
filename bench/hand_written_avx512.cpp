// The AVX-512 versions of the hand-written loops (bench/hand_written.h),
// each over one range of a parallel split. This file alone is compiled for
// AVX-512 (bench/CMakeLists.txt); call it only where
// hand_written_uses_avx512().
#include "bench/hand_written_avx512.h"

#include <immintrin.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <type_traits>

namespace lz::bench::avx512 {
namespace {

// Software prefetch distances (the hardware prefetcher alone leaves one
// stream per core short of the bandwidth on these VMs): streaming loops
// request the line this many bytes ahead; row loops request the row this
// many bytes ahead during one pass over the current row (measured here,
// alternating: softmax's exp pass, 1.09-1.22 ms against 1.18-1.25 in its
// store pass; layer_norm's store pass, 0.93-0.97 against 0.95-1.00 in its
// variance pass).
constexpr int64_t kAheadBytes = 2048;
constexpr int64_t kRowAheadBytes = 8192;

// Requests the 64-byte line at p (a prefetch never faults).
inline void prefetch(const float* p) { _mm_prefetch(reinterpret_cast<const char*>(p), _MM_HINT_T0); }

// Rows ahead that are kRowAheadBytes ahead, at least one.
int64_t rows_ahead(int64_t cols) { return std::max<int64_t>(1, (kRowAheadBytes + 4 * cols - 1) / (4 * cols)); }

__mmask16 tail_mask(int64_t remaining) {
  return remaining >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << remaining) - 1);
}

// e^x for x <= 0 (softmax's shifted inputs) to ~2 ulp: 2^n * p(r) with
// n = round(x log2 e) (by adding 1.5 * 2^23, which rounds to an integer),
// r = x - n ln 2 (ln 2 in two parts), p a degree-6 Taylor polynomial
// (|r| <= ln2/2: its error is below 2e-7), 2^n applied by vscalefps.
__m512 exp_nonpositive(__m512 x) {
  x = _mm512_max_ps(x, _mm512_set1_ps(-87.0f));
  const __m512 shifter = _mm512_set1_ps(12582912.0f);
  const __m512 n = _mm512_sub_ps(_mm512_fmadd_ps(x, _mm512_set1_ps(1.44269504f), shifter), shifter);
  __m512 r = _mm512_fnmadd_ps(n, _mm512_set1_ps(0.693359375f), x);
  r = _mm512_fnmadd_ps(n, _mm512_set1_ps(-2.12194440e-4f), r);
  __m512 p = _mm512_set1_ps(1.0f / 720);
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 120));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 24));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f / 6));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(0.5f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  p = _mm512_fmadd_ps(p, r, _mm512_set1_ps(1.0f));
  return _mm512_scalef_ps(p, n);
}

// Writes v to out[j..] once, bypassing the caches where the row allows it.
void store_out(float* out, __m512 v, __mmask16 m, bool streaming) {
  if (streaming && m == __mmask16(0xFFFF)) {
    _mm512_stream_ps(out, v);
  } else {
    _mm512_mask_storeu_ps(out, m, v);
  }
}

// Non-temporal stores need 64-byte aligned rows.
bool rows_stream(const float* out, int64_t cols) {
  return reinterpret_cast<uintptr_t>(out) % 64 == 0 && cols % 16 == 0;
}

// Row reductions run kChains independent accumulators (a single chain
// waits on the add's latency for every vector): vector j of a row goes to
// chain j % kChains. for_each_vector unrolls by kChains so that the chains
// stay in registers; the row's last partial vector is masked.
constexpr int kChains = 4;

template <class Step>
inline void for_each_vector(int64_t cols, Step&& step) {
  int64_t j = 0;
  for (; j + 16 * kChains <= cols; j += 16 * kChains) {
    step(j, __mmask16(0xFFFF), std::integral_constant<int, 0>{});
    step(j + 16, __mmask16(0xFFFF), std::integral_constant<int, 1>{});
    step(j + 32, __mmask16(0xFFFF), std::integral_constant<int, 2>{});
    step(j + 48, __mmask16(0xFFFF), std::integral_constant<int, 3>{});
  }
  for (; j < cols; j += 16) step(j, tail_mask(cols - j), std::integral_constant<int, 0>{});
}

float row_max(const float* in, int64_t cols) {
  __m512 acc[kChains];
  for (__m512& a : acc) a = _mm512_set1_ps(-INFINITY);
  for_each_vector(cols, [&](int64_t j, __mmask16 m, auto chain) {
    acc[chain] = _mm512_max_ps(acc[chain], _mm512_mask_loadu_ps(_mm512_set1_ps(-INFINITY), m, in + j));
  });
  return _mm512_reduce_max_ps(_mm512_max_ps(_mm512_max_ps(acc[0], acc[1]), _mm512_max_ps(acc[2], acc[3])));
}

float sum_of(const __m512 (&acc)[kChains]) {
  return _mm512_reduce_add_ps(_mm512_add_ps(_mm512_add_ps(acc[0], acc[1]), _mm512_add_ps(acc[2], acc[3])));
}

}  // namespace

float sum_of_squares(const float* x, int64_t n) {
  __m512 acc[8];
  for (__m512& a : acc) a = _mm512_setzero_ps();
  const int64_t ahead = kAheadBytes / 4;
  int64_t i = 0;
  for (; i + 128 <= n; i += 128) {
    for (int k = 0; k < 8; ++k) {
      prefetch(x + i + 16 * k + ahead);
      const __m512 v = _mm512_loadu_ps(x + i + 16 * k);
      acc[k] = _mm512_fmadd_ps(v, v, acc[k]);
    }
  }
  for (; i < n; i += 16) {
    const __m512 v = _mm512_maskz_loadu_ps(tail_mask(n - i), x + i);
    acc[0] = _mm512_fmadd_ps(v, v, acc[0]);
  }
  for (int k = 1; k < 8; ++k) acc[0] = _mm512_add_ps(acc[0], acc[k]);
  return _mm512_reduce_add_ps(acc[0]);
}

void softmax_rows(const float* x, float* out, int64_t row_begin, int64_t row_end, int64_t cols) {
  const int64_t next_row = rows_ahead(cols) * cols;
  for (int64_t r = row_begin; r < row_end; ++r) {
    const float* in = x + r * cols;
    float* o = out + r * cols;
    const bool streaming = rows_stream(o, cols);
    const __m512 vmax = _mm512_set1_ps(row_max(in, cols));
    __m512 vsum[kChains];
    for (__m512& a : vsum) a = _mm512_setzero_ps();
    for_each_vector(cols, [&](int64_t j, __mmask16 m, auto chain) {
      prefetch(in + j + next_row);
      const __m512 e = exp_nonpositive(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, in + j), vmax));
      vsum[chain] = _mm512_mask_add_ps(vsum[chain], m, vsum[chain], e);
    });
    // exp again rather than a stored copy: cheaper than a second stream through L1.
    const __m512 scale = _mm512_set1_ps(1.0f / sum_of(vsum));
    for (int64_t j = 0; j < cols; j += 16) {
      const __mmask16 m = tail_mask(cols - j);
      const __m512 v = exp_nonpositive(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, in + j), vmax));
      store_out(o + j, _mm512_mul_ps(v, scale), m, streaming);
    }
  }
  _mm_sfence();
}

void layer_norm_rows(const float* x, const float* weight, const float* bias, float eps, float* out,
                     int64_t row_begin, int64_t row_end, int64_t cols) {
  const float inv_cols = 1.0f / static_cast<float>(cols);
  const int64_t next_row = rows_ahead(cols) * cols;
  for (int64_t r = row_begin; r < row_end; ++r) {
    const float* in = x + r * cols;
    float* o = out + r * cols;
    const bool streaming = rows_stream(o, cols);
    __m512 vsum[kChains], vsq[kChains];
    for (int k = 0; k < kChains; ++k) vsum[k] = vsq[k] = _mm512_setzero_ps();
    for_each_vector(cols, [&](int64_t j, __mmask16 m, auto chain) {
      vsum[chain] = _mm512_add_ps(vsum[chain], _mm512_maskz_loadu_ps(m, in + j));
    });
    const float mean = sum_of(vsum) * inv_cols;
    const __m512 vmean = _mm512_set1_ps(mean);
    for_each_vector(cols, [&](int64_t j, __mmask16 m, auto chain) {
      const __m512 d = _mm512_maskz_sub_ps(m, _mm512_maskz_loadu_ps(m, in + j), vmean);
      vsq[chain] = _mm512_fmadd_ps(d, d, vsq[chain]);
    });
    const float rstd = 1.0f / std::sqrt(sum_of(vsq) * inv_cols + eps);
    const __m512 vrstd = _mm512_set1_ps(rstd), vshift = _mm512_set1_ps(-mean * rstd);
    for (int64_t j = 0; j < cols; j += 16) {
      const __mmask16 m = tail_mask(cols - j);
      prefetch(in + j + next_row);
      const __m512 normed = _mm512_fmadd_ps(_mm512_maskz_loadu_ps(m, in + j), vrstd, vshift);
      const __m512 w = _mm512_maskz_loadu_ps(m, weight + j), b = _mm512_maskz_loadu_ps(m, bias + j);
      store_out(o + j, _mm512_fmadd_ps(normed, w, b), m, streaming);
    }
  }
  _mm_sfence();
}

}  // namespace lz::bench::avx512
