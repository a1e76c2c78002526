#include "eager_kernels/cpu/philox_blocks.h"

#include "eager_kernels/cpu/loops.h"

// Vectors are only used inside the ISA clones below (never passed between
// functions), so the ABI note GCC gives for them does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"

namespace lz::cpu {

namespace {

// 8 Philox words, one per 64-bit lane (the high halves stay zero), so that
// the 32 x 32 -> 64-bit products of a round are plain vector multiplies.
typedef uint64_t Words __attribute__((vector_size(64)));
constexpr int64_t kLanes = 8;
static_assert(kPhiloxBatch % kLanes == 0);

}  // namespace

// philox4x32_10's rounds on kInterleave x 8 counters at a time, one vector
// lane each; the independent vectors hide the multiplies' latency. (Written
// with scalar loops, GCC unrolled them without vectorising.) The operands
// of each product are masked to 32 bits so that it is one 32 x 32 -> 64-bit
// multiply (vpmuludq), not a full 64-bit one.
LZ_CPU_CLONES void philox_batch(uint64_t key, uint64_t first, int64_t count, uint32_t* words) {
  constexpr uint64_t kLow = 0xffffffffu;
  constexpr int kInterleave = 4;
  constexpr int64_t kStep = kInterleave * kLanes;
  static_assert(kPhiloxBatch % kStep == 0);
  for (int64_t base = 0; base < count; base += kStep) {
    Words c0[kInterleave], c1[kInterleave], c2[kInterleave], c3[kInterleave];
    for (int v = 0; v < kInterleave; ++v) {
      for (int64_t j = 0; j < kLanes; ++j) {
        const uint64_t counter = first + static_cast<uint64_t>(base + v * kLanes + j);
        c0[v][j] = counter & kLow;
        c1[v][j] = counter >> 32;
      }
      c2[v] = Words{};
      c3[v] = Words{};
    }
    uint32_t k0 = static_cast<uint32_t>(key), k1 = static_cast<uint32_t>(key >> 32);
    for (int round = 0; round < 10; ++round) {
      for (int v = 0; v < kInterleave; ++v) {
        const Words p0 = (c0[v] & kLow) * (Words{} + kPhiloxMul0);
        const Words p1 = (c2[v] & kLow) * (Words{} + kPhiloxMul1);
        c0[v] = (p1 >> 32) ^ c1[v] ^ uint64_t{k0};
        c1[v] = p1 & kLow;
        c2[v] = (p0 >> 32) ^ c3[v] ^ uint64_t{k1};
        c3[v] = p0 & kLow;
      }
      k0 += kPhiloxWeyl0;
      k1 += kPhiloxWeyl1;
    }
    for (int64_t j = 0; j < kStep && base + j < count; ++j) {
      const int v = static_cast<int>(j / kLanes), l = static_cast<int>(j % kLanes);
      uint32_t* w = words + 4 * (base + j);
      w[0] = static_cast<uint32_t>(c0[v][l]);
      w[1] = static_cast<uint32_t>(c1[v][l]);
      w[2] = static_cast<uint32_t>(c2[v][l]);
      w[3] = static_cast<uint32_t>(c3[v][l]);
    }
  }
}

}  // namespace lz::cpu
