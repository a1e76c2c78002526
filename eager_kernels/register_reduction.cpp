// Reduction and scan operators: schemas, metas, kernels.
//
// Out= variants are the generated ones (<overload>_out, or out), except
// where that name is PyTorch's name of a different operator: the full
// max()/min()/all()/any() get PyTorch's max.unary_out / all.all_out ...
// registered explicitly with the structured out= kernel.
#include <string_view>

#include "core/op_registration.h"
#include "core/ops_reduction.h"
#include "eager_kernels/cpu/reduction_kernels.h"
#include "eager_kernels/meta/reduction_meta.h"

namespace lz {

namespace {

// Registers `schema` as the out= variant of `functional`, computed by the
// structured meta + impl pair.
template <auto Meta, auto Impl>
void def_out(Library& lib, const OperatorHandle& functional, std::string_view schema, TagSet tags) {
  using S = detail::Structured<Meta, Impl>;
  OpBuilder b = lib.def(schema);
  b.tags(tags.add(Tag::Out)).meta(Meta).kernel(DispatchKey::CPU, &S::out);
  S::out_name = b.handle().name();
  Dispatcher::singleton().link_variants(functional, std::nullopt, b.handle());
}

}  // namespace

LZ_LIBRARY(reduction_ops) {
  const TagSet reduction(Tag::Reduction);

  // ---- sum, mean, prod ----
  lib.def_structured<&meta::sum_all>("sum(Tensor self, *, ScalarType? dtype=None) -> Tensor",
                                     Variants::Out)
      .tags(reduction)
      .impl<&cpu::sum_all_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::sum_dim>(
         "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         Variants::Out)
      .tags(reduction)
      .impl<&cpu::sum_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::mean_all>("mean(Tensor self, *, ScalarType? dtype=None) -> Tensor",
                                      Variants::Functional)
      .tags(reduction)
      .impl<&cpu::mean_all_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::mean_dim>(
         "mean.dim(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         Variants::Out)
      .tags(reduction)
      .impl<&cpu::mean_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::prod_all>("prod(Tensor self, *, ScalarType? dtype=None) -> Tensor",
                                      Variants::Out)
      .tags(reduction)
      .impl<&cpu::prod_all_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::prod_dim>(
         "prod.dim_int(Tensor self, int dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
         Variants::Out)
      .tags(reduction)
      .impl<&cpu::prod_impl>(DispatchKey::CPU);

  // ---- max, min and their indices ----
  {
    const OperatorHandle max = lib.def_structured<&meta::max_all>("max(Tensor self) -> Tensor",
                                                                  Variants::Functional)
                                   .tags(reduction)
                                   .impl<&cpu::max_all_impl>(DispatchKey::CPU)
                                   .handle();
    def_out<&meta::max_all, &cpu::max_all_impl>(
        lib, max, "max.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", reduction);
    const OperatorHandle min = lib.def_structured<&meta::min_all>("min(Tensor self) -> Tensor",
                                                                  Variants::Functional)
                                   .tags(reduction)
                                   .impl<&cpu::min_all_impl>(DispatchKey::CPU)
                                   .handle();
    def_out<&meta::min_all, &cpu::min_all_impl>(
        lib, min, "min.unary_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", reduction);
  }
  lib.def("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
          Variants::Out)
      .tags(reduction)
      .meta(&meta::max_dim)
      .kernel(DispatchKey::CPU, &cpu::max_dim);
  lib.def("min.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
          Variants::Out)
      .tags(reduction)
      .meta(&meta::min_dim)
      .kernel(DispatchKey::CPU, &cpu::min_dim);
  lib.def_structured<&meta::amax>("amax(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor",
                                  Variants::Out)
      .tags(reduction)
      .impl<&cpu::amax_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::amin>("amin(Tensor self, int[1] dim=[], bool keepdim=False) -> Tensor",
                                  Variants::Out)
      .tags(reduction)
      .impl<&cpu::amin_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::argmax>("argmax(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
                                    Variants::Out)
      .tags(reduction)
      .impl<&cpu::argmax_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::argmin>("argmin(Tensor self, int? dim=None, bool keepdim=False) -> Tensor",
                                    Variants::Out)
      .tags(reduction)
      .impl<&cpu::argmin_impl>(DispatchKey::CPU);

  // ---- moments, norms, logsumexp ----
  lib.def_structured<&meta::var>(
         "var.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor",
         Variants::Out)
      .tags(reduction)
      .impl<&cpu::var_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::std_>(
         "std.correction(Tensor self, int[1]? dim=None, *, Scalar? correction=None, bool keepdim=False) -> Tensor",
         Variants::Out)
      .tags(reduction)
      .impl<&cpu::std_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::norm_dim>(
         "norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> Tensor",
         Variants::Out)
      .tags(reduction)
      .impl<&cpu::norm_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::norm_scalar>("norm.Scalar(Tensor self, Scalar p=2) -> Tensor", Variants::Out)
      .tags(reduction)
      .impl<&cpu::norm_scalar_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::logsumexp>("logsumexp(Tensor self, int[1] dim, bool keepdim=False) -> Tensor",
                                       Variants::Out)
      .tags(reduction)
      .impl<&cpu::logsumexp_impl>(DispatchKey::CPU);

  // ---- all, any ----
  {
    const OperatorHandle all = lib.def_structured<&meta::all_all>("all(Tensor self) -> Tensor",
                                                                  Variants::Functional)
                                   .tags(reduction)
                                   .impl<&cpu::all_all_impl>(DispatchKey::CPU)
                                   .handle();
    def_out<&meta::all_all, &cpu::all_all_impl>(
        lib, all, "all.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", reduction);
    const OperatorHandle any = lib.def_structured<&meta::any_all>("any(Tensor self) -> Tensor",
                                                                  Variants::Functional)
                                   .tags(reduction)
                                   .impl<&cpu::any_all_impl>(DispatchKey::CPU)
                                   .handle();
    def_out<&meta::any_all, &cpu::any_all_impl>(
        lib, any, "any.all_out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)", reduction);
  }
  lib.def_structured<&meta::all_dim>("all.dim(Tensor self, int dim, bool keepdim=False) -> Tensor",
                                     Variants::Out)
      .tags(reduction)
      .impl<&cpu::all_dim_impl>(DispatchKey::CPU);
  lib.def_structured<&meta::any_dim>("any.dim(Tensor self, int dim, bool keepdim=False) -> Tensor",
                                     Variants::Out)
      .tags(reduction)
      .impl<&cpu::any_dim_impl>(DispatchKey::CPU);

  // ---- scans ----
  lib.def_structured<&meta::cumsum>("cumsum(Tensor self, int dim, *, ScalarType? dtype=None) -> Tensor",
                                    Variants::InplaceAndOut)
      .impl<&cpu::cumsum_impl>(DispatchKey::CPU);
}

}  // namespace lz
