#include "eager_kernels/cpu/compare_kernels.h"

#include <cmath>

#include "core/empty_tensor.h"
#include "core/error.h"
#include "core/ops_copy.h"
#include "core/ops_views.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/elementwise.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::cpu {

namespace {

// `t` as a contiguous float64 tensor broadcast to `sizes`.
Tensor dense_double(const Tensor& t, IntArrayRef sizes) {
  return expand(cast_to(t, ScalarType::Double), sizes).contiguous();
}

}  // namespace

bool equal(const Tensor& self, const Tensor& other) {
  meta::check_defined("equal", "self", self);
  meta::check_defined("equal", "other", other);
  LZ_CHECK(self.device() == other.device(), DeviceError, "[equal] self is on ", self.device(),
           " but other is on ", other.device());
  if (self.sizes() != other.sizes()) return false;
  const ScalarType common = promote_types(self.dtype(), other.dtype());
  const Tensor a = cast_to(self, common).contiguous();
  const Tensor b = cast_to(other, common).contiguous();
  return visit_dtype(common, [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* pa = a.data_ptr<T>();
    const T* pb = b.data_ptr<T>();
    for (int64_t i = 0; i < a.numel(); ++i) {
      if (!(static_cast<opmath_t<T>>(pa[i]) == static_cast<opmath_t<T>>(pb[i]))) return false;
    }
    return true;
  });
}

bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  meta::check_defined("allclose", "self", self);
  meta::check_defined("allclose", "other", other);
  LZ_CHECK(self.dtype() == other.dtype(), TypeError,
           "[allclose] expected both inputs to have the same dtype, got self ", self.dtype(),
           " and other ", other.dtype());
  LZ_CHECK(self.device() == other.device(), DeviceError, "[allclose] self is on ", self.device(),
           " but other is on ", other.device());
  LZ_CHECK(rtol >= 0 && atol >= 0, ValueError, "[allclose] rtol and atol must be >= 0, got rtol ",
           rtol, ", atol ", atol);
  const SizeVec shape = broadcast_shapes(self.sizes(), other.sizes(), "allclose", "self", "other");
  const Tensor a = dense_double(self, shape);
  const Tensor b = dense_double(other, shape);
  const double* pa = a.data_ptr<double>();
  const double* pb = b.data_ptr<double>();
  for (int64_t i = 0; i < a.numel(); ++i) {
    const double x = pa[i], y = pb[i];
    if (x == y) continue;  // also equal infinities
    if (std::isnan(x) || std::isnan(y)) {
      if (equal_nan && std::isnan(x) && std::isnan(y)) continue;
      return false;
    }
    if (!std::isfinite(x) || !std::isfinite(y)) return false;
    if (!(std::fabs(x - y) <= atol + rtol * std::fabs(y))) return false;
  }
  return true;
}

Scalar local_scalar_dense(const Tensor& self) {
  LZ_CHECK(self.numel() == 1, ValueError, "[item] a tensor with ", self.numel(),
           " elements cannot be converted to a Scalar (shape ", shape_str(self.sizes()), ")");
  return load_scalar(self.data_ptr(), self.dtype());
}

}  // namespace lz::cpu
