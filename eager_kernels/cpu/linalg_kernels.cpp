#include "eager_kernels/cpu/linalg_kernels.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <climits>
#include <cstring>
#include <optional>
#include <vector>

#include "core/empty_tensor.h"
#include "core/memory_overlap.h"
#include "core/ops_linalg.h"
#include "core/parallel.h"
#include "core/shape.h"
#include "eager_kernels/blas_layout.h"
#include "eager_kernels/cpu/copy_kernels.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/elementwise.h"
#include "eager_kernels/cpu/float16_blocks.h"
#include "eager_kernels/cpu/flush_denormals.h"
#include "eager_kernels/cpu/openblas.h"
#include "eager_kernels/cpu/packed_gemm.h"

namespace lz::cpu {

namespace {

using blas::BlasLayout;
using blas::blas_layout;
using blas::Mats;
using blas::mats_of;

// A contiguous copy of `t` (same dtype).
Tensor contiguous_copy(const Tensor& t) {
  Tensor c = empty_tensor(t.sizes(), t.dtype(), t.device());
  return copy_(c, t, /*non_blocking=*/false);
}


// ---- OpenBLAS ------------------------------------------------------------------

// OpenBLAS keeps its own pool: give it n threads (called outside our
// parallel regions, or from inside one with n = 1).
void sync_blas_threads(int n) {
  static std::atomic<int> current{0};
  if (current.load(std::memory_order_relaxed) != n) {
    openblas::functions("matmul").set_num_threads(n);
    current.store(n, std::memory_order_relaxed);
  }
}

void blas_gemm(bool ta, bool tb, int m, int n, int k, float alpha, const float* a, int lda,
               const float* b, int ldb, float beta, float* c, int ldc) {
  openblas::functions("matmul").sgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
                                      tb ? CblasTrans : CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

void blas_gemm(bool ta, bool tb, int m, int n, int k, double alpha, const double* a, int lda,
               const double* b, int ldb, double beta, double* c, int ldc) {
  openblas::functions("matmul").dgemm(CblasRowMajor, ta ? CblasTrans : CblasNoTrans,
                                      tb ? CblasTrans : CblasNoTrans, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
}

// Whether BLAS can write every matrix of `out` in place.
bool blas_writable(const Tensor& out) { return blas_layout(mats_of(out)).has_value(); }

// Whether a batch of products runs whole products per thread, each
// single-threaded, rather than every product split over all threads
// (OpenBLAS's hand-off per product). bench_gemm, 2 threads: W11's attention
// products (64 x 256x64x256) 170 -> 240 GFLOP/s, 8 x 512^3 287 -> 305. Not
// when the batch splits unevenly over few products (3 over 2 threads: one
// thread would compute two while the other idles).
bool split_over_batch(int64_t batch, int threads) {
  return threads > 1 && (batch % threads == 0 || batch >= 4 * threads);
}

// How BLAS reads `t` in place; `t` replaced by a contiguous copy first when
// it cannot.
std::optional<BlasLayout> blas_readable(Tensor& t) {
  if (std::optional<BlasLayout> l = blas_layout(mats_of(t))) return l;
  t = contiguous_copy(t);
  return blas_layout(mats_of(t));
}

// target = alpha * (a @ b) + beta * target for float/double T. `target` is
// BLAS-writable; a and b are read in place when their layout allows.
template <class T>
void blas_matmul(const Tensor& target, Tensor a, Tensor b, T alpha, T beta) {
  const std::optional<BlasLayout> la = blas_readable(a), lb = blas_readable(b);
  const Mats A = mats_of(a), B = mats_of(b), C = mats_of(target);
  const std::optional<BlasLayout> lc = blas_layout(C);
  LZ_INTERNAL_ASSERT(la && lb && lc, "matmul: operand layouts BLAS cannot read");
  const int64_t M = C.rows, N = C.cols, K = A.cols;
  LZ_CHECK(M <= INT_MAX && N <= INT_MAX && K <= INT_MAX, ValueError,
           "[matmul] matrices of ", M, "x", K, " and ", K, "x", N,
           " exceed the 32-bit sizes of the BLAS interface");
  const size_t item = sizeof(T);
  auto product = [&](int64_t i) {
    const T* pa = reinterpret_cast<const T*>(A.data + i * A.sb * static_cast<int64_t>(item));
    const T* pb = reinterpret_cast<const T*>(B.data + i * B.sb * static_cast<int64_t>(item));
    T* pc = reinterpret_cast<T*>(C.data + i * C.sb * static_cast<int64_t>(item));
    if (!lc->trans) {
      blas_gemm(la->trans, lb->trans, static_cast<int>(M), static_cast<int>(N), static_cast<int>(K),
                alpha, pa, static_cast<int>(la->ld), pb, static_cast<int>(lb->ld), beta, pc,
                static_cast<int>(lc->ld));
    } else {
      // C is column-major: compute C^T = B^T A^T into it, row-major.
      blas_gemm(!lb->trans, !la->trans, static_cast<int>(N), static_cast<int>(M), static_cast<int>(K),
                alpha, pb, static_cast<int>(lb->ld), pa, static_cast<int>(la->ld), beta, pc,
                static_cast<int>(lc->ld));
    }
  };
  const int threads = in_parallel_region() ? 1 : get_num_threads();
  const FlushDenormals flush;  // also for threads OpenBLAS starts while resizing
  if (split_over_batch(C.batch, threads)) {
    sync_blas_threads(1);
    parallel_for(0, C.batch, 1, [&](int64_t begin, int64_t end) {
      const FlushDenormals flush_here;
      for (int64_t i = begin; i < end; ++i) product(i);
    });
    return;
  }
  sync_blas_threads(threads);
  for (int64_t i = 0; i < C.batch; ++i) product(i);
}

// ---- OpenBLAS with an epilogue (float32) -------------------------------------------

// The most of out one OpenBLAS call computes before the epilogue reads it
// back: 8 MiB, in L3 here (its end in L2). Each call repacks the operand its
// block spans whole, so smaller blocks cost: W11's 2048x512x1536 product
// with 4 MiB blocks took 3-5% longer than a product then a kernel, with 8
// MiB 1-2% less. Where L3 is smaller, a block re-read from memory is still
// no more than the second kernel would read.
constexpr int64_t kEpilogueBlockFloats = int64_t{1} << 21;
// Multiply-adds a second thread must get to gain (as the packed GEMM's).
constexpr int64_t kMinBlasThreadWork = int64_t{1} << 21;

// out = alpha * (a @ b) + beta * input, float32, K > 0, through one
// single-threaded OpenBLAS call per block of out, each thread computing a
// strip of blocks and running `epilogue` on each block at once: a product
// and its epilogue in one pass, one parallel region. On W6's, W10's and
// W11's products, 0-1.5% faster than one 2-thread call and a kernel after
// it (bench_gemm's ProductEpilogue, docs/matrix-products.md).
void blas_product_with_epilogue(const Tensor& out, const Tensor* input, Tensor a, Tensor b, float beta,
                                float alpha, const GemmBlockDone& epilogue) {
  const std::optional<BlasLayout> la = blas_readable(a), lb = blas_readable(b);
  LZ_INTERNAL_ASSERT(la && lb, "matmul: operand layouts BLAS cannot read");
  const int64_t M = out.size(0), N = out.size(1), K = a.size(1);
  LZ_CHECK(M <= INT_MAX && N <= INT_MAX && K <= INT_MAX, ValueError, "[matmul] matrices of ", M, "x", K, " and ", K,
           "x", N, " exceed the 32-bit sizes of the BLAS interface");
  const bool use_input = input != nullptr && beta != 0.0f;
  const Tensor in = use_input ? cast_to(*input, ScalarType::Float).expand({M, N}) : Tensor();
  const float* pa = static_cast<const float*>(a.data_ptr());
  const float* pb = static_cast<const float*>(b.data_ptr());
  float* pc = static_cast<float*>(out.data_ptr());
  auto run_block = [&](const FlushDenormals& flush, int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
    if (use_input) {
      const auto block = [&](const Tensor& t) { return t.narrow(0, r0, r1 - r0).narrow(1, c0, c1 - c0); };
      copy_(block(out), block(in), /*non_blocking=*/false);
    }
    blas_gemm(la->trans, lb->trans, static_cast<int>(r1 - r0), static_cast<int>(c1 - c0), static_cast<int>(K),
              alpha, pa + (la->trans ? r0 : r0 * la->ld), static_cast<int>(la->ld),
              pb + (lb->trans ? c0 * lb->ld : c0), static_cast<int>(lb->ld), use_input ? beta : 0.0f,
              pc + r0 * N + c0, static_cast<int>(N));
    const DenormalsAsBefore as_before(flush);  // the epilogue computes in the caller's mode
    epilogue(r0, r1, c0, c1);
  };
  // Cuts [r0, r1) x [c0, c1) across its longer side into `pieces` parts
  // (a call then repacks the operand along the shorter side: less).
  auto split = [](int64_t r0, int64_t r1, int64_t c0, int64_t c1, int64_t pieces, auto&& part) {
    const bool by_rows = r1 - r0 >= c1 - c0;
    const int64_t lo = by_rows ? r0 : c0, hi = by_rows ? r1 : c1, step = (hi - lo + pieces - 1) / pieces;
    for (int64_t x = lo; x < hi; x += step) {
      if (by_rows) {
        part(x, std::min(hi, x + step), c0, c1);
      } else {
        part(r0, r1, x, std::min(hi, x + step));
      }
    }
  };
  const int64_t work_threads = std::max<int64_t>(1, M * N * K / kMinBlasThreadWork);
  const int64_t threads = in_parallel_region() ? 1 : std::min<int64_t>(get_num_threads(), work_threads);
  std::vector<std::array<int64_t, 4>> strips;
  split(0, M, 0, N, threads, [&](int64_t r0, int64_t r1, int64_t c0, int64_t c1) { strips.push_back({r0, r1, c0, c1}); });
  const FlushDenormals flush;  // also for threads OpenBLAS starts while resizing
  sync_blas_threads(1);
  parallel_for(0, static_cast<int64_t>(strips.size()), 1, [&](int64_t begin, int64_t end) {
    const FlushDenormals flush_here;
    for (int64_t s = begin; s < end; ++s) {
      const auto [r0, r1, c0, c1] = strips[static_cast<size_t>(s)];
      const int64_t blocks = ((r1 - r0) * (c1 - c0) + kEpilogueBlockFloats - 1) / kEpilogueBlockFloats;
      split(r0, r1, c0, c1, blocks, [&](int64_t br0, int64_t br1, int64_t bc0, int64_t bc1) {
        run_block(flush_here, br0, br1, bc0, bc1);
      });
    }
  });
}

// ---- Lazuli's packed GEMM (16-bit operands) ---------------------------------------

bool packable(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Half || t == ScalarType::BFloat16;
}

// float32 target = alpha * (a @ b) + beta * target, with a and b of any
// packed dtype and layout read in place (packed_gemm.h converts them while
// packing); target is contiguous. With `rounded` (a 16-bit tensor of
// target's sizes, any strides), each block of target is rounded into it as
// soon as it is final, while in cache; then `epilogue` runs on the block
// (a single product only).
void packed_matmul(const Tensor& target, const Tensor& a, const Tensor& b, float alpha, float beta,
                   const Tensor* rounded, const GemmBlockDone& epilogue = {}) {
  const Mats A = mats_of(a), B = mats_of(b), C = mats_of(target);
  const std::optional<Mats> R = rounded ? std::optional<Mats>(mats_of(*rounded)) : std::nullopt;
  const int64_t a_item = static_cast<int64_t>(a.itemsize()), b_item = static_cast<int64_t>(b.itemsize());
  auto product = [&](int64_t i) {
    const GemmOperand ga{A.data + i * A.sb * a_item, a.dtype(), A.rows, A.cols, A.sr, A.sc};
    const GemmOperand gb{B.data + i * B.sb * b_item, b.dtype(), B.rows, B.cols, B.sr, B.sc};
    float* pc = reinterpret_cast<float*>(C.data) + i * C.sb;
    GemmBlockDone done = epilogue;
    if (R) {
      const int64_t item = static_cast<int64_t>(rounded->itemsize());
      done = [&, pc, i, item](int64_t r0, int64_t r1, int64_t c0, int64_t c1) {
        for (int64_t r = r0; r < r1; ++r) {
          narrow_from_float(rounded->dtype(), pc + r * C.sr + c0,
                            R->data + (i * R->sb + r * R->sr + c0 * R->sc) * item, R->sc * item, c1 - c0);
        }
        if (epilogue) epilogue(r0, r1, c0, c1);
      };
    }
    packed_gemm(ga, gb, pc, C.sr, alpha, beta, done);
  };
  LZ_INTERNAL_ASSERT(!epilogue || C.batch == 1, "matmul: an epilogue over a batch of products");
  const int threads = in_parallel_region() ? 1 : get_num_threads();
  if (split_over_batch(C.batch, threads)) {
    parallel_for(0, C.batch, 1, [&](int64_t begin, int64_t end) {
      for (int64_t i = begin; i < end; ++i) product(i);
    });
    return;
  }
  for (int64_t i = 0; i < C.batch; ++i) product(i);
}

// ---- Integer fallback ----------------------------------------------------------

constexpr int64_t kColumnBlock = 512;

// target = alpha * (a @ b) + beta * target, all contiguous T. Each output
// row accumulates in 64 bits, modulo 2^64 (unsigned, so overflow wraps as
// PyTorch's integer arithmetic does), over column blocks that stay in L1.
template <class T>
void int_matmul(const Tensor& target, const Tensor& a, const Tensor& b, uint64_t alpha,
                uint64_t beta, bool use_target) {
  const Mats C = mats_of(target), A = mats_of(a), B = mats_of(b);
  const int64_t M = C.rows, N = C.cols, K = A.cols, rows = C.batch * M;
  const T* pa = reinterpret_cast<const T*>(A.data);
  const T* pb = reinterpret_cast<const T*>(B.data);
  T* pc = reinterpret_cast<T*>(C.data);
  const int64_t work_per_row = std::max<int64_t>(1, N * K);
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 16) / work_per_row);
  parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
    std::vector<uint64_t> acc(static_cast<size_t>(std::min(N, kColumnBlock)));
    for (int64_t r = begin; r < end; ++r) {
      const int64_t batch = r / M;
      const T* arow = pa + batch * A.sb + (r % M) * K;
      const T* bmat = pb + batch * B.sb;
      T* crow = pc + r * N;
      for (int64_t j0 = 0; j0 < N; j0 += kColumnBlock) {
        const int64_t w = std::min(kColumnBlock, N - j0);
        uint64_t* acc_p = acc.data();
        std::fill(acc_p, acc_p + w, uint64_t{0});
        for (int64_t k = 0; k < K; ++k) {
          const uint64_t x = static_cast<uint64_t>(static_cast<int64_t>(arow[k]));
          const T* brow = bmat + k * N + j0;
          for (int64_t j = 0; j < w; ++j) acc_p[j] += x * static_cast<uint64_t>(static_cast<int64_t>(brow[j]));
        }
        for (int64_t j = 0; j < w; ++j) {
          uint64_t v = alpha * acc_p[j];
          if (use_target) v += beta * static_cast<uint64_t>(static_cast<int64_t>(crow[j0 + j]));
          crow[j0 + j] = static_cast<T>(static_cast<int64_t>(v));
        }
      }
    }
  });
}

