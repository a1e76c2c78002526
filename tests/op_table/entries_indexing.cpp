// Table entries: indexing operators (index_select, gather, scatter with a
// src tensor or a value). References map every output coordinate to the
// input coordinate its index selects, in row-major int64 arithmetic over
// values read with tensor_access.h; scatter applies its writes in order.
#include <algorithm>
#include <optional>

#include "tests/op_table/entry_builders.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/shape_helpers.h"
#include "tests/op_table/shape_reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

using lz::IValue;
using lz::ScalarType;
using lz::Tensor;

// Deterministic pseudo-random integers in [0, n).
struct Lcg {
  uint32_t state;
  explicit Lcg(uint32_t seed) : state(seed * 2654435761u + 7u) {}
  int64_t next(int64_t n) {
    state = state * 1664525u + 1013904223u;
    return n <= 0 ? 0 : static_cast<int64_t>((state >> 8) % static_cast<uint32_t>(n));
  }
};

// An index tensor (int64, or int32 when `int32`) of the given values and sizes.
Tensor index_tensor(const std::vector<int64_t>& vals, lz::IntArrayRef sizes, bool int32) {
  std::vector<double> d(vals.begin(), vals.end());
  return make_tensor(d, sizes, int32 ? lz::kInt32 : lz::kInt64);
}

std::vector<int64_t> random_indices(int64_t count, int64_t bound, uint32_t seed) {
  Lcg g(seed);
  std::vector<int64_t> v;
  for (int64_t i = 0; i < count; ++i) v.push_back(g.next(bound));
  return v;
}

// ---- index_select / gather / scatter ----------------------------------------------------

std::vector<SampleInput> index_select_samples(ScalarType t) {
  std::vector<SampleInput> out;
  uint32_t seed = 200;
  bool int32 = false;
  for (const std::vector<int64_t>& shape :
       std::vector<std::vector<int64_t>>{{5}, {3, 4}, {2, 3, 4}, {2, 0, 3}, {300, 257}}) {
    const int64_t nd = static_cast<int64_t>(shape.size());
    const bool large = shape[0] == 300;
    for (const auto& [name, x] : layouts(shape, t, seed++)) {
      for (int64_t d = 0; d < nd; ++d) {
        const int64_t size = shape[d];
        const int64_t n = large ? 400 : size + 2;
        std::vector<int64_t> idx = size == 0 ? std::vector<int64_t>{} : random_indices(n, size, seed++);
        int32 = !int32;
        const int64_t dim = d == nd - 1 ? -1 : d;
        out.push_back(SampleInput{{x, index_tensor(idx, {static_cast<int64_t>(idx.size())}, int32)},
                                  {{"dim", IValue(dim)}},
                                  name + ", " + (int32 ? "int32" : "int64") + " index"});
      }
      if (name.find("contiguous") != std::string::npos && !large && shape[0] > 0) {
        out.push_back(SampleInput{{x, index_tensor({}, {0}, false)}, {{"dim", IValue(int64_t{0})}}, name + ", empty index"});
        out.push_back(SampleInput{{x, index_tensor({shape[0] - 1}, {}, true)}, {{"dim", IValue(int64_t{0})}},
                                  name + ", 0-dim index"});
        // A strided index: every other element of a longer one.
        const std::vector<int64_t> idx = random_indices(2 * shape[0] + 2, shape[0], seed++);
        out.push_back(SampleInput{{x, index_tensor(idx, {static_cast<int64_t>(idx.size())}, false)
                                          .slice(0, 0, std::nullopt, 2)},
                                  {{"dim", IValue(int64_t{0})}},
                                  name + ", strided index"});
      }
    }
  }
  out.push_back(SampleInput{{domain_tensor({}, t, 290), index_tensor({0}, {1}, false)},
                            {{"dim", IValue(int64_t{0})}}, "0-dim self"});
  out.push_back(SampleInput{{domain_tensor({}, t, 291), index_tensor({0}, {}, true)},
                            {{"dim", IValue(int64_t{-1})}}, "0-dim self and index"});
  return out;
}

