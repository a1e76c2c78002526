// Call sites of copies, conversions and whole-tensor comparisons.
#include "core/op_call.h"
#include "core/ops_compare.h"
#include "core/ops_copy.h"

namespace lz {

using OptDtype = std::optional<ScalarType>;
using OptLayout = std::optional<Layout>;
using OptDevice = std::optional<Device>;
using OptBool = std::optional<bool>;
using OptFormat = std::optional<MemoryFormat>;

Tensor as_strided_scatter(const Tensor& self, const Tensor& src, IntArrayRef size, IntArrayRef stride,
                          std::optional<int64_t> storage_offset) {
  return LZ_OP("as_strided_scatter",
               Tensor(const Tensor&, const Tensor&, IntArrayRef, IntArrayRef, std::optional<int64_t>))
      .call(self, src, size, stride, storage_offset);
}

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

}  // namespace lz
