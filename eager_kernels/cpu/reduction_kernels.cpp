#include "eager_kernels/cpu/reduction_kernels.h"

#include <vector>

#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/elementwise.h"
#include "eager_kernels/meta/reduction_meta.h"

namespace lz::cpu {

namespace {

// Accumulator type: float for 16-bit floats, int64 for integers and bool.
template <class T>
using acc_t = std::conditional_t<std::is_floating_point_v<T>, T,
                                 std::conditional_t<is_reduced_float_v<T>, float, int64_t>>;

constexpr int64_t kPairwiseBlock = 128;

// Sum of n elements `stride` apart: eight independent accumulators over
// blocks of 128 (vectorisable when contiguous), blocks combined pairwise.
template <class Acc, class T, bool kContiguous>
Acc pairwise_sum(const T* p, int64_t n, int64_t stride) {
  if (n <= kPairwiseBlock) {
    Acc lanes[8] = {};
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
      for (int j = 0; j < 8; ++j) {
        lanes[j] += static_cast<Acc>(p[(kContiguous ? i + j : (i + j) * stride)]);
      }
    }
    Acc total = 0;
    for (int j = 0; j < 8; ++j) total += lanes[j];
    for (; i < n; ++i) total += static_cast<Acc>(p[kContiguous ? i : i * stride]);
    return total;
  }
  const int64_t half = (n / 2 + 7) / 8 * 8;
  return pairwise_sum<Acc, T, kContiguous>(p, half, stride) +
         pairwise_sum<Acc, T, kContiguous>(p + half * stride, n - half, stride);
}

// Merges dims (outermost first) that are contiguous with their inner neighbour.
void coalesce(SizeVec& sizes, SizeVec& strides) {
  SizeVec s, st;
  for (size_t d = 0; d < sizes.size(); ++d) {
    if (sizes[d] == 1) continue;
    if (!s.empty() && st.back() == strides[d] * sizes[d]) {
      s.back() *= sizes[d];
      st.back() = strides[d];
      continue;
    }
    s.push_back(sizes[d]);
    st.push_back(strides[d]);
  }
  sizes = std::move(s);
  strides = std::move(st);
}

// Calls f(offset_a, offset_b) for every index of `sizes`, with element
// offsets along two stride sets (row-major order).
template <class F>
void for_each_index(const SizeVec& sizes, const SizeVec& strides_a, const SizeVec& strides_b, F&& f) {
  const size_t nd = sizes.size();
  for (int64_t s : sizes) {
    if (s == 0) return;
  }
  SizeVec index(nd, 0);
  int64_t a = 0, b = 0;
  while (true) {
    f(a, b);
    size_t d = nd;
    while (d > 0) {
      --d;
      a += strides_a[d];
      b += strides_b[d];
      if (++index[d] < sizes[d]) break;
      a -= strides_a[d] * sizes[d];
      b -= strides_b[d] * sizes[d];
      index[d] = 0;
      if (d == 0) return;
    }
    if (nd == 0) return;
  }
}

template <class T>
void sum_typed(const Tensor& out, const Tensor& src, absl::Span<const bool> mask, bool keepdim) {
  using Acc = acc_t<T>;
  const T* in = src.data_ptr<T>();
  T* dst = out.data_ptr<T>();

  SizeVec kept_sizes, kept_in, kept_out, red_sizes, red_in;
  int64_t od = 0;
  for (int64_t d = 0; d < src.dim(); ++d) {
    if (mask[d]) {
      red_sizes.push_back(src.sizes()[d]);
      red_in.push_back(src.strides()[d]);
      if (keepdim) ++od;
    } else {
      kept_sizes.push_back(src.sizes()[d]);
      kept_in.push_back(src.strides()[d]);
      kept_out.push_back(out.strides()[od++]);
    }
  }
  coalesce(red_sizes, red_in);
  int64_t red_numel = 1;
  for (int64_t s : red_sizes) red_numel *= s;

  // Outer reduction (e.g. over dim 0 of a row-major matrix): the innermost
  // kept dim is contiguous in the input, so add whole rows into a buffer
  // instead of walking each output's column with a large stride.
  const bool outer = !kept_sizes.empty() && kept_in.back() == 1 && kept_sizes.back() >= 8 &&
                     !red_sizes.empty() && red_in.back() != 1;
  if (outer) {
    const int64_t width = kept_sizes.back();
    const int64_t out_step = kept_out.back();
    SizeVec outer_sizes(kept_sizes.begin(), kept_sizes.end() - 1);
    SizeVec outer_in(kept_in.begin(), kept_in.end() - 1);
    SizeVec outer_out(kept_out.begin(), kept_out.end() - 1);
    std::vector<Acc> total(width), block(width);
    const SizeVec zero_strides(red_sizes.size(), 0);
    for_each_index(outer_sizes, outer_in, outer_out, [&](int64_t in_off, int64_t out_off) {
      std::fill(total.begin(), total.end(), Acc(0));
      std::fill(block.begin(), block.end(), Acc(0));
      int64_t rows = 0;
      for_each_index(red_sizes, red_in, zero_strides, [&](int64_t red_off, int64_t) {
        const T* row = in + in_off + red_off;
        for (int64_t k = 0; k < width; ++k) block[k] += static_cast<Acc>(row[k]);
        if (++rows % kPairwiseBlock == 0) {
          for (int64_t k = 0; k < width; ++k) total[k] += block[k];
          std::fill(block.begin(), block.end(), Acc(0));
        }
      });
      for (int64_t k = 0; k < width; ++k) {
        dst[out_off + k * out_step] = static_cast<T>(total[k] + block[k]);
      }
    });
    return;
  }

  // Inner reduction: each output sums its own sub-block; the innermost
  // reduced run is summed pairwise, runs are added up in order.
  const int64_t run = red_sizes.empty() ? 1 : red_sizes.back();
  const int64_t run_stride = red_sizes.empty() ? 1 : red_in.back();
  SizeVec runs_sizes, runs_in;
  if (!red_sizes.empty()) {
    runs_sizes.assign(red_sizes.begin(), red_sizes.end() - 1);
    runs_in.assign(red_in.begin(), red_in.end() - 1);
  }
  const SizeVec zero_strides(runs_sizes.size(), 0);
  for_each_index(kept_sizes, kept_in, kept_out, [&](int64_t in_off, int64_t out_off) {
    Acc acc = 0;
    if (red_numel > 0) {
      for_each_index(runs_sizes, runs_in, zero_strides, [&](int64_t run_off, int64_t) {
        const T* p = in + in_off + run_off;
        acc += run_stride == 1 ? pairwise_sum<Acc, T, true>(p, run, 1)
                               : pairwise_sum<Acc, T, false>(p, run, run_stride);
      });
    }
    dst[out_off] = static_cast<T>(acc);
  });
}

}  // namespace

void sum_impl(const Tensor& out, const Tensor& self, std::optional<IntArrayRef> dim, bool keepdim,
              std::optional<ScalarType>) {
  const Tensor src = cast_to(self, out.dtype());
  const auto mask = meta::reduction_mask("sum", src.dim(), dim);
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    sum_typed<T>(out, src, mask, keepdim);
  });
}

}  // namespace lz::cpu