OpInfo index_select_entry() {
  OpInfo op;
  op.name = "index_select";
  op.dtypes = all_types();
  op.samples = index_select_samples;
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::index_select(s[0], s.int_arg("dim"), s[1])};
  };
  op.reference = [](const SampleInput& s) {
    const Tensor& x = s[0];
    if (x.dim() == 0) return one(index_map(x, {}, [](const Coord&) { return Coord{}; }));
    const int64_t d = wrap(s.int_arg("dim"), x.dim());
    const std::vector<int64_t> idx = int_values(s[1]);
    lz::SizeVec sizes(x.sizes().begin(), x.sizes().end());
    sizes[d] = static_cast<int64_t>(idx.size());
    return one(index_map(x, sizes, [&](const Coord& c) {
      Coord src = c;
      src[d] = idx[c[d]];
      return src;
    }));
  };
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
    lz::index_select_out(outs[0], s[0], s.int_arg("dim"), s[1]);
  };
  op.errors = [] {
    auto in = [](Tensor x, Tensor idx, int64_t dim, std::string desc) {
      return SampleInput{{std::move(x), std::move(idx)}, {{"dim", IValue(dim)}}, std::move(desc)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(IndexError, in(lz::zeros({3, 2}), index_tensor({0, 5}, {2}, false), 0, "index 5"),
                         "[index_select] index 5 is out of bounds for dimension 0 with size 3"),
        LZT_EXPECT_ERROR(IndexError, in(lz::zeros({3, 2}), index_tensor({-1}, {1}, true), 1, "index -1"),
                         "index -1 is out of bounds for dimension 1 with size 2"),
        LZT_EXPECT_ERROR(TypeError, in(lz::zeros({3}), lz::zeros({2}), 0, "float index"),
                         "[index_select] index: expected an int32 or int64 tensor, got float32"),
        LZT_EXPECT_ERROR(ShapeError, in(lz::zeros({3}), index_tensor({0, 1, 2, 0}, {2, 2}, false), 0, "2-D index"),
                         "[index_select] index: expected a 0-D or 1-D tensor, got 2-D"),
        LZT_EXPECT_ERROR(IndexError, in(lz::zeros({3}), index_tensor({0}, {1}, false), 1, "dim 1"),
                         "[index_select] dim: 1 is out of range")};
  };
  return op;
}

std::vector<SampleInput> gather_samples(ScalarType t) {
  std::vector<SampleInput> out;
  uint32_t seed = 300;
  bool int32 = false;
  for (const std::vector<int64_t>& shape :
       std::vector<std::vector<int64_t>>{{5}, {3, 4}, {2, 3, 4}, {300, 257}}) {
    const int64_t nd = static_cast<int64_t>(shape.size());
    const bool large = shape[0] == 300;
    for (const auto& [name, x] : layouts(shape, t, seed++)) {
      for (int64_t d = 0; d < nd; ++d) {
        if (large && d == 0) continue;
        // Longer than self along d, shorter along the last other dim.
        lz::SizeVec isizes(shape.begin(), shape.end());
        isizes[d] += 1;
        if (nd > 1) {
          const int64_t other = d == nd - 1 ? 0 : nd - 1;
          isizes[other] = std::max<int64_t>(1, isizes[other] - 1);
        }
        const std::vector<int64_t> idx = random_indices(numel_of(isizes), shape[d], seed++);
        int32 = !int32;
        Tensor index = index_tensor(idx, isizes, int32);
        std::string iname = int32 ? "int32" : "int64";
        if (nd >= 2 && d == 0) {
          // A transposed index of the same shape.
          lz::SizeVec swapped = isizes;
          std::swap(swapped[nd - 1], swapped[nd - 2]);
          index = index_tensor(idx, swapped, int32).transpose(nd - 1, nd - 2);
          iname += " transposed";
        }
        out.push_back(SampleInput{{x, index}, {{"dim", IValue(d == nd - 1 ? int64_t{-1} : d)}},
                                  name + ", " + iname + " index " + lz::shape_str(isizes)});
      }
    }
  }
  out.push_back(SampleInput{{domain_tensor({}, t, 390), index_tensor({0}, {}, false)},
                            {{"dim", IValue(int64_t{0})}}, "0-dim self and index"});
  out.push_back(SampleInput{{domain_tensor({4}, t, 391), index_tensor({3}, {}, true)},
                            {{"dim", IValue(int64_t{0})}}, "0-dim index"});
  out.push_back(SampleInput{{domain_tensor({}, t, 392), index_tensor({0, 0, 0}, {3}, false)},
                            {{"dim", IValue(int64_t{0})}}, "0-dim self, 1-D index"});
  out.push_back(SampleInput{{domain_tensor({3, 4}, t, 393), index_tensor({}, {0, 4}, false)},
                            {{"dim", IValue(int64_t{0})}}, "empty index"});
  out.push_back(SampleInput{{domain_tensor({2, 0, 3}, t, 394), index_tensor({}, {2, 0, 3}, false)},
                            {{"dim", IValue(int64_t{1})}}, "0-size self"});
  return out;
}

