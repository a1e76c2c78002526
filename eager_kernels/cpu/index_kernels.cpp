// index_select, gather and scatter: the TensorIterator walks the output (or,
// for scatter, the index) with views in which the indexed dim has stride 0,
// and the inner loop adds index * stride along that dim.
#include <cstring>
#include <string_view>
#include <vector>

#include "core/empty_tensor.h"
#include "core/parallel.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/loops.h"
#include "eager_kernels/cpu/shape_kernels.h"
#include "eager_kernels/cpu/shape_util.h"
#include "eager_kernels/cpu/streaming_store.h"

namespace lz::cpu {

namespace {

[[noreturn]] void out_of_bounds(std::string_view op, int64_t index, int64_t dim, int64_t size) {
  LZ_FAIL(IndexError, "[", op, "] index ", index, " is out of bounds for dimension ", dim,
          " with size ", size);
}

template <class F>
decltype(auto) visit_index(ScalarType t, F&& f) {
  if (t == ScalarType::Int) return f(static_cast<int32_t*>(nullptr));
  LZ_INTERNAL_ASSERT(t == ScalarType::Long, "index kernels: unexpected index dtype ", t);
  return f(static_cast<int64_t*>(nullptr));
}

// Whether v is outside [0, size) (negative values wrap to huge unsigned ones).
inline bool outside(int64_t v, int64_t size) {
  return static_cast<uint64_t>(v) >= static_cast<uint64_t>(size);
}

// IndexError unless every value of `index` (any layout) is in [0, size).
void check_index_values(std::string_view op, const Tensor& index, int64_t dim, int64_t size) {
  if (index.numel() == 0) return;
  visit_index(index.dtype(), [&](auto* tag) {
    using I = std::remove_pointer_t<decltype(tag)>;
    const TensorIterator iter(index, {});
    iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
      for (int64_t k = 0; k < n; ++k) {
        const int64_t v = *reinterpret_cast<const I*>(data[0] + k * strides[0]);
        if (outside(v, size)) out_of_bounds(op, v, dim, size);
      }
    });
  });
}

// A 0-dim tensor as a 1-D one of size 1 (gather/scatter treat them alike).
Tensor at_least_1d(const Tensor& t) {
  if (t.dim() > 0) return t;
  const int64_t one[] = {1};
  return restride(t, one, one, t.storage_offset());
}

// A contiguous int64 CPU tensor holding `values`.
Tensor from_indices(const std::vector<int64_t>& values) {
  const int64_t n = static_cast<int64_t>(values.size());
  Tensor t = empty_tensor({n}, ScalarType::Long, Device(DeviceType::CPU));
  if (n) std::memcpy(t.data_ptr(), values.data(), values.size() * sizeof(int64_t));
  return t;
}

bool same_elements(const Tensor& a, const Tensor& b) {
  return a.data_ptr() == b.data_ptr() && a.sizes() == b.sizes() && a.strides() == b.strides();
}

}  // namespace

// ---- index_select ----------------------------------------------------------------