// ---- Shared driver ---------------------------------------------------------------

// target *= beta (or = 0 when beta is zero): the product of an empty inner dimension.
template <class T>
void scale_only(const Tensor& target, double beta, bool use_target) {
  if (!use_target || beta == 0) {
    fill_(target, 0);
    return;
  }
  if (beta == 1) return;
  const Mats C = mats_of(target);
  T* p = reinterpret_cast<T*>(C.data);
  for (int64_t b = 0; b < C.batch; ++b) {
    for (int64_t i = 0; i < C.rows; ++i) {
      for (int64_t j = 0; j < C.cols; ++j) {
        T& v = p[b * C.sb + i * C.sr + j * C.sc];
        v = static_cast<T>(static_cast<double>(v) * beta);
      }
    }
  }
}

// out = alpha * (a @ b) + beta * input (input absent or beta zero: the
// product) through the packed GEMM, `epilogue` run on each block of out once
// final. A float32 out is written directly; a 16-bit one is computed in
// float32 and rounded block by block, before the epilogue sees the block.
// out must not share memory with a or b.
void packed_product(const Tensor& out, const Tensor* input, const Tensor& a, const Tensor& b, const Scalar& beta,
                    const Scalar& alpha, const GemmBlockDone& epilogue) {
  const bool use_input = input != nullptr && beta.to_double() != 0.0;
  const bool single = out.dtype() == ScalarType::Float;
  const Tensor target = single ? out : empty_tensor(out.sizes(), ScalarType::Float, out.device());
  if (use_input && !input->is_same(target)) copy_(target, *input, false);
  if (a.size(a.dim() - 1) == 0) {
    // No K blocks: the blocks are final before the product starts.
    scale_only<float>(target, beta.to_double(), use_input);
    if (!single) copy_(out, target, false);
    if (epilogue) epilogue(0, out.size(0), 0, out.size(1));
    return;
  }
  packed_matmul(target, a, b, static_cast<float>(alpha.to_double()),
                use_input ? static_cast<float>(beta.to_double()) : 0.0f, single ? nullptr : &out, epilogue);
}