OpInfo gather_entry() {
  OpInfo op;
  op.name = "gather";
  op.dtypes = all_types();
  op.samples = gather_samples;
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::gather(s[0], s.int_arg("dim"), s[1])}; };
  op.reference = [](const SampleInput& s) {
    const Tensor& x = s[0];
    const std::vector<int64_t> idx = int_values(s[1]);
    const lz::IntArrayRef isizes = s[1].sizes();
    const std::vector<double> v = values(x);
    if (x.dim() == 0) return one(build_expected(isizes, x.dtype(), [&](const Coord&) { return v[0]; }));
    const int64_t d = wrap(s.int_arg("dim"), x.dim());
    return one(build_expected(isizes, x.dtype(), [&](const Coord& c) {
      Coord src = c.empty() ? Coord(1, 0) : c;
      src[d] = idx[c.empty() ? 0 : ravel(c, isizes)];
      return v[ravel(src, x.sizes())];
    }));
  };
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
    lz::gather_out(outs[0], s[0], s.int_arg("dim"), s[1]);
  };
  op.errors = [] {
    auto in = [](Tensor x, Tensor idx, int64_t dim, std::string desc) {
      return SampleInput{{std::move(x), std::move(idx)}, {{"dim", IValue(dim)}}, std::move(desc)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(IndexError, in(lz::zeros({2, 4}), index_tensor({0, 7}, {1, 2}, false), 1, "index 7"),
                         "[gather] index 7 is out of bounds for dimension 1 with size 4"),
        LZT_EXPECT_ERROR(IndexError, in(lz::zeros({2, 4}), index_tensor({-2}, {1, 1}, true), 0, "index -2"),
                         "[gather] index -2 is out of bounds for dimension 0 with size 2"),
        LZT_EXPECT_ERROR(ShapeError, in(lz::zeros({2, 4}), index_tensor({0}, {1}, false), 0, "rank"),
                         "[gather] index: must have the same number of dimensions as self"),
        LZT_EXPECT_ERROR(ShapeError, in(lz::zeros({2, 4}), index_tensor(std::vector<int64_t>(15, 0), {3, 5}, false), 0,
                                        "too wide"),
                         "[gather] index: size does not match at dimension 1"),
        LZT_EXPECT_ERROR(TypeError, in(lz::zeros({2, 4}), lz::zeros({2, 4}), 0, "float index"),
                         "[gather] index: expected an int32 or int64 tensor, got float32"),
        LZT_EXPECT_ERROR(IndexError, in(lz::zeros({2, 4}), index_tensor({0}, {1, 1}, false), 2, "dim 2"),
                         "[gather] dim: 2 is out of range")};
  };
  return op;
}

