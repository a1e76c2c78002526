#include "tests/op_table/reference.h"

#include <algorithm>
#include <stdexcept>

#include "tests/op_table/tensor_access.h"

namespace lzt {

lz::SizeVec broadcast_sizes(const std::vector<lz::IntArrayRef>& shapes) {
  size_t nd = 0;
  for (lz::IntArrayRef s : shapes) nd = std::max(nd, s.size());
  lz::SizeVec out(nd, 1);
  for (lz::IntArrayRef s : shapes) {
    for (size_t i = 0; i < s.size(); ++i) {
      int64_t& o = out[nd - s.size() + i];
      if (s[i] == 1) continue;
      if (o != 1 && o != s[i]) throw std::logic_error("lzt::broadcast_sizes: shapes do not broadcast");
      o = s[i];
    }
  }
  return out;
}

double as_stored(lz::ScalarType dtype, double v) {
  switch (dtype) {
    case lz::kBool: return v != 0 ? 1 : 0;
    case lz::kUInt8:
    case lz::kInt8:
    case lz::kInt16:
    case lz::kInt32:
    case lz::kInt64: return round_to(dtype, v);
    default: return v;
  }
}

Expected map_reference(const lz::Tensor& x, lz::ScalarType result,
                       const std::function<double(double)>& f) {
  Expected e{lz::SizeVec(x.sizes().begin(), x.sizes().end()), result, {}};
  for (double v : values(x)) e.values.push_back(as_stored(result, f(v)));
  return e;
}

Expected map_reference(const lz::Tensor& a, const lz::Tensor& b, lz::ScalarType result,
                       const std::function<double(double, double)>& f) {
  const lz::SizeVec sizes = broadcast_sizes({a.sizes(), b.sizes()});
  const std::vector<double> va = broadcast_values(a, sizes), vb = broadcast_values(b, sizes);
  Expected e{sizes, result, {}};
  for (size_t i = 0; i < va.size(); ++i) e.values.push_back(as_stored(result, f(va[i], vb[i])));
  return e;
}

Expected map_reference(const lz::Tensor& a, const lz::Tensor& b, const lz::Tensor& c,
                       lz::ScalarType result,
                       const std::function<double(double, double, double)>& f) {
  const lz::SizeVec sizes = broadcast_sizes({a.sizes(), b.sizes(), c.sizes()});
  const std::vector<double> va = broadcast_values(a, sizes), vb = broadcast_values(b, sizes),
                            vc = broadcast_values(c, sizes);
  Expected e{sizes, result, {}};
  for (size_t i = 0; i < va.size(); ++i) e.values.push_back(as_stored(result, f(va[i], vb[i], vc[i])));
  return e;
}

Expected reduce_reference(const lz::Tensor& x, lz::IntArrayRef dims, bool keepdim,
                          lz::ScalarType result,
                          const std::function<double(const std::vector<double>&)>& reduce) {
  const int64_t nd = x.dim();
  std::vector<bool> reduced(std::max<int64_t>(nd, 0), dims.empty());
  for (int64_t d : dims) {
    if (nd == 0) continue;
    reduced[(d % nd + nd) % nd] = true;
  }
  lz::SizeVec out_sizes;  // keepdim layout first, squeezed below if needed
  for (int64_t d = 0; d < nd; ++d) out_sizes.push_back(reduced[d] ? 1 : x.size(d));
  const int64_t out_numel = numel_of(out_sizes);
  std::vector<std::vector<double>> groups(static_cast<size_t>(out_numel));
  const std::vector<double> v = values(x);
  std::vector<int64_t> index(nd, 0);
  for (size_t k = 0; k < v.size(); ++k) {
    int64_t o = 0;
    for (int64_t d = 0; d < nd; ++d) o = o * out_sizes[d] + (reduced[d] ? 0 : index[d]);
    groups[static_cast<size_t>(o)].push_back(v[k]);
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (++index[d] < x.size(d)) break;
      index[d] = 0;
    }
  }
  Expected e{{}, result, {}};
  for (int64_t d = 0; d < nd; ++d) {
    if (!reduced[d] || keepdim) e.sizes.push_back(out_sizes[d]);
  }
  for (const auto& g : groups) e.values.push_back(as_stored(result, reduce(g)));
  return e;
}

lz::ScalarType float_result(lz::ScalarType input) {
  return is_float(input) ? input : lz::kFloat32;
}

}  // namespace lzt
