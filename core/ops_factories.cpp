// Call sites of the factory operators (schemas and kernels: eager_kernels/).
#include "core/factories.h"
#include "core/op_call.h"

namespace lz {

using OptDtype = std::optional<ScalarType>;
using OptLayout = std::optional<Layout>;
using OptDevice = std::optional<Device>;
using OptBool = std::optional<bool>;
using OptFormat = std::optional<MemoryFormat>;

using FactorySig = Tensor(IntArrayRef, OptDtype, OptLayout, OptDevice, OptBool);
using LikeSig = Tensor(const Tensor&, OptDtype, OptLayout, OptDevice, OptBool, OptFormat);

Tensor empty(IntArrayRef size, const TensorOptions& o) {
  return LZ_OP("empty.memory_format",
               Tensor(IntArrayRef, OptDtype, OptLayout, OptDevice, OptBool, OptFormat))
      .call(size, o.dtype_opt(), o.layout_opt(), o.device_opt(), std::nullopt,
            o.memory_format_opt());
}
Tensor zeros(IntArrayRef size, const TensorOptions& o) {
  return LZ_OP("zeros", FactorySig)
      .call(size, o.dtype_opt(), o.layout_opt(), o.device_opt(), std::nullopt);
}
Tensor ones(IntArrayRef size, const TensorOptions& o) {
  return LZ_OP("ones", FactorySig)
      .call(size, o.dtype_opt(), o.layout_opt(), o.device_opt(), std::nullopt);
}
Tensor full(IntArrayRef size, const Scalar& fill_value, const TensorOptions& o) {
  return LZ_OP("full", Tensor(IntArrayRef, const Scalar&, OptDtype, OptLayout, OptDevice, OptBool))
      .call(size, fill_value, o.dtype_opt(), o.layout_opt(), o.device_opt(), std::nullopt);
}

Tensor arange(const Scalar& end, const TensorOptions& o) { return arange(0, end, 1, o); }
Tensor arange(const Scalar& start, const Scalar& end, const TensorOptions& o) {
  return arange(start, end, 1, o);
}
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, const TensorOptions& o) {
  return LZ_OP("arange.start_step", Tensor(const Scalar&, const Scalar&, const Scalar&, OptDtype,
                                           OptLayout, OptDevice, OptBool))
      .call(start, end, step, o.dtype_opt(), o.layout_opt(), o.device_opt(), std::nullopt);
}

Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, const TensorOptions& o) {
  return LZ_OP("linspace", Tensor(const Scalar&, const Scalar&, int64_t, OptDtype, OptLayout,
                                  OptDevice, OptBool))
      .call(start, end, steps, o.dtype_opt(), o.layout_opt(), o.device_opt(), std::nullopt);
}

Tensor eye(int64_t n, const TensorOptions& o) {
  return LZ_OP("eye", Tensor(int64_t, OptDtype, OptLayout, OptDevice, OptBool))
      .call(n, o.dtype_opt(), o.layout_opt(), o.device_opt(), std::nullopt);
}
Tensor eye(int64_t n, int64_t m, const TensorOptions& o) {
  return LZ_OP("eye.m", Tensor(int64_t, int64_t, OptDtype, OptLayout, OptDevice, OptBool))
      .call(n, m, o.dtype_opt(), o.layout_opt(), o.device_opt(), std::nullopt);
}

using RandomSig =
    Tensor(IntArrayRef, std::optional<Generator>, OptDtype, OptLayout, OptDevice, OptBool);

Tensor randn(IntArrayRef size, const TensorOptions& o) { return randn(size, std::nullopt, o); }
Tensor randn(IntArrayRef size, std::optional<Generator> generator, const TensorOptions& o) {
  return LZ_OP("randn", RandomSig)
      .call(size, std::move(generator), o.dtype_opt(), o.layout_opt(), o.device_opt(), std::nullopt);
}
Tensor rand(IntArrayRef size, const TensorOptions& o) { return rand(size, std::nullopt, o); }
Tensor rand(IntArrayRef size, std::optional<Generator> generator, const TensorOptions& o) {
  return LZ_OP("rand", RandomSig)
      .call(size, std::move(generator), o.dtype_opt(), o.layout_opt(), o.device_opt(), std::nullopt);
}

#define LZ_LIKE_OP(name)                                                                      \
  Tensor name(const Tensor& self, const TensorOptions& o) {                                   \
    return LZ_OP(#name, LikeSig)                                                              \
        .call(self, o.dtype_opt(), o.layout_opt(), o.device_opt(), std::nullopt,              \
              o.memory_format_opt());                                                         \
  }
LZ_LIKE_OP(empty_like)
LZ_LIKE_OP(zeros_like)
LZ_LIKE_OP(ones_like)
LZ_LIKE_OP(randn_like)
#undef LZ_LIKE_OP

Tensor full_like(const Tensor& self, const Scalar& fill_value, const TensorOptions& o) {
  return LZ_OP("full_like", Tensor(const Tensor&, const Scalar&, OptDtype, OptLayout, OptDevice,
                                   OptBool, OptFormat))
      .call(self, fill_value, o.dtype_opt(), o.layout_opt(), o.device_opt(), std::nullopt,
            o.memory_format_opt());
}

Tensor scalar_tensor(const Scalar& value, const TensorOptions& o) {
  return LZ_OP("scalar_tensor", Tensor(const Scalar&, OptDtype, OptLayout, OptDevice, OptBool))
      .call(value, o.dtype_opt(), o.layout_opt(), o.device_opt(), std::nullopt);
}

}  // namespace lz
