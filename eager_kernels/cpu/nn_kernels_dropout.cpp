// native_dropout: keep each element with probability 1 - p and scale the kept
// ones by 1 / (1 - p). Element i of the (row-major) input draws lane i % 4 of
// Philox block i / 4 of a range reserved from the generator, so the result
// depends on the seed and the call order only, not on the thread count.
#include <algorithm>

#include "core/empty_tensor.h"
#include "core/generator.h"
#include "core/parallel.h"
#include "core/philox.h"
#include "eager_kernels/cpu/copy_kernels.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/nn_kernels.h"
#include "eager_kernels/meta/nn_meta.h"

namespace lz::cpu {

std::tuple<Tensor, Tensor> native_dropout(const Tensor& input, double p, std::optional<bool> train) {
  const MetaList m = meta::native_dropout(input, p, train);
  Tensor output = empty_tensor(m[0]);
  Tensor mask = empty_tensor(m[1]);
  const int64_t n = input.numel();
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
  const uint64_t blocks = static_cast<uint64_t>((n + 3) / 4);
  const GeneratorImpl::Range range = default_generator().impl()->reserve(blocks);
  bool* mk = mask.data_ptr<bool>();
  visit_dtype(input.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      using CT = opmath_t<T>;
      const T* in = x.data_ptr<T>();
      T* out = output.data_ptr<T>();
      const CT s = static_cast<CT>(scale);
      parallel_for(0, static_cast<int64_t>(blocks), 4096, [&](int64_t b0, int64_t b1) {
        for (int64_t b = b0; b < b1; ++b) {
          const PhiloxBlock r = philox4x32_10(range.key, range.first_block + static_cast<uint64_t>(b));
          const int64_t i0 = b * 4, lanes = std::min<int64_t>(4, n - i0);
          for (int64_t l = 0; l < lanes; ++l) {
            const bool kept = uint32_to_unit_float(r[l]) < keep_f;
            mk[i0 + l] = kept;
            out[i0 + l] = static_cast<T>(static_cast<CT>(in[i0 + l]) * CT(kept ? 1 : 0) * s);
          }
        }
      });
    } else {
      LZ_INTERNAL_ASSERT(false, "native_dropout: unsupported dtype ", input.dtype());
    }
  });
  return {output, mask};
}

}  // namespace lz::cpu
