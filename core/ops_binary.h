// Binary and ternary element-wise operators: libtorch's names and argument
// order. They broadcast and promote types (core/type_promotion.h); *_out
// variants write into `out` (resized if it is empty) and return it. Scalar
// arguments join type promotion like Python numbers (int32 tensor + 2.5 is
// float32, uint8 tensor + 300 stays uint8).
//
// In-place forms are Tensor methods (x.pow_(2)); the ones core/tensor.h has
// no method for are free functions here (eq_, logical_and_, clamp_min_, ...).
#pragma once

#include <optional>
#include <string_view>

#include "core/tensor.h"

namespace lz {

// ---- Arithmetic ----------------------------------------------------------------

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);

Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha = 1);
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha = 1);
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha = 1);

Tensor mul(const Tensor& self, const Tensor& other);
Tensor mul(const Tensor& self, const Scalar& other);
Tensor& mul_out(Tensor& out, const Tensor& self, const Tensor& other);

// True division: integer inputs give a floating result.
Tensor div(const Tensor& self, const Tensor& other);
Tensor div(const Tensor& self, const Scalar& other);
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other);
// rounding_mode nullopt: true division; "trunc": rounded toward zero;
// "floor": rounded toward negative infinity (Python's //). With a rounding
// mode integer inputs give integer results, and an integer division by zero
// raises ValueError ("ZeroDivisionError"); other strings are a ValueError.
Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string_view> rounding_mode);
Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string_view> rounding_mode);
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other,
                std::optional<std::string_view> rounding_mode);

// self ** exponent in the promoted dtype (bool results are rejected).
// Integers: a negative Scalar exponent is a ValueError, as in PyTorch; a
// negative tensor exponent gives 1 / self ** |e| truncated (0 unless |self| == 1).
Tensor pow(const Tensor& self, const Tensor& exponent);
Tensor pow(const Tensor& self, const Scalar& exponent);
Tensor pow(const Scalar& self, const Tensor& exponent);
Tensor& pow_out(Tensor& out, const Tensor& self, const Tensor& exponent);
Tensor& pow_out(Tensor& out, const Tensor& self, const Scalar& exponent);
Tensor& pow_out(Tensor& out, const Scalar& self, const Tensor& exponent);

// Python's modulo: the result takes the sign of other; integer division by
// zero raises ValueError ("ZeroDivisionError"). Not for bool.
Tensor remainder(const Tensor& self, const Tensor& other);
Tensor remainder(const Tensor& self, const Scalar& other);
Tensor remainder(const Scalar& self, const Tensor& other);
Tensor& remainder_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor& remainder_out(Tensor& out, const Tensor& self, const Scalar& other);
Tensor fmod(const Tensor& self, const Tensor& other);
Tensor fmod(const Tensor& self, const Scalar& other);
Tensor& fmod_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor& fmod_out(Tensor& out, const Tensor& self, const Scalar& other);
// floor(self / other), as div(self, other, "floor") (integer division
// rounding down for integers; a zero integer divisor is a ValueError).
Tensor floor_divide(const Tensor& self, const Tensor& other);
Tensor floor_divide(const Tensor& self, const Scalar& other);

// atan2(self, other): the angle of (other, self); integer inputs give float32.
Tensor atan2(const Tensor& self, const Tensor& other);
Tensor& atan2_out(Tensor& out, const Tensor& self, const Tensor& other);

// Element-wise max / min; NaN propagates.
Tensor maximum(const Tensor& self, const Tensor& other);
Tensor& maximum_out(Tensor& out, const Tensor& self, const Tensor& other);
Tensor minimum(const Tensor& self, const Tensor& other);
Tensor& minimum_out(Tensor& out, const Tensor& self, const Tensor& other);
// libtorch's other spelling of maximum / minimum (beside max(self) and
// max(self, dim) in core/ops_reduction.h).
Tensor max(const Tensor& self, const Tensor& other);
Tensor min(const Tensor& self, const Tensor& other);

// ---- Comparisons (bool results; in place, self keeps its dtype) ---------------

#define LZ_DECLARE_COMPARISON(name)                                           \
  Tensor name(const Tensor& self, const Tensor& other);                       \
  Tensor name(const Tensor& self, const Scalar& other);                       \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other);   \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Scalar& other);   \
  Tensor& name##_(Tensor& self, const Tensor& other);                         \
  Tensor& name##_(Tensor& self, const Scalar& other);
