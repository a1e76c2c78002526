#include "eager_kernels/cpu/streaming_store.h"

#include <immintrin.h>

#include <algorithm>
#include <cstring>

namespace lz::cpu {

namespace {

using CopyFn = void (*)(char*, const char*, size_t);

template <size_t kAlign>
size_t head_bytes(const char* dst, size_t bytes) {
  const size_t misalign = reinterpret_cast<uintptr_t>(dst) & (kAlign - 1);
  return misalign == 0 ? 0 : std::min(bytes, kAlign - misalign);
}

__attribute__((target("avx512f"))) void copy_avx512(char* dst, const char* src, size_t bytes) {
  const size_t head = head_bytes<64>(dst, bytes);
  std::memcpy(dst, src, head);
  size_t i = head;
  for (; i + 64 <= bytes; i += 64) {
    _mm512_stream_si512(reinterpret_cast<__m512i*>(dst + i),
                        _mm512_loadu_si512(reinterpret_cast<const void*>(src + i)));
  }
  std::memcpy(dst + i, src + i, bytes - i);
}

__attribute__((target("avx2"))) void copy_avx2(char* dst, const char* src, size_t bytes) {
  const size_t head = head_bytes<32>(dst, bytes);
  std::memcpy(dst, src, head);
  size_t i = head;
  for (; i + 32 <= bytes; i += 32) {
    _mm256_stream_si256(reinterpret_cast<__m256i*>(dst + i),
                        _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src + i)));
  }
  std::memcpy(dst + i, src + i, bytes - i);
}

void copy_sse2(char* dst, const char* src, size_t bytes) {
  const size_t head = head_bytes<16>(dst, bytes);
  std::memcpy(dst, src, head);
  size_t i = head;
  for (; i + 16 <= bytes; i += 16) {
    _mm_stream_si128(reinterpret_cast<__m128i*>(dst + i),
                     _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i)));
  }
  std::memcpy(dst + i, src + i, bytes - i);
}

CopyFn pick_copy() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return &copy_avx512;
  if (__builtin_cpu_supports("avx2")) return &copy_avx2;
  return &copy_sse2;
}

}  // namespace

void streaming_copy(void* dst, const void* src, size_t bytes) {
  static const CopyFn copy = pick_copy();
  copy(static_cast<char*>(dst), static_cast<const char*>(src), bytes);
}

void streaming_store_fence() { _mm_sfence(); }

}  // namespace lz::cpu
