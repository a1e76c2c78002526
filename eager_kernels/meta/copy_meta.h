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

}  // namespace lz::meta
