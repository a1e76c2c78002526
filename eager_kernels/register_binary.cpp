// Binary arithmetic operators: schemas, metas, kernels. The Scalar overloads
// are composites that wrap the number as a 0-dim tensor, so the Lazy key
// records it as a runtime value, not a constant baked into the graph.
#include "core/empty_tensor.h"
#include "core/error.h"
#include "core/op_registration.h"
#include "core/ops_binary.h"
#include "eager_kernels/cpu/binary_kernels.h"
#include "eager_kernels/meta/binary_meta.h"
#include "eager_kernels/structured_variants.h"

namespace lz {

namespace {

using OptStr = std::optional<std::string_view>;

Tensor add_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return add(self, wrapped_scalar_tensor(other), alpha);
}
Tensor add_scalar_(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  Tensor s = self;
  return s.add_(wrapped_scalar_tensor(other), alpha);
}
Tensor sub_scalar(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return sub(self, wrapped_scalar_tensor(other), alpha);
}
Tensor sub_scalar_(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  Tensor s = self;
  return s.sub_(wrapped_scalar_tensor(other), alpha);
}
Tensor mul_scalar(const Tensor& self, const Scalar& other) {
  return mul(self, wrapped_scalar_tensor(other));
}
Tensor mul_scalar_(const Tensor& self, const Scalar& other) {
  Tensor s = self;
  return s.mul_(wrapped_scalar_tensor(other));
}
Tensor div_scalar(const Tensor& self, const Scalar& other) {
  return div(self, wrapped_scalar_tensor(other));
}
Tensor div_scalar_(const Tensor& self, const Scalar& other) {
  Tensor s = self;
  return s.div_(wrapped_scalar_tensor(other));
}
Tensor div_scalar_mode(const Tensor& self, const Scalar& other, OptStr rounding_mode) {
  return div(self, wrapped_scalar_tensor(other), rounding_mode);
}
Tensor div_scalar_mode_(const Tensor& self, const Scalar& other, OptStr rounding_mode) {
  Tensor s = self;
  return s.div_(wrapped_scalar_tensor(other), rounding_mode);
}

// pow(integer tensor, negative integer Scalar) is an error, as in PyTorch
// (the Tensor_Tensor overload computes 1 / self ** |e| truncated instead).
void check_integer_power(const Tensor& self, const Scalar& exponent) {
  LZ_CHECK(!(self.defined() && is_integral(self.dtype(), /*include_bool=*/true) &&
             exponent.is_integral(/*include_bool=*/true) && exponent.to_long() < 0),
           ValueError, "[pow] exponent: integers to negative integer powers are not allowed (self ",
           self.dtype(), ", exponent ", exponent, ")");
}
Tensor pow_tensor_scalar(const Tensor& self, const Scalar& exponent) {
  check_integer_power(self, exponent);
  return pow(self, wrapped_scalar_tensor(exponent));
}
Tensor pow_tensor_scalar_(const Tensor& self, const Scalar& exponent) {
  check_integer_power(self, exponent);
  Tensor s = self;
  return s.pow_(wrapped_scalar_tensor(exponent));
}
Tensor pow_tensor_scalar_out(const Tensor& self, const Scalar& exponent, const Tensor& out) {
  check_integer_power(self, exponent);
  Tensor o = out;
  return pow_out(o, self, wrapped_scalar_tensor(exponent));
}
Tensor pow_scalar(const Scalar& self, const Tensor& exponent) {
  return pow(wrapped_scalar_tensor(self), exponent);
}
Tensor pow_scalar_out(const Scalar& self, const Tensor& exponent, const Tensor& out) {
  Tensor o = out;
  return pow_out(o, wrapped_scalar_tensor(self), exponent);
}

Tensor remainder_scalar(const Tensor& self, const Scalar& other) {
  return remainder(self, wrapped_scalar_tensor(other));
}
Tensor remainder_scalar_(const Tensor& self, const Scalar& other) {
  Tensor s = self;
  return s.remainder_(wrapped_scalar_tensor(other));
}
Tensor remainder_scalar_out(const Tensor& self, const Scalar& other, const Tensor& out) {
  Tensor o = out;
  return remainder_out(o, self, wrapped_scalar_tensor(other));
}
Tensor remainder_scalar_tensor(const Scalar& self, const Tensor& other) {
  return remainder(wrapped_scalar_tensor(self), other);
}

}  // namespace

