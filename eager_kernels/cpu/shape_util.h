// Helpers of the shape and indexing kernels: views with arbitrary geometry
// (internal only, never returned to users), same-dtype copies between any
// layouts, and element types chosen by size for kernels that only move bytes.
#pragma once

#include <cstdint>
#include <cstring>

#include "core/error.h"
#include "core/tensor.h"
#include "eager_kernels/cpu/tensor_iterator.h"

namespace lz::cpu {

// Bytes per parallel chunk of a plain copy (as copy_ uses).
inline constexpr int64_t kCopyGrainBytes = TensorIterator::kGrainSize * 16;

// A view of t's storage with the given geometry; no checks (strides may be
// negative or 0).
Tensor restride(const Tensor& t, IntArrayRef sizes, IntArrayRef strides, int64_t storage_offset);

// A new contiguous tensor of t's sizes, dtype and device.
Tensor new_like(const Tensor& t);

// dst = src for tensors of the same dtype (src broadcasts to dst), parallel:
// one memcpy when both are contiguous, else the TensorIterator's copy loop.
void copy_same_dtype(const Tensor& dst, const Tensor& src);

// Whether `out` shares any memory with `input` (an undefined input shares none).
bool shares_memory(const Tensor& out, const Tensor& input);

// Runs write(out), or, when `via_temp`, write(tmp) into a new tensor of out's
// sizes and dtype that is then copied into out: for out= and in-place calls
// whose output shares memory with an input that the kernel reads while
// writing (flip_out(x, x) must not read what it has already written).
template <class Write>
void write_maybe_via_temp(const Tensor& out, bool via_temp, Write&& write) {
  if (!via_temp) {
    write(out);
    return;
  }
  const Tensor tmp = new_like(out);
  write(tmp);
  copy_same_dtype(out, tmp);
}

// memcpy split across the thread pool; streaming stores for large copies.
void parallel_memcpy(void* dst, const void* src, int64_t bytes);

// An unsigned integer type of `itemsize` bytes: kernels that only move
// elements are instantiated once per size instead of once per dtype.
template <class F>
decltype(auto) visit_itemsize(size_t itemsize, F&& f) {
  switch (itemsize) {
    case 1: return f(static_cast<uint8_t*>(nullptr));
    case 2: return f(static_cast<uint16_t*>(nullptr));
    case 4: return f(static_cast<uint32_t*>(nullptr));
    case 8: return f(static_cast<uint64_t*>(nullptr));
    default: break;
  }
  LZ_INTERNAL_ASSERT(false, "visit_itemsize: unexpected element size ", itemsize);
}

}  // namespace lz::cpu
