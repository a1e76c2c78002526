// Call sites of the binary and ternary operators (schemas and kernels: eager_kernels/).
#include "core/op_call.h"
#include "core/ops_binary.h"

namespace lz {

namespace {
using OptStr = std::optional<std::string_view>;
using OptScalar = std::optional<Scalar>;
using OptTensor = std::optional<Tensor>;
}  // namespace

// ---- Arithmetic ----------------------------------------------------------------

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

Tensor div(const Tensor& self, const Tensor& other, OptStr rounding_mode) {
  return LZ_OP("div.Tensor_mode", Tensor(const Tensor&, const Tensor&, OptStr))
      .call(self, other, rounding_mode);
}
Tensor div(const Tensor& self, const Scalar& other, OptStr rounding_mode) {
  return LZ_OP("div.Scalar_mode", Tensor(const Tensor&, const Scalar&, OptStr))
      .call(self, other, rounding_mode);
}
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other, OptStr rounding_mode) {
  LZ_OP("div.out_mode", Tensor(const Tensor&, const Tensor&, OptStr, const Tensor&))
      .call(self, other, rounding_mode, out);
  return out;
}
Tensor& div_(Tensor& self, const Scalar& other, OptStr rounding_mode) {
  LZ_OP("div_.Scalar_mode", Tensor(const Tensor&, const Scalar&, OptStr)).call(self, other, rounding_mode);
  return self;
}

Tensor pow(const Tensor& self, const Tensor& exponent) {
  return LZ_OP("pow.Tensor_Tensor", Tensor(const Tensor&, const Tensor&)).call(self, exponent);
}
Tensor pow(const Tensor& self, const Scalar& exponent) {
  return LZ_OP("pow.Tensor_Scalar", Tensor(const Tensor&, const Scalar&)).call(self, exponent);
}
Tensor pow(const Scalar& self, const Tensor& exponent) {
  return LZ_OP("pow.Scalar", Tensor(const Scalar&, const Tensor&)).call(self, exponent);
}
Tensor& pow_out(Tensor& out, const Tensor& self, const Tensor& exponent) {
  LZ_OP("pow.Tensor_Tensor_out", Tensor(const Tensor&, const Tensor&, const Tensor&)).call(self, exponent, out);
  return out;
}
Tensor& pow_out(Tensor& out, const Tensor& self, const Scalar& exponent) {
  LZ_OP("pow.Tensor_Scalar_out", Tensor(const Tensor&, const Scalar&, const Tensor&)).call(self, exponent, out);
  return out;
}
Tensor& pow_out(Tensor& out, const Scalar& self, const Tensor& exponent) {
  LZ_OP("pow.Scalar_out", Tensor(const Scalar&, const Tensor&, const Tensor&)).call(self, exponent, out);
  return out;
}

Tensor remainder(const Tensor& self, const Tensor& other) {
  return LZ_OP("remainder.Tensor", Tensor(const Tensor&, const Tensor&)).call(self, other);
}
Tensor remainder(const Tensor& self, const Scalar& other) {
  return LZ_OP("remainder.Scalar", Tensor(const Tensor&, const Scalar&)).call(self, other);
}
Tensor remainder(const Scalar& self, const Tensor& other) {
  return LZ_OP("remainder.Scalar_Tensor", Tensor(const Scalar&, const Tensor&)).call(self, other);
}
Tensor& remainder_out(Tensor& out, const Tensor& self, const Tensor& other) {
  LZ_OP("remainder.Tensor_out", Tensor(const Tensor&, const Tensor&, const Tensor&)).call(self, other, out);
  return out;
}
Tensor& remainder_out(Tensor& out, const Tensor& self, const Scalar& other) {
  LZ_OP("remainder.Scalar_out", Tensor(const Tensor&, const Scalar&, const Tensor&)).call(self, other, out);
  return out;
}

