// Shape and data-movement operators: concatenation, splitting, indexing,
// triangles, flips, repeats and padding. split / split_with_sizes / chunk
// are composites returning narrow() views; pad is a composite of
// constant_pad_nd; the rest are structured kernels.
#include <string>

#include "core/op_registration.h"
#include "core/ops_shape.h"
#include "core/ops_views.h"
#include "core/shape.h"
#include "eager_kernels/cpu/shape_kernels.h"
#include "eager_kernels/meta/meta_utils.h"
#include "eager_kernels/meta/shape_meta.h"

namespace lz {

namespace {

std::vector<Tensor> views_of(const Tensor& self, const meta::SplitPlan& plan) {
  std::vector<Tensor> out;
  out.reserve(plan.pieces.size());
  for (const auto& [start, length] : plan.pieces) out.push_back(narrow(self, plan.dim, start, length));
  return out;
}

std::vector<Tensor> split_composite(const Tensor& self, int64_t split_size, int64_t dim) {
  return views_of(self, meta::split_plan(self, split_size, dim));
}

std::vector<Tensor> split_with_sizes_composite(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  return views_of(self, meta::split_with_sizes_plan(self, split_sizes, dim));
}

std::vector<Tensor> chunk_composite(const Tensor& self, int64_t chunks, int64_t dim) {
  return views_of(self, meta::chunk_plan(self, chunks, dim));
}

Tensor pad_composite(const Tensor& self, IntArrayRef pad, std::string_view mode,
                     std::optional<double> value) {
  if (mode == "constant") return constant_pad_nd(self, pad, value.value_or(0.0));
  LZ_CHECK(mode != "reflect" && mode != "replicate" && mode != "circular", NotImplementedError,
           "[pad] mode: '", mode, "' padding is not implemented (only 'constant' is)");
  LZ_FAIL(ValueError, "[pad] mode: unknown padding mode '", mode,
          "' (expected 'constant', 'reflect', 'replicate' or 'circular')");
}

// index_add is scatter_add with the 1-D index laid along `dim` and expanded
// over source's other dimensions (so its gradient comes from scatter_add's).
Tensor index_add_composite(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source,
                           const Scalar& alpha) {
  LZ_CHECK(index.dim() <= 1, ShapeError, "[index_add] index: expected a 0-D or 1-D tensor, got ", index.dim(),
           "-D (shape ", shape_str(index.sizes()), ")");
  LZ_CHECK(source.dim() == self.dim(), ShapeError, "[index_add] source: expected ", self.dim(),
           " dimensions like self, got shape ", shape_str(source.sizes()));
  const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1), "index_add");
  const int64_t along = source.dim() == 0 ? 1 : source.size(d);
  LZ_CHECK(index.numel() == along, ShapeError, "[index_add] index: expected ", along,
           " entries (source's size along dim ", d, "), got ", index.numel());
  SizeVec laid(static_cast<size_t>(source.dim()), 1);
  if (source.dim() > 0) laid[static_cast<size_t>(d)] = along;
  const Tensor spread = index.reshape(laid).expand(source.sizes());
  const bool unit = alpha.is_floating_point() ? alpha.to_double() == 1.0 : alpha.to_long() == 1;
  // alpha scales in source's dtype (an integer alpha would promote bool).
  return scatter_add(self, d, spread, unit ? source : (source * alpha).to(source.dtype()));
}

// index_select of the flattened broadcast self at the flattened mask's
// nonzero(): lazily only the mask is materialised, and the gradient is
// index_select's.
Tensor masked_select_composite(const Tensor& self, const Tensor& mask) {
  meta::check_defined("masked_select", "self", self);
  meta::check_defined("masked_select", "mask", mask);
  LZ_CHECK(mask.dtype() == ScalarType::Bool, TypeError, "[masked_select] mask: expected a bool tensor, got ",
           mask.dtype());
  const SizeVec shape = broadcast_shapes(self.sizes(), mask.sizes(), "masked_select", "self", "mask");
  const Tensor where = nonzero(mask.expand(shape).reshape({-1})).view({-1});
  return index_select(self.expand(shape).reshape({-1}), 0, where);
}

}  // namespace

LZ_LIBRARY(shape_ops) {
  constexpr DispatchKey kCpu = DispatchKey::CPU;
  lib.def_structured<&meta::cat>(OpId::cat).impl<&cpu::cat_impl>(kCpu);
  lib.def_structured<&meta::stack>(OpId::stack).impl<&cpu::stack_impl>(kCpu);

  lib.def(OpId::split_Tensor).composite(&split_composite);
  lib.def(OpId::split_with_sizes).composite(&split_with_sizes_composite);
  lib.def(OpId::chunk).composite(&chunk_composite);

  lib.def_structured<&meta::index_select>(OpId::index_select).impl<&cpu::index_select_impl>(kCpu);
  lib.def_structured<&meta::gather>(OpId::gather).impl<&cpu::gather_impl>(kCpu);
  lib.def_structured<&meta::scatter_src>(OpId::scatter_src).impl<&cpu::scatter_src_impl>(kCpu);
  lib.def_structured<&meta::scatter_value>(OpId::scatter_value).impl<&cpu::scatter_value_impl>(kCpu);
  lib.def_structured<&meta::scatter_add>(OpId::scatter_add).impl<&cpu::scatter_add_impl>(kCpu);
  lib.def(OpId::index_add).composite(&index_add_composite);
  lib.def(OpId::nonzero).kernel(kCpu, &cpu::nonzero);
  lib.def(OpId::masked_select).composite(&masked_select_composite);

  lib.def_structured<&meta::triu>(OpId::triu).impl<&cpu::triu_impl>(kCpu);
  lib.def_structured<&meta::tril>(OpId::tril).impl<&cpu::tril_impl>(kCpu);
  lib.def_structured<&meta::flip>(OpId::flip).impl<&cpu::flip_impl>(kCpu);
  lib.def_structured<&meta::repeat>(OpId::repeat).impl<&cpu::repeat_impl>(kCpu);
  lib.def_structured<&meta::constant_pad_nd>(OpId::constant_pad_nd).impl<&cpu::constant_pad_nd_impl>(kCpu);
  lib.def(OpId::pad).composite(&pad_composite);
}

}  // namespace lz
