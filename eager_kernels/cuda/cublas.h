// cuBLAS, loaded at run time (dlopen) like the driver: the library builds
// and loads without it, and a matrix product on CUDA says why it cannot run.
// One handle per device, bound to the device's stream before every call.
#pragma once

#include <cstdint>
#include <string>

#include "core/scalar_type.h"

namespace lz::cuda::blas {

// Whether cuBLAS was loaded ($LZ_CUBLAS_LIBRARY, else libcublas.so.13/.12
// on the loader's path, else the toolkit CMake found); why not otherwise.
bool is_available();
std::string unavailable_reason();

// Whether gemm_strided_batched handles `dtype` (float, double, half, bfloat16).
bool supports(ScalarType dtype);

// Column-major cuBLAS semantics: for each of `batch` matrices,
// C = alpha * op(A) * op(B) + beta * C with op(X) = X or X^T (trans),
// A of op-shape m x k, B k x n, C m x n; strides between matrices in
// elements (0: the same matrix for every batch). Half and bfloat16
// accumulate in float. Queued on `device`'s stream. Throws DeviceError
// naming `what` when cuBLAS is unavailable or fails.
void gemm_strided_batched(const char* what, int device, ScalarType dtype, bool trans_a, bool trans_b, int64_t m,
                          int64_t n, int64_t k, double alpha, const void* a, int64_t lda, int64_t stride_a,
                          const void* b, int64_t ldb, int64_t stride_b, double beta, void* c, int64_t ldc,
                          int64_t stride_c, int64_t batch);

}  // namespace lz::cuda::blas
