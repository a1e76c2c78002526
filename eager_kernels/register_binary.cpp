// Binary arithmetic operators: schemas, metas, kernels. The Tensor-Scalar
// overloads (x * 2.5) are made from the Tensor ones (scalar_overload.h) and
// traced as themselves, the number a runtime scalar; the Scalar-Tensor ones
// (pow(2, x)) are composites over the Tensor overload with the number
// wrapped as a 0-dim tensor, which the Lazy key records as a runtime input.
#include "core/empty_tensor.h"
#include "core/error.h"
#include "core/op_registration.h"
#include "core/ops_binary.h"
#include "eager_kernels/cpu/binary_kernels.h"
#include "eager_kernels/meta/binary_meta.h"
#include "eager_kernels/scalar_overload.h"
#include "eager_kernels/structured_variants.h"

namespace lz {

namespace {

using OptStr = std::optional<std::string_view>;

Tensor pow_scalar(const Scalar& self, const Tensor& exponent) {
  return pow(wrapped_scalar_tensor(self), exponent);
}
Tensor pow_scalar_out(const Scalar& self, const Tensor& exponent, const Tensor& out) {
  Tensor o = out;
  return pow_out(o, wrapped_scalar_tensor(self), exponent);
}

Tensor remainder_scalar_tensor(const Scalar& self, const Tensor& other) {
  return remainder(wrapped_scalar_tensor(self), other);
}

}  // namespace

LZ_LIBRARY(binary_ops) {
  const TagSet pointwise(Tag::Pointwise);
  const TagSet pointwise_inplace{Tag::Pointwise, Tag::Inplace};
  const TagSet pointwise_out{Tag::Pointwise, Tag::Out};
  const TagSet step{Tag::Pointwise, Tag::StepFunction};  // rounding modes, remainder

  lib.def_structured<&meta::add>("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::add_impl>(DispatchKey::CPU);
  def_scalar_overload<&meta::add, &cpu::add_impl>(
      lib, pointwise, "add.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
      "add_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", "");

  lib.def_structured<&meta::sub>("sub.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::sub_impl>(DispatchKey::CPU);
  def_scalar_overload<&meta::sub, &cpu::sub_impl>(
      lib, pointwise, "sub.Scalar(Tensor self, Scalar other, Scalar alpha=1) -> Tensor",
      "sub_.Scalar(Tensor(a!) self, Scalar other, Scalar alpha=1) -> Tensor(a!)", "");

  lib.def_structured<&meta::mul>("mul.Tensor(Tensor self, Tensor other) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::mul_impl>(DispatchKey::CPU);
  def_scalar_overload<&meta::mul, &cpu::mul_impl>(lib, pointwise, "mul.Scalar(Tensor self, Scalar other) -> Tensor",
                                                  "mul_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "");

  lib.def_structured<&meta::div>("div.Tensor(Tensor self, Tensor other) -> Tensor")
      .tags(pointwise)
      .impl<&cpu::div_impl>(DispatchKey::CPU);
  def_scalar_overload<&meta::div, &cpu::div_impl>(lib, pointwise, "div.Scalar(Tensor self, Scalar other) -> Tensor",
                                                  "div_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)", "");
  def_structured_named<&meta::div_mode, &cpu::div_mode_impl>(
      lib, step, "div.Tensor_mode(Tensor self, Tensor other, *, str? rounding_mode) -> Tensor",
      "div_.Tensor_mode(Tensor(a!) self, Tensor other, *, str? rounding_mode) -> Tensor(a!)",
      "div.out_mode(Tensor self, Tensor other, *, str? rounding_mode, Tensor(a!) out) -> Tensor(a!)");
  def_scalar_overload<&meta::div_mode, &cpu::div_mode_impl>(
      lib, step, "div.Scalar_mode(Tensor self, Scalar other, *, str? rounding_mode) -> Tensor",
      "div_.Scalar_mode(Tensor(a!) self, Scalar other, *, str? rounding_mode) -> Tensor(a!)", "");

  def_structured_named<&meta::pow, &cpu::pow_impl>(
      lib, pointwise, "pow.Tensor_Tensor(Tensor self, Tensor exponent) -> Tensor",
      "pow_.Tensor(Tensor(a!) self, Tensor exponent) -> Tensor(a!)",
      "pow.Tensor_Tensor_out(Tensor self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)");
  def_scalar_overload<&meta::pow, &cpu::pow_impl, &meta::pow_tensor_scalar>(
      lib, pointwise, "pow.Tensor_Scalar(Tensor self, Scalar exponent) -> Tensor",
      "pow_.Scalar(Tensor(a!) self, Scalar exponent) -> Tensor(a!)",
      "pow.Tensor_Scalar_out(Tensor self, Scalar exponent, *, Tensor(a!) out) -> Tensor(a!)");
  lib.def("pow.Scalar(Scalar self, Tensor exponent) -> Tensor").tags(pointwise).composite(&pow_scalar);
  lib.def("pow.Scalar_out(Scalar self, Tensor exponent, *, Tensor(a!) out) -> Tensor(a!)")
      .tags(pointwise_out)
      .composite(&pow_scalar_out);

  def_structured_named<&meta::remainder, &cpu::remainder_impl>(
      lib, step, "remainder.Tensor(Tensor self, Tensor other) -> Tensor",
      "remainder_.Tensor(Tensor(a!) self, Tensor other) -> Tensor(a!)",
      "remainder.Tensor_out(Tensor self, Tensor other, *, Tensor(a!) out) -> Tensor(a!)");
  def_scalar_overload<&meta::remainder, &cpu::remainder_impl>(
      lib, step, "remainder.Scalar(Tensor self, Scalar other) -> Tensor",
      "remainder_.Scalar(Tensor(a!) self, Scalar other) -> Tensor(a!)",
      "remainder.Scalar_out(Tensor self, Scalar other, *, Tensor(a!) out) -> Tensor(a!)");
  lib.def("remainder.Scalar_Tensor(Scalar self, Tensor other) -> Tensor")
      .tags(step)
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
