#include "eager_kernels/cpu/packed_gemm.h"

#include "core/error.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>

#include <algorithm>
#include <cstddef>
#include <new>

#include "core/half.h"
#include "core/parallel.h"
#include "eager_kernels/cpu/flush_denormals.h"
#include "eager_kernels/cpu/widen16_avx512.h"
#define LZ_PACKED_GEMM 1
#endif

namespace lz::cpu {

#if defined(LZ_PACKED_GEMM)
namespace {

// GCC 12's AVX-512 conversion intrinsics start from an "undefined" register
// it then reports as maybe uninitialised.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

// The micro-kernel's tile: kMr rows x kVecs vectors of 16 columns, 24
// accumulators of the 32 zmm registers (with 3 B vectors and a broadcast).
// Measured on W6's product beside 12x32, 6x64 and 14x32 tiles: the same or
// better (2 threads, 276-284 GFLOP/s against OpenBLAS's 295-297 alternating).
constexpr int kMr = 8;
constexpr int kVecs = 3;
constexpr int kNr = 16 * kVecs;
// Panel sizes: a kKc x kNr panel of B (36 KiB) stays in L1 while the
// micro-kernel walks the kMc x kKc block of A (192 KiB) held in L2; a
// thread packs at most kKc x kNc of B (3 MiB, L3) at a time.
constexpr int64_t kKc = 192;
constexpr int64_t kMc = 256;
constexpr int64_t kNc = 85 * kNr;  // 4080 columns
static_assert(kMc % kMr == 0);
// The blocks handed to GemmBlockDone: kMc rows x 1008 columns (1 MiB,
// L2). Per 48-column panel, the hook's per-row work cost more than it
// saved (bfloat16 W6 with its epilogue: 17.6-19.3 ms at 1008 or 4080
// columns, 18.4-22.4 at 48; lz-bench, alternating).
constexpr int64_t kDoneCols = 21 * kNr;

constexpr int64_t kMinThreadWork = int64_t{1} << 21;

int64_t round_up(int64_t x, int64_t m) { return (x + m - 1) / m * m; }

// Per-thread packing memory, kept between products (the pool's threads
// live as long as the process; a fresh allocation would fault its pages in
// on every product).
class PanelBuffer {
 public:
  float* get(size_t floats) {
    if (floats > size_) {
      release();
      data_ = static_cast<float*>(::operator new[](floats * sizeof(float), std::align_val_t{64}));
      size_ = floats;
    }
    return data_;
  }
  ~PanelBuffer() { release(); }

 private:
  void release() {
    if (data_ != nullptr) ::operator delete[](data_, std::align_val_t{64});
    data_ = nullptr;
    size_ = 0;
  }
  float* data_ = nullptr;
  size_t size_ = 0;
};

template <class T>
float widen(T x) {
  return static_cast<float>(x);
}

// A's rows [i0, i0 + mc) x columns [k0, k0 + kc) as kMr-row panels: panel p
// holds kc groups of kMr values (rows past the matrix are zero).
template <class T>
void pack_a(const GemmOperand& a, int64_t i0, int64_t mc, int64_t k0, int64_t kc, float* out) {
  const T* base = static_cast<const T*>(a.data) + i0 * a.sr + k0 * a.sc;
  for (int64_t p = 0; p < mc; p += kMr) {
    const int64_t h = std::min<int64_t>(kMr, mc - p);
    const T* rows = base + p * a.sr;
    for (int64_t k = 0; k < kc; ++k) {
      int64_t i = 0;
      for (; i < h; ++i) out[i] = widen(rows[i * a.sr + k * a.sc]);
      for (; i < kMr; ++i) out[i] = 0.0f;
      out += kMr;
    }
  }
}

// r[i][t] -> r[t][i]: a 16 x 16 block transposed in registers (pairs of
// rows interleaved, then 4-lane groups, then 128-bit lanes).
__attribute__((target("avx512f"), always_inline)) inline void transpose16(__m512 (&r)[16]) {
  __m512 t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_ps(r[i], r[i + 1]);
    t[i + 1] = _mm512_unpackhi_ps(r[i], r[i + 1]);
  }
  // r[4q + m] holds element m of each 4-lane group of rows 4q..4q+3.
  for (int q = 0; q < 16; q += 4) {
    r[q] = _mm512_shuffle_ps(t[q], t[q + 2], 0x44);
    r[q + 1] = _mm512_shuffle_ps(t[q], t[q + 2], 0xEE);
    r[q + 2] = _mm512_shuffle_ps(t[q + 1], t[q + 3], 0x44);
    r[q + 3] = _mm512_shuffle_ps(t[q + 1], t[q + 3], 0xEE);
  }
  for (int m = 0; m < 4; ++m) {
    const __m512 lo0 = _mm512_shuffle_f32x4(r[m], r[4 + m], 0x88), hi0 = _mm512_shuffle_f32x4(r[m], r[4 + m], 0xDD);
    const __m512 lo1 = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0x88);
    const __m512 hi1 = _mm512_shuffle_f32x4(r[8 + m], r[12 + m], 0xDD);
    t[m] = _mm512_shuffle_f32x4(lo0, lo1, 0x88);
    t[8 + m] = _mm512_shuffle_f32x4(lo0, lo1, 0xDD);
    t[4 + m] = _mm512_shuffle_f32x4(hi0, hi1, 0x88);
    t[12 + m] = _mm512_shuffle_f32x4(hi0, hi1, 0xDD);
  }
  for (int i = 0; i < 16; ++i) r[i] = t[i];
}

