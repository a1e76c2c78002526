// native_dropout: keep each element with probability 1 - p and scale the kept
// ones by 1 / (1 - p). Element i of the (row-major) input draws lane i % 4 of
// Philox block i / 4 of a range reserved from the generator, so the result
// depends on the seed and the call order only, not on the thread count.
#include <algorithm>
#include <cmath>

#include "core/empty_tensor.h"
#include "core/generator.h"
#include "core/parallel.h"
#include "core/philox.h"
#include "eager_kernels/cpu/copy_kernels.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/loops.h"
#include "eager_kernels/cpu/nn_kernels.h"
#include "eager_kernels/cpu/philox_blocks.h"
#include "eager_kernels/meta/nn_meta.h"

namespace lz::cpu {

namespace {

// out[k] = in[k] * scale where word k draws below `keep`, else 0 (the mask
// says which), for n elements.
template <class T, class CT>
LZ_CPU_CLONES void dropout_run(const T* __restrict in, T* __restrict out, bool* __restrict mask,
                               const uint32_t* __restrict words, int64_t n, float keep, CT scale) {
  // uint32_to_unit_float(w) < keep compares the top 24 bits of w, scaled
  // exactly by 2^-24, with keep: the same as comparing the integers with
  // ceil(keep * 2^24).
  const uint32_t keep_bits = static_cast<uint32_t>(std::ceil(static_cast<double>(keep) * 16777216.0));
  // Two simple loops (the mask, then the output) that GCC vectorises; as one
  // loop it did not.
  for (int64_t k = 0; k < n; ++k) mask[k] = (words[k] >> 8) < keep_bits;
  for (int64_t k = 0; k < n; ++k) {
    out[k] = static_cast<T>(static_cast<CT>(in[k]) * static_cast<CT>(mask[k]) * scale);
  }
}

}  // namespace

std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p, std::optional<bool> train) {
  const MetaList m = meta::native_dropout(input, p, train);
  Tensor output = empty_tensor(m[0]);
  Tensor mask = empty_tensor(m[1]);
  const int64_t n = input.numel();
  const uint64_t blocks = static_cast<uint64_t>((n + 3) / 4);
  // Every call takes its generator slot, even one that draws nothing (see
  // core/generator.h): a lazily recorded call stays in step with eager.
  const GeneratorImpl::Range range = default_generator().impl()->reserve(blocks);
  if (n == 0) return {output, mask};
  if (train.has_value() && !*train) {
    copy_(output, input, false);
    fill_(mask, true);
    return {output, mask};
  }
  const Tensor x = input.is_contiguous() ? input : clone(input, MemoryFormat::Contiguous);
  const double keep = 1.0 - p;
  // PyTorch's rule: p == 1 scales by 0 (everything dropped), not by inf.
  const double scale = keep == 0 ? 0.0 : 1.0 / keep;
  const float keep_f = static_cast<float>(keep);
  bool* mk = mask.data_ptr<bool>();
  visit_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      using CT = opmath_t<T>;
      const T* in = x.data_ptr<T>();
      T* out = output.data_ptr<T>();
      const CT s = static_cast<CT>(scale);
      for_each_philox_batch(range, static_cast<int64_t>(blocks), [&](int64_t b, int64_t count, const uint32_t* words) {
        const int64_t i0 = b * 4;
        dropout_run(in + i0, out + i0, mk + i0, words, std::min(count * 4, n - i0), keep_f, s);
      });
    } else {
      LZ_INTERNAL_ASSERT(false, "native_dropout: unsupported dtype ", input.dtype());
    }
  });
  return {output, mask};
}

}  // namespace lz::cpu