// Scatter samples: self in every layout, an index no larger than self
// (apart from dim) with repeated targets, src at least as large as index.
std::vector<SampleInput> scatter_samples(ScalarType t, bool with_src) {
  std::vector<SampleInput> out;
  uint32_t seed = 400;
  bool int32 = false;
  auto kw = [&](int64_t dim) {
    std::map<std::string, IValue> k{{"dim", IValue(dim)}};
    if (!with_src) k["value"] = IValue(fill_scalar(t));
    return k;
  };
  for (const std::vector<int64_t>& shape :
       std::vector<std::vector<int64_t>>{{5}, {3, 4}, {2, 3, 4}, {40, 300}}) {
    const int64_t nd = static_cast<int64_t>(shape.size());
    for (const auto& [name, x] : layouts(shape, t, seed++)) {
      for (int64_t d = 0; d < nd; ++d) {
        lz::SizeVec isizes(shape.begin(), shape.end());
        isizes[d] = shape[d] + 2;  // more writes than targets: duplicates
        if (nd > 1) {
          const int64_t other = d == nd - 1 ? 0 : nd - 1;
          isizes[other] = std::max<int64_t>(1, isizes[other] - 1);
        }
        const std::vector<int64_t> idx = random_indices(numel_of(isizes), shape[d], seed++);
        int32 = !int32;
        std::vector<Tensor> ts{x, index_tensor(idx, isizes, int32)};
        if (with_src) {
          lz::SizeVec ssizes = isizes;
          ssizes.back() += 1;
          ts.push_back(layouts(ssizes, t, seed++)[static_cast<size_t>(d) % 2].second);
        }
        out.push_back(SampleInput{ts, kw(d), name + ", " + (int32 ? "int32" : "int64") + " index " +
                                                  lz::shape_str(isizes)});
      }
    }
  }
  auto add = [&](Tensor x, Tensor idx, Tensor src, int64_t dim, std::string desc) {
    std::vector<Tensor> ts{std::move(x), std::move(idx)};
    if (with_src) ts.push_back(std::move(src));
    out.push_back(SampleInput{ts, kw(dim), std::move(desc)});
  };
  add(domain_tensor({}, t, 490), index_tensor({0}, {}, false), domain_tensor({}, t, 491), 0, "0-dim");
  add(domain_tensor({4}, t, 492), index_tensor({2}, {}, true), domain_tensor({}, t, 493), 0, "0-dim index and src");
  add(domain_tensor({3, 4}, t, 494), index_tensor({}, {0, 4}, false), domain_tensor({2, 4}, t, 495), 0,
      "empty index");
  add(domain_tensor({3, 4}, t, 496), index_tensor({2, 2, 2, 2, 0, 0}, {6, 1}, false),
      domain_tensor({6, 1}, t, 497), 0, "every write to the same two elements");
  return out;
}

// Applies the writes in row-major index order: the last write wins, or
// (add) every write is summed into the element.
std::vector<Expected> scatter_reference(const SampleInput& s, bool with_src, bool add = false) {
  const Tensor& x = s[0];
  std::vector<double> v = values(x);
  const std::vector<int64_t> idx = int_values(s[1]);
  const lz::IntArrayRef isizes = s[1].sizes();
  const int64_t d = wrap(s.int_arg("dim"), x.dim());
  const double value = with_src ? 0 : as_stored(x.dtype(), s.scalar_arg("value").to_double());
  const std::vector<double> src = with_src ? values(s[2]) : std::vector<double>{};
  const lz::SizeVec xs = x.dim() == 0 ? lz::SizeVec{1} : lz::SizeVec(x.sizes().begin(), x.sizes().end());
  const lz::SizeVec is = s[1].dim() == 0 ? lz::SizeVec{1} : lz::SizeVec(isizes.begin(), isizes.end());
  lz::SizeVec ss;
  if (with_src) ss = s[2].dim() == 0 ? lz::SizeVec{1} : lz::SizeVec(s[2].sizes().begin(), s[2].sizes().end());
  for (size_t k = 0; k < idx.size(); ++k) {
    const Coord c = unravel(static_cast<int64_t>(k), is);
    Coord target = c;
    target[d] = idx[k];
    double& element = v[ravel(target, xs)];
    const double written = with_src ? src[ravel(c, ss)] : value;
    element = add ? as_stored(x.dtype(), element + written) : written;
  }
  return one(Expected{lz::SizeVec(x.sizes().begin(), x.sizes().end()), x.dtype(), v});
}

