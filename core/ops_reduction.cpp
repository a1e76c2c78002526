// Call sites of the reductions (schemas and kernels: eager_kernels/).
#include "core/op_call.h"
#include "core/ops_reduction.h"

namespace lz {

using OptDtype = std::optional<ScalarType>;

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

}  // namespace lz
