#include "eager_kernels/meta/copy_meta.h"

#include "core/error.h"
#include "core/memory_overlap.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::meta {

TensorMeta copy_(const Tensor& self, const Tensor& src, bool) {
  check_defined("copy_", "self", self);
  check_defined("copy_", "src", src);
  LZ_CHECK(is_expandable_to(src.sizes(), self.sizes()), ShapeError, "[copy_] src: shape ",
           shape_str(src.sizes()), " cannot be broadcast to self shape ", shape_str(self.sizes()));
  check_no_internal_overlap("copy_", "self", self);
  return meta_of(self);
}

TensorMeta fill_(const Tensor& self, const Scalar& value) {
  check_defined("fill_", "self", self);
  check_value_fits("fill_", self.dtype(), value);
  return meta_of(self);
}

TensorMeta clone(const Tensor& self, std::optional<MemoryFormat>) {
  check_defined("clone", "self", self);
  return meta_of(self);
}

TensorMeta to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout>,
                   std::optional<Device> device, std::optional<bool>, bool,
                   std::optional<MemoryFormat>) {
  check_defined("_to_copy", "self", self);
  TensorMeta m = meta_of(self);
  if (dtype) m.dtype = *dtype;
  if (device) m.device = *device;
  return m;
}

TensorMeta as_strided_scatter(const Tensor& self, const Tensor& src, IntArrayRef size,
                              IntArrayRef stride, std::optional<int64_t> storage_offset) {
  constexpr std::string_view op = "as_strided_scatter";
  check_defined(op, "self", self);
  check_defined(op, "src", src);
  LZ_CHECK(size.size() == stride.size(), ShapeError, "[", op, "] size ", shape_str(size),
           " and stride ", shape_str(stride), " must have the same length");
  LZ_CHECK(src.sizes() == size, ShapeError, "[", op, "] src: shape ", shape_str(src.sizes()),
           " must equal size ", shape_str(size));
  LZ_CHECK(src.dtype() == self.dtype(), TypeError, "[", op, "] src: dtype ", src.dtype(),
           " must equal self's dtype ", self.dtype());
  LZ_CHECK(src.device() == self.device(), DeviceError, "[", op, "] src is on ", src.device(),
           ", self on ", self.device());
  const int64_t offset = storage_offset.value_or(0);
  LZ_CHECK(offset >= 0, ValueError, "[", op, "] storage_offset: must be >= 0, got ", offset);
  int64_t last = offset;
  bool empty = false;
  for (size_t d = 0; d < size.size(); ++d) {
    LZ_CHECK(stride[d] >= 0, ValueError, "[", op, "] stride: negative strides are not supported, got ",
             shape_str(stride));
    if (size[d] == 0) empty = true;
    last += (size[d] - 1) * stride[d];
  }
  LZ_CHECK(empty || last < self.numel(), IndexError, "[", op, "] the view (size ", shape_str(size),
           ", stride ", shape_str(stride), ", offset ", offset, ") reaches element ", last,
           " of self with only ", self.numel(), " elements (shape ", shape_str(self.sizes()), ")");
  return meta_of(self);
}

}  // namespace lz::meta
