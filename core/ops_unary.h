// Unary element-wise operators: libtorch's names. *_ variants write into
// self; *_out variants write into `out` (resized if it is empty). Floating
// functions (exp ... erf, reciprocal, sqrt, rsqrt, trig) give float32 for
// integral and bool inputs, like PyTorch; float16/bfloat16 compute in float.
#pragma once

#include <string_view>

#include "core/tensor.h"

namespace lz {

// -self. Bool tensors are rejected (use logical_not).
Tensor neg(const Tensor& self);
Tensor& neg_(Tensor& self);
Tensor& neg_out(Tensor& out, const Tensor& self);

// |self|; integers wrap like PyTorch (abs(INT_MIN) == INT_MIN). Bool is rejected.
Tensor abs(const Tensor& self);
Tensor& abs_(Tensor& self);
Tensor& abs_out(Tensor& out, const Tensor& self);

// -1, 0 or 1 in self's dtype (bool: itself). sign(NaN) is 0, as in PyTorch.
Tensor sign(const Tensor& self);
Tensor& sign_(Tensor& self);
Tensor& sign_out(Tensor& out, const Tensor& self);

// self * self; bool gives int64 (PyTorch's pow(self, 2)).
Tensor square(const Tensor& self);
Tensor& square_(Tensor& self);
Tensor& square_out(Tensor& out, const Tensor& self);

// 1 / self.
Tensor reciprocal(const Tensor& self);
Tensor& reciprocal_(Tensor& self);
Tensor& reciprocal_out(Tensor& out, const Tensor& self);

// Integer inputs give a floating result.
Tensor exp(const Tensor& self);
Tensor& exp_(Tensor& self);
Tensor& exp_out(Tensor& out, const Tensor& self);

Tensor exp2(const Tensor& self);
Tensor& exp2_(Tensor& self);
Tensor& exp2_out(Tensor& out, const Tensor& self);

Tensor expm1(const Tensor& self);
Tensor& expm1_(Tensor& self);
Tensor& expm1_out(Tensor& out, const Tensor& self);

Tensor log(const Tensor& self);
Tensor& log_(Tensor& self);
Tensor& log_out(Tensor& out, const Tensor& self);

Tensor log2(const Tensor& self);
Tensor& log2_(Tensor& self);
Tensor& log2_out(Tensor& out, const Tensor& self);

Tensor log1p(const Tensor& self);
Tensor& log1p_(Tensor& self);
Tensor& log1p_out(Tensor& out, const Tensor& self);

Tensor sqrt(const Tensor& self);
Tensor& sqrt_(Tensor& self);
Tensor& sqrt_out(Tensor& out, const Tensor& self);

Tensor rsqrt(const Tensor& self);
Tensor& rsqrt_(Tensor& self);
Tensor& rsqrt_out(Tensor& out, const Tensor& self);

Tensor sin(const Tensor& self);
Tensor& sin_(Tensor& self);
Tensor& sin_out(Tensor& out, const Tensor& self);

Tensor cos(const Tensor& self);
Tensor& cos_(Tensor& self);
Tensor& cos_out(Tensor& out, const Tensor& self);

Tensor tan(const Tensor& self);
Tensor& tan_(Tensor& self);
Tensor& tan_out(Tensor& out, const Tensor& self);

Tensor tanh(const Tensor& self);
Tensor& tanh_(Tensor& self);
Tensor& tanh_out(Tensor& out, const Tensor& self);

Tensor sigmoid(const Tensor& self);
Tensor& sigmoid_(Tensor& self);
Tensor& sigmoid_out(Tensor& out, const Tensor& self);

// max(self, 0), NaN kept. Bool is rejected.
Tensor relu(const Tensor& self);
Tensor& relu_(Tensor& self);
Tensor& relu_out(Tensor& out, const Tensor& self);

// self * sigmoid(self); floating dtypes only.
Tensor silu(const Tensor& self);
Tensor& silu_(Tensor& self);
Tensor& silu_out(Tensor& out, const Tensor& self);

// self * relu6(self + 3) / 6 (MobileNetV3's activation); floating dtypes only.
Tensor hardswish(const Tensor& self);
Tensor& hardswish_(Tensor& self);
Tensor& hardswish_out(Tensor& out, const Tensor& self);

Tensor erf(const Tensor& self);
Tensor& erf_(Tensor& self);
Tensor& erf_out(Tensor& out, const Tensor& self);

// Identities on integer dtypes; bool is rejected.
Tensor floor(const Tensor& self);
Tensor& floor_(Tensor& self);
Tensor& floor_out(Tensor& out, const Tensor& self);

Tensor ceil(const Tensor& self);
Tensor& ceil_(Tensor& self);
Tensor& ceil_out(Tensor& out, const Tensor& self);

// Half to even, as torch.round.
Tensor round(const Tensor& self);
Tensor& round_(Tensor& self);
Tensor& round_out(Tensor& out, const Tensor& self);

Tensor trunc(const Tensor& self);
Tensor& trunc_(Tensor& self);
Tensor& trunc_out(Tensor& out, const Tensor& self);

// self == 0, a bool tensor (the in-place form keeps self's dtype: 0/1).
Tensor logical_not(const Tensor& self);
Tensor& logical_not_(Tensor& self);
Tensor& logical_not_out(Tensor& out, const Tensor& self);

// ~self for integer and bool tensors (logical not for bool).
Tensor bitwise_not(const Tensor& self);
Tensor& bitwise_not_(Tensor& self);
Tensor& bitwise_not_out(Tensor& out, const Tensor& self);

// approximate: "none" (x/2 (1 + erf(x/sqrt(2)))) or "tanh"
// (x/2 (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3)))); floating dtypes only.
Tensor gelu(const Tensor& self, std::string_view approximate = "none");
Tensor& gelu_(Tensor& self, std::string_view approximate = "none");
Tensor& gelu_out(Tensor& out, const Tensor& self, std::string_view approximate = "none");

// Bool tensors; false everywhere for integral and bool inputs.
Tensor isnan(const Tensor& self);
Tensor& isnan_out(Tensor& out, const Tensor& self);
Tensor isinf(const Tensor& self);
Tensor& isinf_out(Tensor& out, const Tensor& self);

}  // namespace lz
