// Unary element-wise operators (core/operators.def): metas and kernels.
// Each is structured: its declared in-place and out= variants (isnan and
// isinf have no in-place form, as in PyTorch) get kernels generated from
// meta + impl.
#include "core/op_registration.h"
#include "eager_kernels/cpu/unary_kernels.h"
#include "eager_kernels/meta/unary_meta.h"

namespace lz {

LZ_LIBRARY(unary_ops) {
#define LZ_DEF_UNARY(name) lib.def_structured<&meta::name>(OpId::name).impl<&cpu::name##_impl>(DispatchKey::CPU)
  LZ_DEF_UNARY(neg);
  LZ_DEF_UNARY(abs);
  LZ_DEF_UNARY(sign);
  LZ_DEF_UNARY(square);
  LZ_DEF_UNARY(reciprocal);
  LZ_DEF_UNARY(exp);
  LZ_DEF_UNARY(exp2);
  LZ_DEF_UNARY(expm1);
  LZ_DEF_UNARY(log);
  LZ_DEF_UNARY(log2);
  LZ_DEF_UNARY(log1p);
  LZ_DEF_UNARY(sqrt);
  LZ_DEF_UNARY(rsqrt);
  LZ_DEF_UNARY(sin);
  LZ_DEF_UNARY(cos);
  LZ_DEF_UNARY(tan);
  LZ_DEF_UNARY(tanh);
  LZ_DEF_UNARY(sigmoid);
  LZ_DEF_UNARY(relu);
  LZ_DEF_UNARY(silu);
  LZ_DEF_UNARY(hardswish);
  LZ_DEF_UNARY(erf);
  LZ_DEF_UNARY(floor);
  LZ_DEF_UNARY(ceil);
  LZ_DEF_UNARY(round);
  LZ_DEF_UNARY(trunc);
  LZ_DEF_UNARY(logical_not);
  LZ_DEF_UNARY(bitwise_not);
  LZ_DEF_UNARY(gelu);
  LZ_DEF_UNARY(isnan);
  LZ_DEF_UNARY(isinf);
#undef LZ_DEF_UNARY
}

}  // namespace lz
