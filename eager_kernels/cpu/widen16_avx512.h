// 16 consecutive float, float16 or bfloat16 values as one float32 AVX-512
// vector: the widening shared by the row conversions (float16_blocks.cpp)
// and the packed GEMM's packing (packed_gemm.cpp). x86-64 (GCC, Clang)
// only; callers use it inside their own avx512f target functions.
#pragma once

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#include <type_traits>

#include "core/half.h"

namespace lz::cpu {

// GCC 12's AVX-512 conversion intrinsics start from an "undefined" register
// it then reports as maybe uninitialised.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

template <class T>
__attribute__((target("avx512f"), always_inline)) inline __m512 widen16(const T* p) {
  if constexpr (std::is_same_v<T, float>) {
    return _mm512_loadu_ps(p);
  } else if constexpr (std::is_same_v<T, Half>) {
    return _mm512_cvtph_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
  } else {
    static_assert(std::is_same_v<T, BFloat16>);
    // bfloat16 is the upper half of a float32.
    const __m512i wide = _mm512_cvtepu16_epi32(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(p)));
    return _mm512_castsi512_ps(_mm512_slli_epi32(wide, 16));
  }
}

#pragma GCC diagnostic pop

}  // namespace lz::cpu

#endif
