// max, min, amax, amin, argmax, argmin and max.dim/min.dim on the shared
// reduction layer. NaN propagates: a NaN is larger (for max) and smaller (for
// min) than every number, and the index of the first NaN wins.
#include "core/empty_tensor.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/reduce.h"
#include "eager_kernels/cpu/reduction_kernels.h"
#include "eager_kernels/meta/reduction_meta.h"

namespace lz::cpu {

namespace {

using reduce::Mask;

template <bool kMax>
using MinMaxOp = std::conditional_t<kMax, reduce::MaxNan, reduce::MinNan>;

template <class V, bool kMax>
constexpr V worst() {
  return kMax ? reduce::lowest<V>() : reduce::highest<V>();
}

// Values only.
template <class T, bool kMax>
struct MinMaxOps {
  using in_t = T;
  using acc_t = opmath_t<T>;
  using Op = MinMaxOp<kMax>;
  static constexpr int64_t kLeaf = 4096;
  static constexpr int64_t kTile = 1024;

  T* out;

  acc_t identity() const { return worst<acc_t, kMax>(); }
  void accumulate(acc_t& a, const T* p, int64_t n, int64_t stride, int64_t) const {
    a = Op{}(a, reduce::fold(p, n, stride, identity(), reduce::Cast<acc_t>{}, Op{}));
  }
  void accumulate_rows(acc_t* a, const T* p, int64_t rows, int64_t row_stride, int64_t w, int64_t) const {
    reduce::fold_rows(a, p, rows, row_stride, w, reduce::Cast<acc_t>{}, Op{});
  }
  acc_t combine(acc_t a, acc_t b) const { return Op{}(a, b); }
  void store(acc_t a, int64_t o, int64_t) const { out[o] = static_cast<T>(a); }
};

// Value and index of the first extremum.
template <class T, bool kMax>
struct ArgOps {
  using in_t = T;
  using V = opmath_t<T>;
  struct acc_t {
    V v;
    int64_t i;  // -1: no element yet
  };
  using Op = MinMaxOp<kMax>;
  static constexpr int64_t kLeaf = 4096;
  static constexpr int64_t kTile = 256;

  T* values;         // null for argmax/argmin
  int64_t* indices;  // at output offset out1 (out0 when values is null)

  // Whether x replaces the current extremum cur (ties keep the earlier one).
  static bool better(V x, V cur) {
    if constexpr (kMax) {
      return x > cur || (x != x && cur == cur);
    } else {
      return x < cur || (x != x && cur == cur);
    }
  }

  acc_t identity() const { return acc_t{worst<V, kMax>(), -1}; }
  void accumulate(acc_t& a, const T* p, int64_t n, int64_t stride, int64_t index) const {
    if (stride == 1 && n >= 16) {
      // The extremum of the run (vectorised), then its first position.
      const V m = reduce::fold_contiguous(p, n, worst<V, kMax>(), reduce::Cast<V>{}, Op{});
      int64_t k = 0;
      if (m != m) {
        while (static_cast<V>(p[k]) == static_cast<V>(p[k])) ++k;
      } else {
        while (static_cast<V>(p[k]) != m) ++k;
      }
      if (a.i < 0 || better(m, a.v)) a = acc_t{m, index + k};
      return;
    }
    for (int64_t k = 0; k < n; ++k) {
      const V x = static_cast<V>(p[k * stride]);
      if (a.i < 0 || better(x, a.v)) a = acc_t{x, index + k};
    }
  }
  void accumulate_rows(acc_t* a, const T* p, int64_t rows, int64_t row_stride, int64_t w,
                       int64_t index) const {
    for (int64_t r = 0; r < rows; ++r) {
      const T* row = p + r * row_stride;
      for (int64_t k = 0; k < w; ++k) {
        const V x = static_cast<V>(row[k]);
        if (a[k].i < 0 || better(x, a[k].v)) a[k] = acc_t{x, index + r};
      }
    }
  }
  acc_t combine(const acc_t& a, const acc_t& b) const {
    if (b.i < 0) return a;
    if (a.i < 0) return b;
    return better(b.v, a.v) ? b : a;
  }
  void store(const acc_t& a, int64_t o0, int64_t o1) const {
    const int64_t i = a.i < 0 ? 0 : a.i;
    if (values) {
      values[o0] = static_cast<T>(a.v);
      indices[o1] = i;
    } else {
      indices[o0] = i;
    }
  }
};

template <bool kMax>
void minmax_values(const Tensor& out, const Tensor& self, const Mask& mask, bool keepdim) {
  const reduce::Geometry g = reduce::make_geometry(self, mask, keepdim, out);
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    reduce::run(g, self.data_ptr<T>(), MinMaxOps<T, kMax>{out.data_ptr<T>()});
  });
}

