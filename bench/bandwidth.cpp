#include "bench/bandwidth.h"

#include "core/parallel.h"
#include "eager_kernels/cpu/streaming_store.h"

namespace lz::bench {

void stream_copy(const Tensor& dst, const Tensor& src) {
  float* d = dst.data_ptr<float>();
  const float* s = src.data_ptr<float>();
  parallel_for(0, kElements, 1 << 16, [&](int64_t b, int64_t e) {
    cpu::streaming_copy(d + b, s + b, static_cast<size_t>(e - b) * sizeof(float));
    cpu::streaming_store_fence();
  });
}

}  // namespace lz::bench
