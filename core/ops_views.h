// View operators as free functions (the Tensor methods call these). A view
// shares its input's storage and version counter; writes through it are
// visible in the base.
#pragma once

#include <optional>

#include "core/tensor.h"

namespace lz {

Tensor view(const Tensor& self, IntArrayRef size);
// A view when the strides allow it, else a copy.
Tensor reshape(const Tensor& self, IntArrayRef shape);
Tensor flatten(const Tensor& self, int64_t start_dim = 0, int64_t end_dim = -1);
Tensor permute(const Tensor& self, IntArrayRef dims);
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1);
Tensor t(const Tensor& self);
Tensor expand(const Tensor& self, IntArrayRef size, bool implicit = false);
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length);
Tensor slice(const Tensor& self, int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
             std::optional<int64_t> end = std::nullopt, int64_t step = 1);
Tensor select(const Tensor& self, int64_t dim, int64_t index);
Tensor squeeze(const Tensor& self);
Tensor squeeze(const Tensor& self, int64_t dim);
Tensor unsqueeze(const Tensor& self, int64_t dim);
Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset = std::nullopt);

}  // namespace lz
