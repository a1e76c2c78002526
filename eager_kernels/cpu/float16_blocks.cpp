#include "eager_kernels/cpu/float16_blocks.h"

#include "core/error.h"
#include "core/half.h"
#include "eager_kernels/cpu/loops.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(LZ_NO_CPU_CLONES)
#include <immintrin.h>

#include "eager_kernels/cpu/widen16_avx512.h"
#define LZ_AVX512_ROWS 1
#endif

namespace lz::cpu {

namespace {

#if defined(LZ_AVX512_ROWS)
// Contiguous rows through AVX-512: float16 with the CPU's conversion
// instructions (vcvtph2ps/vcvtps2ph, round to nearest even), bfloat16 with
// BFloat16's own bit arithmetic 16 lanes wide; the portable conversions do
// not vectorise. float16 NaNs keep their payload here, where Half's
// conversion makes them the canonical quiet NaN.
const bool kHasAvx512 = __builtin_cpu_supports("avx512f");

// GCC 12's AVX-512 conversion intrinsics start from an "undefined" register
// it then reports as maybe uninitialised.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

template <class T>
__attribute__((target("avx512f"))) void widen_avx512(const T* src, float* dst, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) _mm512_storeu_ps(dst + i, widen16(src + i));
  for (; i < n; ++i) dst[i] = static_cast<float>(src[i]);
}

__attribute__((target("avx512f"))) void narrow_avx512(const float* src, Half* dst, int64_t n) {
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i),
                        _mm512_cvtps_ph(_mm512_loadu_ps(src + i), _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC));
  }
  for (; i < n; ++i) dst[i] = Half(src[i]);
}

// BFloat16's rounding (to nearest even; a NaN stays a quiet NaN), 16 lanes at a time.
__attribute__((target("avx512f"))) void narrow_avx512(const float* src, BFloat16* dst, int64_t n) {
  const __m512i abs_mask = _mm512_set1_epi32(0x7fffffff), inf = _mm512_set1_epi32(0x7f800000);
  const __m512i half_ulp = _mm512_set1_epi32(0x7fff), one = _mm512_set1_epi32(1), quiet = _mm512_set1_epi32(0x40);
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    const __m512i u = _mm512_castps_si512(_mm512_loadu_ps(src + i));
    const __mmask16 nan = _mm512_cmpgt_epu32_mask(_mm512_and_si512(u, abs_mask), inf);
    const __m512i odd = _mm512_and_si512(_mm512_srli_epi32(u, 16), one);
    const __m512i rounded = _mm512_srli_epi32(_mm512_add_epi32(u, _mm512_add_epi32(half_ulp, odd)), 16);
    const __m512i quiet_nan = _mm512_or_si512(_mm512_srli_epi32(u, 16), quiet);
    const __m512i result = _mm512_mask_mov_epi32(rounded, nan, quiet_nan);
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst + i), _mm512_cvtepi32_epi16(result));
  }
  for (; i < n; ++i) dst[i] = BFloat16(src[i]);
}
#pragma GCC diagnostic pop
#endif

template <class R>
LZ_CPU_CLONES void widen_contiguous(const R* src, float* dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(src[i]);
}

template <class R>
LZ_CPU_CLONES void narrow_contiguous(const float* src, R* dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = R(src[i]);
}

template <class R>
void widen(const char* src, int64_t stride, float* dst, int64_t n) {
#if defined(LZ_AVX512_ROWS)
  if (kHasAvx512 && stride == static_cast<int64_t>(sizeof(R))) {
    return widen_avx512(reinterpret_cast<const R*>(src), dst, n);
  }
#endif
  if (stride == static_cast<int64_t>(sizeof(R))) return widen_contiguous(reinterpret_cast<const R*>(src), dst, n);
  for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(*reinterpret_cast<const R*>(src + i * stride));
}

template <class R>
void narrow(const float* src, char* dst, int64_t stride, int64_t n) {
#if defined(LZ_AVX512_ROWS)
  if (kHasAvx512 && stride == static_cast<int64_t>(sizeof(R))) {
    return narrow_avx512(src, reinterpret_cast<R*>(dst), n);
  }
#endif
  if (stride == static_cast<int64_t>(sizeof(R))) return narrow_contiguous(src, reinterpret_cast<R*>(dst), n);
  for (int64_t i = 0; i < n; ++i) *reinterpret_cast<R*>(dst + i * stride) = R(src[i]);
}

}  // namespace

void widen_to_float(ScalarType from, const char* src, int64_t stride, float* dst, int64_t n) {
  switch (from) {
    case ScalarType::Half: return widen<Half>(src, stride, dst, n);
    case ScalarType::BFloat16: return widen<BFloat16>(src, stride, dst, n);
    default: break;
  }
  LZ_INTERNAL_ASSERT(false, "widen_to_float: ", from, " is not a 16-bit float dtype");
}

void narrow_from_float(ScalarType to, const float* src, char* dst, int64_t stride, int64_t n) {
  switch (to) {
    case ScalarType::Half: return narrow<Half>(src, dst, stride, n);
    case ScalarType::BFloat16: return narrow<BFloat16>(src, dst, stride, n);
    default: break;
  }
  LZ_INTERNAL_ASSERT(false, "narrow_from_float: ", to, " is not a 16-bit float dtype");
}

}  // namespace lz::cpu
