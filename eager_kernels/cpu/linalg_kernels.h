// CPU matrix products. float32/float64 go to OpenBLAS (sgemm/dgemm), reading
// transposed and row-strided operands in place through the transpose flags
// and leading dimensions; float16/bfloat16 compute in float32 through
// Lazuli's packed GEMM (packed_gemm.h; OpenBLAS on float32 copies without
// AVX-512) and round once; integer dtypes use a blocked parallel loop that
// accumulates in 64 bits and wraps on the store (as PyTorch's CPU fallback).
// OpenBLAS runs with lz::get_num_threads() threads, or with one from inside
// parallel_for chunks of ours (more would oversubscribe the cores).
#pragma once

#include <string>

#include "core/scalar.h"
#include "core/tensor.h"
#include "eager_kernels/cpu/packed_gemm.h"

namespace lz::cpu {

void mm_impl(const Tensor& out, const Tensor& self, const Tensor& mat2);
void bmm_impl(const Tensor& out, const Tensor& self, const Tensor& mat2);
void addmm_impl(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                const Scalar& beta, const Scalar& alpha);

// Whether matmul_with_epilogue computes a @ b: 2-D CPU matrices of one
// dtype, float32 (OpenBLAS), or float16 or bfloat16 on a CPU that runs the
// packed GEMM.
bool computes_with_epilogue(const Tensor& a, const Tensor& b);

// out = alpha * (a @ b) + beta * input (input null: the product alone),
// with `epilogue(r0, r1, c0, c1)` called for each block of out as soon as it
// holds its final values, on the thread that computed it, while the block is
// in cache: a fused kernel over the product runs there (lazy/executable.cpp).
// float32 blocks come from OpenBLAS calls per block, 16-bit ones from the
// packed GEMM. out is a new contiguous [M, N] tensor of a's dtype (sharing
// no memory with a, b or input).
void matmul_with_epilogue(const Tensor& out, const Tensor* input, const Tensor& a, const Tensor& b,
                          const Scalar& beta, const Scalar& alpha, const GemmBlockDone& epilogue);

// The number of threads OpenBLAS currently uses (set from lz::get_num_threads()
// before every BLAS call).
int blas_num_threads();

}  // namespace lz::cpu
