// Tensor methods of the reductions and scans.
#include "core/ops_reduction.h"
#include "core/tensor.h"

namespace lz {

using OptDtype = std::optional<ScalarType>;

Tensor Tensor::sum(OptDtype dtype) const { return lz::sum(*this, dtype); }
Tensor Tensor::sum(IntArrayRef dim, bool keepdim, OptDtype dtype) const {
  return lz::sum(*this, dim, keepdim, dtype);
}
Tensor Tensor::mean(OptDtype dtype) const { return lz::mean(*this, dtype); }
Tensor Tensor::mean(IntArrayRef dim, bool keepdim, OptDtype dtype) const {
  return lz::mean(*this, dim, keepdim, dtype);
}
Tensor Tensor::prod(OptDtype dtype) const { return lz::prod(*this, dtype); }
Tensor Tensor::prod(int64_t dim, bool keepdim, OptDtype dtype) const {
  return lz::prod(*this, dim, keepdim, dtype);
}
Tensor Tensor::max() const { return lz::max(*this); }
Tensor Tensor::min() const { return lz::min(*this); }
std::tuple<Tensor, Tensor> Tensor::max(int64_t dim, bool keepdim) const {
  return lz::max(*this, dim, keepdim);
}
std::tuple<Tensor, Tensor> Tensor::min(int64_t dim, bool keepdim) const {
  return lz::min(*this, dim, keepdim);
}
Tensor Tensor::amax(IntArrayRef dim, bool keepdim) const { return lz::amax(*this, dim, keepdim); }
Tensor Tensor::amin(IntArrayRef dim, bool keepdim) const { return lz::amin(*this, dim, keepdim); }
Tensor Tensor::argmax(std::optional<int64_t> dim, bool keepdim) const {
  return lz::argmax(*this, dim, keepdim);
}
Tensor Tensor::argmin(std::optional<int64_t> dim, bool keepdim) const {
  return lz::argmin(*this, dim, keepdim);
}
Tensor Tensor::var(std::optional<IntArrayRef> dim, const std::optional<Scalar>& correction,
                   bool keepdim) const {
  return lz::var(*this, dim, correction, keepdim);
}
Tensor Tensor::std(std::optional<IntArrayRef> dim, const std::optional<Scalar>& correction,
                   bool keepdim) const {
  return lz::std(*this, dim, correction, keepdim);
}
Tensor Tensor::norm(const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim) const {
  return lz::norm(*this, p, dim, keepdim);
}
Tensor Tensor::logsumexp(IntArrayRef dim, bool keepdim) const {
  return lz::logsumexp(*this, dim, keepdim);
}
Tensor Tensor::all() const { return lz::all(*this); }
Tensor Tensor::all(int64_t dim, bool keepdim) const { return lz::all(*this, dim, keepdim); }
Tensor Tensor::any() const { return lz::any(*this); }
Tensor Tensor::any(int64_t dim, bool keepdim) const { return lz::any(*this, dim, keepdim); }
Tensor Tensor::cumsum(int64_t dim, OptDtype dtype) const { return lz::cumsum(*this, dim, dtype); }

}  // namespace lz
