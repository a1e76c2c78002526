#include "tests/op_table/samples.h"

#include <algorithm>

#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

double dtype_min(lz::ScalarType t) {
  switch (t) {
    case lz::kBool: return 0;
    case lz::kUInt8: return 0;
    case lz::kInt8: return -128;
    case lz::kInt16: return -32768;
    case lz::kInt32: return -2147483648.0;
    default: return -1e300;
  }
}
double dtype_max(lz::ScalarType t) {
  switch (t) {
    case lz::kBool: return 1;
    case lz::kUInt8: return 255;
    case lz::kInt8: return 127;
    case lz::kInt16: return 32767;
    case lz::kInt32: return 2147483647.0;
    default: return 1e300;
  }
}

// Samples of one tensor per (shape, layout).
const std::vector<std::vector<int64_t>>& unary_shapes() {
  static const std::vector<std::vector<int64_t>> shapes = {
      {}, {0}, {5}, {3, 4}, {2, 3, 4}, {2, 0, 3}, {1, 1}, {300, 257}};
  return shapes;
}

}  // namespace

std::vector<double> domain_values(lz::ScalarType dtype, int64_t n, uint32_t seed,
                                  const Domain& domain) {
  std::vector<double> out;
  uint32_t state = seed * 2654435761u + 12345u;
  auto next = [&state]() {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  const bool integral = dtype == lz::kBool || is_int(dtype);
  double lo = std::max(domain.lo, dtype_min(dtype));
  double hi = std::min(domain.hi, dtype_max(dtype));
  if (integral) {
    lo = std::ceil(lo);
    hi = std::floor(hi);
  }
  const double step = integral ? 1.0 : 0.25;
  const int64_t count = static_cast<int64_t>(std::floor((hi - lo) / step)) + 1;
  if (count <= 0) throw std::logic_error("lzt::domain_values: empty domain for this dtype");
  int attempts = 0;
  while (static_cast<int64_t>(out.size()) < n) {
    const double v = lo + static_cast<double>(next() % static_cast<uint32_t>(count)) * step;
    if (domain.nonzero && v == 0) {
      if (++attempts > 1000000) throw std::logic_error("lzt::domain_values: no nonzero value");
      continue;
    }
    out.push_back(v);
  }
  return out;
}

lz::Tensor domain_tensor(lz::IntArrayRef sizes, lz::ScalarType dtype, uint32_t seed,
                         const Domain& domain) {
  return make_tensor(domain_values(dtype, numel_of(sizes), seed, domain), sizes, dtype);
}

std::vector<std::pair<std::string, lz::Tensor>> layouts(lz::IntArrayRef sizes, lz::ScalarType dtype,
                                                        uint32_t seed, const Domain& domain) {
  std::vector<std::pair<std::string, lz::Tensor>> out;
  const std::string name = lz::shape_str(sizes);
  out.emplace_back(name + " contiguous", domain_tensor(sizes, dtype, seed, domain));
  const int64_t nd = static_cast<int64_t>(sizes.size());
  if (nd >= 2) {
    // Allocate with the last two dims swapped, then swap them back: same
    // logical shape, transposed memory.
    lz::SizeVec swapped(sizes.begin(), sizes.end());
    std::swap(swapped[nd - 1], swapped[nd - 2]);
    out.emplace_back(name + " transposed",
                     domain_tensor(swapped, dtype, seed + 1, domain).transpose(nd - 1, nd - 2));
  }
  if (nd >= 1) {
    lz::SizeVec doubled(sizes.begin(), sizes.end());
    doubled[nd - 1] *= 2;
    out.emplace_back(name + " strided",
                     domain_tensor(doubled, dtype, seed + 2, domain).slice(nd - 1, 0, std::nullopt, 2));
  }
  for (int64_t d = 0; d < nd; ++d) {
    if (sizes[d] <= 1) continue;
    lz::SizeVec one(sizes.begin(), sizes.end());
    one[d] = 1;
    out.emplace_back(name + " expanded along dim " + std::to_string(d),
                     domain_tensor(one, dtype, seed + 3, domain).expand(sizes));
    break;
  }
  return out;
}

std::vector<SampleInput> unary_samples(lz::ScalarType dtype, const Domain& domain) {
  std::vector<SampleInput> out;
  uint32_t seed = 1;
  for (const auto& shape : unary_shapes()) {
    for (auto& [name, t] : layouts(shape, dtype, seed++, domain)) {
      out.push_back(SampleInput{{t}, {}, name});
    }
  }
  // A permuted 3-D view and a large transposed one (strided, multi-threaded).
  out.push_back(SampleInput{{domain_tensor({4, 2, 3}, dtype, 90, domain).permute({1, 2, 0})}, {},
                            "[2, 3, 4] permuted from [4, 2, 3]"});
  out.push_back(SampleInput{{domain_tensor({257, 300}, dtype, 91, domain).t()}, {},
                            "[300, 257] transposed, large"});
  return out;
}

std::vector<SampleInput> binary_samples(lz::ScalarType dtype, const Domain& a, const Domain& b) {
  struct Pair {
    std::vector<int64_t> a, b;
  };
  static const std::vector<Pair> pairs = {
      {{3, 4}, {3, 4}}, {{3, 1}, {1, 4}}, {{4}, {2, 3, 4}}, {{}, {2, 3}}, {{2, 3}, {}},
      {{}, {}},         {{0, 3}, {3}},    {{2, 0}, {2, 1}}, {{5}, {1}},   {{300, 257}, {257}},
  };
  std::vector<SampleInput> out;
  uint32_t seed = 11;
  for (const Pair& p : pairs) {
    out.push_back(SampleInput{{domain_tensor(p.a, dtype, seed, a), domain_tensor(p.b, dtype, seed + 1, b)},
                              {},
                              lz::shape_str(p.a) + " and " + lz::shape_str(p.b)});
    seed += 2;
  }
  // Non-contiguous operands of the same shape and broadcast against each other.
  const auto la = layouts({3, 4}, dtype, 40, a);
  const auto lb = layouts({3, 4}, dtype, 50, b);
  for (size_t i = 1; i < la.size(); ++i) {
    out.push_back(SampleInput{{la[i].second, lb[(i + 1) % lb.size()].second}, {},
                              la[i].first + " and " + lb[(i + 1) % lb.size()].first});
  }
  out.push_back(SampleInput{{domain_tensor({257, 300}, dtype, 60, a).t(), domain_tensor({300, 1}, dtype, 61, b)},
                            {},
                            "[300, 257] transposed and [300, 1], large"});
  return out;
}

std::vector<SampleInput> ternary_samples(lz::ScalarType dtype, const Domain& a, const Domain& b,
                                         const Domain& c) {
  struct Triple {
    std::vector<int64_t> a, b, c;
  };
  static const std::vector<Triple> triples = {
      {{3, 4}, {3, 4}, {3, 4}}, {{3, 1}, {1, 4}, {4}}, {{}, {2, 3}, {}},
      {{0, 2}, {2}, {1, 2}},    {{2, 3, 4}, {4}, {3, 1}}, {{300, 257}, {257}, {300, 1}},
  };
  std::vector<SampleInput> out;
  uint32_t seed = 71;
  for (const Triple& t : triples) {
    out.push_back(SampleInput{{domain_tensor(t.a, dtype, seed, a), domain_tensor(t.b, dtype, seed + 1, b),
                               domain_tensor(t.c, dtype, seed + 2, c)},
                              {},
                              lz::shape_str(t.a) + ", " + lz::shape_str(t.b) + " and " + lz::shape_str(t.c)});
    seed += 3;
  }
  out.push_back(SampleInput{{domain_tensor({4, 3}, dtype, 80, a).t(),
                             domain_tensor({3, 8}, dtype, 81, b).slice(1, 0, std::nullopt, 2),
                             domain_tensor({3, 1}, dtype, 82, c).expand({3, 4})},
                            {},
                            "transposed, strided and expanded [3, 4]"});
  return out;
}

std::vector<SampleInput> with_kwarg(const std::vector<SampleInput>& samples, const std::string& name,
                                    const std::vector<lz::IValue>& values) {
  std::vector<SampleInput> out;
  for (const lz::IValue& v : values) {
    for (SampleInput s : samples) {
      s.kwargs[name] = v;
      out.push_back(std::move(s));
    }
  }
  return out;
}

}  // namespace lzt
