#include "eager_kernels/cpu/float16_blocks.h"

#include "core/error.h"
#include "core/half.h"
#include "eager_kernels/cpu/loops.h"

namespace lz::cpu {

namespace {

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
  if (stride == static_cast<int64_t>(sizeof(R))) return widen_contiguous(reinterpret_cast<const R*>(src), dst, n);
  for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<float>(*reinterpret_cast<const R*>(src + i * stride));
}

template <class R>
void narrow(const float* src, char* dst, int64_t stride, int64_t n) {
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