OpInfo scatter_entry(bool with_src) {
  OpInfo op;
  op.name = with_src ? "scatter.src" : "scatter.value";
  op.dtypes = all_types();
  op.samples = [with_src](ScalarType t) { return scatter_samples(t, with_src); };
  if (with_src) {
    op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::scatter(s[0], s.int_arg("dim"), s[1], s[2])}; };
    op.inplace = [](Tensor& self, const SampleInput& s) { self.scatter_(s.int_arg("dim"), s[1], s[2]); };
    op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
      lz::scatter_out(outs[0], s[0], s.int_arg("dim"), s[1], s[2]);
    };
  } else {
    op.op = [](const SampleInput& s) {
      return std::vector<Tensor>{lz::scatter(s[0], s.int_arg("dim"), s[1], s.scalar_arg("value"))};
    };
    op.inplace = [](Tensor& self, const SampleInput& s) {
      self.scatter_(s.int_arg("dim"), s[1], s.scalar_arg("value"));
    };
    op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
      lz::scatter_out(outs[0], s[0], s.int_arg("dim"), s[1], s.scalar_arg("value"));
    };
  }
  op.reference = [with_src](const SampleInput& s) { return scatter_reference(s, with_src); };
  op.errors = [with_src] {
    auto in = [with_src](Tensor x, Tensor idx, Tensor src, int64_t dim, std::string desc) {
      std::vector<Tensor> ts{std::move(x), std::move(idx)};
      std::map<std::string, IValue> kw{{"dim", IValue(dim)}};
      if (with_src) {
        ts.push_back(std::move(src));
      } else {
        kw["value"] = IValue(1.5);
      }
      return SampleInput{ts, kw, std::move(desc)};
    };
    std::vector<ErrorInput> e{
        LZT_EXPECT_ERROR(IndexError, in(lz::zeros({3, 2}), index_tensor({3}, {1, 1}, false), lz::zeros({1, 1}), 0, "index 3"),
                         "[scatter] index 3 is out of bounds for dimension 0 with size 3"),
        LZT_EXPECT_ERROR(TypeError, in(lz::zeros({3}), lz::zeros({1}), lz::zeros({1}), 0, "float index"),
                         "[scatter] index: expected an int32 or int64 tensor, got float32"),
        LZT_EXPECT_ERROR(ShapeError, in(lz::zeros({3, 2}), index_tensor({0, 0, 0}, {1, 3}, false), lz::zeros({1, 3}), 0,
                                        "index wider than self"),
                         "[scatter] index: expected index [1, 3] to be no larger than self [3, 2] apart from dimension 0"),
        LZT_EXPECT_ERROR(ShapeError, in(lz::zeros({3, 2}), index_tensor({0}, {1}, false), lz::zeros({1}), 0, "rank"),
                         "[scatter] index: must have the same number of dimensions as self")};
    if (with_src) {
      e.push_back(LZT_EXPECT_ERROR(TypeError, in(lz::zeros({3}), index_tensor({0}, {1}, false), lz::zeros({1}, lz::kFloat64), 0,
                                                 "src dtype"),
                                   "[scatter] src: expected the dtype of self (float32), got float64"));
      e.push_back(LZT_EXPECT_ERROR(ShapeError, in(lz::zeros({3, 2}), index_tensor({0, 0}, {1, 2}, false), lz::zeros({1, 1}), 0,
                                                 "src smaller than index"),
                                   "[scatter] index: expected index [1, 2] to be no larger than src [1, 1]"));
    } else {
      e.push_back(LZT_EXPECT_ERROR(
          ValueError,
          (SampleInput{{lz::zeros({3}, lz::kUInt8), index_tensor({0}, {1}, false)},
                       {{"dim", IValue(int64_t{0})}, {"value", IValue(int64_t{300})}}, "300 into uint8"}),
          "[scatter] value: 300 cannot be converted to uint8"));
    }
    return e;
  };
  return op;
}

}  // namespace

