// Call sites of the matrix products (schemas and kernels: eager_kernels/).
#include "core/op_call.h"
#include "core/ops_linalg.h"

namespace lz {

using BinarySig = Tensor(const Tensor&, const Tensor&);
using BinaryOutSig = Tensor(const Tensor&, const Tensor&, const Tensor&);
using AddmmSig = Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&, const Scalar&);
using AddmmOutSig =
    Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&, const Scalar&, const Tensor&);

Tensor mm(const Tensor& self, const Tensor& mat2) { return LZ_OP("mm", BinarySig).call(self, mat2); }
Tensor& mm_out(Tensor& out, const Tensor& self, const Tensor& mat2) {
  LZ_OP("mm.out", BinaryOutSig).call(self, mat2, out);
  return out;
}

Tensor bmm(const Tensor& self, const Tensor& mat2) { return LZ_OP("bmm", BinarySig).call(self, mat2); }
Tensor& bmm_out(Tensor& out, const Tensor& self, const Tensor& mat2) {
  LZ_OP("bmm.out", BinaryOutSig).call(self, mat2, out);
  return out;
}

Tensor matmul(const Tensor& self, const Tensor& other) {
  return LZ_OP("matmul", BinarySig).call(self, other);
}
Tensor& matmul_out(Tensor& out, const Tensor& self, const Tensor& other) {
  LZ_OP("matmul.out", BinaryOutSig).call(self, other, out);
  return out;
}

Tensor addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
             const Scalar& alpha) {
  return LZ_OP("addmm", AddmmSig).call(self, mat1, mat2, beta, alpha);
}
Tensor& addmm_(Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
               const Scalar& alpha) {
  LZ_OP("addmm_", AddmmSig).call(self, mat1, mat2, beta, alpha);
  return self;
}
Tensor& addmm_out(Tensor& out, const Tensor& self, const Tensor& mat1, const Tensor& mat2,
                  const Scalar& beta, const Scalar& alpha) {
  LZ_OP("addmm.out", AddmmOutSig).call(self, mat1, mat2, beta, alpha, out);
  return out;
}

}  // namespace lz
