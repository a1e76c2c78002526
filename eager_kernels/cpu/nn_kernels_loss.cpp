// nll_loss_forward: the negative log-likelihood of class-index targets,
// -weight[t] * self[i, t], with ignore_index and none/mean/sum reductions
// (mean divides by the total weight of the targets not ignored). Sums run
// in double over the samples in order, so results do not depend on threads.
#include <cmath>
#include <limits>
#include <vector>

#include "core/empty_tensor.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/elementwise.h"
#include "eager_kernels/cpu/nn_kernels.h"
#include "eager_kernels/meta/nn_meta.h"

namespace lz::cpu {

std::tuple<Tensor, Tensor> nll_loss_forward(const Tensor& self, const Tensor& target,
                                            const std::optional<Tensor>& weight, int64_t reduction,
                                            int64_t ignore_index) {
  const MetaList m = meta::nll_loss_forward(self, target, weight, reduction, ignore_index);
  Tensor output = empty_tensor(m[0]);
  Tensor total_weight = empty_tensor(m[1]);
  const int64_t batch = self.dim() == 1 ? 1 : self.size(0);
  const int64_t n_classes = self.size(self.dim() - 1);
  // The log-probability of sample i's class `cls`, read in place (one per sample).
  const int64_t s_row = self.dim() == 1 ? 0 : self.stride(0);
  const int64_t s_col = self.stride(self.dim() - 1);
  auto read = [&](int64_t i, int64_t cls) {
    return visit_dtype(self.dtype(), [&](auto tag) -> double {
      using T = typename decltype(tag)::type;
      const T* p = static_cast<const T*>(self.data_ptr());
      return static_cast<double>(static_cast<opmath_t<T>>(p[i * s_row + cls * s_col]));
    });
  };
  std::vector<double> w;
  if (weight && weight->defined()) {
    const Tensor c = cast_to(*weight, ScalarType::Double);
    for (int64_t k = 0; k < n_classes; ++k) w.push_back(c.data_ptr<double>()[k * c.stride(0)]);
  }
  const Tensor t = cast_to(target, ScalarType::Long);
  const int64_t* tp = t.data_ptr<int64_t>();
  const int64_t t_step = t.dim() == 0 ? 0 : t.stride(0);

  std::vector<double> losses(static_cast<size_t>(batch));
  double loss_sum = 0, weight_sum = 0;
  for (int64_t i = 0; i < batch; ++i) {
    const int64_t cls = tp[i * t_step];
    if (cls == ignore_index) {
      losses[static_cast<size_t>(i)] = 0;
      continue;
    }
    LZ_CHECK(cls >= 0 && cls < n_classes, IndexError, "[nll_loss] target: Target ", cls,
             " is out of bounds (expected a class index in [0, ", n_classes, ") or ignore_index ",
             ignore_index, ")");
    const double wi = w.empty() ? 1.0 : w[static_cast<size_t>(cls)];
    const double l = -wi * read(i, cls);
    losses[static_cast<size_t>(i)] = l;
    loss_sum += l;
    weight_sum += wi;
  }
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      T* out = output.data_ptr<T>();
      if (reduction == 0 && self.dim() == 2) {
        for (int64_t i = 0; i < batch; ++i) out[i] = static_cast<T>(losses[static_cast<size_t>(i)]);
      } else if (reduction == 0) {
        out[0] = static_cast<T>(losses[0]);
      } else if (reduction == 2) {
        out[0] = static_cast<T>(loss_sum);
      } else {
        // 0 / 0 (every target ignored, or no samples) is NaN, as in PyTorch.
        out[0] = static_cast<T>(loss_sum / weight_sum);
      }
      total_weight.data_ptr<T>()[0] = static_cast<T>(reduction == 0 ? 0.0 : weight_sum);
    } else {
      LZ_INTERNAL_ASSERT(false, "nll_loss: unsupported dtype ", self.dtype());
    }
  });
  return {output, total_weight};
}

}  // namespace lz::cpu
