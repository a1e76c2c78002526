// Ternary element-wise operators (where, clamp, lerp, addcmul, addcdiv) and
// masked_fill: schemas, metas, kernels. Scalar overloads of where and clamp
// are composites over the Tensor overloads with the numbers wrapped as 0-dim
// tensors (runtime values for the Lazy key).
#include "core/empty_tensor.h"
#include "core/error.h"
#include "core/op_registration.h"
#include "core/ops_binary.h"
#include "core/type_promotion.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/ternary_kernels.h"
#include "eager_kernels/meta/ternary_meta.h"

namespace lz {

namespace {

using OptScalar = std::optional<Scalar>;
using OptTensor = std::optional<Tensor>;

Tensor where_scalar_self(const Tensor& condition, const Scalar& self, const Tensor& other) {
  return where(condition, wrapped_scalar_tensor(self), other);
}
Tensor where_scalar_other(const Tensor& condition, const Tensor& self, const Scalar& other) {
  return where(condition, self, wrapped_scalar_tensor(other));
}
Tensor where_scalar(const Tensor& condition, const Scalar& self, const Scalar& other) {
  return where(condition, wrapped_scalar_tensor(self), wrapped_scalar_tensor(other));
}

// A Scalar bound as a wrapped 0-dim tensor, after checking that it fits the
// result dtype (clamp(uint8 tensor, 300) is a ValueError, as in PyTorch).
OptTensor wrap_bound(const Tensor& self, const OptScalar& bound, const OptScalar& min, const OptScalar& max) {
  if (!bound) return std::nullopt;
  if (self.defined()) {
    ResultTypeState state;
    state.add(self);
    if (min) state.add(*min);
    if (max) state.add(*max);
    const ScalarType result = state.result();
    if (result != ScalarType::Bool) {  // bool: the meta raises TypeError
      cpu::visit_dtype(result, [&](auto tag) { (void)bound->to<typename decltype(tag)::type>(); });
    }
  }
  return wrapped_scalar_tensor(*bound);
}

Tensor clamp_scalar(const Tensor& self, const OptScalar& min, const OptScalar& max) {
  return clamp(self, wrap_bound(self, min, min, max), wrap_bound(self, max, min, max));
}
Tensor clamp_scalar_(const Tensor& self, const OptScalar& min, const OptScalar& max) {
  Tensor s = self;
  return clamp_(s, wrap_bound(self, min, min, max), wrap_bound(self, max, min, max));
}
Tensor clamp_scalar_out(const Tensor& self, const OptScalar& min, const OptScalar& max, const Tensor& out) {
  Tensor o = out;
  return clamp_out(o, self, wrap_bound(self, min, min, max), wrap_bound(self, max, min, max));
}

Tensor clamp_min_scalar(const Tensor& self, const Scalar& min) {
  return clamp_min(self, *wrap_bound(self, min, min, std::nullopt));
}
Tensor clamp_min_scalar_(const Tensor& self, const Scalar& min) {
  Tensor s = self;
  return clamp_min_(s, *wrap_bound(self, min, min, std::nullopt));
}
Tensor clamp_min_scalar_out(const Tensor& self, const Scalar& min, const Tensor& out) {
  Tensor o = out;
  return clamp_min_out(o, self, *wrap_bound(self, min, min, std::nullopt));
}
Tensor clamp_max_scalar(const Tensor& self, const Scalar& max) {
  return clamp_max(self, *wrap_bound(self, max, std::nullopt, max));
}
Tensor clamp_max_scalar_(const Tensor& self, const Scalar& max) {
  Tensor s = self;
  return clamp_max_(s, *wrap_bound(self, max, std::nullopt, max));
}
Tensor clamp_max_scalar_out(const Tensor& self, const Scalar& max, const Tensor& out) {
  Tensor o = out;
  return clamp_max_out(o, self, *wrap_bound(self, max, std::nullopt, max));
}

}  // namespace

LZ_LIBRARY(ternary_ops) {
  constexpr DispatchKey kCpu = DispatchKey::CPU;
  lib.def_structured<&meta::where>(OpId::where_self).impl<&cpu::where_impl>(kCpu);
  lib.def(OpId::where_ScalarSelf).composite(&where_scalar_self);
  lib.def(OpId::where_ScalarOther).composite(&where_scalar_other);
  lib.def(OpId::where_Scalar).composite(&where_scalar);

  lib.def_structured<&meta::clamp>(OpId::clamp_Tensor).impl<&cpu::clamp_impl>(kCpu);
  lib.def(OpId::clamp).composite(&clamp_scalar);
  lib.def(OpId::clamp_).composite(&clamp_scalar_);
  lib.def(OpId::clamp_out).composite(&clamp_scalar_out);
  lib.def_structured<&meta::clamp_min>(OpId::clamp_min_Tensor).impl<&cpu::clamp_min_impl>(kCpu);
  lib.def(OpId::clamp_min).composite(&clamp_min_scalar);
  lib.def(OpId::clamp_min_).composite(&clamp_min_scalar_);
  lib.def(OpId::clamp_min_out).composite(&clamp_min_scalar_out);
  lib.def_structured<&meta::clamp_max>(OpId::clamp_max_Tensor).impl<&cpu::clamp_max_impl>(kCpu);
  lib.def(OpId::clamp_max).composite(&clamp_max_scalar);
  lib.def(OpId::clamp_max_).composite(&clamp_max_scalar_);
  lib.def(OpId::clamp_max_out).composite(&clamp_max_scalar_out);

  lib.def_structured<&meta::lerp_scalar>(OpId::lerp_Scalar).impl<&cpu::lerp_scalar_impl>(kCpu);
  lib.def_structured<&meta::lerp_tensor>(OpId::lerp_Tensor).impl<&cpu::lerp_tensor_impl>(kCpu);
  lib.def_structured<&meta::addcmul>(OpId::addcmul).impl<&cpu::addcmul_impl>(kCpu);
  lib.def_structured<&meta::addcdiv>(OpId::addcdiv).impl<&cpu::addcdiv_impl>(kCpu);
  lib.def_structured<&meta::masked_fill_scalar>(OpId::masked_fill_Scalar).impl<&cpu::masked_fill_scalar_impl>(kCpu);
  lib.def_structured<&meta::masked_fill_tensor>(OpId::masked_fill_Tensor).impl<&cpu::masked_fill_tensor_impl>(kCpu);
}

}  // namespace lz
