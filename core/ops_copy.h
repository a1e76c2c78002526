// Copies and dtype/device conversion.
#pragma once

#include <optional>

#include "core/tensor.h"
#include "core/tensor_options.h"

namespace lz {

// A new tensor with self's values; keeps self's dense stride order unless
// memory_format is Contiguous.
Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format = std::nullopt);
// Always a new tensor, converted to the dtype, device and memory format
// options name (self's where they name none): _to_copy(x, kHalf).
Tensor _to_copy(const Tensor& self, const TensorOptions& options = {}, bool non_blocking = false);
// The value of a one-element tensor as a Scalar (what Tensor::item() runs,
// after checking self has one element).
Scalar _local_scalar_dense(const Tensor& self);
// A contiguous copy of self whose elements at as_strided(size, stride,
// storage_offset) are replaced by src's (torch.as_strided_scatter).
Tensor as_strided_scatter(const Tensor& self, const Tensor& src, IntArrayRef size, IntArrayRef stride,
                          std::optional<int64_t> storage_offset = std::nullopt);

}  // namespace lz
