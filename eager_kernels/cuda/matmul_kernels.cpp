#include "eager_kernels/cuda/matmul_kernels.h"

#include "core/error.h"
#include "core/factories.h"
#include "eager_kernels/blas_layout.h"
#include "eager_kernels/cuda/cublas.h"
#include "eager_kernels/meta/linalg_meta.h"

namespace lz::cuda {

namespace {

using lz::blas::BlasLayout;
using lz::blas::blas_layout;
using lz::blas::Mats;
using lz::blas::mats_of;

// An operand as cuBLAS can read it: itself, or a contiguous copy.
std::pair<Tensor, BlasLayout> readable(const Tensor& t) {
  if (const std::optional<BlasLayout> l = blas_layout(mats_of(t))) return {t, *l};
  Tensor c = t.contiguous();
  return {c, *blas_layout(mats_of(c))};
}

// out (contiguous, row-major) = alpha * a @ b + beta * out.
void matmul_into(const char* what, const Tensor& out, const Tensor& a_in, const Tensor& b_in, double alpha,
                 double beta) {
  if (out.numel() == 0) return;
  const auto [a, la] = readable(a_in);
  const auto [b, lb] = readable(b_in);
  const Mats A = mats_of(a), B = mats_of(b), C = mats_of(out);
  // Row-major C = A B is column-major C^T = B^T A^T: B comes first, and an
  // operand read row-major (trans false) is, column-major, its transpose.
  blas::gemm_strided_batched(what, out.device().index(), out.dtype(), lb.trans, la.trans, C.cols, C.rows, A.cols,
                             alpha, B.data, lb.ld, B.sb, A.data, la.ld, A.sb, beta, C.data, C.cols, C.sb, C.batch);
}

void check_cuda(const char* what, std::initializer_list<const Tensor*> tensors) {
  for (const Tensor* t : tensors) {
    LZ_CHECK(t->is_cuda(), DeviceError, "[", what, "] expected CUDA tensors, got one on ", t->device());
  }
}

Tensor product(const char* what, const TensorMeta& m, const Tensor& a, const Tensor& b) {
  check_cuda(what, {&a, &b});
  Tensor out = empty(m.sizes, TensorOptions().dtype(m.dtype).device(m.device));
  if (a.size(-1) == 0) return out.zero_();  // an empty sum
  matmul_into(what, out, a, b, 1.0, 0.0);
  return out;
}

}  // namespace

Tensor mm(const Tensor& self, const Tensor& mat2) { return product("mm", meta::mm(self, mat2), self, mat2); }
Tensor bmm(const Tensor& self, const Tensor& mat2) { return product("bmm", meta::bmm(self, mat2), self, mat2); }

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta, const Scalar& alpha) {
  const TensorMeta m = meta::addmm(self, mat1, mat2, beta, alpha);
  check_cuda("addmm", {&self, &mat1, &mat2});
  Tensor out = empty(m.sizes, TensorOptions().dtype(m.dtype).device(m.device));
  const double b = beta.to<double>();
  // beta == 0 ignores self, NaN included (as PyTorch).
  if (b == 0) {
    out.zero_();
  } else {
    out.copy_(self.expand(m.sizes));
  }
  if (mat1.size(1) == 0) return b == 0 || b == 1 ? out : out.mul_(beta);
  matmul_into("addmm", out, mat1, mat2, alpha.to<double>(), b);
  return out;
}

}  // namespace lz::cuda
