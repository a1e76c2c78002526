// cuBLAS for the emulated CUDA driver (device memory is host memory): the
// strided batched gemms Lazuli calls, computed naively in column-major
// order exactly as cuBLAS defines them, so the runtime's row-major to
// column-major mapping, transposes and leading dimensions are tested
// without a GPU. lzEmulatedGemmCalls counts calls.
#include <cstdint>

#include "core/half.h"

namespace {

constexpr int kOpT = 1;
constexpr int kR16F = 2;
long gemm_calls = 0;

// Element (i, j) of op(X), X column-major with leading dimension ld.
template <class T>
double at(const T* x, int ld, bool trans, int i, int j) {
  return static_cast<double>(trans ? x[j + static_cast<int64_t>(i) * ld] : x[i + static_cast<int64_t>(j) * ld]);
}

template <class T, class Acc>
void gemm(int ta, int tb, int m, int n, int k, double alpha, const T* a, int lda, long long sa, const T* b, int ldb,
          long long sb, double beta, T* c, int ldc, long long sc, int batch) {
  ++gemm_calls;
  for (int p = 0; p < batch; ++p) {
    for (int j = 0; j < n; ++j) {
      for (int i = 0; i < m; ++i) {
        Acc acc = 0;
        for (int l = 0; l < k; ++l) {
          acc += static_cast<Acc>(at(a + p * sa, lda, ta == kOpT, i, l)) * static_cast<Acc>(at(b + p * sb, ldb, tb == kOpT, l, j));
        }
        T& out = c[p * sc + i + static_cast<int64_t>(j) * ldc];
        const Acc scaled = static_cast<Acc>(alpha) * acc;
        out = static_cast<T>(beta == 0 ? scaled : scaled + static_cast<Acc>(beta) * static_cast<Acc>(static_cast<double>(out)));
      }
    }
  }
}

}  // namespace

extern "C" {

long lzEmulatedGemmCalls() { return gemm_calls; }

int cublasCreate_v2(void** handle) {
  static int dummy;
  *handle = &dummy;
  return 0;
}

int cublasSetStream_v2(void*, void*) { return 0; }

int cublasSgemmStridedBatched(void*, int ta, int tb, int m, int n, int k, const float* alpha, const float* a, int lda,
                              long long sa, const float* b, int ldb, long long sb, const float* beta, float* c, int ldc,
                              long long sc, int batch) {
  gemm<float, float>(ta, tb, m, n, k, *alpha, a, lda, sa, b, ldb, sb, *beta, c, ldc, sc, batch);
  return 0;
}

int cublasDgemmStridedBatched(void*, int ta, int tb, int m, int n, int k, const double* alpha, const double* a,
                              int lda, long long sa, const double* b, int ldb, long long sb, const double* beta,
                              double* c, int ldc, long long sc, int batch) {
  gemm<double, double>(ta, tb, m, n, k, *alpha, a, lda, sa, b, ldb, sb, *beta, c, ldc, sc, batch);
  return 0;
}

int cublasGemmStridedBatchedEx(void*, int ta, int tb, int m, int n, int k, const void* alpha, const void* a, int type,
                               int lda, long long sa, const void* b, int, int ldb, long long sb, const void* beta,
                               void* c, int, int ldc, long long sc, int batch, int compute, int) {
  if (compute != 68) return 7;  // CUBLAS_STATUS_INVALID_VALUE: Lazuli asks for float accumulation
  const double al = *static_cast<const float*>(alpha), be = *static_cast<const float*>(beta);
  if (type == kR16F) {
    gemm<lz::Half, float>(ta, tb, m, n, k, al, static_cast<const lz::Half*>(a), lda, sa, static_cast<const lz::Half*>(b),
                          ldb, sb, be, static_cast<lz::Half*>(c), ldc, sc, batch);
  } else {
    gemm<lz::BFloat16, float>(ta, tb, m, n, k, al, static_cast<const lz::BFloat16*>(a), lda, sa,
                              static_cast<const lz::BFloat16*>(b), ldb, sb, be, static_cast<lz::BFloat16*>(c), ldc, sc,
                              batch);
  }
  return 0;
}

}  // extern "C"