// indices only (values undefined) or both.
template <bool kMax>
void arg_reduce(const Tensor& values, const Tensor& indices, const Tensor& self, const Mask& mask,
                bool keepdim) {
  const reduce::Geometry g = values.defined()
                                 ? reduce::make_geometry(self, mask, keepdim, values, &indices)
                                 : reduce::make_geometry(self, mask, keepdim, indices);
  visit_dtype(self.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const ArgOps<T, kMax> ops{values.defined() ? values.data_ptr<T>() : nullptr,
                              indices.data_ptr<int64_t>()};
    reduce::run(g, self.data_ptr<T>(), ops);
  });
}

template <bool kMax>
void argmax_like(const Tensor& out, const Tensor& self, std::optional<int64_t> dim, bool keepdim,
                 const char* op) {
  if (dim) {
    arg_reduce<kMax>(Tensor(), out, self, reduce::mask_one(self.dim(), *dim, op), keepdim);
  } else {
    // Over the flattened tensor: its row-major order is the memory order
    // of a contiguous tensor.
    const Tensor src = self.contiguous();
    arg_reduce<kMax>(Tensor(), out, src, reduce::mask_all(src.dim()), keepdim);
  }
}

template <bool kMax>
std::tuple<Tensor, Tensor> minmax_dim(const Tensor& self, int64_t dim, bool keepdim) {
  const MetaList m = kMax ? meta::max_dim(self, dim, keepdim) : meta::min_dim(self, dim, keepdim);
  Tensor values = empty_tensor(m[0]);
  Tensor indices = empty_tensor(m[1]);
  arg_reduce<kMax>(values, indices, self, reduce::mask_one(self.dim(), dim, kMax ? "max" : "min"),
                   keepdim);
  return {values, indices};
}

}  // namespace

void max_all_impl(const Tensor& out, const Tensor& self) {
  minmax_values<true>(out, self, reduce::mask_all(self.dim()), false);
}
void min_all_impl(const Tensor& out, const Tensor& self) {
  minmax_values<false>(out, self, reduce::mask_all(self.dim()), false);
}
void amax_impl(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim) {
  minmax_values<true>(out, self, meta::reduction_mask("amax", self.dim(), dim), keepdim);
}
void amin_impl(const Tensor& out, const Tensor& self, IntArrayRef dim, bool keepdim) {
  minmax_values<false>(out, self, meta::reduction_mask("amin", self.dim(), dim), keepdim);
}
void argmax_impl(const Tensor& out, const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  argmax_like<true>(out, self, dim, keepdim, "argmax");
}
void argmin_impl(const Tensor& out, const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  argmax_like<false>(out, self, dim, keepdim, "argmin");
}
std::tuple<Tensor, Tensor> max_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return minmax_dim<true>(self, dim, keepdim);
}
std::tuple<Tensor, Tensor> min_dim(const Tensor& self, int64_t dim, bool keepdim) {
  return minmax_dim<false>(self, dim, keepdim);
}

}  // namespace lz::cpu
