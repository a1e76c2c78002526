// CPU matrix products. float32/float64 go to OpenBLAS (sgemm/dgemm), reading
// transposed and row-strided operands in place through the transpose flags
// and leading dimensions; float16/bfloat16 compute in float32 through the
// same path and round once; integer dtypes use a blocked parallel loop that
// accumulates in 64 bits and wraps on the store (as PyTorch's CPU fallback).
// OpenBLAS runs with lz::get_num_threads() threads and is never called from
// inside a parallel_for chunk of ours (it would oversubscribe the cores).
#pragma once

#include <string>

#include "core/scalar.h"
#include "core/tensor.h"

namespace lz::cpu {

void mm_impl(const Tensor& out, const Tensor& self, const Tensor& mat2);
void bmm_impl(const Tensor& out, const Tensor& self, const Tensor& mat2);
void addmm_impl(const Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                const Scalar& beta, const Scalar& alpha);

// The number of threads OpenBLAS currently uses (set from lz::get_num_threads()
// before every BLAS call).
int blas_num_threads();

}  // namespace lz::cpu
