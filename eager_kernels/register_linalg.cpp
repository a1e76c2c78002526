// Matrix products: mm, bmm and addmm are structured CPU kernels (OpenBLAS for
// the float types); matmul is a composite of mm/bmm and views, so the Lazy
// key records the product it reduces to.
#include "core/op_registration.h"
#include "core/ops_linalg.h"
#include "core/ops_views.h"
#include "core/structured.h"
#include "eager_kernels/cpu/linalg_kernels.h"
#include "eager_kernels/meta/linalg_meta.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz {

namespace {

int64_t product(IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// torch.matmul (PyTorch's _matmul_impl without the autograd cases).
Tensor matmul_composite(const Tensor& self, const Tensor& other) {
  meta::check_defined("matmul", "self", self);
  meta::check_defined("matmul", "other", other);
  const int64_t dim1 = self.dim(), dim2 = other.dim();
  LZ_CHECK(dim1 > 0 && dim2 > 0, ShapeError,
           "[matmul] both arguments to matmul need to be at least 1D, but they are ", dim1, "D and ",
           dim2, "D");
  LZ_CHECK(self.dtype() == other.dtype(), TypeError,
           "[matmul] other: expected self and other to have the same dtype, but got: ", self.dtype(),
           " != ", other.dtype());
  meta::check_matmul_dtype("matmul", "self", self.dtype());
  const int64_t k1 = self.size(dim1 - 1);
  const int64_t k2 = dim2 == 1 ? other.size(0) : other.size(dim2 - 2);
  LZ_CHECK(k1 == k2, ShapeError, "[matmul] self and other shapes cannot be multiplied (",
           shape_str(self.sizes()), " and ", shape_str(other.sizes()), "): self's last dim has size ",
           k1, " but other's ", dim2 == 1 ? "only" : "second-to-last", " dim has size ", k2);

  if (dim1 == 1 && dim2 == 1) return mm(self.unsqueeze(0), other.unsqueeze(1)).reshape({});
  if (dim1 == 2 && dim2 == 1) return mm(self, other.unsqueeze(1)).squeeze(1);
  if (dim1 == 1 && dim2 == 2) return mm(self.unsqueeze(0), other).squeeze(0);
  if (dim1 == 2 && dim2 == 2) return mm(self, other);

  if (dim1 >= 3 && dim2 <= 2) {
    // Fold self's batch dims into the rows of one matrix product.
    SizeVec out_shape(self.sizes().begin(), self.sizes().end() - 1);
    const int64_t rows = product(out_shape);
    const Tensor folded = self.reshape({rows, k1});
    if (dim2 == 2) {
      out_shape.push_back(other.size(1));
      return mm(folded, other).view(out_shape);
    }
    return mm(folded, other.unsqueeze(1)).view(out_shape);
  }

  // Batched: broadcast the batch dims, flatten them into one, and bmm. A
  // batch that was broadcast from nothing flattens to a stride-0 view, so
  // the matrix is not copied per batch.
  const IntArrayRef batch1 = dim1 > 2 ? self.sizes().subspan(0, dim1 - 2) : IntArrayRef{};
  const IntArrayRef batch2 = dim2 > 2 ? other.sizes().subspan(0, dim2 - 2) : IntArrayRef{};
  const SizeVec batch = broadcast_shapes(batch1, batch2, "matmul", "self's batch dims",
                                         "other's batch dims");
  const int64_t n = dim1 > 1 ? self.size(dim1 - 2) : 1;
  const int64_t p = dim2 > 1 ? other.size(dim2 - 1) : 1;
  const int64_t batch_numel = product(batch);

  SizeVec size1 = batch, size2 = batch;
  size1.insert(size1.end(), {n, k1});
  size2.insert(size2.end(), {k1, p});
  const Tensor a = (dim1 == 1 ? self.unsqueeze(0) : self).expand(size1).reshape({batch_numel, n, k1});
  const Tensor b = (dim2 == 1 ? other.unsqueeze(1) : other).expand(size2).reshape({batch_numel, k1, p});

  SizeVec out_shape = batch;
  if (dim1 > 1) out_shape.push_back(n);
  if (dim2 > 1) out_shape.push_back(p);
  return bmm(a, b).view(out_shape);
}

Tensor matmul_out_composite(const Tensor& self, const Tensor& other, const Tensor& out) {
  const Tensor result = matmul(self, other);
  detail::prepare_out("matmul.out", out, meta_of(result));
  detail::copy_into(out, result);
  return out;
}

// A product summed in self's dtype (not int64 for integers, as sum() would),
// so lazily it fuses into one reduction.
Tensor dot_composite(const Tensor& self, const Tensor& tensor) {
  meta::check_defined("dot", "self", self);
  meta::check_defined("dot", "tensor", tensor);
  LZ_CHECK(self.dim() == 1 && tensor.dim() == 1, ShapeError, "[dot] self, tensor: expected 1-D tensors, got ",
           self.dim(), "-D and ", tensor.dim(), "-D");
  LZ_CHECK(self.size(0) == tensor.size(0), ShapeError, "[dot] self, tensor: expected tensors of one size, got ",
           shape_str(self.sizes()), " and ", shape_str(tensor.sizes()));
  LZ_CHECK(self.dtype() == tensor.dtype(), TypeError, "[dot] self, tensor: expected one dtype, got ",
           self.dtype(), " and ", tensor.dtype());
  LZ_CHECK(self.dtype() != ScalarType::Bool, TypeError, "[dot] self: bool tensors are not supported");
  return (self * tensor).sum(self.dtype());
}

Tensor outer_composite(const Tensor& self, const Tensor& vec2) {
  meta::check_defined("outer", "self", self);
  meta::check_defined("outer", "vec2", vec2);
  LZ_CHECK(self.dim() == 1 && vec2.dim() == 1, ShapeError, "[outer] self, vec2: expected 1-D tensors, got ",
           self.dim(), "-D and ", vec2.dim(), "-D");
  return self.unsqueeze(1) * vec2;
}

}  // namespace

LZ_LIBRARY(linalg_ops) {
  lib.def_structured<&meta::mm>(OpId::mm).impl<&cpu::mm_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::bmm>(OpId::bmm).impl<&cpu::bmm_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::addmm>(OpId::addmm).impl<&cpu::addmm_impl>(DispatchKey::CPU);
  lib.def(OpId::matmul).composite(&matmul_composite);
  lib.def(OpId::matmul_out).composite(&matmul_out_composite);
  lib.def(OpId::dot).composite(&dot_composite);
  lib.def(OpId::outer).composite(&outer_composite);
}

}  // namespace lz
