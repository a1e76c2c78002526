// How a BLAS reads matrices in place: a 2-D matrix or a 3-D batch seen
// through element strides, and the transpose flag and leading dimension
// that read one operand row-major (shared by OpenBLAS on the CPU and cuBLAS).
#pragma once

#include <algorithm>
#include <climits>
#include <cstdint>
#include <optional>

#include "core/tensor.h"

namespace lz::blas {

// A 2-D matrix or a 3-D batch of matrices seen through raw element strides.
struct Mats {
  char* data;
  int64_t batch, rows, cols;
  int64_t sb, sr, sc;  // strides in elements
};

inline Mats mats_of(const Tensor& t) {
  char* p = static_cast<char*>(t.data_ptr());
  if (t.dim() == 2) return Mats{p, 1, t.size(0), t.size(1), 0, t.stride(0), t.stride(1)};
  return Mats{p, t.size(0), t.size(1), t.size(2), t.stride(0), t.stride(1), t.stride(2)};
}

// The leading dimension with which BLAS reads an r x c matrix of strides
// (sr, sc) as row-major, or -1 when it cannot. Size-1 dims may have any stride.
inline int64_t row_major_ld(int64_t r, int64_t c, int64_t sr, int64_t sc) {
  if (c != 1 && sc != 1) return -1;
  const int64_t min_ld = std::max<int64_t>(1, c);
  const int64_t ld = r == 1 ? min_ld : sr;
  if (ld < min_ld || ld > INT_MAX) return -1;
  return ld;
}

// How BLAS reads one operand: row-major (NoTrans) or column-major (Trans).
struct BlasLayout {
  bool trans;
  int64_t ld;
};

inline std::optional<BlasLayout> blas_layout(int64_t r, int64_t c, int64_t sr, int64_t sc) {
  if (const int64_t ld = row_major_ld(r, c, sr, sc); ld > 0) return BlasLayout{false, ld};
  if (const int64_t ld = row_major_ld(c, r, sc, sr); ld > 0) return BlasLayout{true, ld};
  return std::nullopt;
}

inline std::optional<BlasLayout> blas_layout(const Mats& m) { return blas_layout(m.rows, m.cols, m.sr, m.sc); }

}  // namespace lz::blas