OpInfo scatter_add_entry() {
  OpInfo op;
  op.name = "scatter_add";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) { return scatter_samples(t, true); };
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::scatter_add(s[0], s.int_arg("dim"), s[1], s[2])}; };
  op.inplace = [](Tensor& self, const SampleInput& s) { self.scatter_add_(s.int_arg("dim"), s[1], s[2]); };
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
    lz::scatter_add_out(outs[0], s[0], s.int_arg("dim"), s[1], s[2]);
  };
  op.reference = [](const SampleInput& s) { return scatter_reference(s, true, /*add=*/true); };
  op.errors = [] {
    auto in = [](Tensor x, Tensor idx, Tensor src, std::string desc) {
      return SampleInput{{std::move(x), std::move(idx), std::move(src)}, {{"dim", IValue(int64_t{0})}}, std::move(desc)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(IndexError, in(lz::zeros({3, 2}), index_tensor({3}, {1, 1}, false), lz::zeros({1, 1}), "index 3"),
                         "[scatter_add] index 3 is out of bounds for dimension 0 with size 3"),
        LZT_EXPECT_ERROR(TypeError, in(lz::zeros({3}), index_tensor({0}, {1}, false), lz::zeros({1}, lz::kFloat64), "src dtype"),
                         "[scatter_add] src: expected the dtype of self (float32), got float64")};
  };
  return op;
}

// index_add samples: self in every layout, a 1-D index with repeats along
// each dim, source with the index's length there.
std::vector<SampleInput> index_add_samples(ScalarType t) {
  std::vector<SampleInput> out;
  uint32_t seed = 600;
  for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{{5}, {3, 4}, {2, 3, 4}}) {
    const int64_t nd = static_cast<int64_t>(shape.size());
    for (const auto& [name, x] : layouts(shape, t, seed++)) {
      for (int64_t d = 0; d < nd; ++d) {
        const int64_t n = shape[d] + 2;
        lz::SizeVec ssizes(shape.begin(), shape.end());
        ssizes[d] = n;
        out.push_back(SampleInput{{x, index_tensor(random_indices(n, shape[d], seed++), {n}, d % 2 == 0),
                                   layouts(ssizes, t, seed++)[0].second},
                                  {{"dim", IValue(d)}, {"alpha", IValue(int64_t{2})}},
                                  name + ", dim " + std::to_string(d)});
      }
    }
  }
  out.push_back(SampleInput{{domain_tensor({}, t, 690), index_tensor({0}, {1}, false), domain_tensor({}, t, 691)},
                            {{"dim", IValue(int64_t{0})}, {"alpha", IValue(int64_t{1})}}, "0-dim"});
  return out;
}

