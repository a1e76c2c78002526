// Reduction and scan operators (core/operators.def): metas and kernels.
// The out= variants are PyTorch's (max.unary_out, all.all_out, ...).
#include "core/op_registration.h"
#include "core/ops_reduction.h"
#include "eager_kernels/cpu/reduction_kernels.h"
#include "eager_kernels/meta/reduction_meta.h"

namespace lz {

LZ_LIBRARY(reduction_ops) {
  constexpr DispatchKey kCpu = DispatchKey::CPU;
  // ---- sum, mean, prod ----
  lib.def_structured<&meta::sum_all>(OpId::sum).impl<&cpu::sum_all_impl>(kCpu);
  lib.def_structured<&meta::sum_dim>(OpId::sum_dim_IntList).impl<&cpu::sum_impl>(kCpu);
  lib.def_structured<&meta::mean_all>(OpId::mean).impl<&cpu::mean_all_impl>(kCpu);
  lib.def_structured<&meta::mean_dim>(OpId::mean_dim).impl<&cpu::mean_impl>(kCpu);
  lib.def_structured<&meta::prod_all>(OpId::prod).impl<&cpu::prod_all_impl>(kCpu);
  lib.def_structured<&meta::prod_dim>(OpId::prod_dim_int).impl<&cpu::prod_impl>(kCpu);

  // ---- max, min and their indices ----
  lib.def_structured<&meta::max_all>(OpId::max).impl<&cpu::max_all_impl>(kCpu);
  lib.def_structured<&meta::min_all>(OpId::min).impl<&cpu::min_all_impl>(kCpu);
  lib.def(OpId::max_dim).meta(&meta::max_dim).kernel(kCpu, &cpu::max_dim);
  lib.def(OpId::min_dim).meta(&meta::min_dim).kernel(kCpu, &cpu::min_dim);
  lib.def_structured<&meta::amax>(OpId::amax).impl<&cpu::amax_impl>(kCpu);
  lib.def_structured<&meta::amin>(OpId::amin).impl<&cpu::amin_impl>(kCpu);
  lib.def_structured<&meta::argmax>(OpId::argmax).impl<&cpu::argmax_impl>(kCpu);
  lib.def_structured<&meta::argmin>(OpId::argmin).impl<&cpu::argmin_impl>(kCpu);

  // ---- moments, norms, logsumexp ----
  lib.def_structured<&meta::var>(OpId::var_correction).impl<&cpu::var_impl>(kCpu);
  lib.def_structured<&meta::std_>(OpId::std_correction).impl<&cpu::std_impl>(kCpu);
  lib.def_structured<&meta::norm_dim>(OpId::norm_ScalarOpt_dim).impl<&cpu::norm_impl>(kCpu);
  lib.def_structured<&meta::norm_scalar>(OpId::norm_Scalar).impl<&cpu::norm_scalar_impl>(kCpu);
  lib.def_structured<&meta::logsumexp>(OpId::logsumexp).impl<&cpu::logsumexp_impl>(kCpu);

  // ---- all, any ----
  lib.def_structured<&meta::all_all>(OpId::all).impl<&cpu::all_all_impl>(kCpu);
  lib.def_structured<&meta::any_all>(OpId::any).impl<&cpu::any_all_impl>(kCpu);
  lib.def_structured<&meta::all_dim>(OpId::all_dim).impl<&cpu::all_dim_impl>(kCpu);
  lib.def_structured<&meta::any_dim>(OpId::any_dim).impl<&cpu::any_dim_impl>(kCpu);

  // ---- scans ----
  lib.def_structured<&meta::cumsum>(OpId::cumsum).impl<&cpu::cumsum_impl>(kCpu);
}

}  // namespace lz
