#include "eager_kernels/cpu/flush_denormals.h"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define LZ_HAS_MXCSR 1
#endif

namespace lz::cpu {
namespace {

bool keep_denormals() {
  static const bool keep = [] {
    const char* v = std::getenv("LZ_KEEP_DENORMALS");
    return v != nullptr && std::strcmp(v, "1") == 0;
  }();
  return keep;
}

#ifdef LZ_HAS_MXCSR
constexpr uint32_t kFlushToZero = 0x8000;     // results below the normal range become 0
constexpr uint32_t kDenormalsAreZero = 0x40;  // subnormal operands read as 0
#endif

}  // namespace

FlushDenormals::FlushDenormals() {
#ifdef LZ_HAS_MXCSR
  if (keep_denormals()) return;
  saved_ = _mm_getcsr();
  _mm_setcsr(saved_ | kFlushToZero | kDenormalsAreZero);
  active_ = true;
#endif
}

FlushDenormals::~FlushDenormals() {
#ifdef LZ_HAS_MXCSR
  if (active_) _mm_setcsr(saved_);
#endif
}

DenormalsAsBefore::DenormalsAsBefore(const FlushDenormals& scope) {
#ifdef LZ_HAS_MXCSR
  if (!scope.active_) return;
  flushing_ = _mm_getcsr();
  _mm_setcsr(scope.saved_);
  active_ = true;
#endif
}

DenormalsAsBefore::~DenormalsAsBefore() {
#ifdef LZ_HAS_MXCSR
  if (active_) _mm_setcsr(flushing_);
#endif
}

}  // namespace lz::cpu