OpInfo index_add_entry() {
  OpInfo op;
  op.name = "index_add";
  op.dtypes = all_types();
  op.samples = index_add_samples;
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::index_add(s[0], s.int_arg("dim"), s[1], s[2], s.scalar_arg("alpha"))};
  };
  op.inplace = [](Tensor& self, const SampleInput& s) {
    self.index_add_(s.int_arg("dim"), s[1], s[2], s.scalar_arg("alpha"));
  };
  op.reference = [](const SampleInput& s) {
    const Tensor& x = s[0];
    std::vector<double> v = values(x);
    const std::vector<int64_t> idx = int_values(s[1]);
    const std::vector<double> src = values(s[2]);
    const double alpha = s.scalar_arg("alpha").to_double();
    const lz::SizeVec xs = x.dim() == 0 ? lz::SizeVec{1} : lz::SizeVec(x.sizes().begin(), x.sizes().end());
    const lz::SizeVec ss = s[2].dim() == 0 ? lz::SizeVec{1} : lz::SizeVec(s[2].sizes().begin(), s[2].sizes().end());
    const int64_t d = x.dim() == 0 ? 0 : wrap(s.int_arg("dim"), x.dim());
    for (size_t k = 0; k < src.size(); ++k) {
      const Coord c = unravel(static_cast<int64_t>(k), ss);
      Coord target = c;
      target[d] = idx[static_cast<size_t>(c[d])];
      double& element = v[ravel(target, xs)];
      element = as_stored(x.dtype(), element + as_stored(x.dtype(), alpha * src[k]));
    }
    return one(Expected{lz::SizeVec(x.sizes().begin(), x.sizes().end()), x.dtype(), v});
  };
  op.errors = [] {
    auto in = [](Tensor x, Tensor idx, Tensor src, std::string desc) {
      return SampleInput{{std::move(x), std::move(idx), std::move(src)},
                         {{"dim", IValue(int64_t{0})}, {"alpha", IValue(int64_t{1})}}, std::move(desc)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ShapeError, in(lz::zeros({3, 2}), index_tensor({0, 1}, {2}, false), lz::zeros({3, 2}), "length"),
                         "[index_add] index: expected 3 entries (source's size along dim 0), got 2"),
        LZT_EXPECT_ERROR(ShapeError, in(lz::zeros({3, 2}), index_tensor({0}, {1, 1}, false), lz::zeros({1, 2}), "2-D index"),
                         "[index_add] index: expected a 0-D or 1-D tensor, got 2-D"),
        LZT_EXPECT_ERROR(IndexError, in(lz::zeros({3, 2}), index_tensor({5}, {1}, false), lz::zeros({1, 2}), "index 5"),
                         "[scatter_add] index 5 is out of bounds for dimension 0 with size 3")};
  };
  return op;
}

// ---- nonzero / masked_select (data-dependent sizes) -------------------------------------

// Values with zeros at every third position (and the rest in 1..5), so the
// result's size depends on where the zeros fall.
Tensor with_zeros(lz::IntArrayRef sizes, ScalarType t, int64_t shift = 0) {
  std::vector<double> v;
  for (int64_t i = 0; i < numel_of(sizes); ++i) v.push_back((i + shift) % 3 == 0 ? 0.0 : double((i + shift) % 5 + 1));
  return make_tensor(v, sizes, t);
}

OpInfo nonzero_entry() {
  OpInfo op;
  op.name = "nonzero";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) {
    auto one_of = [](Tensor x, std::string what) { return SampleInput{{std::move(x)}, {}, std::move(what)}; };
    return std::vector<SampleInput>{
        one_of(make_tensor(std::vector<double>{2}, lz::IntArrayRef{}, t), "0-dim nonzero"),
        one_of(make_tensor(std::vector<double>{0}, lz::IntArrayRef{}, t), "0-dim zero"),
        one_of(with_zeros({7}, t), "[7]"),
        one_of(with_zeros({3, 4}, t, 1), "[3, 4]"),
        one_of(with_zeros({2, 3, 2}, t, 2), "[2, 3, 2]"),
        one_of(with_zeros({4, 3}, t).t(), "[3, 4] transposed"),
        one_of(with_zeros({3, 8}, t).slice(1, 0, std::nullopt, 2), "[3, 4] every other column"),
        one_of(with_zeros({1, 4}, t, 1).expand({3, 4}), "[1, 4] expanded to [3, 4]"),
        one_of(with_zeros({2, 0, 3}, t), "[2, 0, 3]"),
        one_of(lz::zeros({5}, t), "all zero")};
  };
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{s[0].nonzero()}; };
  op.reference = [](const SampleInput& s) {
    const Tensor& x = s[0];
    const std::vector<double> v = values(x);
    Expected e{{0, x.dim()}, lz::kInt64, {}};
    for (size_t i = 0; i < v.size(); ++i) {
      if (v[i] == 0) continue;
      ++e.sizes[0];
      std::vector<double> coordinate(static_cast<size_t>(x.dim()));
      int64_t rest = static_cast<int64_t>(i);
      for (int64_t d = x.dim() - 1; d >= 0; --d) {
        coordinate[static_cast<size_t>(d)] = static_cast<double>(rest % x.size(d));
        rest /= x.size(d);
      }
      e.values.insert(e.values.end(), coordinate.begin(), coordinate.end());
    }
    return one(e);
  };
  return op;
}