// B's rows [k0, k0 + kc) x columns [j0, j0 + nc) as kNr-column panels:
// panel p holds kc rows of kNr values (columns past the matrix are zero).
template <class T>
__attribute__((target("avx512f"))) void pack_b(const GemmOperand& b, int64_t k0, int64_t kc, int64_t j0,
                                              int64_t nc, float* out) {
  const T* base = static_cast<const T*>(b.data) + k0 * b.sr + j0 * b.sc;
  for (int64_t p = 0; p < nc; p += kNr, out += kc * kNr) {
    const int64_t w = std::min<int64_t>(kNr, nc - p);
    const T* cols = base + p * b.sc;
    if (w == kNr && b.sc == 1) {
      for (int64_t k = 0; k < kc; ++k) {
        for (int v = 0; v < kVecs; ++v) _mm512_store_ps(out + k * kNr + 16 * v, widen16(cols + k * b.sr + 16 * v));
      }
      continue;
    }
    // Columns contiguous along k (a transposed operand: x @ W^T): 16 x 16
    // blocks read down the columns and transposed in registers; the rest
    // element by element.
    int64_t k_done = 0, j_done = 0;
    if (b.sr == 1) {
      k_done = kc / 16 * 16;
      j_done = w / 16 * 16;
      for (int64_t k = 0; k < k_done; k += 16) {
        for (int64_t j = 0; j < j_done; j += 16) {
          __m512 r[16];
          for (int t = 0; t < 16; ++t) r[t] = widen16(cols + (j + t) * b.sc + k);
          transpose16(r);
          for (int t = 0; t < 16; ++t) _mm512_store_ps(out + (k + t) * kNr + j, r[t]);
        }
      }
    }
    for (int64_t k = 0; k < kc; ++k) {
      float* row = out + k * kNr;
      int64_t j = k < k_done ? j_done : 0;
      for (; j < w; ++j) row[j] = widen(cols[k * b.sr + j * b.sc]);
      for (; j < kNr; ++j) row[j] = 0.0f;
    }
  }
}

// How a micro-kernel combines its kMr x kNr tile of products with c.
struct TileStore {
  float alpha = 1.0f;
  float beta = 0.0f;   // the first K block: c = alpha * tile + beta * c
  bool first = true;   // later K blocks: c += alpha * tile
};

// One k of the micro-kernel: the tile's rank-1 update.
__attribute__((target("avx512f"), always_inline)) inline void fma_step(__m512 (&acc)[kMr][kVecs],
                                                                      const float* __restrict& ap,
                                                                      const float* __restrict& bp) {
  __m512 bv[kVecs];
  for (int v = 0; v < kVecs; ++v) bv[v] = _mm512_load_ps(bp + 16 * v);
  _mm_prefetch(reinterpret_cast<const char*>(bp + 8 * kNr), _MM_HINT_T0);
  for (int i = 0; i < kMr; ++i) {
    const __m512 av = _mm512_set1_ps(ap[i]);
    for (int v = 0; v < kVecs; ++v) acc[i][v] = _mm512_fmadd_ps(av, bv[v], acc[i][v]);
  }
  ap += kMr;
  bp += kNr;
}

