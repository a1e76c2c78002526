#include "eager_kernels/cuda/fill_kernels.h"

#include "core/cuda/copy.h"
#include "core/empty_tensor.h"
#include "core/error.h"

namespace lz::cuda {

bool can_fill_contiguous(const Tensor& self) { return self.is_cuda() && self.is_contiguous(); }

void fill_contiguous(const Tensor& self, const Scalar& value) {
  LZ_INTERNAL_ASSERT(can_fill_contiguous(self), "fill_contiguous: not a contiguous CUDA tensor");
  uint64_t bits = 0;  // the element's bytes, little-endian in the low end
  store_scalar(&bits, self.dtype(), value);
  fill_device(self.data_ptr(), self.device().index(), bits, element_size(self.dtype()),
              static_cast<size_t>(self.numel()));
}

}  // namespace lz::cuda
