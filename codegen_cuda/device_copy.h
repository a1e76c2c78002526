// Element copies on a CUDA device between any two layouts and dtypes: a
// generated kernel (load, convert, store) with the source's and the
// destination's strides as arguments, one kernel per (rank, dtype pair).
// The strided and converting half of every CUDA copy_; byte copies and
// host transfers are core/cuda/copy.h.
#pragma once

#include "core/tensor.h"

namespace lz::codegen_cuda {

// dst[i] = convert(src[i]) for every index of dst; `src` broadcasts to
// dst's shape; both on the same CUDA device and not overlapping. Queued on
// the device's stream.
void copy_on_device(const Tensor& dst, const Tensor& src);

}  // namespace lz::codegen_cuda