LZ_DECLARE_COMPARISON(eq)
LZ_DECLARE_COMPARISON(ne)
LZ_DECLARE_COMPARISON(lt)
LZ_DECLARE_COMPARISON(le)
LZ_DECLARE_COMPARISON(gt)
LZ_DECLARE_COMPARISON(ge)
#undef LZ_DECLARE_COMPARISON

// ---- Logical (bool results: nonzero is true) and bitwise (integers, bool) -----

#define LZ_DECLARE_LOGICAL(name)                                              \
  Tensor name(const Tensor& self, const Tensor& other);                       \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other);   \
  Tensor& name##_(Tensor& self, const Tensor& other);
LZ_DECLARE_LOGICAL(logical_and)
LZ_DECLARE_LOGICAL(logical_or)
LZ_DECLARE_LOGICAL(logical_xor)
#undef LZ_DECLARE_LOGICAL

#define LZ_DECLARE_BITWISE(name)                                              \
  Tensor name(const Tensor& self, const Tensor& other);                       \
  Tensor name(const Tensor& self, const Scalar& other);                       \
  Tensor name(const Scalar& self, const Tensor& other);                       \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other);   \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Scalar& other);   \
  Tensor& name##_(Tensor& self, const Tensor& other);                         \
  Tensor& name##_(Tensor& self, const Scalar& other);
LZ_DECLARE_BITWISE(bitwise_and)
LZ_DECLARE_BITWISE(bitwise_or)
LZ_DECLARE_BITWISE(bitwise_xor)
#undef LZ_DECLARE_BITWISE

// ---- Ternary -------------------------------------------------------------------

// condition ? self : other; condition must be bool; the result has the
// promoted dtype of self and other; all three broadcast.
Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other);
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other);
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other);
Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other);
Tensor& where_out(Tensor& out, const Tensor& condition, const Tensor& self, const Tensor& other);

// min(max(self, min), max): at least one bound must be given; min > max
// gives max everywhere; NaN in self or a bound propagates. The result has
// the promoted dtype of self and the bounds (int32 tensor, 0.5 -> float32);
// bool is rejected.
Tensor clamp(const Tensor& self, const std::optional<Scalar>& min,
             const std::optional<Scalar>& max = std::nullopt);
Tensor clamp(const Tensor& self, const std::optional<Tensor>& min,
             const std::optional<Tensor>& max = std::nullopt);
Tensor& clamp_(Tensor& self, const std::optional<Scalar>& min,
               const std::optional<Scalar>& max = std::nullopt);
Tensor& clamp_(Tensor& self, const std::optional<Tensor>& min,
               const std::optional<Tensor>& max = std::nullopt);
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Scalar>& min,
                  const std::optional<Scalar>& max = std::nullopt);
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Tensor>& min,
                  const std::optional<Tensor>& max = std::nullopt);
Tensor clamp_min(const Tensor& self, const Scalar& min);
Tensor clamp_min(const Tensor& self, const Tensor& min);
Tensor& clamp_min_(Tensor& self, const Scalar& min);
Tensor& clamp_min_(Tensor& self, const Tensor& min);
Tensor& clamp_min_out(Tensor& out, const Tensor& self, const Scalar& min);
Tensor& clamp_min_out(Tensor& out, const Tensor& self, const Tensor& min);
Tensor clamp_max(const Tensor& self, const Scalar& max);
Tensor clamp_max(const Tensor& self, const Tensor& max);
Tensor& clamp_max_(Tensor& self, const Scalar& max);
Tensor& clamp_max_(Tensor& self, const Tensor& max);
Tensor& clamp_max_out(Tensor& out, const Tensor& self, const Scalar& max);
Tensor& clamp_max_out(Tensor& out, const Tensor& self, const Tensor& max);

// self + weight * (end - self); floating dtypes; end (and a tensor weight)
// must have self's dtype.
Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight);
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight);
Tensor& lerp_(Tensor& self, const Tensor& end, const Scalar& weight);
Tensor& lerp_(Tensor& self, const Tensor& end, const Tensor& weight);
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight);
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight);

// self + value * tensor1 * tensor2 (not bool) and self + value * tensor1 /
// tensor2 (tensor1 and tensor2 may not both be integral).
Tensor addcmul(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1);
Tensor& addcmul_out(Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                    const Scalar& value = 1);
Tensor addcdiv(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1);
Tensor& addcdiv_out(Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2,
                    const Scalar& value = 1);

// mask ? value : self, in self's dtype; mask must be bool and broadcast with
// self (in place: to self's shape); a tensor value must be 0-dim; a value
// that does not fit self's dtype is a ValueError.
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value);
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value);

}  // namespace lz