// out = alpha * (a @ b) + beta * input (input absent, or beta zero: just the
// product). out, a and b are 2-D, or 3-D with the same batch.
void matmul_into(const Tensor& out, const Tensor* input, const Tensor& a, const Tensor& b,
                 const Scalar& beta, const Scalar& alpha) {
  if (out.numel() == 0) return;
  const bool use_input = input != nullptr && beta.to_double() != 0.0;
  const ScalarType dtype = out.dtype();
  const int64_t K = a.size(a.dim() - 1);
  // Writing out while reading a factor from the same memory (a.addmm_(a, b))
  // would read partial results: such products go through a temporary.
  const bool out_aliases_factor =
      overlap_kind(out, a) != Overlap::None || overlap_kind(out, b) != Overlap::None;
  // The tensor the product is written to: out itself when the kernel can
  // write it in place, else a contiguous temporary copied into out at the end.
  auto run = [&](ScalarType compute, bool direct, auto&& product) {
    Tensor target = direct ? out : empty_tensor(out.sizes(), compute, out.device());
    if (use_input && !(direct && input->is_same(out))) copy_(target, *input, false);
    product(target);
    if (!direct) copy_(out, target, false);
  };
  if (dtype == ScalarType::Float || dtype == ScalarType::Double ||
      dtype == ScalarType::Half || dtype == ScalarType::BFloat16) {
    const bool reduced = dtype == ScalarType::Half || dtype == ScalarType::BFloat16;
    const ScalarType compute = reduced ? ScalarType::Float : dtype;
    if (reduced && K > 0 && packed_gemm_supported() && packable(a.dtype()) && packable(b.dtype())) {
      // Operands converted while packed; the result rounded into out block
      // by block (unless out shares memory with a factor: then after the
      // whole product, as the other products do).
      const Tensor dest = out_aliases_factor ? empty_tensor(out.sizes(), compute, out.device()) : out;
      packed_product(dest, input, a, b, beta, alpha, {});
      if (out_aliases_factor) copy_(out, dest, false);
      return;
    }
    run(compute, !reduced && !out_aliases_factor && blas_writable(out), [&](const Tensor& target) {
      visit_dtype(compute, [&](auto tag) {
        using T = typename decltype(tag)::type;
        if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
          if (K == 0) {
            scale_only<T>(target, beta.to_double(), use_input);
          } else {
            blas_matmul<T>(target, cast_to(a, compute), cast_to(b, compute),
                           static_cast<T>(alpha.to_double()),
                           use_input ? static_cast<T>(beta.to_double()) : T(0));
          }
        }
      });
    });
    return;
  }
  run(dtype, !out_aliases_factor && out.is_contiguous(), [&](const Tensor& target) {
    visit_dtype(dtype, [&](auto tag) {
      using T = typename decltype(tag)::type;
      if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
        int_matmul<T>(target, contiguous_as(a, a.dtype()), contiguous_as(b, b.dtype()),
                      static_cast<uint64_t>(alpha.to_long()),
                      use_input ? static_cast<uint64_t>(beta.to_long()) : 0, use_input);
      } else {
        LZ_INTERNAL_ASSERT(false, "matmul: unsupported dtype ", dtype);
      }
    });
  });
}

}  // namespace

