// Binary arithmetic operators (core/operators.def): metas and kernels. The Tensor-Scalar
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

Tensor floor_divide_tensor(const Tensor& self, const Tensor& other) { return div(self, other, "floor"); }
Tensor floor_divide_scalar(const Tensor& self, const Scalar& other) { return div(self, other, "floor"); }

}  // namespace

LZ_LIBRARY(binary_ops) {
  constexpr DispatchKey kCpu = DispatchKey::CPU;
  lib.def_structured<&meta::add>(OpId::add_Tensor).impl<&cpu::add_impl>(kCpu);
  def_scalar_overload<&meta::add, &cpu::add_impl>(lib, OpId::add_Scalar);
  lib.def_structured<&meta::sub>(OpId::sub_Tensor).impl<&cpu::sub_impl>(kCpu);
  def_scalar_overload<&meta::sub, &cpu::sub_impl>(lib, OpId::sub_Scalar);
  lib.def_structured<&meta::mul>(OpId::mul_Tensor).impl<&cpu::mul_impl>(kCpu);
  def_scalar_overload<&meta::mul, &cpu::mul_impl>(lib, OpId::mul_Scalar);
  lib.def_structured<&meta::div>(OpId::div_Tensor).impl<&cpu::div_impl>(kCpu);
  def_scalar_overload<&meta::div, &cpu::div_impl>(lib, OpId::div_Scalar);
  lib.def_structured<&meta::div_mode>(OpId::div_Tensor_mode).impl<&cpu::div_mode_impl>(kCpu);
  def_scalar_overload<&meta::div_mode, &cpu::div_mode_impl>(lib, OpId::div_Scalar_mode);

  lib.def_structured<&meta::pow>(OpId::pow_Tensor_Tensor).impl<&cpu::pow_impl>(kCpu);
  def_scalar_overload<&meta::pow, &cpu::pow_impl, &meta::pow_tensor_scalar>(lib, OpId::pow_Tensor_Scalar);
  lib.def(OpId::pow_Scalar).composite(&pow_scalar);
  lib.def(OpId::pow_Scalar_out).composite(&pow_scalar_out);

  lib.def_structured<&meta::remainder>(OpId::remainder_Tensor).impl<&cpu::remainder_impl>(kCpu);
  def_scalar_overload<&meta::remainder, &cpu::remainder_impl>(lib, OpId::remainder_Scalar);
  lib.def(OpId::remainder_Scalar_Tensor).composite(&remainder_scalar_tensor);
  lib.def_structured<&meta::fmod>(OpId::fmod_Tensor).impl<&cpu::fmod_impl>(kCpu);
  def_scalar_overload<&meta::fmod, &cpu::fmod_impl>(lib, OpId::fmod_Scalar);
  lib.def(OpId::floor_divide).composite(&floor_divide_tensor);
  lib.def(OpId::floor_divide_Scalar).composite(&floor_divide_scalar);

  lib.def_structured<&meta::atan2>(OpId::atan2).impl<&cpu::atan2_impl>(kCpu);
  lib.def_structured<&meta::maximum>(OpId::maximum).impl<&cpu::maximum_impl>(kCpu);
  lib.def_structured<&meta::minimum>(OpId::minimum).impl<&cpu::minimum_impl>(kCpu);
}

}  // namespace lz
