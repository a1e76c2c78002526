// Allocating tensors without going through the dispatcher: what kernels use
// for their outputs once the backend is already decided.
#pragma once

#include "core/scalar.h"
#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz {

// Contiguous, uninitialised, from the device's current allocator.
Tensor empty_tensor(IntArrayRef sizes, ScalarType dtype, Device device);
inline Tensor empty_tensor(const TensorMeta& meta) {
  return empty_tensor(meta.sizes, meta.dtype, meta.device);
}
// Storage large enough for the given geometry, viewed with those strides.
Tensor empty_strided_tensor(IntArrayRef sizes, IntArrayRef strides, ScalarType dtype,
                            Device device);

// A 0-dim CPU tensor holding a C++ number, flagged as a wrapped number so
// type promotion treats it like a Python scalar (x + 2.5 stays float32).
Tensor wrapped_scalar_tensor(const Scalar& value);

// Writes `value` into one element of type `dtype` at `dst` (CPU memory);
// ValueError if an integral dtype cannot hold it.
void store_scalar(void* dst, ScalarType dtype, const Scalar& value);
// Reads one element of type `dtype` at `src` (CPU memory).
Scalar load_scalar(const void* src, ScalarType dtype);

}  // namespace lz
