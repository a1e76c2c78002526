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

}  // namespace lz::meta
