// Call sites of the reductions and scans (schemas and kernels: eager_kernels/).
#include "core/op_call.h"
#include "core/ops_reduction.h"

namespace lz {

namespace {
using OptDtype = std::optional<ScalarType>;
using OptDims = std::optional<IntArrayRef>;
using OptScalar = std::optional<Scalar>;
using OptInt = std::optional<int64_t>;
using Pair = std::tuple<Tensor, Tensor>;
}  // namespace

// ---- sum, mean, prod ----

Tensor sum(const Tensor& self, OptDtype dtype) {
  return LZ_OP("sum", Tensor(const Tensor&, OptDtype)).call(self, dtype);
}
Tensor sum(const Tensor& self, IntArrayRef dim, bool keepdim, OptDtype dtype) {
  return LZ_OP("sum.dim_IntList", Tensor(const Tensor&, OptDims, bool, OptDtype))
      .call(self, dim, keepdim, dtype);
}
Tensor& sum_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim, OptDtype dtype) {
  LZ_OP("sum.dim_IntList_out", Tensor(const Tensor&, OptDims, bool, OptDtype, const Tensor&))
      .call(self, dim, keepdim, dtype, out);
  return out;
}
Tensor& sum_out(Tensor& out, const Tensor& self, OptDtype dtype) {
  LZ_OP("sum.out", Tensor(const Tensor&, OptDtype, const Tensor&)).call(self, dtype, out);
  return out;
}

Tensor mean(const Tensor& self, OptDtype dtype) {
  return LZ_OP("mean", Tensor(const Tensor&, OptDtype)).call(self, dtype);
}
Tensor mean(const Tensor& self, IntArrayRef dim, bool keepdim, OptDtype dtype) {
  return LZ_OP("mean.dim", Tensor(const Tensor&, OptDims, bool, OptDtype)).call(self, dim, keepdim, dtype);
}
Tensor& mean_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim, OptDtype dtype) {
  LZ_OP("mean.dim_out", Tensor(const Tensor&, OptDims, bool, OptDtype, const Tensor&))
      .call(self, dim, keepdim, dtype, out);
  return out;
}

Tensor prod(const Tensor& self, OptDtype dtype) {
  return LZ_OP("prod", Tensor(const Tensor&, OptDtype)).call(self, dtype);
}
Tensor prod(const Tensor& self, int64_t dim, bool keepdim, OptDtype dtype) {
  return LZ_OP("prod.dim_int", Tensor(const Tensor&, int64_t, bool, OptDtype)).call(self, dim, keepdim, dtype);
}
Tensor& prod_out(Tensor& out, const Tensor& self, int64_t dim, bool keepdim, OptDtype dtype) {
  LZ_OP("prod.dim_int_out", Tensor(const Tensor&, int64_t, bool, OptDtype, const Tensor&))
      .call(self, dim, keepdim, dtype, out);
  return out;
}
Tensor& prod_out(Tensor& out, const Tensor& self, OptDtype dtype) {
  LZ_OP("prod.out", Tensor(const Tensor&, OptDtype, const Tensor&)).call(self, dtype, out);
  return out;
}

// ---- max, min ----

Tensor max(const Tensor& self) { return LZ_OP("max", Tensor(const Tensor&)).call(self); }
Tensor min(const Tensor& self) { return LZ_OP("min", Tensor(const Tensor&)).call(self); }
Tensor& max_out(Tensor& out, const Tensor& self) {
  LZ_OP("max.unary_out", Tensor(const Tensor&, const Tensor&)).call(self, out);
  return out;
}
Tensor& min_out(Tensor& out, const Tensor& self) {
  LZ_OP("min.unary_out", Tensor(const Tensor&, const Tensor&)).call(self, out);
  return out;
}
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim) {
  return LZ_OP("max.dim", Pair(const Tensor&, int64_t, bool)).call(self, dim, keepdim);
}
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim) {
  return LZ_OP("min.dim", Pair(const Tensor&, int64_t, bool)).call(self, dim, keepdim);
}
std::tuple<Tensor&, Tensor&> max_out(Tensor& max, Tensor& max_values, const Tensor& self, int64_t dim,
                                     bool keepdim) {
  LZ_OP("max.dim_out", Pair(const Tensor&, int64_t, bool, const Tensor&, const Tensor&))
      .call(self, dim, keepdim, max, max_values);
  return {max, max_values};
}
std::tuple<Tensor&, Tensor&> min_out(Tensor& min, Tensor& min_indices, const Tensor& self, int64_t dim,
                                     bool keepdim) {
  LZ_OP("min.dim_out", Pair(const Tensor&, int64_t, bool, const Tensor&, const Tensor&))
      .call(self, dim, keepdim, min, min_indices);
  return {min, min_indices};
}

