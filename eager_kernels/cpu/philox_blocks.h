// Philox blocks in bulk for the random kernels (rand, randn, dropout):
// computed 8 at a time across vector lanes and in parallel over the thread
// pool. Block b is still philox4x32_10(range.key, range.first_block + b), so
// the numbers depend on the seed and the call order only, never on the
// thread count or the batching. (One block at a time, dropout of 16M floats
// measured 9% of the bandwidth of an adjacent copy.)
#pragma once


#include <algorithm>
#include <cstdint>

#include "core/generator.h"
#include "core/parallel.h"
#include "core/philox.h"

namespace lz::cpu {

inline constexpr int64_t kPhiloxBatch = 64;

// words[4 j + w] = word w of philox4x32_10(key, first + j), for
// j < count <= kPhiloxBatch.
void philox_batch(uint64_t key, uint64_t first, int64_t count, uint32_t* words);

// f(b, count, words) over [0, blocks) of `range` in parallel: words[k] is
// word k % 4 of block b + k / 4, for count <= kPhiloxBatch blocks. f must
// only write what its blocks own.
template <class F>
void for_each_philox_batch(const GeneratorImpl::Range& range, int64_t blocks, const F& f) {
  parallel_for(0, blocks, 4096, [&](int64_t b0, int64_t b1) {
    uint32_t words[4 * kPhiloxBatch];
    for (int64_t b = b0; b < b1; b += kPhiloxBatch) {
      const int64_t count = std::min(kPhiloxBatch, b1 - b);
      philox_batch(range.key, range.first_block + static_cast<uint64_t>(b), count, words);
      f(b, count, static_cast<const uint32_t*>(words));
    }
  });
}

}  // namespace lz::cpu
