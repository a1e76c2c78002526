// Hand-written CPU loops for the workloads issue 32 measures Lazuli's
// kernels against: what a programmer writes with AVX-512 intrinsics and the
// thread pool when one kernel matters (W9's sum of squares, W4's softmax
// rows, W5's layer_norm rows). Each splits its work over lz::parallel_for,
// keeps a row in L1 between its passes, and writes its output once with
// non-temporal stores, so it moves each byte of DRAM once. AVX-512 (F and
// DQ) only: call them where hand_written_uses_avx512().
#pragma once

#include <cstdint>

namespace lz::bench {

// Whether this CPU can run the loops below.
bool hand_written_uses_avx512();

// sum(x[i] * x[i]) over n floats: 8 independent accumulator chains per
// thread, one combine at the end.
float hand_written_sum_of_squares(const float* x, int64_t n);

// softmax over each row of a [rows, cols] row-major matrix into out.
void hand_written_softmax_rows(const float* x, float* out, int64_t rows, int64_t cols);

// layer_norm over each row with per-column weight and bias.
void hand_written_layer_norm_rows(const float* x, const float* weight, const float* bias, float eps, float* out,
                                  int64_t rows, int64_t cols);

}  // namespace lz::bench