void mm_impl(const Tensor& out, const Tensor& self, const Tensor& mat2) {
  matmul_into(out, nullptr, self, mat2, Scalar(0), Scalar(1));
}

void bmm_impl(const Tensor& out, const Tensor& self, const Tensor& mat2) {
  matmul_into(out, nullptr, self, mat2, Scalar(0), Scalar(1));
}

void addmm_impl(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                const Scalar& beta, const Scalar& alpha) {
  matmul_into(out, &self, mat1, mat2, beta, alpha);
}

bool computes_with_epilogue(const Tensor& a, const Tensor& b) {
  if (a.dim() != 2 || b.dim() != 2 || a.dtype() != b.dtype() || !a.device().is_cpu() || !b.device().is_cpu()) {
    return false;
  }
  return a.dtype() == ScalarType::Float || (packable(a.dtype()) && packed_gemm_supported());
}

void matmul_with_epilogue(const Tensor& out, const Tensor* input, const Tensor& a, const Tensor& b,
                          const Scalar& beta, const Scalar& alpha, const GemmBlockDone& epilogue) {
  LZ_INTERNAL_ASSERT(computes_with_epilogue(a, b) && out.is_contiguous() && out.dtype() == a.dtype(),
                     "matmul_with_epilogue: operands ", a.dtype(), " ", shape_str(a.sizes()), " and ", b.dtype(),
                     " ", shape_str(b.sizes()), " into ", out.dtype());
  if (out.numel() == 0) return;
  if (out.dtype() == ScalarType::Float && a.size(1) > 0) {
    blas_product_with_epilogue(out, input, a, b, static_cast<float>(beta.to_double()),
                               static_cast<float>(alpha.to_double()), epilogue);
    return;
  }
  packed_product(out, input, a, b, beta, alpha, epilogue);  // 16-bit, or no inner dimension
}

int blas_num_threads() { return openblas::functions("blas_num_threads").get_num_threads(); }

}  // namespace lz::cpu

namespace lz {

std::string blas_core_name() { return cpu::openblas::functions("blas_core_name").get_corename(); }

}  // namespace lz
