#include "eager_kernels/meta/linalg_meta.h"

#include "core/error.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::meta {

void check_matmul_dtype(std::string_view op, std::string_view arg, ScalarType dtype) {
  LZ_CHECK(dtype != ScalarType::Bool, TypeError, "[", op, "] ", arg,
           ": matrix multiplication is not implemented for dtype bool");
}

namespace {

void check_same_dtype(std::string_view op, std::string_view a_name, const Tensor& a,
                      std::string_view b_name, const Tensor& b) {
  LZ_CHECK(a.dtype() == b.dtype(), TypeError, "[", op, "] ", b_name, ": expected ", a_name,
           " and ", b_name, " to have the same dtype, but got: ", a.dtype(), " != ", b.dtype());
}

void check_matrix(std::string_view op, std::string_view arg, const Tensor& t) {
  LZ_CHECK(t.dim() == 2, ShapeError, "[", op, "] ", arg, ": expected a 2-D matrix, got a ",
           t.dim(), "-D tensor of shape ", shape_str(t.sizes()));
}

// The shared checks of mm and addmm (mat1 @ mat2).
void check_mm_operands(std::string_view op, std::string_view a_name, const Tensor& a,
                       std::string_view b_name, const Tensor& b) {
  check_defined(op, a_name, a);
  check_defined(op, b_name, b);
  check_matrix(op, a_name, a);
  check_matrix(op, b_name, b);
  LZ_CHECK(a.size(1) == b.size(0), ShapeError, "[", op, "] mat1 and mat2 shapes cannot be multiplied (",
           a.size(0), "x", a.size(1), " and ", b.size(0), "x", b.size(1), ")");
  check_same_device(op, a_name, a, b_name, b);
  check_same_dtype(op, a_name, a, b_name, b);
  check_matmul_dtype(op, a_name, a.dtype());
}

// Integral results cannot take a fractional (or bool-only) coefficient.
void check_coefficient(std::string_view op, std::string_view name, ScalarType result,
                       const Scalar& value) {
  LZ_CHECK(!(is_integral(result, /*include_bool=*/true) && value.is_floating_point()), TypeError,
           "[", op, "] ", name, ": for integral input tensors (", result, "), ", name,
           " must not be a floating point number, got ", value);
}

}  // namespace

TensorMeta mm(const Tensor& self, const Tensor& mat2) {
  check_mm_operands("mm", "self", self, "mat2", mat2);
  return TensorMeta{{self.size(0), mat2.size(1)}, self.dtype(), self.device()};
}

TensorMeta bmm(const Tensor& self, const Tensor& mat2) {
  check_defined("bmm", "self", self);
  check_defined("bmm", "mat2", mat2);
  LZ_CHECK(self.dim() == 3, ShapeError, "[bmm] self: expected a 3-D tensor, got a ", self.dim(),
           "-D tensor of shape ", shape_str(self.sizes()));
  LZ_CHECK(mat2.dim() == 3, ShapeError, "[bmm] mat2: expected a 3-D tensor, got a ", mat2.dim(),
           "-D tensor of shape ", shape_str(mat2.sizes()));
  LZ_CHECK(mat2.size(0) == self.size(0) && mat2.size(1) == self.size(2), ShapeError,
           "[bmm] mat2: expected size for first two dimensions of batch2 tensor to be: [",
           self.size(0), ", ", self.size(2), "] but got: [", mat2.size(0), ", ", mat2.size(1),
           "] (self ", shape_str(self.sizes()), ", mat2 ", shape_str(mat2.sizes()), ")");
  check_same_device("bmm", "self", self, "mat2", mat2);
  check_same_dtype("bmm", "self", self, "mat2", mat2);
  check_matmul_dtype("bmm", "self", self.dtype());
  return TensorMeta{{self.size(0), self.size(1), mat2.size(2)}, self.dtype(), self.device()};
}

TensorMeta addmm(const Tensor& self, const Tensor& mat1, const Tensor& mat2, const Scalar& beta,
                 const Scalar& alpha) {
  check_defined("addmm", "self", self);
  check_mm_operands("addmm", "mat1", mat1, "mat2", mat2);
  check_same_device("addmm", "self", self, "mat1", mat1);
  LZ_CHECK(self.dtype() == mat2.dtype(), TypeError,
           "[addmm] self: self and mat2 must have the same dtype, but got ", self.dtype(), " and ",
           mat2.dtype());
  const SizeVec result{mat1.size(0), mat2.size(1)};
  LZ_CHECK(is_expandable_to(self.sizes(), result), ShapeError, "[addmm] self: shape ",
           shape_str(self.sizes()), " cannot be broadcast to the result shape ", shape_str(result),
           " (mat1 ", shape_str(mat1.sizes()), ", mat2 ", shape_str(mat2.sizes()), ")");
  check_coefficient("addmm", "beta", self.dtype(), beta);
  check_coefficient("addmm", "alpha", self.dtype(), alpha);
  return TensorMeta{result, mat1.dtype(), mat1.device()};
}

}  // namespace lz::meta