#define LZ_DIMS_OP(name)                                                                  \
  Tensor name(const Tensor& self, IntArrayRef dim, bool keepdim) {                        \
    return LZ_OP(#name, Tensor(const Tensor&, IntArrayRef, bool)).call(self, dim, keepdim); \
  }                                                                                       \
  Tensor& name##_out(Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim) {    \
    LZ_OP(#name ".out", Tensor(const Tensor&, IntArrayRef, bool, const Tensor&))          \
        .call(self, dim, keepdim, out);                                                   \
    return out;                                                                           \
  }
LZ_DIMS_OP(amax)
LZ_DIMS_OP(amin)
LZ_DIMS_OP(logsumexp)
#undef LZ_DIMS_OP

#define LZ_ARG_OP(name)                                                                   \
  Tensor name(const Tensor& self, OptInt dim, bool keepdim) {                             \
    return LZ_OP(#name, Tensor(const Tensor&, OptInt, bool)).call(self, dim, keepdim);    \
  }                                                                                       \
  Tensor& name##_out(Tensor& out, const Tensor& self, OptInt dim, bool keepdim) {         \
    LZ_OP(#name ".out", Tensor(const Tensor&, OptInt, bool, const Tensor&))               \
        .call(self, dim, keepdim, out);                                                   \
    return out;                                                                           \
  }
LZ_ARG_OP(argmax)
LZ_ARG_OP(argmin)
#undef LZ_ARG_OP

// ---- var, std, norm ----

#define LZ_VAR_OP(name)                                                                         \
  Tensor name(const Tensor& self, OptDims dim, const OptScalar& correction, bool keepdim) {     \
    return LZ_OP(#name ".correction", Tensor(const Tensor&, OptDims, const OptScalar&, bool))   \
        .call(self, dim, correction, keepdim);                                                  \
  }                                                                                             \
  Tensor& name##_out(Tensor& out, const Tensor& self, OptDims dim, const OptScalar& correction, \
                     bool keepdim) {                                                            \
    LZ_OP(#name ".correction_out",                                                              \
          Tensor(const Tensor&, OptDims, const OptScalar&, bool, const Tensor&))                \
        .call(self, dim, correction, keepdim, out);                                             \
    return out;                                                                                 \
  }
LZ_VAR_OP(var)
LZ_VAR_OP(std)
#undef LZ_VAR_OP

Tensor norm(const Tensor& self, const Scalar& p) {
  return LZ_OP("norm.Scalar", Tensor(const Tensor&, const Scalar&)).call(self, p);
}
Tensor norm(const Tensor& self, const OptScalar& p, IntArrayRef dim, bool keepdim) {
  return LZ_OP("norm.ScalarOpt_dim", Tensor(const Tensor&, const OptScalar&, IntArrayRef, bool))
      .call(self, p, dim, keepdim);
}
Tensor& norm_out(Tensor& out, const Tensor& self, const OptScalar& p, IntArrayRef dim, bool keepdim) {
  LZ_OP("norm.ScalarOpt_dim_out", Tensor(const Tensor&, const OptScalar&, IntArrayRef, bool, const Tensor&))
      .call(self, p, dim, keepdim, out);
  return out;
}

// ---- all, any ----

#define LZ_LOGICAL_OP(name)                                                                 \
  Tensor name(const Tensor& self) { return LZ_OP(#name, Tensor(const Tensor&)).call(self); } \
  Tensor name(const Tensor& self, int64_t dim, bool keepdim) {                              \
    return LZ_OP(#name ".dim", Tensor(const Tensor&, int64_t, bool)).call(self, dim, keepdim); \
  }                                                                                         \
  Tensor& name##_out(Tensor& out, const Tensor& self) {                                     \
    LZ_OP(#name ".all_out", Tensor(const Tensor&, const Tensor&)).call(self, out);          \
    return out;                                                                             \
  }                                                                                         \
  Tensor& name##_out(Tensor& out, const Tensor& self, int64_t dim, bool keepdim) {          \
    LZ_OP(#name ".dim_out", Tensor(const Tensor&, int64_t, bool, const Tensor&))            \
        .call(self, dim, keepdim, out);                                                     \
    return out;                                                                             \
  }
LZ_LOGICAL_OP(all)
LZ_LOGICAL_OP(any)
#undef LZ_LOGICAL_OP

// ---- cumsum ----

Tensor cumsum(const Tensor& self, int64_t dim, OptDtype dtype) {
  return LZ_OP("cumsum", Tensor(const Tensor&, int64_t, OptDtype)).call(self, dim, dtype);
}
Tensor& cumsum_(Tensor& self, int64_t dim, OptDtype dtype) {
  LZ_OP("cumsum_", Tensor(const Tensor&, int64_t, OptDtype)).call(self, dim, dtype);
  return self;
}
Tensor& cumsum_out(Tensor& out, const Tensor& self, int64_t dim, OptDtype dtype) {
  LZ_OP("cumsum.out", Tensor(const Tensor&, int64_t, OptDtype, const Tensor&)).call(self, dim, dtype, out);
  return out;
}

}  // namespace lz