namespace {

void index_select_into(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index) {
  const int64_t d = wrap_dim(dim, self.dim(), "index_select");
  const int64_t size = self.dim() == 0 ? 1 : self.sizes()[d];
  // Read (and bound-check) the indices once, before anything is written.
  const int64_t n = index.numel();
  std::vector<int64_t> idx(static_cast<size_t>(n));
  visit_index(index.dtype(), [&](auto* tag) {
    using I = std::remove_pointer_t<decltype(tag)>;
    const I* p = static_cast<const I*>(n ? index.data_ptr() : nullptr);
    const int64_t step = index.dim() == 1 ? index.strides()[0] : 0;
    for (int64_t j = 0; j < n; ++j) {
      idx[j] = p[j * step];
      if (outside(idx[j], size)) out_of_bounds("index_select", idx[j], d, size);
    }
  });
  if (out.numel() == 0) return;
  if (self.dim() == 0) {
    copy_same_dtype(out, self);
    return;
  }

  const int64_t item = static_cast<int64_t>(self.itemsize());
  if (self.is_contiguous() && out.is_contiguous()) {
    // [outer, size, inner] -> [outer, n, inner]: one run of `inner` elements per (outer, j).
    int64_t outer = 1, inner = 1;
    for (int64_t k = 0; k < d; ++k) outer *= self.sizes()[k];
    for (int64_t k = d + 1; k < self.dim(); ++k) inner *= self.sizes()[k];
    const int64_t run = inner * item;
    char* dst = static_cast<char*>(out.data_ptr());
    const char* src = static_cast<const char*>(self.data_ptr());
    if (run >= 64) {
      // Large outputs bypass the cache (rows of at least 1 KiB).
      const bool streaming = static_cast<int64_t>(out.nbytes()) >= kStreamingStoreBytes && run >= 1024;
      parallel_for(0, outer * n, std::max<int64_t>(1, kCopyGrainBytes / run), [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r) {
          const int64_t o = r / n, j = r % n;
          const char* from = src + (o * size + idx[j]) * run;
          if (streaming) {
            streaming_copy(dst + r * run, from, static_cast<size_t>(run));
          } else {
            std::memcpy(dst + r * run, from, static_cast<size_t>(run));
          }
        }
        if (streaming) streaming_store_fence();
      });
      return;
    }
    visit_itemsize(self.itemsize(), [&](auto* tag) {
      using U = std::remove_pointer_t<decltype(tag)>;
      U* out_p = reinterpret_cast<U*>(dst);
      const U* in_p = reinterpret_cast<const U*>(src);
      const int64_t grain = std::max<int64_t>(1, TensorIterator::kGrainSize / inner);
      parallel_for(0, outer * n, grain, [&](int64_t b, int64_t e) {
        for (int64_t r = b; r < e; ++r) {
          const int64_t o = r / n, j = r % n;
          U* to = out_p + r * inner;
          const U* from = in_p + (o * size + idx[j]) * inner;
          for (int64_t k = 0; k < inner; ++k) to[k] = from[k];
        }
      });
    });
    return;
  }

  // Any layout: walk out; self's view has stride 0 along d, the index view
  // stride 0 everywhere else.
  const Tensor idx_t = from_indices(idx);
  SizeVec self_strides(self.strides().begin(), self.strides().end());
  self_strides[d] = 0;
  SizeVec idx_strides(out.dim(), 0);
  idx_strides[d] = 1;
  const Tensor self_v = restride(self, out.sizes(), self_strides, self.storage_offset());
  const Tensor idx_v = restride(idx_t, out.sizes(), idx_strides, 0);
  const int64_t step = self.strides()[d] * item;
  const TensorIterator iter(out, {idx_v, self_v});
  visit_itemsize(self.itemsize(), [&](auto* tag) {
    using U = std::remove_pointer_t<decltype(tag)>;
    iter.for_each([&](char** data, const int64_t* strides, int64_t m) {
      for (int64_t k = 0; k < m; ++k) {
        const int64_t i = *reinterpret_cast<const int64_t*>(data[1] + k * strides[1]);
        *reinterpret_cast<U*>(data[0] + k * strides[0]) =
            *reinterpret_cast<const U*>(data[2] + k * strides[2] + i * step);
      }
    });
  });
}

}  // namespace

void index_select_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index) {
  write_maybe_via_temp(out, shares_memory(out, self) || shares_memory(out, index),
                       [&](const Tensor& dst) { index_select_into(dst, self, dim, index); });
}

// ---- gather ------------------------------------------------------------------------