OpInfo masked_select_entry() {
  OpInfo op;
  op.name = "masked_select";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) {
    auto mask = [](lz::IntArrayRef sizes, int64_t shift) { return with_zeros(sizes, lz::kBool, shift); };
    auto two = [](Tensor x, Tensor m, std::string what) {
      return SampleInput{{std::move(x), std::move(m)}, {}, std::move(what)};
    };
    return std::vector<SampleInput>{
        two(sample_tensor({3, 4}, t, 1), mask({3, 4}, 0), "[3, 4] and mask [3, 4]"),
        two(sample_tensor({3, 4}, t, 2), mask({4}, 1), "[3, 4] and mask [4] broadcast"),
        two(sample_tensor({4}, t, 3), mask({3, 4}, 2), "[4] broadcast and mask [3, 4]"),
        two(sample_tensor({4, 3}, t, 4).t(), mask({4, 3}, 1).t(), "transposed self and mask"),
        two(sample_tensor({}, t, 5), mask({3}, 0), "0-dim self"),
        two(sample_tensor({2, 3}, t, 6), lz::zeros({2, 3}, lz::kBool), "all false"),
        two(sample_tensor({2, 0}, t, 7), mask({2, 0}, 0), "[2, 0]")};
  };
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{s[0].masked_select(s[1])}; };
  op.reference = [](const SampleInput& s) {
    const lz::SizeVec sizes = broadcast_sizes({s[0].sizes(), s[1].sizes()});
    const std::vector<double> x = broadcast_values(s[0], sizes), m = broadcast_values(s[1], sizes);
    Expected e{{0}, s[0].dtype(), {}};
    for (size_t i = 0; i < x.size(); ++i) {
      if (m[i] != 0) e.values.push_back(x[i]);
    }
    e.sizes[0] = static_cast<int64_t>(e.values.size());
    return one(e);
  };
  op.errors = [] {
    auto two = [](Tensor x, Tensor m, std::string what) {
      return SampleInput{{std::move(x), std::move(m)}, {}, std::move(what)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(TypeError, two(lz::zeros({3}), lz::zeros({3}), "float mask"),
                         "[masked_select] mask: expected a bool tensor, got float32"),
        LZT_EXPECT_ERROR(ShapeError, two(lz::zeros({3}), lz::zeros({4}, lz::kBool), "[3] and [4]"),
                         "[masked_select] self shape [3] and mask shape [4] are not broadcastable")};
  };
  return op;
}

void add_indexing_ops(std::vector<OpInfo>& t) {
  t.push_back(index_select_entry());
  t.push_back(gather_entry());
  t.push_back(scatter_entry(true));
  t.push_back(scatter_entry(false));
  t.push_back(scatter_add_entry());
  t.push_back(index_add_entry());
  t.push_back(nonzero_entry());
  t.push_back(masked_select_entry());
}

}  // namespace lzt
