// Factory operators. Those without tensor arguments are tagged Factory, so
// BackendSelect picks their backend from the `device` argument; the *_like
// composites take dtype and device from self unless given.
#include "core/factories.h"
#include "core/local_dispatch_key_set.h"
#include "core/op_registration.h"
#include "eager_kernels/cpu/factory_kernels.h"
#include "eager_kernels/cuda/fill_kernels.h"
#include "eager_kernels/meta/factory_meta.h"

namespace lz {

namespace {

using OptDtype = std::optional<ScalarType>;
using OptLayout = std::optional<Layout>;
using OptDevice = std::optional<Device>;
using OptBool = std::optional<bool>;
using OptFormat = std::optional<MemoryFormat>;

// A *_like of a lazy tensor is lazy too: its factory is traced, so that an
// optimizer's zeros_like(param) or backward's ones_like(loss) does not cut
// the graph.
class TraceIfLazy {
 public:
  explicit TraceIfLazy(const Tensor& self) {
    if (self.is_lazy()) guard_.emplace(DispatchKey::Lazy);
  }

 private:
  std::optional<IncludeDispatchKeyGuard> guard_;
};

TensorOptions like_options(const Tensor& self, OptDtype dtype, OptDevice device) {
  return TensorOptions(dtype.value_or(self.dtype())).device(device.value_or(self.device()));
}

Tensor empty_like_composite(const Tensor& self, OptDtype dtype, OptLayout, OptDevice device, OptBool, OptFormat) {
  TraceIfLazy traced(self);
  return empty(self.sizes(), like_options(self, dtype, device));
}
Tensor zeros_like_composite(const Tensor& self, OptDtype dtype, OptLayout, OptDevice device, OptBool, OptFormat) {
  TraceIfLazy traced(self);
  return zeros(self.sizes(), like_options(self, dtype, device));
}
Tensor ones_like_composite(const Tensor& self, OptDtype dtype, OptLayout, OptDevice device, OptBool, OptFormat) {
  TraceIfLazy traced(self);
  return ones(self.sizes(), like_options(self, dtype, device));
}
Tensor randn_like_composite(const Tensor& self, OptDtype dtype, OptLayout, OptDevice device, OptBool, OptFormat) {
  TraceIfLazy traced(self);
  return randn(self.sizes(), like_options(self, dtype, device));
}
Tensor rand_like_composite(const Tensor& self, OptDtype dtype, OptLayout, OptDevice device, OptBool, OptFormat) {
  TraceIfLazy traced(self);
  return rand(self.sizes(), like_options(self, dtype, device));
}
Tensor randint_like_composite(const Tensor& self, int64_t high, OptDtype dtype, OptLayout, OptDevice device,
                              OptBool, OptFormat) {
  TraceIfLazy traced(self);
  return randint(0, high, self.sizes(), like_options(self, dtype, device));
}
Tensor randint_like_low_composite(const Tensor& self, int64_t low, int64_t high, OptDtype dtype, OptLayout,
                                  OptDevice device, OptBool, OptFormat) {
  TraceIfLazy traced(self);
  return randint(low, high, self.sizes(), like_options(self, dtype, device));
}
Tensor full_like_composite(const Tensor& self, const Scalar& value, OptDtype dtype, OptLayout, OptDevice device,
                 OptBool, OptFormat) {
  TraceIfLazy traced(self);
  return full(self.sizes(), value, like_options(self, dtype, device));
}
Tensor scalar_tensor_composite(const Scalar& value, OptDtype dtype, OptLayout layout, OptDevice device, OptBool) {
  const ScalarType t = dtype.value_or(value.is_floating_point() ? default_float_dtype() : value.type());
  return full({}, value, TensorOptions(t).device(device.value_or(Device(DeviceType::CPU))).layout(layout));
}

// empty, zeros, ones and full on CUDA: allocated there (structured) and
// filled by the driver's memsets. Through the CUDA fallback every CUDA
// buffer would be made on the host and copied over (that route is kept for
// the random factories, so their numbers match the CPU's for a seed).
void empty_cuda(const Tensor&, IntArrayRef, OptDtype, OptLayout, OptDevice, OptBool, OptFormat) {}
void zeros_cuda(const Tensor& out, IntArrayRef, OptDtype, OptLayout, OptDevice, OptBool) {
  cuda::fill_contiguous(out, 0);
}
void ones_cuda(const Tensor& out, IntArrayRef, OptDtype, OptLayout, OptDevice, OptBool) {
  cuda::fill_contiguous(out, 1);
}
void full_cuda(const Tensor& out, IntArrayRef, const Scalar& value, OptDtype, OptLayout, OptDevice, OptBool) {
  cuda::fill_contiguous(out, value);
}

}  // namespace

LZ_LIBRARY(factory_ops) {
  constexpr DispatchKey kCpu = DispatchKey::CPU, kCuda = DispatchKey::CUDA;
  lib.def_structured<&meta::empty>(OpId::empty_memory_format).impl<&cpu::empty_impl>(kCpu).impl<&empty_cuda>(kCuda);
  lib.def_structured<&meta::zeros>(OpId::zeros).impl<&cpu::zeros_impl>(kCpu).impl<&zeros_cuda>(kCuda);
  lib.def_structured<&meta::ones>(OpId::ones).impl<&cpu::ones_impl>(kCpu).impl<&ones_cuda>(kCuda);
  lib.def_structured<&meta::full>(OpId::full).impl<&cpu::full_impl>(kCpu).impl<&full_cuda>(kCuda);
  lib.def_structured<&meta::arange>(OpId::arange_start_step).impl<&cpu::arange_impl>(kCpu);
  lib.def_structured<&meta::linspace>(OpId::linspace).impl<&cpu::linspace_impl>(kCpu);
  lib.def_structured<&meta::eye>(OpId::eye).impl<&cpu::eye_impl>(kCpu);
  lib.def_structured<&meta::eye_m>(OpId::eye_m).impl<&cpu::eye_m_impl>(kCpu);
  lib.def_structured<&meta::randn>(OpId::randn).impl<&cpu::randn_impl>(kCpu);
  lib.def_structured<&meta::rand>(OpId::rand).impl<&cpu::rand_impl>(kCpu);
  lib.def_structured<&meta::randint>(OpId::randint_low).impl<&cpu::randint_impl>(kCpu);

  lib.def(OpId::empty_like).composite(&empty_like_composite);
  lib.def(OpId::zeros_like).composite(&zeros_like_composite);
  lib.def(OpId::ones_like).composite(&ones_like_composite);
  lib.def(OpId::randn_like).composite(&randn_like_composite);
  lib.def(OpId::rand_like).composite(&rand_like_composite);
  lib.def(OpId::randint_like).composite(&randint_like_composite);
  lib.def(OpId::randint_like_low_dtype).composite(&randint_like_low_composite);
  lib.def(OpId::full_like).composite(&full_like_composite);
  lib.def(OpId::scalar_tensor).composite(&scalar_tensor_composite);
}

}  // namespace lz
