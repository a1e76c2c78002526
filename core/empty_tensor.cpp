#include "core/empty_tensor.h"

#include "core/error.h"

namespace lz {

Tensor empty_tensor(IntArrayRef sizes, ScalarType dtype, Device device) {
  const int64_t n = checked_numel(sizes, "empty");
  size_t nbytes = 0;
  LZ_CHECK(!__builtin_mul_overflow(static_cast<size_t>(n), element_size(dtype), &nbytes),
           ValueError, "[empty] size: ", shape_str(sizes), " of ", dtype,
           " needs more bytes than fit in size_t");
  return Tensor(make_intrusive<TensorImpl>(make_storage(nbytes, device), dtype, sizes));
}

Tensor empty_strided_tensor(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                            Device device) {
  LZ_CHECK(sizes.size() == strides.size(), ShapeError, "[empty_strided] size ", shape_str(sizes),
           " and stride ", shape_str(strides), " must have the same length");
  checked_numel(sizes, "empty_strided");
  // Elements needed = 1 + sum((size - 1) * stride), or 0 if any size is 0.
  int64_t span = 1;
  for (size_t i = 0; i < sizes.size(); ++i) {
    LZ_CHECK(strides[i] >= 0, ValueError, "[empty_strided] stride: negative strides are not supported, got ",
             shape_str(strides));
    if (sizes[i] == 0) {
      span = 0;
      break;
    }
    span += (sizes[i] - 1) * strides[i];
  }
  Tensor t = empty_tensor({span}, dtype, device);
  t.unsafe_get_impl()->set_sizes_and_strides(sizes, strides, 0);
  return t;
}

Tensor wrapped_scalar_tensor(const Scalar& value) {
  Tensor t = empty_tensor({}, value.type(), Device(DeviceType::CPU));
  store_scalar(t.data_ptr(), t.dtype(), value);
  t.unsafe_get_impl()->set_wrapped_number(true);
  return t;
}

void store_scalar(void* dst, ScalarType dtype, const Scalar& value) {
  switch (dtype) {
#define LZ_STORE_CASE(cpp, name, str)          \
  case ScalarType::name:                       \
    *static_cast<cpp*>(dst) = value.to<cpp>(); \
    return;
    LZ_FORALL_SCALAR_TYPES(LZ_STORE_CASE)
#undef LZ_STORE_CASE
    case ScalarType::Undefined: break;
  }
  LZ_INTERNAL_ASSERT(false, "store_scalar: undefined dtype");
}

Scalar load_scalar(const void* src, ScalarType dtype) {
  switch (dtype) {
#define LZ_LOAD_CASE(cpp, name, str) \
  case ScalarType::name: return Scalar(*static_cast<const cpp*>(src));
    LZ_FORALL_SCALAR_TYPES(LZ_LOAD_CASE)
#undef LZ_LOAD_CASE
    case ScalarType::Undefined: break;
  }
  LZ_INTERNAL_ASSERT(false, "load_scalar: undefined dtype");
}

}  // namespace lz
