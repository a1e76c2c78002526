// Matrix products run with subnormal floats flushed to zero (the x86 MXCSR's
// FTZ and DAZ bits), as XLA's CPU runtime does: an OpenBLAS kernel that
// meets subnormal operands or results takes a microcode assist on every
// such operation. W10 (an MLP trained with AdamW) drifts into them: its
// gradients' matrix products took 941 ms of a 1000 ms step after 20 steps
// against 126 ms with FTZ/DAZ (lz-bench --reps 9, its profiled step). A
// product's normal results are unchanged; results below FLT_MIN (DBL_MIN)
// become zero. LZ_KEEP_DENORMALS=1 turns the flush off (read once).
//
// OpenBLAS's worker threads take the mode from the thread that creates
// them (the FP state is copied at thread creation), so OpenBLAS is opened
// and resized inside this scope too (openblas.cpp, linalg_kernels.cpp).
#pragma once

#include <cstdint>

namespace lz::cpu {

// Sets FTZ and DAZ on this thread for its lifetime (unless
// LZ_KEEP_DENORMALS=1, or not on x86) and restores the previous mode.
class FlushDenormals {
 public:
  FlushDenormals();
  ~FlushDenormals();
  FlushDenormals(const FlushDenormals&) = delete;
  FlushDenormals& operator=(const FlushDenormals&) = delete;

 private:
  friend class DenormalsAsBefore;
  uint32_t saved_ = 0;
  bool active_ = false;
};

// For its lifetime, the mode a FlushDenormals scope replaced: code a
// product calls that is not part of it (its epilogue kernel) computes as it
// would after the product, subnormal operands and results kept.
class DenormalsAsBefore {
 public:
  explicit DenormalsAsBefore(const FlushDenormals& scope);
  ~DenormalsAsBefore();
  DenormalsAsBefore(const DenormalsAsBefore&) = delete;
  DenormalsAsBefore& operator=(const DenormalsAsBefore&) = delete;

 private:
  uint32_t flushing_ = 0;
  bool active_ = false;
};

}  // namespace lz::cpu
