// The hand-written reference loops (bench/hand_written.h): the parallel
// split around the AVX-512 loops of bench/hand_written_avx512.cpp.
#include "bench/hand_written.h"

#include <algorithm>
#include <vector>

#include <lazuli/lazuli.h>

#include "bench/hand_written_avx512.h"

namespace lz::bench {
namespace {

// Rows per parallel chunk: enough to amortise the pool's hand-off.
constexpr int64_t kRowGrain = 16;

}  // namespace

bool hand_written_uses_avx512() {
  static const bool avx512 = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq");
  return avx512;
}

float hand_written_sum_of_squares(const float* x, int64_t n) {
  // One partial per thread, combined in order: deterministic.
  const int64_t threads = get_num_threads();
  const int64_t per_thread = (n + threads - 1) / threads;
  std::vector<float> partial(static_cast<size_t>(threads), 0.0f);
  parallel_for(0, threads, 1, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t lo = std::min(n, t * per_thread), hi = std::min(n, lo + per_thread);
      partial[static_cast<size_t>(t)] = avx512::sum_of_squares(x + lo, hi - lo);
    }
  });
  float total = 0;
  for (float p : partial) total += p;
  return total;
}

void hand_written_softmax_rows(const float* x, float* out, int64_t rows, int64_t cols) {
  parallel_for(0, rows, kRowGrain, [&](int64_t b, int64_t e) { avx512::softmax_rows(x, out, b, e, cols); });
}

void hand_written_layer_norm_rows(const float* x, const float* weight, const float* bias, float eps, float* out,
                                  int64_t rows, int64_t cols) {
  parallel_for(0, rows, kRowGrain,
               [&](int64_t b, int64_t e) { avx512::layer_norm_rows(x, weight, bias, eps, out, b, e, cols); });
}

}  // namespace lz::bench