// c[0:h, 0:w] (row stride ldc) combined with the product of a packed
// kMr-row panel of A and a kNr-column panel of B over kc.
__attribute__((target("avx512f,prfchw"))) void micro_kernel(int64_t kc, const float* __restrict ap,
                                                           const float* __restrict bp, float* c, int64_t ldc,
                                                           int h, int w, const TileStore& store) {
  __m512 acc[kMr][kVecs];
  for (int i = 0; i < kMr; ++i) {
    for (int v = 0; v < kVecs; ++v) acc[i][v] = _mm512_setzero_ps();
  }
  // The tile of c is read (later K blocks) and written at the end, and has
  // usually left L2 since the last K block: fetch it for writing while the
  // first k steps compute, one line per step (24 at once would stall on the
  // L1's fill buffers). W6's float32 product, alternating in one process
  // in a slow hour: 1 thread 104-105 (none) or 103-107 (all at the start)
  // -> 112-118 GFLOP/s; 2 threads 241-285 or 266-287 -> 245-310.
  int64_t k = 0;
  for (int i = 0; i < h && k + kVecs <= kc; ++i) {
    for (int v = 0; v < kVecs; ++v, ++k) {
      _mm_prefetch(reinterpret_cast<const char*>(c + i * ldc + 16 * v), _MM_HINT_ET0);
      fma_step(acc, ap, bp);
    }
  }
  for (; k < kc; ++k) fma_step(acc, ap, bp);
  __mmask16 mask[kVecs];
  for (int v = 0; v < kVecs; ++v) {
    const int lanes = std::clamp(w - 16 * v, 0, 16);
    mask[v] = static_cast<__mmask16>((1u << lanes) - 1u);
  }
  const __m512 alpha = _mm512_set1_ps(store.alpha);
  const __m512 beta = _mm512_set1_ps(store.beta);
  for (int i = 0; i < kMr; ++i) {
    if (i >= h) break;
    for (int v = 0; v < kVecs; ++v) {
      if (mask[v] == 0) continue;
      float* p = c + i * ldc + 16 * v;
      __m512 x = store.alpha == 1.0f ? acc[i][v] : _mm512_mul_ps(alpha, acc[i][v]);
      if (!store.first) {
        x = _mm512_add_ps(x, _mm512_maskz_loadu_ps(mask[v], p));
      } else if (store.beta != 0.0f) {
        x = _mm512_fmadd_ps(beta, _mm512_maskz_loadu_ps(mask[v], p), x);
      }
      _mm512_mask_storeu_ps(p, mask[v], x);
    }
  }
}

// c[m0:m1, n0:n1] on this thread.
template <class TA, class TB>
void gemm_block(const GemmOperand& a, const GemmOperand& b, float* c, int64_t ldc, float alpha, float beta,
                const GemmBlockDone& done, int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
  thread_local PanelBuffer a_panels, b_panels;
  const int64_t K = a.cols;
  // K in equal blocks of at most kKc (1024 = 6 x ~171, not 5 x 192 + 64: a
  // thin last block reads and writes all of c for little work).
  const int64_t k_blocks = (K + kKc - 1) / kKc;
  const int64_t kc_step = (K + k_blocks - 1) / k_blocks;
  float* ap = a_panels.get(static_cast<size_t>(kKc * kMc));
  float* bp = b_panels.get(static_cast<size_t>(kKc * round_up(std::min(kNc, n1 - n0), kNr)));
  for (int64_t jc = n0; jc < n1; jc += kNc) {
    const int64_t nc = std::min(kNc, n1 - jc);
    for (int64_t pc = 0; pc < K; pc += kc_step) {
      const int64_t kc = std::min(kc_step, K - pc);
      const TileStore store{alpha, beta, pc == 0};
      const bool last = pc + kc == K;
      pack_b<TB>(b, pc, kc, jc, nc, bp);
      for (int64_t ic = m0; ic < m1; ic += kMc) {
        const int64_t mc = std::min(kMc, m1 - ic);
        pack_a<TA>(a, ic, mc, pc, kc, ap);
        // Each B panel stays in L1 while every A panel of the block passes it.
        int64_t done_from = 0;
        for (int64_t jr = 0; jr < nc; jr += kNr) {
          const int w = static_cast<int>(std::min<int64_t>(kNr, nc - jr));
          for (int64_t ir = 0; ir < mc; ir += kMr) {
            const int h = static_cast<int>(std::min<int64_t>(kMr, mc - ir));
            micro_kernel(kc, ap + ir * kc, bp + jr * kc, c + (ic + ir) * ldc + jc + jr, ldc, h, w, store);
          }
          // Once kDoneCols columns of the block are final (just written, in L2).
          if (last && done && (jr + w - done_from >= kDoneCols || jr + w == nc)) {
            done(ic, ic + mc, jc + done_from, jc + jr + w);
            done_from = jr + w;
          }
        }
      }
    }
  }
}

