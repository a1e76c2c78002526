// The hand-written reference loops (bench/hand_written.h): the parallel
// split, the choice between the AVX-512 loops (bench/hand_written_avx512.cpp)
// and plain scalar ones.
#include "bench/hand_written.h"

#include "bench/hand_written_avx512.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <lazuli/lazuli.h>

namespace lz::bench {
namespace {

// Rows per parallel chunk: enough to amortise the pool's hand-off.
constexpr int64_t kRowGrain = 16;

float sum_of_squares_scalar(const float* x, int64_t n) {
  float total = 0;
  for (int64_t i = 0; i < n; ++i) total += x[i] * x[i];
  return total;
}

void softmax_rows_scalar(const float* x, float* out, int64_t row_begin, int64_t row_end, int64_t cols) {
  for (int64_t r = row_begin; r < row_end; ++r) {
    const float* in = x + r * cols;
    float* o = out + r * cols;
    const float row_max = *std::max_element(in, in + cols);
    float total = 0;
    for (int64_t j = 0; j < cols; ++j) total += (o[j] = std::exp(in[j] - row_max));
    for (int64_t j = 0; j < cols; ++j) o[j] /= total;
  }
}

void layer_norm_rows_scalar(const float* x, const float* weight, const float* bias, float eps, float* out,
                            int64_t row_begin, int64_t row_end, int64_t cols) {
  for (int64_t r = row_begin; r < row_end; ++r) {
    const float* in = x + r * cols;
    float mean = 0, var = 0;
    for (int64_t j = 0; j < cols; ++j) mean += in[j];
    mean /= static_cast<float>(cols);
    for (int64_t j = 0; j < cols; ++j) var += (in[j] - mean) * (in[j] - mean);
    const float rstd = 1.0f / std::sqrt(var / static_cast<float>(cols) + eps);
    for (int64_t j = 0; j < cols; ++j) out[r * cols + j] = (in[j] - mean) * rstd * weight[j] + bias[j];
  }
}

}  // namespace

bool hand_written_uses_avx512() {
  static const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  return avx512;
}

float hand_written_sum_of_squares(const float* x, int64_t n) {
  // One partial per pool chunk, combined in chunk order: deterministic.
  const int64_t threads = get_num_threads();
  const int64_t per_thread = (n + threads - 1) / threads;
  std::vector<float> partial(static_cast<size_t>(threads), 0.0f);
  parallel_for(0, threads, 1, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t lo = std::min(n, t * per_thread), hi = std::min(n, lo + per_thread);
      partial[static_cast<size_t>(t)] = hand_written_uses_avx512() ? avx512::sum_of_squares(x + lo, hi - lo)
                                                                   : sum_of_squares_scalar(x + lo, hi - lo);
    }
  });
  float total = 0;
  for (float p : partial) total += p;
  return total;
}

void hand_written_softmax_rows(const float* x, float* out, int64_t rows, int64_t cols) {
  parallel_for(0, rows, kRowGrain, [&](int64_t b, int64_t e) {
    if (hand_written_uses_avx512()) {
      avx512::softmax_rows(x, out, b, e, cols);
    } else {
      softmax_rows_scalar(x, out, b, e, cols);
    }
  });
}

void hand_written_layer_norm_rows(const float* x, const float* weight, const float* bias, float eps, float* out,
                                  int64_t rows, int64_t cols) {
  parallel_for(0, rows, kRowGrain, [&](int64_t b, int64_t e) {
    if (hand_written_uses_avx512()) {
      avx512::layer_norm_rows(x, weight, bias, eps, out, b, e, cols);
    } else {
      layer_norm_rows_scalar(x, weight, bias, eps, out, b, e, cols);
    }
  });
}

}  // namespace lz::bench
