// nonzero: one pass counts and records the flat positions of the nonzero
// elements, a second turns them into coordinates. Not structured: the
// result's size is known only after the values are read.
#include <vector>

#include "core/factories.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/shape_kernels.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::cpu {

Tensor nonzero(const Tensor& self) {
  meta::check_defined("nonzero", "self", self);
  const Tensor x = self.contiguous();
  const int64_t n = x.numel(), dims = x.dim();
  std::vector<int64_t> positions;
  visit_dtype(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    using C = opmath_t<T>;
    const T* p = x.const_data_ptr<T>();
    for (int64_t i = 0; i < n; ++i) {
      if (static_cast<C>(p[i]) != C(0)) positions.push_back(i);
    }
  });
  const int64_t count = static_cast<int64_t>(positions.size());
  Tensor out = empty({count, dims}, TensorOptions(ScalarType::Long));
  int64_t* o = out.data_ptr<int64_t>();
  for (int64_t k = 0; k < count; ++k) {
    int64_t rest = positions[static_cast<size_t>(k)];
    for (int64_t d = dims - 1; d >= 0; --d) {
      o[k * dims + d] = rest % x.size(d);
      rest /= x.size(d);
    }
  }
  return out;
}

}  // namespace lz::cpu
