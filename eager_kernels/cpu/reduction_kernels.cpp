// sum, mean and prod on the shared reduction layer.
#include "eager_kernels/cpu/reduction_kernels.h"

#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/elementwise.h"
#include "eager_kernels/cpu/reduce.h"
#include "eager_kernels/meta/reduction_meta.h"

namespace lz::cpu {

namespace {

using reduce::Mask;

// Accumulator type: float for 16-bit floats, int64 for integers and bool.
template <class T>
using acc_t = std::conditional_t<std::is_floating_point_v<T>, T,
                                 std::conditional_t<is_reduced_float_v<T>, float, int64_t>>;

// Sum (Op = Add) or product (Op = Mul) of T elements accumulated in Acc and
// stored as Out, divided by `count` for a mean.
template <class T, class Acc, class Out, class Op, bool kMean>
struct SumLikeOps {
  using in_t = T;
  using acc_t = Acc;
  static constexpr int64_t kLeaf = 16384;
  static constexpr int64_t kTile = 1024;

  Out* out;
  Acc count = 1;

  Acc identity() const { return std::is_same_v<Op, reduce::Mul> ? Acc(1) : Acc(0); }
  void accumulate(Acc& a, const T* p, int64_t n, int64_t stride, int64_t) const {
    a = Op{}(a, reduce::fold(p, n, stride, identity(), reduce::Cast<Acc>{}, Op{}));
  }
  void accumulate_rows(Acc* a, const T* p, int64_t rows, int64_t row_stride, int64_t w, int64_t) const {
    reduce::fold_rows(a, p, rows, row_stride, w, reduce::Cast<Acc>{}, Op{});
  }
  Acc combine(Acc a, Acc b) const { return Op{}(a, b); }
  void store(Acc a, int64_t o, int64_t) const {
    if constexpr (kMean) {
      out[o] = static_cast<Out>(a / count);
    } else if constexpr (std::is_same_v<Out, bool>) {
      out[o] = a != Acc(0);
    } else {
      out[o] = static_cast<Out>(a);
    }
  }
};

template <class Op, bool kMean, class In, class Acc, class Out>
void run_sum_like(const Tensor& out, const Tensor& src, const Mask& mask, bool keepdim) {
  const reduce::Geometry g = reduce::make_geometry(src, mask, keepdim, out);
  SumLikeOps<In, Acc, Out, Op, kMean> ops{out.data_ptr<Out>()};
  if constexpr (kMean) ops.count = static_cast<Acc>(g.red_numel);
  reduce::run(g, src.data_ptr<In>(), ops);
}

// Reduces self into out's dtype: integral/bool inputs summed into int64
// read their own type; any other mismatch converts the input first.
template <class Op, bool kMean>
void sum_like(const Tensor& out, const Tensor& self, const Mask& mask, bool keepdim) {
  const ScalarType od = out.dtype();
  const ScalarType id = self.dtype();
  if (od == kLong && id != kLong && is_integral(id, /*include_bool=*/true) && !kMean) {
    switch (id) {
      case kBool: return run_sum_like<Op, kMean, bool, int64_t, int64_t>(out, self, mask, keepdim);
      case kUInt8: return run_sum_like<Op, kMean, uint8_t, int64_t, int64_t>(out, self, mask, keepdim);
      case kInt8: return run_sum_like<Op, kMean, int8_t, int64_t, int64_t>(out, self, mask, keepdim);
      case kInt16: return run_sum_like<Op, kMean, int16_t, int64_t, int64_t>(out, self, mask, keepdim);
      case kInt32: return run_sum_like<Op, kMean, int32_t, int64_t, int64_t>(out, self, mask, keepdim);
      default: break;
    }
  }
  const Tensor src = id == od ? self : cast_to(self, od);
  visit_dtype(od, [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (kMean && !(std::is_floating_point_v<T> || is_reduced_float_v<T>)) {
      LZ_INTERNAL_ASSERT(false, "mean: non-floating output dtype ", od);
    } else {
      run_sum_like<Op, kMean, T, acc_t<T>, T>(out, src, mask, keepdim);
    }
  });
}

}  // namespace

void sum_all_impl(const Tensor& out, const Tensor& self, std::optional<ScalarType>) {
  sum_like<reduce::Add, false>(out, self, reduce::mask_all(self.dim()), false);
}

void sum_impl(const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
              std::optional<ScalarType>) {
  sum_like<reduce::Add, false>(out, self, meta::reduction_mask("sum", self.dim(), dim), keepdim);
}

void mean_all_impl(const Tensor& out, const Tensor& self, std::optional<ScalarType>) {
  sum_like<reduce::Add, true>(out, self, reduce::mask_all(self.dim()), false);
}

void mean_impl(const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
               std::optional<ScalarType>) {
  sum_like<reduce::Add, true>(out, self, meta::reduction_mask("mean", self.dim(), dim), keepdim);
}

void prod_all_impl(const Tensor& out, const Tensor& self, std::optional<ScalarType>) {
  sum_like<reduce::Mul, false>(out, self, reduce::mask_all(self.dim()), false);
}

void prod_impl(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim,
               std::optional<ScalarType>) {
  sum_like<reduce::Mul, false>(out, self, reduce::mask_one(self.dim(), dim, "prod"), keepdim);
}

}  // namespace lz::cpu
