// Meta functions of copies, fills and conversions.
#pragma once

#include <optional>

#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::meta {

// src must broadcast to self; self must not be an expanded view.
TensorMeta copy_(const Tensor& self, const Tensor& src, bool non_blocking);
TensorMeta fill_(const Tensor& self, const Scalar& value);
TensorMeta clone(const Tensor& self, std::optional<MemoryFormat> memory_format);
TensorMeta to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                   std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
                   std::optional<MemoryFormat> memory_format);

// self with the elements of as_strided(self.contiguous(), size, stride,
// storage_offset) replaced by src: the functional form of writing through a
// view (the lazy layer's write-back). src has exactly `size`, self's dtype.
TensorMeta as_strided_scatter(const Tensor& self, const Tensor& src, IntArrayRef size,
                              IntArrayRef stride, std::optional<int64_t> storage_offset);
}  // namespace lz::meta
