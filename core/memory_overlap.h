// Whether two tensors share memory, and whether a tensor's own elements
// alias each other: writes must not read what they have already written.
#pragma once

#include <string_view>

#include "core/tensor.h"

namespace lz {

enum class Overlap {
  None,     // disjoint memory (or different storages)
  Full,     // exactly the same elements in the same order
  Partial,  // anything else that shares memory
};

Overlap overlap_kind(const Tensor& a, const Tensor& b);

// A tensor with a stride-0 dim of size > 1 (an expanded view) names one
// memory location several times; writing it gives undefined results.
bool has_internal_overlap(const Tensor& t);
// ValueError naming op and arg if t has internal overlap.
void check_no_internal_overlap(std::string_view op, std::string_view arg, const Tensor& t);

// Resizes t to `sizes` (contiguous strides, same storage offset), growing its
// storage if needed. For out= tensors given empty.
void resize_tensor(const Tensor& t, IntArrayRef sizes);

}  // namespace lz
