// float16 and bfloat16 rows converted to and from float in blocks, for the
// float loops that compute them (loops.h): each element-wise operator then
// compiles one vectorised loop for float, float16 and bfloat16, not three.
#pragma once

#include <cstdint>

#include "core/scalar_type.h"

namespace lz::cpu {

// Whether `t` is one of the 16-bit floats that compute in float.
inline bool is_reduced_float(ScalarType t) { return t == ScalarType::Half || t == ScalarType::BFloat16; }

// dst[i] = float(src[i]) for a float16 or bfloat16 `from`; `stride` in bytes.
void widen_to_float(ScalarType from, const char* src, int64_t stride, float* dst, int64_t n);

// dst[i] = src[i] rounded to the float16 or bfloat16 `to` (to nearest even).
void narrow_from_float(ScalarType to, const float* src, char* dst, int64_t stride, int64_t n);

}  // namespace lz::cpu
