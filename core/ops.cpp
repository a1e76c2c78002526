// Public operator entry points: each one calls its operator through the
// dispatcher (the schemas live with the kernels in eager_kernels/).
#include "core/empty_tensor.h"
#include "core/factories.h"
#include "core/op_call.h"
#include "core/ops_compare.h"
#include "core/ops_copy.h"
#include "core/ops_pointwise.h"
#include "core/ops_reduction.h"
#include "core/ops_views.h"

namespace lz {

using OptDtype = std::optional<ScalarType>;
using OptLayout = std::optional<Layout>;
using OptDevice = std::optional<Device>;
using OptBool = std::optional<bool>;
using OptFormat = std::optional<MemoryFormat>;

// ---- Pointwise ---------------------------------------------------------------

#define LZ_BINARY_ALPHA_OP(name)                                                              \
  Tensor name(const Tensor& self, const Tensor& other, const Scalar& alpha) {                 \
    return LZ_OP(#name ".Tensor", Tensor(const Tensor&, const Tensor&, const Scalar&))        \
        .call(self, other, alpha);                                                            \
  }                                                                                           \
  Tensor name(const Tensor& self, const Scalar& other, const Scalar& alpha) {                 \
    return LZ_OP(#name ".Scalar", Tensor(const Tensor&, const Scalar&, const Scalar&))        \
        .call(self, other, alpha);                                                            \
  }                                                                                           \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) { \
    LZ_OP(#name ".out", Tensor(const Tensor&, const Tensor&, const Scalar&, const Tensor&))   \
        .call(self, other, alpha, out);                                                       \
    return out;                                                                               \
  }
LZ_BINARY_ALPHA_OP(add)
LZ_BINARY_ALPHA_OP(sub)
#undef LZ_BINARY_ALPHA_OP

#define LZ_BINARY_OP(name)                                                                    \
  Tensor name(const Tensor& self, const Tensor& other) {                                      \
    return LZ_OP(#name ".Tensor", Tensor(const Tensor&, const Tensor&)).call(self, other);    \
  }                                                                                           \
  Tensor name(const Tensor& self, const Scalar& other) {                                      \
    return LZ_OP(#name ".Scalar", Tensor(const Tensor&, const Scalar&)).call(self, other);    \
  }                                                                                           \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) {                  \
    LZ_OP(#name ".out", Tensor(const Tensor&, const Tensor&, const Tensor&)).call(self, other, out); \
    return out;                                                                               \
  }
LZ_BINARY_OP(mul)
LZ_BINARY_OP(div)
#undef LZ_BINARY_OP

#define LZ_UNARY_OP(name)                                                                     \
  Tensor name(const Tensor& self) { return LZ_OP(#name, Tensor(const Tensor&)).call(self); }  \
  Tensor& name##_(Tensor& self) {                                                             \
    LZ_OP(#name "_", Tensor(const Tensor&)).call(self);                                       \
    return self;                                                                              \
  }                                                                                           \
  Tensor& name##_out(Tensor& out, const Tensor& self) {                                       \
    LZ_OP(#name ".out", Tensor(const Tensor&, const Tensor&)).call(self, out);                \
    return out;                                                                               \
  }
LZ_UNARY_OP(neg)
LZ_UNARY_OP(exp)
LZ_UNARY_OP(relu)
#undef LZ_UNARY_OP

// ---- Reductions ----------------------------------------------------------------

using SumDimSig = Tensor(const Tensor&, std::optional<IntArrayRef>, bool, OptDtype);

Tensor sum(const Tensor& self, OptDtype dtype) {
  return LZ_OP("sum", Tensor(const Tensor&, OptDtype)).call(self, dtype);
}
Tensor sum(const Tensor& self, IntArrayRef dim, bool keepdim, OptDtype dtype) {
  return LZ_OP("sum.dim_IntList", SumDimSig).call(self, dim, keepdim, dtype);
}
Tensor& sum_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim, OptDtype dtype) {
  LZ_OP("sum.dim_IntList_out",
        Tensor(const Tensor&, std::optional<IntArrayRef>, bool, OptDtype, const Tensor&))
      .call(self, dim, keepdim, dtype, out);
  return out;
}

// ---- Views -------------------------------------------------------------------

Tensor view(const Tensor& self, IntArrayRef size) {
  return LZ_OP("view", Tensor(const Tensor&, IntArrayRef)).call(self, size);
}
Tensor reshape(const Tensor& self, IntArrayRef shape) {
  return LZ_OP("reshape", Tensor(const Tensor&, IntArrayRef)).call(self, shape);
}
Tensor flatten(const Tensor& self, int64_t start_dim, int64_t end_dim) {
  return LZ_OP("flatten.using_ints", Tensor(const Tensor&, int64_t, int64_t))
      .call(self, start_dim, end_dim);
}
Tensor permute(const Tensor& self, IntArrayRef dims) {
  return LZ_OP("permute", Tensor(const Tensor&, IntArrayRef)).call(self, dims);
}
Tensor transpose(const Tensor& self, int64_t dim0, int64_t dim1) {
  return LZ_OP("transpose.int", Tensor(const Tensor&, int64_t, int64_t)).call(self, dim0, dim1);
}
Tensor t(const Tensor& self) { return LZ_OP("t", Tensor(const Tensor&)).call(self); }
Tensor expand(const Tensor& self, IntArrayRef size) {
  return LZ_OP("expand", Tensor(const Tensor&, IntArrayRef, bool)).call(self, size, false);
}
Tensor narrow(const Tensor& self, int64_t dim, int64_t start, int64_t length) {
  return LZ_OP("narrow", Tensor(const Tensor&, int64_t, int64_t, int64_t))
      .call(self, dim, start, length);
}
Tensor slice(const Tensor& self, int64_t dim, std::optional<int64_t> start,
             std::optional<int64_t> end, int64_t step) {
  return LZ_OP("slice.Tensor", Tensor(const Tensor&, int64_t, std::optional<int64_t>,
                                      std::optional<int64_t>, int64_t))
      .call(self, dim, start, end, step);
}
Tensor select(const Tensor& self, int64_t dim, int64_t index) {
  return LZ_OP("select.int", Tensor(const Tensor&, int64_t, int64_t)).call(self, dim, index);
}
Tensor squeeze(const Tensor& self) { return LZ_OP("squeeze", Tensor(const Tensor&)).call(self); }
Tensor squeeze(const Tensor& self, int64_t dim) {
  return LZ_OP("squeeze.dim", Tensor(const Tensor&, int64_t)).call(self, dim);
}
Tensor unsqueeze(const Tensor& self, int64_t dim) {
  return LZ_OP("unsqueeze", Tensor(const Tensor&, int64_t)).call(self, dim);
}
Tensor as_strided(const Tensor& self, IntArrayRef size, IntArrayRef stride,
                  std::optional<int64_t> storage_offset) {
  return LZ_OP("as_strided",
               Tensor(const Tensor&, IntArrayRef, IntArrayRef, std::optional<int64_t>))
      .call(self, size, stride, storage_offset);
}

// ---- Copies ------------------------------------------------------------------

Tensor clone(const Tensor& self, OptFormat memory_format) {
  return LZ_OP("clone", Tensor(const Tensor&, OptFormat)).call(self, memory_format);
}
Tensor _to_copy(const Tensor& self, OptDtype dtype, OptDevice device, bool non_blocking) {
  return LZ_OP("_to_copy", Tensor(const Tensor&, OptDtype, OptLayout, OptDevice, OptBool, bool,
                                  OptFormat))
      .call(self, dtype, std::nullopt, device, std::nullopt, non_blocking, std::nullopt);
}

// ---- Comparisons -------------------------------------------------------------

bool equal(const Tensor& self, const Tensor& other) {
  return LZ_OP("equal", bool(const Tensor&, const Tensor&)).call(self, other);
}
bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  return LZ_OP("allclose", bool(const Tensor&, const Tensor&, double, double, bool))
      .call(self, other, rtol, atol, equal_nan);
}

// ---- Factories ---------------------------------------------------------------

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
