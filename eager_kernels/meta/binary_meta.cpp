#include "eager_kernels/meta/binary_meta.h"

#include "core/error.h"
#include "core/type_promotion.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::meta {

TensorMeta binary(std::string_view op, const Tensor& self, const Tensor& other) {
  check_defined(op, "self", self);
  check_defined(op, "other", other);
  Device device = self.device();
  if (self.device() != other.device()) {
    // A 0-dim CPU tensor is a scalar and may join a tensor on any device.
    const bool self_is_cpu_scalar = self.dim() == 0 && self.is_cpu();
    const bool other_is_cpu_scalar = other.dim() == 0 && other.is_cpu();
    LZ_CHECK(self_is_cpu_scalar || other_is_cpu_scalar, DeviceError, "[", op,
             "] expected all tensors on the same device, but self is on ", self.device(),
             " and other on ", other.device());
    device = self_is_cpu_scalar ? other.device() : self.device();
  }
  return TensorMeta{broadcast_shapes(self.sizes(), other.sizes(), op, "self", "other"),
                    result_type(self, other), device};
}

namespace {

void check_alpha(std::string_view op, ScalarType result, const Scalar& alpha) {
  LZ_CHECK(!(is_integral(result, /*include_bool=*/true) && alpha.is_floating_point()), TypeError,
           "[", op, "] alpha: for integral input tensors (", result,
           "), alpha must not be a floating point number, got ", alpha);
  LZ_CHECK(result == ScalarType::Bool || !alpha.is_bool(), TypeError, "[", op,
           "] alpha: a bool alpha is only supported for bool results, got result type ", result);
}

}  // namespace

TensorMeta add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  TensorMeta m = binary("add", self, other);
  check_alpha("add", m.dtype, alpha);
  return m;
}

TensorMeta sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  TensorMeta m = binary("sub", self, other);
  LZ_CHECK(self.dtype() != ScalarType::Bool && other.dtype() != ScalarType::Bool, TypeError,
           "[sub] subtraction, the `-` operator, with a bool tensor is not supported (self ",
           self.dtype(), ", other ", other.dtype(),
           "); use logical_xor() or `^` to compare masks");
  check_alpha("sub", m.dtype, alpha);
  return m;
}

TensorMeta mul(const Tensor& self, const Tensor& other) { return binary("mul", self, other); }

TensorMeta div(const Tensor& self, const Tensor& other) {
  TensorMeta m = binary("div", self, other);
  if (!is_floating_point(m.dtype)) m.dtype = default_float_dtype();
  return m;
}

}  // namespace lz::meta
