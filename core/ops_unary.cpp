// Call sites of the unary operators (schemas and kernels: eager_kernels/).
#include "core/op_call.h"
#include "core/ops_unary.h"

namespace lz {

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
LZ_UNARY_OP(abs)
LZ_UNARY_OP(sign)
LZ_UNARY_OP(square)
LZ_UNARY_OP(reciprocal)
LZ_UNARY_OP(exp)
LZ_UNARY_OP(exp2)
LZ_UNARY_OP(expm1)
LZ_UNARY_OP(log)
LZ_UNARY_OP(log2)
LZ_UNARY_OP(log1p)
LZ_UNARY_OP(sqrt)
LZ_UNARY_OP(rsqrt)
LZ_UNARY_OP(sin)
LZ_UNARY_OP(cos)
LZ_UNARY_OP(tan)
LZ_UNARY_OP(tanh)
LZ_UNARY_OP(sigmoid)
LZ_UNARY_OP(relu)
LZ_UNARY_OP(silu)
LZ_UNARY_OP(hardswish)
LZ_UNARY_OP(erf)
LZ_UNARY_OP(floor)
LZ_UNARY_OP(ceil)
LZ_UNARY_OP(round)
LZ_UNARY_OP(trunc)
LZ_UNARY_OP(logical_not)
LZ_UNARY_OP(bitwise_not)
#undef LZ_UNARY_OP

Tensor gelu(const Tensor& self, std::string_view approximate) {
  return LZ_OP("gelu", Tensor(const Tensor&, std::string_view)).call(self, approximate);
}
Tensor& gelu_(Tensor& self, std::string_view approximate) {
  LZ_OP("gelu_", Tensor(const Tensor&, std::string_view)).call(self, approximate);
  return self;
}
Tensor& gelu_out(Tensor& out, const Tensor& self, std::string_view approximate) {
  LZ_OP("gelu.out", Tensor(const Tensor&, std::string_view, const Tensor&)).call(self, approximate, out);
  return out;
}

Tensor isnan(const Tensor& self) { return LZ_OP("isnan", Tensor(const Tensor&)).call(self); }
Tensor& isnan_out(Tensor& out, const Tensor& self) {
  LZ_OP("isnan.out", Tensor(const Tensor&, const Tensor&)).call(self, out);
  return out;
}
Tensor isinf(const Tensor& self) { return LZ_OP("isinf", Tensor(const Tensor&)).call(self); }
Tensor& isinf_out(Tensor& out, const Tensor& self) {
  LZ_OP("isinf.out", Tensor(const Tensor&, const Tensor&)).call(self, out);
  return out;
}

}  // namespace lz