namespace {

void gather_into(const Tensor& out_in, const Tensor& self_in, int64_t dim, const Tensor& index_in) {
  if (out_in.numel() == 0) return;
  const int64_t d = wrap_dim(dim, self_in.dim(), "gather");
  const Tensor out = at_least_1d(out_in), self = at_least_1d(self_in), index = at_least_1d(index_in);
  const int64_t size = self.sizes()[d];
  const int64_t step = self.strides()[d] * static_cast<int64_t>(self.itemsize());
  SizeVec self_strides(self.strides().begin(), self.strides().end());
  self_strides[d] = 0;
  const Tensor self_v = restride(self, index.sizes(), self_strides, self.storage_offset());
  const TensorIterator iter(out, {index, self_v});
  visit_index(index.dtype(), [&](auto* itag) {
    using I = std::remove_pointer_t<decltype(itag)>;
    visit_itemsize(self.itemsize(), [&](auto* tag) {
      using U = std::remove_pointer_t<decltype(tag)>;
      iter.for_each([&](char** data, const int64_t* strides, int64_t m) {
        for (int64_t k = 0; k < m; ++k) {
          const int64_t i = *reinterpret_cast<const I*>(data[1] + k * strides[1]);
          if (outside(i, size)) out_of_bounds("gather", i, d, size);
          *reinterpret_cast<U*>(data[0] + k * strides[0]) =
              *reinterpret_cast<const U*>(data[2] + k * strides[2] + i * step);
        }
      });
    });
  });
}

}  // namespace

void gather_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index, bool) {
  write_maybe_via_temp(out, shares_memory(out, self) || shares_memory(out, index),
                       [&](const Tensor& dst) { gather_into(dst, self, dim, index); });
}

// ---- scatter -----------------------------------------------------------------------

