// cumsum: an inclusive scan along one dim. Lines along the dim are
// independent: they run in parallel, and when the dim is not the innermost
// one in memory, adjacent lines advance together (vectorised across them).
// Each line is summed in order, so results do not depend on the thread count.
#include <algorithm>
#include <vector>

#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/elementwise.h"
#include "eager_kernels/cpu/loops.h"
#include "eager_kernels/cpu/reduction_kernels.h"

namespace lz::cpu {

namespace {

// Accumulator type: float for 16-bit floats, int64 for integers and bool.
template <class T>
using scan_acc_t = std::conditional_t<std::is_floating_point_v<T>, T,
                                      std::conditional_t<is_reduced_float_v<T>, float, int64_t>>;

template <class T>
T store_as(scan_acc_t<T> a) {
  if constexpr (std::is_same_v<T, bool>) {
    return a != 0;
  } else {
    return static_cast<T>(a);
  }
}

struct LineDim {
  int64_t size, in, out;
};

constexpr int64_t kScanTile = 512;

// `width` adjacent lines (contiguous in both tensors) advanced together.
template <class T>
LZ_CPU_CLONES void scan_columns(T* __restrict out, const T* __restrict in, int64_t len, int64_t in_step,
                                int64_t out_step, int64_t width) {
  using Acc = scan_acc_t<T>;
  Acc acc[kScanTile];
  for (int64_t k = 0; k < width; ++k) acc[k] = Acc(0);
  for (int64_t t = 0; t < len; ++t) {
    const T* __restrict src = in + t * in_step;
    T* __restrict dst = out + t * out_step;
    for (int64_t k = 0; k < width; ++k) {
      acc[k] += static_cast<Acc>(static_cast<opmath_t<T>>(src[k]));
      dst[k] = store_as<T>(acc[k]);
    }
  }
}

template <class T>
void scan_line(T* out, const T* in, int64_t len, int64_t in_step, int64_t out_step) {
  using Acc = scan_acc_t<T>;
  Acc acc = 0;
  for (int64_t t = 0; t < len; ++t) {
    acc += static_cast<Acc>(static_cast<opmath_t<T>>(in[t * in_step]));
    out[t * out_step] = store_as<T>(acc);
  }
}

template <class T>
void scan(const Tensor& out, const Tensor& src, std::vector<LineDim> others, int64_t len, int64_t si,
          int64_t so) {
  const T* in = src.data_ptr<T>();
  T* dst = out.data_ptr<T>();
  const bool columns = !others.empty() && others.back().in == 1 && others.back().out == 1 && si != 1 &&
                       so != 1;
  const int64_t width = columns ? others.back().size : 1;
  const int64_t tile = std::min(width, kScanTile);
  const int64_t ntiles = (width + tile - 1) / tile;
  if (columns) others.pop_back();
  int64_t lines = 1;
  for (const LineDim& d : others) lines *= d.size;
  const int64_t groups = lines * ntiles;
  const int64_t grain = std::max<int64_t>(1, 32768 / std::max<int64_t>(1, len * tile));
  parallel_for(0, groups, grain, [&](int64_t begin, int64_t end) {
    for (int64_t gi = begin; gi < end; ++gi) {
      const int64_t t = gi % ntiles;
      int64_t rest = gi / ntiles, in_off = 0, out_off = 0;
      for (size_t d = others.size(); d-- > 0;) {
        const int64_t i = rest % others[d].size;
        rest /= others[d].size;
        in_off += i * others[d].in;
        out_off += i * others[d].out;
      }
      if (columns) {
        const int64_t c0 = t * tile;
        scan_columns(dst + out_off + c0, in + in_off + c0, len, si, so, std::min(tile, width - c0));
      } else {
        scan_line(dst + out_off, in + in_off, len, si, so);
      }
    }
  });
}

}  // namespace

void cumsum_impl(const Tensor& out, const Tensor& self, int64_t dim, std::optional<ScalarType>) {
  if (out.numel() == 0) return;
  const Tensor src = self.dtype() == out.dtype() ? self : cast_to(self, out.dtype());
  const int64_t nd = src.dim();
  const int64_t d = wrap_dim(dim, nd, "cumsum");
  int64_t len = 1, si = 0, so = 0;
  std::vector<LineDim> others;
  for (int64_t k = 0; k < nd; ++k) {
    if (k == d) {
      len = src.size(k);
      si = src.stride(k);
      so = out.stride(k);
    } else if (src.size(k) != 1) {
      others.push_back(LineDim{src.size(k), src.stride(k), out.stride(k)});
    }
  }
  // Outermost first by input stride (broadcast dims outermost), merging
  // dims contiguous in both tensors.
  auto key = [](int64_t s) { return s == 0 ? std::numeric_limits<int64_t>::max() : s; };
  std::stable_sort(others.begin(), others.end(),
                   [&](const LineDim& a, const LineDim& b) { return key(a.in) > key(b.in); });
  std::vector<LineDim> merged;
  for (const LineDim& x : others) {
    if (!merged.empty() && merged.back().in == x.in * x.size && merged.back().out == x.out * x.size) {
      merged.back() = LineDim{merged.back().size * x.size, x.in, x.out};
    } else {
      merged.push_back(x);
    }
  }
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    scan<T>(out, src, merged, len, si, so);
  });
}

}  // namespace lz::cpu
