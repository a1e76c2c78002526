#include "eager_kernels/meta/ternary_meta.h"

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>

#include "core/error.h"
#include "core/type_promotion.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::meta {

namespace {

using Named = std::pair<std::string_view, const Tensor*>;

// Broadcast sizes and common device of several operands (all defined). A
// 0-dim CPU tensor may join tensors on any device; the result dtype is left
// to the caller.
TensorMeta nary(std::string_view op, std::initializer_list<Named> operands) {
  for (const auto& [name, t] : operands) check_defined(op, name, *t);
  const Named& first = *operands.begin();
  SizeVec sizes(first.second->sizes().begin(), first.second->sizes().end());
  std::string so_far(first.first);
  std::optional<Named> device_owner;
  for (const Named& n : operands) {
    const Tensor& t = *n.second;
    if (&n != &first) {
      sizes = broadcast_shapes(sizes, t.sizes(), op, so_far, n.first);
      so_far += " and " + std::string(n.first) + " (broadcast)";
    }
    if (t.dim() == 0 && t.is_cpu()) continue;  // a scalar: any device
    if (!device_owner) {
      device_owner = n;
      continue;
    }
    LZ_CHECK(t.device() == device_owner->second->device(), DeviceError, "[", op,
             "] expected all tensors on the same device, but ", device_owner->first, " is on ",
             device_owner->second->device(), " and ", n.first, " on ", t.device());
  }
  const Device device = device_owner ? device_owner->second->device() : first.second->device();
  return TensorMeta{std::move(sizes), first.second->dtype(), device};
}

}  // namespace

TensorMeta where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  TensorMeta m = nary("where", {{"condition", &condition}, {"self", &self}, {"other", &other}});
  LZ_CHECK(condition.dtype() == ScalarType::Bool, TypeError,
           "[where] condition: expected a bool tensor, got ", condition.dtype());
  m.dtype = result_type(self, other);
  return m;
}

TensorMeta clamp(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  LZ_CHECK(min || max, ValueError, "[clamp] min, max: at least one of min and max must be given");
  TensorMeta m;
  ResultTypeState state;
  state.add(self);
  if (min && max) {
    m = nary("clamp", {{"self", &self}, {"min", &*min}, {"max", &*max}});
    state.add(*min);
    state.add(*max);
  } else if (min) {
    m = nary("clamp", {{"self", &self}, {"min", &*min}});
    state.add(*min);
  } else {
    m = nary("clamp", {{"self", &self}, {"max", &*max}});
    state.add(*max);
  }
  m.dtype = state.result();
  LZ_CHECK(m.dtype != ScalarType::Bool, TypeError, "[clamp] self: not implemented for bool (self ",
           self.dtype(), min ? ", min " : "", min ? to_string(min->dtype()) : "", max ? ", max " : "",
           max ? to_string(max->dtype()) : "", ")");
  return m;
}

namespace {

TensorMeta clamp_bound(std::string_view op, std::string_view bound_name, const Tensor& self,
                       const Tensor& bound) {
  TensorMeta m = nary(op, {{"self", &self}, {bound_name, &bound}});
  m.dtype = result_type(self, bound);
  LZ_CHECK(m.dtype != ScalarType::Bool, TypeError, "[", op, "] self: not implemented for bool (self ",
           self.dtype(), ", ", bound_name, " ", bound.dtype(), ")");
  return m;
}

void check_lerp_dtypes(const Tensor& self, const Tensor& end) {
  LZ_CHECK(is_floating_point(self.dtype()), TypeError,
           "[lerp] self: expected a floating point tensor, got ", self.dtype());
  LZ_CHECK(end.dtype() == self.dtype(), TypeError, "[lerp] end: expected dtype ", self.dtype(),
           " (self's dtype), got ", end.dtype());
}

}  // namespace

TensorMeta clamp_min(const Tensor& self, const Tensor& min) { return clamp_bound("clamp_min", "min", self, min); }
TensorMeta clamp_max(const Tensor& self, const Tensor& max) { return clamp_bound("clamp_max", "max", self, max); }

TensorMeta lerp_scalar(const Tensor& self, const Tensor& end, const Scalar& weight) {
  TensorMeta m = nary("lerp", {{"self", &self}, {"end", &end}});
  check_lerp_dtypes(self, end);
  return m;
}

TensorMeta lerp_tensor(const Tensor& self, const Tensor& end, const Tensor& weight) {
  TensorMeta m = nary("lerp", {{"self", &self}, {"end", &end}, {"weight", &weight}});
  check_lerp_dtypes(self, end);
  LZ_CHECK(weight.dtype() == self.dtype(), TypeError, "[lerp] weight: expected dtype ", self.dtype(),
           " (self's dtype), got ", weight.dtype());
  return m;
}

namespace {

TensorMeta addc(std::string_view op, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2) {
  TensorMeta m = nary(op, {{"self", &self}, {"tensor1", &tensor1}, {"tensor2", &tensor2}});
  ResultTypeState state;
  state.add(self);
  state.add(tensor1);
  state.add(tensor2);
  m.dtype = state.result();
  return m;
}

}  // namespace

TensorMeta addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  TensorMeta m = addc("addcmul", self, tensor1, tensor2);
  LZ_CHECK(m.dtype != ScalarType::Bool, TypeError, "[addcmul] self: not implemented for bool (self ",
           self.dtype(), ", tensor1 ", tensor1.dtype(), ", tensor2 ", tensor2.dtype(), ")");
  return m;
}

TensorMeta addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) {
  TensorMeta m = addc("addcdiv", self, tensor1, tensor2);
  LZ_CHECK(!(is_integral(tensor1.dtype(), true) && is_integral(tensor2.dtype(), true)), TypeError,
           "[addcdiv] tensor1, tensor2: integer division with addcdiv is not supported (tensor1 ",
           tensor1.dtype(), ", tensor2 ", tensor2.dtype(),
           "); use (self + value * tensor1 / tensor2) for a true division");
  return m;
}

namespace {

TensorMeta masked_fill(const Tensor& self, const Tensor& mask) {
  TensorMeta m = nary("masked_fill", {{"self", &self}, {"mask", &mask}});
  LZ_CHECK(mask.dtype() == ScalarType::Bool, TypeError,
           "[masked_fill] mask: expected a bool mask, got dtype ", mask.dtype());
  m.dtype = self.dtype();
  return m;
}

}  // namespace

TensorMeta masked_fill_scalar(const Tensor& self, const Tensor& mask, const Scalar& value) {
  TensorMeta m = masked_fill(self, mask);
  check_value_fits("masked_fill", m.dtype, value);
  return m;
}

TensorMeta masked_fill_tensor(const Tensor& self, const Tensor& mask, const Tensor& value) {
  check_defined("masked_fill", "value", value);
  TensorMeta m = masked_fill(self, mask);
  LZ_CHECK(value.dim() == 0, ShapeError,
           "[masked_fill] value: expected a 0-dim value tensor, got one with shape ",
           shape_str(value.sizes()));
  LZ_CHECK(value.is_cpu() || value.device() == m.device, DeviceError, "[masked_fill] value is on ",
           value.device(), " but self is on ", m.device);
  return m;
}

}  // namespace lz::meta
