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
LZ_UNARY_OP(exp)
LZ_UNARY_OP(relu)
#undef LZ_UNARY_OP

}  // namespace lz
