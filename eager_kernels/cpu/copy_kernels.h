// CPU copies, fills and conversions.
#pragma once

#include <optional>

#include "core/tensor.h"

namespace lz::cpu {

// Element-wise copy with broadcasting and dtype conversion; a src that
// partially overlaps self is copied out first.
Tensor copy_(const Tensor& self, const Tensor& src, bool non_blocking);
Tensor fill_(const Tensor& self, const Scalar& value);
// fill_'s loop alone, for kernels filling their own fresh result: the
// version counter counts the caller's writes, not a kernel's steps.
void fill_values(const Tensor& self, const Scalar& value);
// t itself when it is contiguous and of `dtype`, else a contiguous copy
// converted to `dtype` (for kernels that read dense rows).
Tensor contiguous_as(const Tensor& t, ScalarType dtype);
// New memory with self's dense stride order when it has one (preserve_format),
// else contiguous; then a copy.
Tensor clone(const Tensor& self, std::optional<MemoryFormat> memory_format);
Tensor to_copy(const Tensor& self, std::optional<ScalarType> dtype, std::optional<Layout> layout,
               std::optional<Device> device, std::optional<bool> pin_memory, bool non_blocking,
               std::optional<MemoryFormat> memory_format);

}  // namespace lz::cpu
