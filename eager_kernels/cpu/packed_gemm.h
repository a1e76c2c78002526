// Lazuli's own float32 matrix product for AVX-512 CPUs (Goto's scheme:
// operand blocks packed into cache-sized panels, an 8 x 48 register-blocked
// micro-kernel). Its operands are read through their strides and converted
// to float32 while they are packed, so bfloat16 and float16 products need
// no float32 copies of their operands (OpenBLAS reads float32 only).
// float32 and float64 products stay with OpenBLAS, 0-14% faster here
// (docs/matrix-products.md).
#pragma once

#include <cstdint>
#include <functional>

#include "core/scalar_type.h"

namespace lz::cpu {

// One matrix operand: element (i, j) at data + (i * sr + j * sc) elements
// of `dtype` (Float, Half or BFloat16); any strides.
struct GemmOperand {
  const void* data = nullptr;
  ScalarType dtype = ScalarType::Float;
  int64_t rows = 0, cols = 0;
  int64_t sr = 0, sc = 0;
};

// Whether this CPU runs packed_gemm (AVX-512F).
bool packed_gemm_supported();

// Called for each block of c once it holds its final values, on the thread
// that computed it, while the block is still in cache: rows [r0, r1),
// columns [c0, c1); with the caller's subnormal mode (the product itself
// flushes them, flush_denormals.h). A product's epilogue runs there (today: rounding a
// 16-bit product's result) instead of in a second pass over c.
using GemmBlockDone = std::function<void(int64_t r0, int64_t r1, int64_t c0, int64_t c1)>;

// c = alpha * (a @ b) + beta * c for a (M x K) and b (K x N), K >= 1, with
// c float32 row-major of row stride ldc; beta == 0 never reads c. Split
// over up to get_num_threads() threads, each with at least 2^21
// multiply-adds, unless called inside a parallel region.
// Requires packed_gemm_supported().
void packed_gemm(const GemmOperand& a, const GemmOperand& b, float* c, int64_t ldc, float alpha, float beta,
                 const GemmBlockDone& done = {});

}  // namespace lz::cpu
