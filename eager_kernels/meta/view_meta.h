// View operators: their geometry (sizes, strides, storage offset of the
// result, from the input's) and argument checks. The meta functions return
// the sizes; the device-agnostic view kernels apply the full geometry.
#pragma once

#include <optional>

#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::meta {

struct ViewGeometry {
  SizeVec sizes;
  SizeVec strides;
  int64_t storage_offset = 0;
};

ViewGeometry view_geometry(const Tensor& self, IntArrayRef size);
ViewGeometry permute_geometry(const Tensor& self, IntArrayRef dims);
ViewGeometry transpose_geometry(const Tensor& self, int64_t dim0, int64_t dim1);
ViewGeometry expand_geometry(const Tensor& self, IntArrayRef size);
ViewGeometry slice_geometry(const Tensor& self, int64_t dim, std::optional<int64_t> start,
                            std::optional<int64_t> end, int64_t step);
ViewGeometry select_geometry(const Tensor& self, int64_t dim, int64_t index);
ViewGeometry squeeze_geometry(const Tensor& self, std::optional<int64_t> dim);
ViewGeometry unsqueeze_geometry(const Tensor& self, int64_t dim);
ViewGeometry as_strided_geometry(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                                 std::optional<int64_t> storage_offset);
// ValueError unless the view `g` stays within a storage of
// `storage_elements` elements (an empty view always does).
void check_as_strided_bounds(const ViewGeometry& g, int64_t storage_elements);

TensorMeta view(const Tensor& self, IntArrayRef size);
TensorMeta permute(const Tensor& self, IntArrayRef dims);
TensorMeta transpose(const Tensor& self, int64_t dim0, int64_t dim1);
TensorMeta expand(const Tensor& self, IntArrayRef size, bool implicit);
TensorMeta slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
                 std::optional<int64_t> end, int64_t step);
TensorMeta select(const Tensor& self, int64_t dim, int64_t index);
TensorMeta squeeze(const Tensor& self);
TensorMeta squeeze_dim(const Tensor& self, int64_t dim);
TensorMeta unsqueeze(const Tensor& self, int64_t dim);
TensorMeta as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                      std::optional<int64_t> storage_offset);

}  // namespace lz::meta
