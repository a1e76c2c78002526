// Matrix products (through OpenBLAS for the float types): libtorch's names.
// Operands must have the same dtype (no type promotion, as in PyTorch); bool
// is not supported. *_out variants write into `out` (resized if it is empty).
#pragma once

#include <string>
#include <string_view>

#include "core/tensor.h"

namespace lz {

// [n, k] @ [k, m] -> [n, m].
Tensor mm(const Tensor& self, const Tensor& mat2);
Tensor& mm_out(Tensor& out, const Tensor& self, const Tensor& mat2);

// Batched: [b, n, k] @ [b, k, m] -> [b, n, m].
Tensor bmm(const Tensor& self, const Tensor& mat2);
Tensor& bmm_out(Tensor& out, const Tensor& self, const Tensor& mat2);

// torch.matmul: 1-D @ 1-D is a dot product (0-dim result), a 1-D operand is
// a row (left) or column (right) vector whose added dim is removed again,
// and leading batch dims broadcast ([2, 1, n, k] @ [5, k, m] -> [2, 5, n, m]).
Tensor matmul(const Tensor& self, const Tensor& other);
Tensor& matmul_out(Tensor& out, const Tensor& self, const Tensor& other);

// Inner product of two 1-D tensors of one size and dtype (a 0-dim result).
Tensor dot(const Tensor& self, const Tensor& tensor);
// Outer product of two 1-D tensors: [n] x [m] -> [n, m] (types promote).
Tensor outer(const Tensor& self, const Tensor& vec2);
// Einstein summation, NumPy's subscripts: "ij,jk->ik", "...ij->...ji",
// "ii" (trace); a repeated subscript in one operand takes the diagonal.
Tensor einsum(std::string_view equation, TensorList tensors);

// beta * self + alpha * (mat1 @ mat2); self broadcasts to the product's shape.
// With beta == 0, self is ignored (NaN and inf in it do not propagate).
Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
             const Scalar& alpha = 1);
Tensor& addmm_(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
               const Scalar& alpha = 1);
Tensor& addmm_out(Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                  const Scalar& beta = 1, const Scalar& alpha = 1);

// The kernel set OpenBLAS runs the float matrix products with ("SkylakeX",
// "Haswell", ...): the environment variable OPENBLAS_CORETYPE when set, else
// Lazuli's choice for this CPU or OpenBLAS's own (eager_kernels/cpu/openblas.h).
// Not an operator (defined with the BLAS calls, eager_kernels/cpu/linalg_kernels.cpp).
std::string blas_core_name();

}  // namespace lz