template <class TA, class TB>
void gemm_typed(const GemmOperand& a, const GemmOperand& b, float* c, int64_t ldc, float alpha, float beta,
                const GemmBlockDone& done) {
  const int64_t M = a.rows, N = b.cols;
  // Each thread gets at least kMinThreadWork multiply-adds: 128^3 ran at
  // 46-52 GFLOP/s on 2 threads against 98-100 on one.
  const int64_t work_threads = std::max<int64_t>(1, M * N * a.cols / kMinThreadWork);
  const int threads = in_parallel_region() ? 1 : static_cast<int>(std::min<int64_t>(get_num_threads(), work_threads));
  const auto block = [&](int64_t m0, int64_t m1, int64_t n0, int64_t n1) {
    const FlushDenormals flush;  // as every product (flush_denormals.h)
    // The hook (an epilogue) computes in the caller's mode, not the product's.
    GemmBlockDone done_as_before;
    if (done) {
      done_as_before = [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
        const DenormalsAsBefore as_before(flush);
        done(r0, r1, c0, c1);
      };
    }
    gemm_block<TA, TB>(a, b, c, ldc, alpha, beta, done_as_before, m0, m1, n0, n1);
  };
  // Threads take column strips (each packs only its own part of B, the
  // larger operand of a typical layer) when each gets at least two panels,
  // else row strips.
  if (threads == 1) {
    block(0, M, 0, N);
  } else if (N >= 2 * kNr * threads) {
    const int64_t strip = round_up((N + threads - 1) / threads, kNr);
    parallel_for(0, (N + strip - 1) / strip, 1, [&](int64_t begin, int64_t end) {
      for (int64_t s = begin; s < end; ++s) block(0, M, s * strip, std::min(N, (s + 1) * strip));
    });
  } else {
    const int64_t strip = round_up((M + threads - 1) / threads, kMr);
    parallel_for(0, (M + strip - 1) / strip, 1, [&](int64_t begin, int64_t end) {
      for (int64_t s = begin; s < end; ++s) block(s * strip, std::min(M, (s + 1) * strip), 0, N);
    });
  }
}

// Calls f(tag) with the element type of a packed operand's dtype.
template <class F>
void visit_packed_dtype(ScalarType dtype, F&& f) {
  switch (dtype) {
    case ScalarType::Float: return f(float{});
    case ScalarType::Half: return f(Half{});
    case ScalarType::BFloat16: return f(BFloat16{});
    default: LZ_INTERNAL_ASSERT(false, "packed_gemm: operand dtype ", dtype, " is not packed");
  }
}

#pragma GCC diagnostic pop

}  // namespace

bool packed_gemm_supported() {
  static const bool supported = __builtin_cpu_supports("avx512f");
  return supported;
}

void packed_gemm(const GemmOperand& a, const GemmOperand& b, float* c, int64_t ldc, float alpha, float beta,
                 const GemmBlockDone& done) {
  LZ_INTERNAL_ASSERT(packed_gemm_supported(), "packed_gemm: the CPU lacks AVX-512F");
  LZ_INTERNAL_ASSERT(a.cols == b.rows && a.cols > 0, "packed_gemm: inner sizes ", a.cols, " and ", b.rows);
  if (a.rows == 0 || b.cols == 0) return;
  visit_packed_dtype(a.dtype, [&](auto ta) {
    visit_packed_dtype(b.dtype, [&](auto tb) {
      gemm_typed<decltype(ta), decltype(tb)>(a, b, c, ldc, alpha, beta, done);
    });
  });
}

#else  // not x86-64: 16-bit products take float32 copies to OpenBLAS

bool packed_gemm_supported() { return false; }

void packed_gemm(const GemmOperand&, const GemmOperand&, float*, int64_t, float, float, const GemmBlockDone&) {
  LZ_INTERNAL_ASSERT(false, "packed_gemm: built for x86-64 only");
}

#endif

}  // namespace lz::cpu
