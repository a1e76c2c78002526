#include "eager_kernels/meta/unary_meta.h"

#include "core/error.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::meta {

TensorMeta neg(const Tensor& self) {
  check_defined("neg", "self", self);
  LZ_CHECK(self.dtype() != ScalarType::Bool, TypeError,
           "[neg] self: negation, the `-` operator, on a bool tensor is not supported; use "
           "logical_not() or `~` to invert a mask");
  return meta_of(self);
}

TensorMeta exp(const Tensor& self) {
  check_defined("exp", "self", self);
  TensorMeta m = meta_of(self);
  if (!is_floating_point(m.dtype)) m.dtype = default_float_dtype();
  return m;
}

TensorMeta relu(const Tensor& self) {
  check_defined("relu", "self", self);
  LZ_CHECK(self.dtype() != ScalarType::Bool, TypeError,
           "[relu] self: not implemented for dtype bool");
  return meta_of(self);
}

}  // namespace lz::meta
