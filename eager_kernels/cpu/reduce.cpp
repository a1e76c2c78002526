#include "eager_kernels/cpu/reduce.h"

#include <algorithm>

namespace lz::cpu::reduce {

namespace {

struct Dim {
  int64_t size, in, out0, out1;
};

// Sort key: larger strides outside; broadcast (stride-0) dims outermost.
int64_t order_key(int64_t stride) {
  return stride == 0 ? std::numeric_limits<int64_t>::max() : stride;
}

// Sorts dims outermost first and merges neighbours that are contiguous with
// each other in the input and every output.
std::vector<Dim> canonical(std::vector<Dim> dims) {
  std::stable_sort(dims.begin(), dims.end(),
                   [](const Dim& a, const Dim& b) { return order_key(a.in) > order_key(b.in); });
  std::vector<Dim> out;
  for (const Dim& d : dims) {
    if (!out.empty()) {
      Dim& o = out.back();
      if (o.in == d.in * d.size && o.out0 == d.out0 * d.size && o.out1 == d.out1 * d.size) {
        o.size *= d.size;
        o.in = d.in;
        o.out0 = d.out0;
        o.out1 = d.out1;
        continue;
      }
    }
    out.push_back(d);
  }
  return out;
}

}  // namespace

Mask mask_one(int64_t ndim, int64_t dim, std::string_view op) {
  Mask mask(static_cast<size_t>(ndim), false);
  const int64_t w = wrap_dim(dim, ndim, op);
  if (ndim > 0) mask[static_cast<size_t>(w)] = true;
  return mask;
}

Geometry make_geometry(const Tensor& in, absl::Span<const bool> mask, bool keepdim,
                       const Tensor& out0, const Tensor* out1) {
  Geometry g;
  std::vector<Dim> kept, red;
  int64_t od = 0;
  bool empty_output = false;
  int64_t red_numel = 1;
  for (int64_t d = 0; d < in.dim(); ++d) {
    const int64_t size = in.size(d);
    if (mask[d]) {
      red_numel *= size;
      if (keepdim) ++od;
      if (size != 1) red.push_back(Dim{size, in.stride(d), 0, 0});
    } else {
      const int64_t s0 = out0.stride(od);
      const int64_t s1 = out1 ? out1->stride(od) : 0;
      ++od;
      if (size == 0) empty_output = true;
      if (size != 1) kept.push_back(Dim{size, in.stride(d), s0, s1});
    }
  }
  kept = canonical(std::move(kept));
  red = canonical(std::move(red));
  int64_t num_outputs = 1;
  for (const Dim& d : kept) {
    g.kept_sizes.push_back(d.size);
    g.kept_in.push_back(d.in);
    g.kept_out[0].push_back(d.out0);
    g.kept_out[1].push_back(d.out1);
    num_outputs *= d.size;
  }
  for (const Dim& d : red) {
    g.red_sizes.push_back(d.size);
    g.red_in.push_back(d.in);
  }
  if (g.red_sizes.empty() || red_numel == 0) {
    // Nothing to walk: one element (or none) per output.
    g.red_sizes.assign(1, red_numel == 0 ? 0 : 1);
    g.red_in.assign(1, 0);
  }
  g.num_outputs = empty_output ? 0 : num_outputs;
  g.red_numel = red_numel;
  bool red_contiguous = false;
  for (int64_t s : g.red_in) red_contiguous |= s == 1;
  g.outer = !g.kept_sizes.empty() && g.kept_in.back() == 1 && !red_contiguous;
  return g;
}

}  // namespace lz::cpu::reduce
