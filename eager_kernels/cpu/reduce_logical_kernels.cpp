// all and any on the shared reduction layer: any input dtype, a bool (or,
// for uint8 inputs, uint8) result of 0/1.
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/reduce.h"
#include "eager_kernels/cpu/reduction_kernels.h"

namespace lz::cpu {

namespace {

struct NonZero {
  template <class T>
  uint8_t operator()(T x) const {
    return static_cast<opmath_t<T>>(x) != opmath_t<T>(0) ? 1 : 0;
  }
};

template <class T, bool kAll>
struct LogicalOps {
  using in_t = T;
  using acc_t = uint8_t;
  using Op = std::conditional_t<kAll, reduce::And, reduce::Or>;
  static constexpr int64_t kLeaf = 8192;
  static constexpr int64_t kTile = 2048;

  uint8_t* out;  // bool and uint8 outputs are both one byte of 0/1

  acc_t identity() const { return kAll ? 1 : 0; }
  void accumulate(acc_t& a, const T* p, int64_t n, int64_t stride, int64_t) const {
    a = Op{}(a, reduce::fold(p, n, stride, identity(), NonZero{}, Op{}));
  }
  void accumulate_rows(acc_t* a, const T* p, int64_t rows, int64_t row_stride, int64_t w, int64_t) const {
    reduce::fold_rows(a, p, rows, row_stride, w, NonZero{}, Op{});
  }
  acc_t combine(acc_t a, acc_t b) const { return Op{}(a, b); }
  void store(acc_t a, int64_t o, int64_t) const { out[o] = a; }
};

template <bool kAll>
void logical_reduce(const Tensor& out, const Tensor& self, const reduce::Mask& mask, bool keepdim) {
  const reduce::Geometry g = reduce::make_geometry(self, mask, keepdim, out);
  uint8_t* dst = static_cast<uint8_t*>(out.data_ptr());
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    reduce::run(g, self.data_ptr<T>(), LogicalOps<T, kAll>{dst});
  });
}

}  // namespace

void all_all_impl(const Tensor& out, const Tensor& self) {
  logical_reduce<true>(out, self, reduce::mask_all(self.dim()), false);
}
void all_dim_impl(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim) {
  logical_reduce<true>(out, self, reduce::mask_one(self.dim(), dim, "all"), keepdim);
}
void any_all_impl(const Tensor& out, const Tensor& self) {
  logical_reduce<false>(out, self, reduce::mask_all(self.dim()), false);
}
void any_dim_impl(const Tensor& out, const Tensor& self, int64_t dim, bool keepdim) {
  logical_reduce<false>(out, self, reduce::mask_one(self.dim(), dim, "any"), keepdim);
}

}  // namespace lz::cpu