#define LZ_PLAIN_BINARY_OP(name)                                                              \
  Tensor name(const Tensor& self, const Tensor& other) {                                      \
    return LZ_OP(#name, Tensor(const Tensor&, const Tensor&)).call(self, other);              \
  }                                                                                           \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) {                  \
    LZ_OP(#name ".out", Tensor(const Tensor&, const Tensor&, const Tensor&)).call(self, other, out); \
    return out;                                                                               \
  }
LZ_PLAIN_BINARY_OP(atan2)
LZ_PLAIN_BINARY_OP(maximum)
LZ_PLAIN_BINARY_OP(minimum)
LZ_PLAIN_BINARY_OP(logical_and)
LZ_PLAIN_BINARY_OP(logical_or)
LZ_PLAIN_BINARY_OP(logical_xor)
#undef LZ_PLAIN_BINARY_OP

#define LZ_LOGICAL_INPLACE(name)                                                              \
  Tensor& name##_(Tensor& self, const Tensor& other) {                                        \
    LZ_OP(#name "_", Tensor(const Tensor&, const Tensor&)).call(self, other);                 \
    return self;                                                                              \
  }
LZ_LOGICAL_INPLACE(logical_and)
LZ_LOGICAL_INPLACE(logical_or)
LZ_LOGICAL_INPLACE(logical_xor)
#undef LZ_LOGICAL_INPLACE

// ---- Comparisons and bitwise --------------------------------------------------

// Ops with .Tensor / .Scalar overloads, .Tensor_out / .Scalar_out and in-place forms.
#define LZ_TENSOR_SCALAR_OP(name)                                                             \
  Tensor name(const Tensor& self, const Tensor& other) {                                      \
    return LZ_OP(#name ".Tensor", Tensor(const Tensor&, const Tensor&)).call(self, other);    \
  }                                                                                           \
  Tensor name(const Tensor& self, const Scalar& other) {                                      \
    return LZ_OP(#name ".Scalar", Tensor(const Tensor&, const Scalar&)).call(self, other);    \
  }                                                                                           \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) {                  \
    LZ_OP(#name ".Tensor_out", Tensor(const Tensor&, const Tensor&, const Tensor&))           \
        .call(self, other, out);                                                              \
    return out;                                                                               \
  }                                                                                           \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Scalar& other) {                  \
    LZ_OP(#name ".Scalar_out", Tensor(const Tensor&, const Scalar&, const Tensor&))           \
        .call(self, other, out);                                                              \
    return out;                                                                               \
  }                                                                                           \
  Tensor& name##_(Tensor& self, const Scalar& other) {                                        \
    LZ_OP(#name "_.Scalar", Tensor(const Tensor&, const Scalar&)).call(self, other);          \
    return self;                                                                              \
  }
LZ_TENSOR_SCALAR_OP(eq)
LZ_TENSOR_SCALAR_OP(ne)
LZ_TENSOR_SCALAR_OP(lt)
LZ_TENSOR_SCALAR_OP(le)
LZ_TENSOR_SCALAR_OP(gt)
LZ_TENSOR_SCALAR_OP(ge)
LZ_TENSOR_SCALAR_OP(bitwise_and)
LZ_TENSOR_SCALAR_OP(bitwise_or)
LZ_TENSOR_SCALAR_OP(bitwise_xor)
#undef LZ_TENSOR_SCALAR_OP

#define LZ_COMPARISON_INPLACE_TENSOR(name)                                                    \
  Tensor& name##_(Tensor& self, const Tensor& other) {                                        \
    LZ_OP(#name "_.Tensor", Tensor(const Tensor&, const Tensor&)).call(self, other);          \
    return self;                                                                              \
  }
LZ_COMPARISON_INPLACE_TENSOR(eq)
LZ_COMPARISON_INPLACE_TENSOR(ne)
LZ_COMPARISON_INPLACE_TENSOR(lt)
LZ_COMPARISON_INPLACE_TENSOR(le)
LZ_COMPARISON_INPLACE_TENSOR(gt)
LZ_COMPARISON_INPLACE_TENSOR(ge)
#undef LZ_COMPARISON_INPLACE_TENSOR

#define LZ_BITWISE_SCALAR_SELF(name)                                                          \
  Tensor name(const Scalar& self, const Tensor& other) {                                      \
    return LZ_OP(#name ".Scalar_Tensor", Tensor(const Scalar&, const Tensor&)).call(self, other); \
  }
LZ_BITWISE_SCALAR_SELF(bitwise_and)
LZ_BITWISE_SCALAR_SELF(bitwise_or)
LZ_BITWISE_SCALAR_SELF(bitwise_xor)
#undef LZ_BITWISE_SCALAR_SELF

// ---- Ternary -------------------------------------------------------------------

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  return LZ_OP("where.self", Tensor(const Tensor&, const Tensor&, const Tensor&)).call(condition, self, other);
}
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other) {
  return LZ_OP("where.ScalarSelf", Tensor(const Tensor&, const Scalar&, const Tensor&))
      .call(condition, self, other);
}
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other) {
  return LZ_OP("where.ScalarOther", Tensor(const Tensor&, const Tensor&, const Scalar&))
      .call(condition, self, other);
}
Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other) {
  return LZ_OP("where.Scalar", Tensor(const Tensor&, const Scalar&, const Scalar&)).call(condition, self, other);
}
Tensor& where_out(Tensor& out, const Tensor& condition, const Tensor& self, const Tensor& other) {
  LZ_OP("where.self_out", Tensor(const Tensor&, const Tensor&, const Tensor&, const Tensor&))
      .call(condition, self, other, out);
  return out;
}

