// The AVX-512 loops behind bench/hand_written.h, one range of rows (or
// elements) each; only for CPUs with AVX-512 F and DQ.
#pragma once

#include <cstdint>

namespace lz::bench::avx512 {

float sum_of_squares(const float* x, int64_t n);
void softmax_rows(const float* x, float* out, int64_t row_begin, int64_t row_end, int64_t cols);
void layer_norm_rows(const float* x, const float* weight, const float* bias, float eps, float* out,
                     int64_t row_begin, int64_t row_end, int64_t cols);

}  // namespace lz::bench::avx512
