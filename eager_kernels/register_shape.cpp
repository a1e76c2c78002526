// Shape and data-movement operators: concatenation, splitting, indexing,
// triangles, flips, repeats and padding. split / split_with_sizes / chunk
// are composites returning narrow() views; pad is a composite of
// constant_pad_nd; the rest are structured kernels.
#include <string>

#include "core/op_registration.h"
#include "core/ops_shape.h"
#include "core/ops_views.h"
#include "eager_kernels/cpu/shape_kernels.h"
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

}  // namespace

LZ_LIBRARY(shape_ops) {
  constexpr Variants kOut = Variants::Out;

  lib.def_structured<&meta::cat>("cat(Tensor[] tensors, int dim=0) -> Tensor", kOut)
      .impl<&cpu::cat_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::stack>("stack(Tensor[] tensors, int dim=0) -> Tensor", kOut)
      .impl<&cpu::stack_impl>(DispatchKey::CPU);

  // PyTorch spells the argument Tensor(a -> *) self; the schema parser reads
  // only a single alias set, which means the same here: the results alias self.
  lib.def("split.Tensor(Tensor(a) self, SymInt split_size, int dim=0) -> Tensor(a)[]")
      .composite(&split_composite);
  lib.def("split_with_sizes(Tensor(a) self, SymInt[] split_sizes, int dim=0) -> Tensor(a)[]")
      .composite(&split_with_sizes_composite);
  lib.def("chunk(Tensor(a) self, int chunks, int dim=0) -> Tensor(a)[]").composite(&chunk_composite);

  lib.def_structured<&meta::index_select>("index_select(Tensor self, int dim, Tensor index) -> Tensor", kOut)
      .impl<&cpu::index_select_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::gather>(
         "gather(Tensor self, int dim, Tensor index, *, bool sparse_grad=False) -> Tensor", kOut)
      .impl<&cpu::gather_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::scatter_src>(
         "scatter.src(Tensor self, int dim, Tensor index, Tensor src) -> Tensor")
      .impl<&cpu::scatter_src_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::scatter_value>(
         "scatter.value(Tensor self, int dim, Tensor index, Scalar value) -> Tensor")
      .impl<&cpu::scatter_value_impl>(DispatchKey::CPU);

  lib.def_structured<&meta::triu>("triu(Tensor self, int diagonal=0) -> Tensor")
      .impl<&cpu::triu_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::tril>("tril(Tensor self, int diagonal=0) -> Tensor")
      .impl<&cpu::tril_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::flip>("flip(Tensor self, int[] dims) -> Tensor", kOut)
      .impl<&cpu::flip_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::repeat>("repeat(Tensor self, SymInt[] repeats) -> Tensor", kOut)
      .impl<&cpu::repeat_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::constant_pad_nd>(
         "constant_pad_nd(Tensor self, SymInt[] pad, Scalar value=0) -> Tensor", kOut)
      .impl<&cpu::constant_pad_nd_impl>(DispatchKey::CPU);
  lib.def("pad(Tensor self, SymInt[] pad, str mode=\"constant\", float? value=None) -> Tensor")
      .composite(&pad_composite);
}

}  // namespace lz