Tensor clamp(const Tensor& self, const OptScalar& min, const OptScalar& max) {
  return LZ_OP("clamp", Tensor(const Tensor&, const OptScalar&, const OptScalar&)).call(self, min, max);
}
Tensor clamp(const Tensor& self, const OptTensor& min, const OptTensor& max) {
  return LZ_OP("clamp.Tensor", Tensor(const Tensor&, const OptTensor&, const OptTensor&)).call(self, min, max);
}
Tensor& clamp_(Tensor& self, const OptScalar& min, const OptScalar& max) {
  LZ_OP("clamp_", Tensor(const Tensor&, const OptScalar&, const OptScalar&)).call(self, min, max);
  return self;
}
Tensor& clamp_(Tensor& self, const OptTensor& min, const OptTensor& max) {
  LZ_OP("clamp_.Tensor", Tensor(const Tensor&, const OptTensor&, const OptTensor&)).call(self, min, max);
  return self;
}
Tensor& clamp_out(Tensor& out, const Tensor& self, const OptScalar& min, const OptScalar& max) {
  LZ_OP("clamp.out", Tensor(const Tensor&, const OptScalar&, const OptScalar&, const Tensor&))
      .call(self, min, max, out);
  return out;
}
Tensor& clamp_out(Tensor& out, const Tensor& self, const OptTensor& min, const OptTensor& max) {
  LZ_OP("clamp.Tensor_out", Tensor(const Tensor&, const OptTensor&, const OptTensor&, const Tensor&))
      .call(self, min, max, out);
  return out;
}

#define LZ_CLAMP_BOUND(name)                                                                  \
  Tensor name(const Tensor& self, const Scalar& bound) {                                      \
    return LZ_OP(#name, Tensor(const Tensor&, const Scalar&)).call(self, bound);              \
  }                                                                                           \
  Tensor name(const Tensor& self, const Tensor& bound) {                                      \
    return LZ_OP(#name ".Tensor", Tensor(const Tensor&, const Tensor&)).call(self, bound);    \
  }                                                                                           \
  Tensor& name##_(Tensor& self, const Scalar& bound) {                                        \
    LZ_OP(#name "_", Tensor(const Tensor&, const Scalar&)).call(self, bound);                 \
    return self;                                                                              \
  }                                                                                           \
  Tensor& name##_(Tensor& self, const Tensor& bound) {                                        \
    LZ_OP(#name "_.Tensor", Tensor(const Tensor&, const Tensor&)).call(self, bound);          \
    return self;                                                                              \
  }                                                                                           \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Scalar& bound) {                  \
    LZ_OP(#name ".out", Tensor(const Tensor&, const Scalar&, const Tensor&)).call(self, bound, out); \
    return out;                                                                               \
  }                                                                                           \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& bound) {                  \
    LZ_OP(#name ".Tensor_out", Tensor(const Tensor&, const Tensor&, const Tensor&)).call(self, bound, out); \
    return out;                                                                               \
  }
LZ_CLAMP_BOUND(clamp_min)
LZ_CLAMP_BOUND(clamp_max)
#undef LZ_CLAMP_BOUND

Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight) {
  return LZ_OP("lerp.Scalar", Tensor(const Tensor&, const Tensor&, const Scalar&)).call(self, end, weight);
}
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight) {
  return LZ_OP("lerp.Tensor", Tensor(const Tensor&, const Tensor&, const Tensor&)).call(self, end, weight);
}
Tensor& lerp_(Tensor& self, const Tensor& end, const Tensor& weight) {
  LZ_OP("lerp_.Tensor", Tensor(const Tensor&, const Tensor&, const Tensor&)).call(self, end, weight);
  return self;
}
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight) {
  LZ_OP("lerp.Scalar_out", Tensor(const Tensor&, const Tensor&, const Scalar&, const Tensor&))
      .call(self, end, weight, out);
  return out;
}
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight) {
  LZ_OP("lerp.Tensor_out", Tensor(const Tensor&, const Tensor&, const Tensor&, const Tensor&))
      .call(self, end, weight, out);
  return out;
}

#define LZ_ADDC_OP(name)                                                                      \
  Tensor name(const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, const Scalar& value) { \
    return LZ_OP(#name, Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&))   \
        .call(self, tensor1, tensor2, value);                                                 \
  }                                                                                           \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& tensor1, const Tensor& tensor2, \
                     const Scalar& value) {                                                   \
    LZ_OP(#name ".out", Tensor(const Tensor&, const Tensor&, const Tensor&, const Scalar&, const Tensor&)) \
        .call(self, tensor1, tensor2, value, out);                                            \
    return out;                                                                               \
  }
LZ_ADDC_OP(addcmul)
LZ_ADDC_OP(addcdiv)
#undef LZ_ADDC_OP

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  return LZ_OP("masked_fill.Scalar", Tensor(const Tensor&, const Tensor&, const Scalar&)).call(self, mask, value);
}
Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value) {
  return LZ_OP("masked_fill.Tensor", Tensor(const Tensor&, const Tensor&, const Tensor&)).call(self, mask, value);
}

}  // namespace lz
