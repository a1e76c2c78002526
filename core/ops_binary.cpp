// Call sites of the binary operators (schemas and kernels: eager_kernels/).
#include "core/op_call.h"
#include "core/ops_binary.h"

namespace lz {

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

}  // namespace lz
