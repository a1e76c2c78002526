#include "eager_kernels/meta/meta_utils.h"

#include "core/empty_tensor.h"
#include "core/error.h"

namespace lz::meta {

void check_value_fits(std::string_view op, ScalarType dtype, const Scalar& value) {
  alignas(8) unsigned char buffer[8];
  try {
    store_scalar(buffer, dtype, value);
  } catch (const ValueError&) {
    LZ_FAIL(ValueError, "[", op, "] value: ", value, " cannot be converted to ", dtype, " without overflow");
  }
}

void check_defined(std::string_view op, std::string_view arg, const Tensor& t) {
  LZ_CHECK(t.defined(), ValueError, "[", op, "] ", arg, ": expected a defined tensor, got an undefined one");
}

void check_same_device(std::string_view op, std::string_view a_name, const Tensor& a,
                       std::string_view b_name, const Tensor& b) {
  LZ_CHECK(a.device() == b.device(), DeviceError, "[", op,
           "] expected all tensors on the same device, but ", a_name, " is on ", a.device(),
           " and ", b_name, " on ", b.device());
}

const Tensor& wrapped_number_meta(const Scalar& s) {
  static const Tensor of_bool = wrapped_scalar_tensor(Scalar(false));
  static const Tensor of_int = wrapped_scalar_tensor(Scalar(int64_t{0}));
  static const Tensor of_double = wrapped_scalar_tensor(Scalar(0.0));
  switch (s.kind()) {
    case Scalar::Kind::Bool: return of_bool;
    case Scalar::Kind::Int: return of_int;
    case Scalar::Kind::Double: break;
  }
  return of_double;
}

}  // namespace lz::meta
