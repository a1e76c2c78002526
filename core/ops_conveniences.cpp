// Public functions that are not one operator each: other argument forms of
// an operator (arange(end), randn without a generator, split with sizes,
// cross_entropy with a reduction name). Each calls a generated one
// (scripts/gen_operator_api.py); none reaches the dispatcher itself.
#include "core/error.h"
#include "core/factories.h"
#include "core/ops_binary.h"
#include "core/ops_nn.h"
#include "core/ops_shape.h"
#include "core/tensor.h"

namespace lz {

// ---- Factories -----------------------------------------------------------------

Tensor arange(const Scalar& end, const TensorOptions& options) { return arange(0, end, 1, options); }
Tensor arange(const Scalar& start, const Scalar& end, const TensorOptions& options) {
  return arange(start, end, 1, options);
}
Tensor randn(IntArrayRef size, const TensorOptions& options) { return randn(size, std::nullopt, options); }
Tensor rand(IntArrayRef size, const TensorOptions& options) { return rand(size, std::nullopt, options); }
Tensor randint(int64_t high, IntArrayRef size, const TensorOptions& options) {
  return randint(0, high, size, std::nullopt, options);
}
Tensor randint(int64_t low, int64_t high, IntArrayRef size, const TensorOptions& options) {
  return randint(low, high, size, std::nullopt, options);
}

// ---- Binary ----------------------------------------------------------------------

Tensor max(const Tensor& self, const Tensor& other) { return maximum(self, other); }
Tensor min(const Tensor& self, const Tensor& other) { return minimum(self, other); }

// ---- Shape -----------------------------------------------------------------------

std::vector<Tensor> split(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  return split_with_sizes(self, split_sizes, dim);
}

// ---- Losses ----------------------------------------------------------------------

Tensor cross_entropy(const Tensor& input, const Tensor& target, const std::optional<Tensor>& weight,
                     std::string_view reduction, int64_t ignore_index, double label_smoothing) {
  Reduction::Reduction r = Reduction::Mean;
  if (reduction == "none") {
    r = Reduction::None;
  } else if (reduction == "sum") {
    r = Reduction::Sum;
  } else {
    LZ_CHECK(reduction == "mean", ValueError, "[cross_entropy] reduction: \"", reduction,
             "\" is not a valid value for reduction (expected \"mean\", \"sum\" or \"none\")");
  }
  return cross_entropy_loss(input, target, weight, r, ignore_index, label_smoothing);
}
Tensor cross_entropy(const Tensor& input, const Tensor& target, const std::optional<Tensor>& weight,
                     Reduction::Reduction reduction, int64_t ignore_index, double label_smoothing) {
  return cross_entropy_loss(input, target, weight, reduction, ignore_index, label_smoothing);
}

}  // namespace lz
