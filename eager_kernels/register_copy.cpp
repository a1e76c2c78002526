// Copies, fills, conversions and reading a value back.
#include "core/op_registration.h"
#include "core/ops_copy.h"
#include "core/ops_views.h"
#include "eager_kernels/cpu/compare_kernels.h"
#include "eager_kernels/cpu/copy_kernels.h"
#include "eager_kernels/meta/copy_meta.h"

namespace lz {

namespace {

using OptFormat = std::optional<MemoryFormat>;

Tensor zero_composite(const Tensor& self) {
  Tensor s = self;
  return s.fill_(0);
}

Tensor to_dtype_composite(const Tensor& self, ScalarType dtype, bool non_blocking, bool copy, OptFormat) {
  if (self.dtype() == dtype && !copy) return self;
  return _to_copy(self, dtype, non_blocking);
}

Tensor to_dtype_layout_composite(const Tensor& self, std::optional<ScalarType> dtype,
                                 std::optional<Layout>, std::optional<Device> device,
                                 std::optional<bool>, bool non_blocking, bool copy, OptFormat) {
  const bool same = dtype.value_or(self.dtype()) == self.dtype() &&
                    device.value_or(self.device()) == self.device();
  if (same && !copy) return self;
  return _to_copy(self, TensorOptions().dtype(dtype).device(device), non_blocking);
}

Scalar item_composite(const Tensor& self) {
  LZ_CHECK(self.defined(), ValueError, "[item] self: the tensor is undefined");
  LZ_CHECK(self.numel() == 1, ValueError, "[item] a tensor with ", self.numel(),
           " elements cannot be converted to a Scalar (shape ", shape_str(self.sizes()), ")");
  return _local_scalar_dense(self);
}

Tensor as_strided_scatter_kernel(const Tensor& self, const Tensor& src, IntArrayRef size,
                                  IntArrayRef stride, std::optional<int64_t> storage_offset) {
  meta::as_strided_scatter(self, src, size, stride, storage_offset);
  Tensor out = clone(self, MemoryFormat::Contiguous);
  Tensor dst = as_strided(out, size, stride, storage_offset.value_or(0));
  // A broadcast (stride 0) dim writes one element many times: the last
  // write wins, as when fill_ runs on an expanded view, whose write-back
  // into the base this is.
  Tensor from = src;
  for (int64_t d = 0; d < dst.dim(); ++d) {
    if (dst.strides()[d] == 0 && dst.sizes()[d] > 1) {
      dst = dst.narrow(d, dst.sizes()[d] - 1, 1);
      from = from.narrow(d, from.sizes()[d] - 1, 1);
    }
  }
  dst.copy_(from);
  return out;
}

}  // namespace

LZ_LIBRARY(copy_ops) {
  constexpr DispatchKey kCpu = DispatchKey::CPU;
  lib.def(OpId::copy_).meta(&meta::copy_).kernel(kCpu, &cpu::copy_);
  lib.def(OpId::fill__Scalar).meta(&meta::fill_).kernel(kCpu, &cpu::fill_);
  lib.def(OpId::zero_).composite(&zero_composite);
  lib.def(OpId::clone).meta(&meta::clone).kernel(kCpu, &cpu::clone);
  lib.def(OpId::_to_copy).meta(&meta::to_copy).kernel(kCpu, &cpu::to_copy);
  lib.def(OpId::to_dtype).composite(&to_dtype_composite);
  lib.def(OpId::to_dtype_layout).composite(&to_dtype_layout_composite);
  lib.def(OpId::as_strided_scatter).meta(&meta::as_strided_scatter).kernel(kCpu, &as_strided_scatter_kernel);
  lib.def(OpId::_local_scalar_dense).kernel(kCpu, &cpu::local_scalar_dense);
  lib.def(OpId::item).composite(&item_composite);
}

}  // namespace lz
