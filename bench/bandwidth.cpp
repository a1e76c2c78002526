// The read-only reference of bench_eager (the copy is lz-bench's,
// tools/lz_bench/bandwidth.h).
#include "bench/bandwidth.h"

#include <algorithm>
#include <vector>

#include <lazuli/lazuli.h>

namespace lz::bench {
namespace {

// 64 independent lanes: the compiler keeps them in vector registers.
__attribute__((target_clones("avx512f", "avx2", "default"))) float sum_lanes(const float* p,
                                                                            int64_t n) {
  constexpr int kLanes = 64;
  float lanes[kLanes] = {};
  int64_t i = 0;
  for (; i + kLanes <= n; i += kLanes) {
    for (int j = 0; j < kLanes; ++j) lanes[j] += p[i + j];
  }
  float total = 0;
  for (; i < n; ++i) total += p[i];
  for (float lane : lanes) total += lane;
  return total;
}

}  // namespace

float read_only_sum(const Tensor& src) {
  const float* s = src.data_ptr<float>();
  const int64_t threads = get_num_threads();
  std::vector<float> partial(static_cast<size_t>(threads), 0.0f);
  const int64_t per_thread = (kElements + threads - 1) / threads;
  parallel_for(0, threads, 1, [&](int64_t b, int64_t e) {
    for (int64_t t = b; t < e; ++t) {
      const int64_t lo = t * per_thread, hi = std::min(kElements, lo + per_thread);
      partial[static_cast<size_t>(t)] = sum_lanes(s + lo, hi - lo);
    }
  });
  float total = 0;
  for (float p : partial) total += p;
  return total;
}

}  // namespace lz::bench