namespace {

// Runs body(out_row, index_row, src_row) once per position of index with
// dim d squashed; the body loops over d itself, so every element of out is
// written by one thread, in index order.
struct ScatterGeometry {
  Tensor out_v, index_v, src_v;  // src_v undefined without src
  int64_t length = 0;            // index.size(d)
  int64_t out_step = 0, index_step = 0, src_step = 0;  // bytes along d
};

ScatterGeometry scatter_geometry(const Tensor& out, int64_t d, const Tensor& index, const Tensor* src) {
  ScatterGeometry g;
  SizeVec sizes(index.sizes().begin(), index.sizes().end());
  g.length = sizes[d];
  sizes[d] = 1;
  g.out_v = restride(out, sizes, out.strides(), out.storage_offset());
  g.index_v = restride(index, sizes, index.strides(), index.storage_offset());
  g.out_step = out.strides()[d] * static_cast<int64_t>(out.itemsize());
  g.index_step = index.strides()[d] * static_cast<int64_t>(index.itemsize());
  if (src) {
    g.src_v = restride(*src, sizes, src->strides(), src->storage_offset());
    g.src_step = src->strides()[d] * static_cast<int64_t>(src->itemsize());
  }
  return g;
}

int64_t scatter_grain(int64_t length) {
  return std::max<int64_t>(1, TensorIterator::kGrainSize / std::max<int64_t>(length, 1));
}

// Checks the indices, copies self into out (unless they are the same
// elements) and returns the wrapped dim; -1 when there is nothing to scatter.
int64_t scatter_prologue(std::string_view op, const Tensor& out, const Tensor& self, int64_t dim,
                         const Tensor& index) {
  const int64_t d = wrap_dim(dim, self.dim(), op);
  check_index_values(op, index, d, self.dim() == 0 ? 1 : self.sizes()[d]);
  if (!same_elements(out, self)) copy_same_dtype(out, self);
  return index.numel() == 0 ? -1 : d;
}

// Stores (scatter) or sums (scatter_add) src's values at the indexed
// elements. `T` is the element type when summing, a same-sized integer when
// storing (the bytes move as they are).
template <bool kAdd, class T, class I>
void scatter_src_loop(const TensorIterator& iter, const ScatterGeometry& g) {
  iter.for_each(
      [&](char** data, const int64_t* strides, int64_t m) {
        for (int64_t k = 0; k < m; ++k) {
          char* o = data[0] + k * strides[0];
          const char* ip = data[1] + k * strides[1];
          const char* sp = data[2] + k * strides[2];
          for (int64_t j = 0; j < g.length; ++j) {
            const int64_t i = *reinterpret_cast<const I*>(ip + j * g.index_step);
            T& target = *reinterpret_cast<T*>(o + i * g.out_step);
            const T value = *reinterpret_cast<const T*>(sp + j * g.src_step);
            if constexpr (kAdd) {
              target = static_cast<T>(target + value);
            } else {
              target = value;
            }
          }
        }
      },
      scatter_grain(g.length));
}

template <bool kAdd>
void scatter_src_into(std::string_view op, const Tensor& out_in, const Tensor& self, int64_t dim,
                      const Tensor& index_in, const Tensor& src_in) {
  const int64_t d = scatter_prologue(op, out_in, self, dim, index_in);
  if (d < 0) return;
  const Tensor out = at_least_1d(out_in), index = at_least_1d(index_in), src = at_least_1d(src_in);
  const ScatterGeometry g = scatter_geometry(out, d, index, &src);
  const TensorIterator iter(g.out_v, {g.index_v, g.src_v});
  visit_index(index.dtype(), [&](auto* itag) {
    using I = std::remove_pointer_t<decltype(itag)>;
    if constexpr (kAdd) {
      visit_dtype(out.dtype(), [&](auto tag) { scatter_src_loop<true, typename decltype(tag)::type, I>(iter, g); });
    } else {
      visit_itemsize(out.itemsize(), [&](auto* tag) {
        scatter_src_loop<false, std::remove_pointer_t<decltype(tag)>, I>(iter, g);
      });
    }
  });
}

void scatter_value_into(const Tensor& out_in, const Tensor& self, int64_t dim, const Tensor& index_in,
                        const Scalar& value) {
  const int64_t d = scatter_prologue("scatter", out_in, self, dim, index_in);
  if (d < 0) return;
  const Tensor out = at_least_1d(out_in), index = at_least_1d(index_in);
  const ScatterGeometry g = scatter_geometry(out, d, index, nullptr);
  const TensorIterator iter(g.out_v, {g.index_v});
  visit_index(index.dtype(), [&](auto* itag) {
    using I = std::remove_pointer_t<decltype(itag)>;
    visit_dtype(out.dtype(), [&](auto tag) {
      using T = typename decltype(tag)::type;
      const T v = value.to<T>();
      iter.for_each(
          [&](char** data, const int64_t* strides, int64_t m) {
            for (int64_t k = 0; k < m; ++k) {
              char* o = data[0] + k * strides[0];
              const char* ip = data[1] + k * strides[1];
              for (int64_t j = 0; j < g.length; ++j) {
                const int64_t i = *reinterpret_cast<const I*>(ip + j * g.index_step);
                *reinterpret_cast<T*>(o + i * g.out_step) = v;
              }
            }
          },
          scatter_grain(g.length));
    });
  });
}

// out may be self itself (in place); any other sharing goes through a temporary.
bool scatter_needs_temp(const Tensor& out, const Tensor& self, const Tensor& index, const Tensor& src) {
  return shares_memory(out, index) || shares_memory(out, src) ||
         (shares_memory(out, self) && !same_elements(out, self));
}

}  // namespace

void scatter_src_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                      const Tensor& src) {
  write_maybe_via_temp(out, scatter_needs_temp(out, self, index, src),
                       [&](const Tensor& dst) { scatter_src_into<false>("scatter", dst, self, dim, index, src); });
}

void scatter_add_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  write_maybe_via_temp(out, scatter_needs_temp(out, self, index, src),
                       [&](const Tensor& dst) { scatter_src_into<true>("scatter_add", dst, self, dim, index, src); });
}

void scatter_value_impl(const Tensor& out, const Tensor& self, int64_t dim, const Tensor& index,
                        const Scalar& value) {
  write_maybe_via_temp(out, scatter_needs_temp(out, self, index, Tensor()),
                       [&](const Tensor& dst) { scatter_value_into(dst, self, dim, index, value); });
}

}  // namespace lz::cpu