LZ_LIBRARY(binary_ops) {
  const TagSet pointwise(Tag::Pointwise);
  const TagSet pointwise_inplace{Tag::Pointwise, Tag::Inplace};
  const TagSet pointwise_out{Tag::Pointwise, Tag::Out};

  lib.def_structured<&meta::add>("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::add_impl>(DispatchKey::CPU);
  lib.def("add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor")
      .tags(pointwise)
      .composite(&add_scalar);
  lib.def("add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&add_scalar_);

  lib.def_structured<&meta::sub>("sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::sub_impl>(DispatchKey::CPU);
  lib.def("sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor")
      .tags(pointwise)
      .composite(&sub_scalar);
  lib.def("sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&sub_scalar_);

  lib.def_structured<&meta::mul>("mul.Tensor(Tensor self, Tensor other) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::mul_impl>(DispatchKey::CPU);
  lib.def("mul.Scalar(Tensor self, Scalar other) -> Tensor").tags(pointwise).composite(&mul_scalar);
  lib.def("mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&mul_scalar_);

  lib.def_structured<&meta::div>("div.Tensor(Tensor self, Tensor other) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::div_impl>(DispatchKey::CPU);
  lib.def("div.Scalar(Tensor self, Scalar other) -> Tensor").tags(pointwise).composite(&div_scalar);
  lib.def("div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&div_scalar_);
  def_structured_named<&meta::div_mode, &cpu::div_mode_impl>(
      lib, pointwise, "div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
      "div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)",
      "div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)");
  lib.def("div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor")
      .tags(pointwise)
      .composite(&div_scalar_mode);
  lib.def("div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&div_scalar_mode_);

  def_structured_named<&meta::pow, &cpu::pow_impl>(
      lib, pointwise, "pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor",
      "pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)",
      "pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)");
  lib.def("pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor")
      .tags(pointwise)
      .composite(&pow_tensor_scalar);
  lib.def("pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&pow_tensor_scalar_);
  lib.def("pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)")
      .tags(pointwise_out)
      .composite(&pow_tensor_scalar_out);
  lib.def("pow.Scalar(Scalar self, Tensor exponent) -> Tensor").tags(pointwise).composite(&pow_scalar);
  lib.def("pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)")
      .tags(pointwise_out)
      .composite(&pow_scalar_out);

  def_structured_named<&meta::remainder, &cpu::remainder_impl>(
      lib, pointwise, "remainder.Tensor(Tensor self, Tensor other) -> Tensor",
      "remainder_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
      "remainder.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
  lib.def("remainder.Scalar(Tensor self, Scalar other) -> Tensor")
      .tags(pointwise)
      .composite(&remainder_scalar);
  lib.def("remainder_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)")
      .tags(pointwise_inplace)
      .composite(&remainder_scalar_);
  lib.def("remainder.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)")
      .tags(pointwise_out)
      .composite(&remainder_scalar_out);
  lib.def("remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor")
      .tags(pointwise)
      .composite(&remainder_scalar_tensor);

  lib.def_structured<&meta::atan2>("atan2(Tensor self, Tensor other) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::atan2_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::maximum>("maximum(Tensor self, Tensor other) -> Tensor", Variants::Out)
      .tags(pointwise)
      .impl<&cpu::maximum_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::minimum>("minimum(Tensor self, Tensor other) -> Tensor", Variants::Out)
      .tags(pointwise)
      .impl<&cpu::minimum_impl>(DispatchKey::CPU);
}

}  // namespace lz
