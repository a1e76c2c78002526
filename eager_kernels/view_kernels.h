// View kernels: device-agnostic (they only build a TensorImpl that shares
// self's storage), registered for every backend.
#pragma once

#include <optional>

#include "core/tensor.h"

namespace lz::views {

Tensor view(const Tensor& self, IntArrayRef size);
Tensor permute(const Tensor& self, IntArrayRef dims);
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor expand(const Tensor& self, IntArrayRef size, bool implicit);
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> end, int64_t step);
Tensor select(const Tensor& self, int64_t dim, int64_t index);
Tensor squeeze(const Tensor& self);
Tensor squeeze_dim(const Tensor& self, int64_t dim);
Tensor unsqueeze(const Tensor& self, int64_t dim);
// Also checks the view stays inside self's storage.
Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset);

}  // namespace lz::views
