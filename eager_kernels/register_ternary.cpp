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
#include "eager_kernels/structured_variants.h"

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
  const TagSet pointwise(Tag::Pointwise);
  const TagSet pointwise_inplace{Tag::Pointwise, Tag::Inplace};
  const TagSet pointwise_out{Tag::Pointwise, Tag::Out};

  lib.def_structured<&meta::where>("where.self(Tensor condition, Tensor self, Tensor other) -> Tensor",
                                   Variants::Out)
      .tags(pointwise)
      .impl<&cpu::where_impl>(DispatchKey::CPU);
  lib.def("where.ScalarSelf(Tensor condition, Scalar self, Tensor other) -> Tensor")
      .tags(pointwise)
      .composite(&where_scalar_self);
  lib.def("where.ScalarOther(Tensor condition, Tensor self, Scalar other) -> Tensor")
      .tags(pointwise)
      .composite(&where_scalar_other);
  lib.def("where.Scalar(Tensor condition, Scalar self, Scalar other) -> Tensor")
      .tags(pointwise)
      .composite(&where_scalar);

  def_structured_named<&meta::clamp, &cpu::clamp_impl>(
      lib, pointwise, "clamp.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
      "clamp_.Tensor(Tensor(a!) self, Tensor? min=None, Tensor? max=None) -> Tensor(a!)",
      "clamp.Tensor_out(Tensor self, Tensor? min=None, Tensor? max=None, *, Tensor(a!) out) -> Tensor(a!)");
  lib.def("clamp(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor")
      .tags(pointwise)
      .composite(&clamp_scalar);
  lib.def("clamp_(Tensor(a!) self, Scalar? min=None, Scalar? max=None) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&clamp_scalar_);
  lib.def("clamp.out(Tensor self, Scalar? min=None, Scalar? max=None, *, Tensor(a!) out) -> Tensor(a!)")
      .tags(pointwise_out)
      .composite(&clamp_scalar_out);

  def_structured_named<&meta::clamp_min, &cpu::clamp_min_impl>(
      lib, pointwise, "clamp_min.Tensor(Tensor self, Tensor min) -> Tensor",
      "clamp_min_.Tensor(Tensor(a!) self, Tensor min) -> Tensor(a!)",
      "clamp_min.Tensor_out(Tensor self, Tensor min, *, Tensor(a!) out) -> Tensor(a!)");
  lib.def("clamp_min(Tensor self, Scalar min) -> Tensor").tags(pointwise).composite(&clamp_min_scalar);
  lib.def("clamp_min_(Tensor(a!) self, Scalar min) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&clamp_min_scalar_);
  lib.def("clamp_min.out(Tensor self, Scalar min, *, Tensor(a!) out) -> Tensor(a!)")
      .tags(pointwise_out)
      .composite(&clamp_min_scalar_out);

  def_structured_named<&meta::clamp_max, &cpu::clamp_max_impl>(
      lib, pointwise, "clamp_max.Tensor(Tensor self, Tensor max) -> Tensor",
      "clamp_max_.Tensor(Tensor(a!) self, Tensor max) -> Tensor(a!)",
      "clamp_max.Tensor_out(Tensor self, Tensor max, *, Tensor(a!) out) -> Tensor(a!)");
  lib.def("clamp_max(Tensor self, Scalar max) -> Tensor").tags(pointwise).composite(&clamp_max_scalar);
  lib.def("clamp_max_(Tensor(a!) self, Scalar max) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&clamp_max_scalar_);
  lib.def("clamp_max.out(Tensor self, Scalar max, *, Tensor(a!) out) -> Tensor(a!)")
      .tags(pointwise_out)
      .composite(&clamp_max_scalar_out);

  lib.def_structured<&meta::lerp_scalar>("lerp.Scalar(Tensor self, Tensor end, Scalar weight) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::lerp_scalar_impl>(DispatchKey::CPU);
  def_structured_named<&meta::lerp_tensor, &cpu::lerp_tensor_impl>(
      lib, pointwise, "lerp.Tensor(Tensor self, Tensor end, Tensor weight) -> Tensor",
      "lerp_.Tensor(Tensor(a!) self, Tensor end, Tensor weight) -> Tensor(a!)",
      "lerp.Tensor_out(Tensor self, Tensor end, Tensor weight, *, Tensor(a!) out) -> Tensor(a!)");

  lib.def_structured<&meta::addcmul>(
         "addcmul(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::addcmul_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::addcdiv>(
         "addcdiv(Tensor self, Tensor tensor1, Tensor tensor2, *, Scalar value=1) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::addcdiv_impl>(DispatchKey::CPU);

  lib.def_structured<&meta::masked_fill_scalar>(
         "masked_fill.Scalar(Tensor self, Tensor mask, Scalar value) -> Tensor", Variants::Inplace)
      .tags(pointwise)
      .impl<&cpu::masked_fill_scalar_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::masked_fill_tensor>(
         "masked_fill.Tensor(Tensor self, Tensor mask, Tensor value) -> Tensor", Variants::Inplace)
      .tags(pointwise)
      .impl<&cpu::masked_fill_tensor_impl>(DispatchKey::CPU);
}

}  // namespace lz
