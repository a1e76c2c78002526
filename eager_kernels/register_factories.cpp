// Factory operators. Those without tensor arguments are tagged Factory, so
// BackendSelect picks their backend from the `device` argument; the *_like
// composites take dtype and device from self unless given.
#include "core/factories.h"
#include "core/op_registration.h"
#include "eager_kernels/cpu/factory_kernels.h"
#include "eager_kernels/meta/factory_meta.h"

namespace lz {

namespace {

using OptDtype = std::optional<ScalarType>;
using OptLayout = std::optional<Layout>;
using OptDevice = std::optional<Device>;
using OptBool = std::optional<bool>;
using OptFormat = std::optional<MemoryFormat>;

TensorOptions like_options(const Tensor& self, OptDtype dtype, OptDevice device) {
  return TensorOptions(dtype.value_or(self.dtype())).device(device.value_or(self.device()));
}

Tensor empty_like_composite(const Tensor& self, OptDtype dtype, OptLayout, OptDevice device, OptBool, OptFormat) {
  return empty(self.sizes(), like_options(self, dtype, device));
}
Tensor zeros_like_composite(const Tensor& self, OptDtype dtype, OptLayout, OptDevice device, OptBool, OptFormat) {
  return zeros(self.sizes(), like_options(self, dtype, device));
}
Tensor ones_like_composite(const Tensor& self, OptDtype dtype, OptLayout, OptDevice device, OptBool, OptFormat) {
  return ones(self.sizes(), like_options(self, dtype, device));
}
Tensor randn_like_composite(const Tensor& self, OptDtype dtype, OptLayout, OptDevice device, OptBool, OptFormat) {
  return randn(self.sizes(), like_options(self, dtype, device));
}
Tensor full_like_composite(const Tensor& self, const Scalar& value, OptDtype dtype, OptLayout, OptDevice device,
                 OptBool, OptFormat) {
  return full(self.sizes(), value, like_options(self, dtype, device));
}
Tensor scalar_tensor_composite(const Scalar& value, OptDtype dtype, OptLayout layout, OptDevice device, OptBool) {
  const ScalarType t = dtype.value_or(value.is_floating_point() ? default_float_dtype() : value.type());
  return full({}, value, TensorOptions(t).device(device.value_or(Device(DeviceType::CPU))).layout(layout));
}

}  // namespace

LZ_LIBRARY(factory_ops) {
  const TagSet factory(Tag::Factory);
  const TagSet random{Tag::Factory, Tag::Random};
  constexpr Variants kFunctional = Variants::Functional;

  lib.def_structured<&meta::empty>(
         "empty.memory_format(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, "
         "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor",
         kFunctional)
      .tags(factory)
      .impl<&cpu::empty_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::zeros>(
         "zeros(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
         "bool? pin_memory=None) -> Tensor",
         kFunctional)
      .tags(factory)
      .impl<&cpu::zeros_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::ones>(
         "ones(SymInt[] size, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
         "bool? pin_memory=None) -> Tensor",
         kFunctional)
      .tags(factory)
      .impl<&cpu::ones_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::full>(
         "full(SymInt[] size, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, "
         "Device? device=None, bool? pin_memory=None) -> Tensor",
         kFunctional)
      .tags(factory)
      .impl<&cpu::full_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::arange>(
         "arange.start_step(Scalar start, Scalar end, Scalar step=1, *, ScalarType? dtype=None, "
         "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         kFunctional)
      .tags(factory)
      .impl<&cpu::arange_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::linspace>(
         "linspace(Scalar start, Scalar end, int steps, *, ScalarType? dtype=None, "
         "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         kFunctional)
      .tags(factory)
      .impl<&cpu::linspace_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::eye>(
         "eye(SymInt n, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
         "bool? pin_memory=None) -> Tensor",
         kFunctional)
      .tags(factory)
      .impl<&cpu::eye_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::eye_m>(
         "eye.m(SymInt n, SymInt m, *, ScalarType? dtype=None, Layout? layout=None, "
         "Device? device=None, bool? pin_memory=None) -> Tensor",
         kFunctional)
      .tags(factory)
      .impl<&cpu::eye_m_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::randn>(
         "randn(SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None, "
         "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         kFunctional)
      .tags(random)
      .impl<&cpu::randn_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::rand>(
         "rand(SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None, "
         "Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
         kFunctional)
      .tags(random)
      .impl<&cpu::rand_impl>(DispatchKey::CPU);

  const char* like_args =
      "(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, Device? device=None, "
      "bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor";
  lib.def(std::string("empty_like") + like_args).composite(&empty_like_composite);
  lib.def(std::string("zeros_like") + like_args).composite(&zeros_like_composite);
  lib.def(std::string("ones_like") + like_args).composite(&ones_like_composite);
  lib.def(std::string("randn_like") + like_args).tags(Tag::Random).composite(&randn_like_composite);
  lib.def("full_like(Tensor self, Scalar fill_value, *, ScalarType? dtype=None, Layout? layout=None, "
          "Device? device=None, bool? pin_memory=None, MemoryFormat? memory_format=None) -> Tensor")
      .composite(&full_like_composite);
  lib.def("scalar_tensor(Scalar s, *, ScalarType? dtype=None, Layout? layout=None, "
          "Device? device=None, bool? pin_memory=None) -> Tensor")
      .composite(&scalar_tensor_composite);
}

}  // namespace lz
