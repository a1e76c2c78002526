// Table entries: shape and data-movement operators (cat, stack, split,
// chunk, triu/tril, flip, repeat, padding). References map every output
// coordinate to the input coordinate it comes from, in row-major int64
// arithmetic over values read with tensor_access.h. Indexing operators
// (index_select, gather, scatter): entries_indexing.cpp; views and copies:
// entries_views.cpp.
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

std::string dtype_name(ScalarType t) { return std::string(lz::to_string(t)); }

ScalarType promote_all(const std::vector<Tensor>& ts) {
  ScalarType r = ts.at(0).dtype();
  for (const Tensor& t : ts) r = lz::promote_types(r, t.dtype());
  return r;
}

// ---- cat / stack --------------------------------------------------------------------

bool legacy_empty(const Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

std::vector<SampleInput> cat_samples(ScalarType t) {
  std::vector<SampleInput> out;
  uint32_t seed = 1;
  auto add = [&](std::vector<Tensor> ts, int64_t dim, std::string desc) {
    out.push_back(SampleInput{std::move(ts), {{"dim", IValue(dim)}}, std::move(desc)});
  };
  // [2, 3, 4]-shaped inputs of different lengths along dim, in every layout.
  for (int64_t dim : {0, 1, 2, -1, -3}) {
    const int64_t d = wrap(dim, 3);
    std::vector<Tensor> ts;
    std::string desc = "[2, 3, 4]-like:";
    size_t k = 0;
    for (int64_t len : {1, 3, 2, 4}) {
      lz::SizeVec s = {2, 3, 4};
      s[d] = len;
      auto ls = layouts(s, t, seed++);
      const auto& [name, tensor] = ls[k++ % ls.size()];
      ts.push_back(tensor);
      desc += " " + name + ";";
    }
    add(ts, dim, desc);
  }
  add({domain_tensor({3}, t, 20), layouts({5}, t, 21)[1].second}, 0, "1-D contiguous and strided");
  add({domain_tensor({3}, t, 22), domain_tensor({5}, t, 23)}, -1, "1-D, dim -1");
  add({domain_tensor({0}, t, 24), domain_tensor({2, 3}, t, 25), domain_tensor({0}, t, 26),
       domain_tensor({2, 2}, t, 27)},
      1, "legacy 1-D empty tensors are skipped");
  add({domain_tensor({0}, t, 28), domain_tensor({0}, t, 29)}, 0, "only legacy empty tensors");
  add({domain_tensor({2, 0, 3}, t, 30), domain_tensor({2, 4, 3}, t, 31)}, 1, "0-size input");
  add({domain_tensor({0, 3}, t, 32), domain_tensor({0, 3}, t, 33)}, 1, "0-size result");
  add({domain_tensor({2, 0}, t, 34), domain_tensor({2, 0}, t, 35)}, 0, "0-size rows");
  add({layouts({3, 4}, t, 36)[1].second}, 1, "one transposed tensor");
  add({domain_tensor({3, 1}, t, 37).expand({3, 4}), domain_tensor({3, 2}, t, 38)}, 1, "expanded input");
  add({domain_tensor({257, 300}, t, 39).t(), domain_tensor({300, 100}, t, 40)}, 1,
      "large, transposed and contiguous");
  add({domain_tensor({40000, 7}, t, 41), domain_tensor({40000, 9}, t, 42)}, 1,
      "large, rows split across threads");
  add({domain_tensor({600, 257}, t, 43), domain_tensor({500, 257}, t, 44)}, 0, "large, dim 0");
  uint32_t s2 = 60;
  for (ScalarType o : all_types()) {
    if (o == t) continue;
    add({domain_tensor({2, 3}, t, s2), domain_tensor({2, 2}, o, s2 + 1)}, 1,
        "promotion with " + dtype_name(o));
    add({domain_tensor({0}, o, s2 + 2), domain_tensor({2, 3}, t, s2 + 3)}, 0,
        "a skipped legacy empty " + dtype_name(o) + " tensor still promotes");
    s2 += 4;
  }
  return out;
}

std::vector<Expected> cat_reference(const SampleInput& s) {
  const ScalarType dt = promote_all(s.tensors);
  std::vector<const Tensor*> kept;
  for (const Tensor& t : s.tensors) {
    if (!legacy_empty(t)) kept.push_back(&t);
  }
  if (kept.empty()) return one(Expected{{0}, dt, {}});
  const int64_t d = wrap(s.int_arg("dim"), kept[0]->dim());
  lz::SizeVec sizes(kept[0]->sizes().begin(), kept[0]->sizes().end());
  sizes[d] = 0;
  for (const Tensor* t : kept) sizes[d] += t->size(d);
  int64_t outer = 1;
  for (int64_t k = 0; k < d; ++k) outer *= sizes[k];
  Expected e{sizes, dt, {}};
  std::vector<std::vector<double>> vals;
  for (const Tensor* t : kept) vals.push_back(values(*t));
  for (int64_t o = 0; o < outer; ++o) {
    for (size_t i = 0; i < kept.size(); ++i) {
      const int64_t block = outer == 0 ? 0 : static_cast<int64_t>(vals[i].size()) / outer;
      for (int64_t k = 0; k < block; ++k) e.values.push_back(as_stored(dt, vals[i][o * block + k]));
    }
  }
  return one(std::move(e));
}

OpInfo cat_entry() {
  OpInfo op;
  op.name = "cat";
  op.dtypes = all_types();
  op.samples = cat_samples;
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::cat(s.tensors, s.int_arg("dim"))}; };
  op.reference = cat_reference;
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
    lz::cat_out(outs[0], s.tensors, s.int_arg("dim"));
  };
  op.errors = [] {
    auto in = [](std::vector<Tensor> ts, int64_t dim, std::string desc) {
      return SampleInput{std::move(ts), {{"dim", IValue(dim)}}, std::move(desc)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ValueError, in({}, 0, "no tensors"), "[cat] tensors: expected a non-empty list"),
        LZT_EXPECT_ERROR(ShapeError, in({lz::zeros({2}), lz::zeros({})}, 0, "0-dim"),
                         "zero-dimensional tensor (at position 1) cannot be concatenated"),
        LZT_EXPECT_ERROR(ShapeError, in({lz::zeros({2, 3}), lz::zeros({2, 4})}, 0, "sizes differ"),
                         "Expected size 3 but got size 4 for tensor number 1 in the list"),
        LZT_EXPECT_ERROR(ShapeError, in({lz::zeros({2, 3}), lz::zeros({2, 3, 1})}, 0, "ranks differ"),
                         "tensors must have the same number of dimensions"),
        LZT_EXPECT_ERROR(IndexError, in({lz::zeros({2, 3}), lz::zeros({2, 3})}, 2, "dim 2"),
                         "[cat] dim: 2 is out of range for a 2-D tensor"),
        LZT_EXPECT_ERROR(ValueError, in({lz::zeros({2}), Tensor()}, 0, "undefined"),
                         "[cat] tensors[1]: expected a defined tensor")};
  };
  return op;
}

std::vector<SampleInput> stack_samples(ScalarType t) {
  std::vector<SampleInput> out;
  uint32_t seed = 100;
  for (const std::vector<int64_t>& shape :
       std::vector<std::vector<int64_t>>{{}, {3}, {2, 3}, {2, 0}, {2, 3, 4}}) {
    const int64_t nd = static_cast<int64_t>(shape.size());
    const auto ls = layouts(shape, t, seed);
    seed += 10;
    for (int64_t dim = -nd - 1; dim <= nd; ++dim) {
      std::vector<Tensor> ts;
      std::string desc = lz::shape_str(shape) + ":";
      for (size_t k = 0; k < 3; ++k) {
        ts.push_back(ls[(k + static_cast<size_t>(dim + nd + 1)) % ls.size()].second);
        desc += " " + ls[(k + static_cast<size_t>(dim + nd + 1)) % ls.size()].first + ";";
      }
      out.push_back(SampleInput{ts, {{"dim", IValue(dim)}}, desc});
    }
  }
  out.push_back(SampleInput{{domain_tensor({3, 4}, t, 150)}, {{"dim", IValue(int64_t{1})}}, "one tensor"});
  out.push_back(SampleInput{{domain_tensor({257, 300}, t, 151).t(), domain_tensor({300, 257}, t, 152)},
                            {{"dim", IValue(int64_t{1})}},
                            "large"});
  uint32_t s2 = 160;
  for (ScalarType o : all_types()) {
    if (o == t) continue;
    out.push_back(SampleInput{{domain_tensor({2, 3}, t, s2), domain_tensor({2, 3}, o, s2 + 1)},
                              {{"dim", IValue(int64_t{0})}},
                              "promotion with " + dtype_name(o)});
    s2 += 2;
  }
  return out;
}

std::vector<Expected> stack_reference(const SampleInput& s) {
  const ScalarType dt = promote_all(s.tensors);
  const lz::IntArrayRef in_sizes = s[0].sizes();
  const int64_t nd = static_cast<int64_t>(in_sizes.size());
  const int64_t d = s.int_arg("dim") < 0 ? s.int_arg("dim") + nd + 1 : s.int_arg("dim");
  lz::SizeVec sizes(in_sizes.begin(), in_sizes.end());
  sizes.insert(sizes.begin() + d, static_cast<int64_t>(s.tensors.size()));
  int64_t outer = 1, inner = 1;
  for (int64_t k = 0; k < d; ++k) outer *= in_sizes[k];
  for (int64_t k = d; k < nd; ++k) inner *= in_sizes[k];
  std::vector<std::vector<double>> vals;
  for (const Tensor& t : s.tensors) vals.push_back(values(t));
  Expected e{sizes, dt, {}};
  for (int64_t o = 0; o < outer; ++o) {
    for (const auto& v : vals) {
      for (int64_t k = 0; k < inner; ++k) e.values.push_back(as_stored(dt, v[o * inner + k]));
    }
  }
  return one(std::move(e));
}

OpInfo stack_entry() {
  OpInfo op;
  op.name = "stack";
  op.dtypes = all_types();
  op.samples = stack_samples;
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::stack(s.tensors, s.int_arg("dim"))}; };
  op.reference = stack_reference;
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
    lz::stack_out(outs[0], s.tensors, s.int_arg("dim"));
  };
  op.errors = [] {
    auto in = [](std::vector<Tensor> ts, int64_t dim, std::string desc) {
      return SampleInput{std::move(ts), {{"dim", IValue(dim)}}, std::move(desc)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ValueError, in({}, 0, "no tensors"), "[stack] tensors: expected a non-empty list"),
        LZT_EXPECT_ERROR(ShapeError, in({lz::zeros({2, 3}), lz::zeros({2, 4})}, 0, "shapes differ"),
                         "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [2, 4] at entry 1"),
        LZT_EXPECT_ERROR(IndexError, in({lz::zeros({2, 3})}, 3, "dim 3"),
                         "[stack] dim: 3 is out of range for a 3-D tensor")};
  };
  return op;
}

// ---- split / split_with_sizes / chunk ------------------------------------------------------

using Pieces = std::vector<std::pair<int64_t, int64_t>>;  // (start, length) along dim

std::vector<Expected> pieces_reference(const Tensor& x, int64_t d, const Pieces& pieces) {
  std::vector<Expected> out;
  for (const auto& [start, len] : pieces) {
    lz::SizeVec sizes(x.sizes().begin(), x.sizes().end());
    sizes[d] = len;
    out.push_back(index_map(x, sizes, [&, start = start](const Coord& c) {
      Coord src = c;
      src[d] += start;
      return src;
    }));
  }
  return out;
}

Pieces split_pieces(int64_t size, int64_t split_size) {
  if (split_size == 0) return {{0, 0}};
  Pieces p;
  const int64_t n = std::max<int64_t>((size + split_size - 1) / split_size, 1);
  for (int64_t i = 0; i < n; ++i) p.emplace_back(i * split_size, std::min(split_size, size - i * split_size));
  return p;
}

// Split samples: every shape and layout of unary_samples with >= 1 dim,
// along each dim, with kwargs from make(size along dim).
std::vector<SampleInput> split_like_samples(ScalarType t,
                                            const std::function<std::vector<IValue>(int64_t)>& make,
                                            const std::string& key) {
  std::vector<SampleInput> out;
  for (const SampleInput& base : unary_samples(t)) {
    const int64_t nd = base[0].dim();
    if (nd == 0) continue;
    const bool large = base[0].numel() > 10000;
    for (int64_t dim = -1; dim < nd; ++dim) {
      if (large && dim >= 0) continue;
      const int64_t size = base[0].size(wrap(dim, nd));
      for (const IValue& v : make(size)) {
        SampleInput s = base;
        s.kwargs["dim"] = IValue(dim);
        s.kwargs[key] = v;
        out.push_back(std::move(s));
      }
    }
  }
  return out;
}

OpInfo split_entry() {
  OpInfo op;
  op.name = "split";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) {
    return split_like_samples(
        t,
        [](int64_t size) {
          std::vector<IValue> v;
          if (size == 0) v.push_back(IValue(int64_t{0}));
          for (int64_t ss : {int64_t{1}, int64_t{2}, size, size + 3}) {
            if (ss > 0) v.push_back(IValue(ss));
          }
          return v;
        },
        "split_size");
  };
  op.op = [](const SampleInput& s) { return lz::split(s[0], s.int_arg("split_size"), s.int_arg("dim")); };
  op.reference = [](const SampleInput& s) {
    const int64_t d = wrap(s.int_arg("dim"), s[0].dim());
    return pieces_reference(s[0], d, split_pieces(s[0].size(d), s.int_arg("split_size")));
  };
  op.check = alias_check(op.reference, [](const SampleInput&) { return Alias::Always; });
  op.errors = [] {
    auto in = [](Tensor x, int64_t ss, int64_t dim, std::string desc) {
      return SampleInput{{std::move(x)}, {{"split_size", IValue(ss)}, {"dim", IValue(dim)}}, std::move(desc)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ValueError, in(lz::zeros({3}), -1, 0, "negative"), "[split] split_size: must be non-negative"),
        LZT_EXPECT_ERROR(ValueError, in(lz::zeros({3}), 0, 0, "zero with size 3"),
                         "can only be 0 if dimension size is 0, but got dimension size of 3"),
        LZT_EXPECT_ERROR(ShapeError, in(lz::zeros({}), 1, 0, "0-dim"), "[split] self: expects at least a 1-dimensional tensor"),
        LZT_EXPECT_ERROR(IndexError, in(lz::zeros({3}), 1, 1, "dim 1"), "[split] dim: 1 is out of range")};
  };
  return op;
}

OpInfo split_with_sizes_entry() {
  OpInfo op;
  op.name = "split_with_sizes";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) {
    return split_like_samples(
        t,
        [](int64_t size) {
          std::vector<IValue> v{IValue(std::vector<int64_t>{size}), IValue(std::vector<int64_t>{0, size, 0})};
          if (size >= 1) v.push_back(IValue(std::vector<int64_t>{1, size - 1}));
          if (size >= 3) v.push_back(IValue(std::vector<int64_t>{size - 3, 2, 1}));
          return v;
        },
        "split_sizes");
  };
  op.op = [](const SampleInput& s) {
    return lz::split_with_sizes(s[0], s.int_list_arg("split_sizes"), s.int_arg("dim"));
  };
  op.reference = [](const SampleInput& s) {
    const int64_t d = wrap(s.int_arg("dim"), s[0].dim());
    Pieces p;
    int64_t start = 0;
    for (int64_t len : s.int_list_arg("split_sizes")) {
      p.emplace_back(start, len);
      start += len;
    }
    return pieces_reference(s[0], d, p);
  };
  op.check = alias_check(op.reference, [](const SampleInput&) { return Alias::Always; });
  op.errors = [] {
    auto in = [](std::vector<int64_t> sizes, std::string desc) {
      return SampleInput{{lz::zeros({3, 2})}, {{"split_sizes", IValue(sizes)}, {"dim", IValue(int64_t{0})}}, std::move(desc)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ShapeError, in({1, 1}, "sum 2"), "expected them to sum exactly to 3"),
        LZT_EXPECT_ERROR(ValueError, in({4, -1}, "negative"), "[split_with_sizes] split_sizes: entry 1 is negative")};
  };
  return op;
}

OpInfo chunk_entry() {
  OpInfo op;
  op.name = "chunk";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) {
    return split_like_samples(
        t,
        [](int64_t size) {
          return std::vector<IValue>{IValue(int64_t{1}), IValue(int64_t{2}), IValue(int64_t{3}), IValue(size + 2)};
        },
        "chunks");
  };
  op.op = [](const SampleInput& s) { return lz::chunk(s[0], s.int_arg("chunks"), s.int_arg("dim")); };
  op.reference = [](const SampleInput& s) {
    const int64_t d = wrap(s.int_arg("dim"), s[0].dim());
    const int64_t size = s[0].size(d), chunks = s.int_arg("chunks");
    if (size == 0) return pieces_reference(s[0], d, Pieces(static_cast<size_t>(chunks), {0, 0}));
    return pieces_reference(s[0], d, split_pieces(size, (size + chunks - 1) / chunks));
  };
  op.check = alias_check(op.reference, [](const SampleInput&) { return Alias::Always; });
  op.errors = [] {
    return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
        ValueError, (SampleInput{{lz::zeros({3})}, {{"chunks", IValue(int64_t{0})}, {"dim", IValue(int64_t{0})}}, "0 chunks"}),
        "[chunk] chunks: must be greater than 0, got 0")};
  };
  return op;
}

// ---- triu / tril / flip / repeat / pad ---------------------------------------------------------

std::vector<SampleInput> triangle_samples(ScalarType t) {
  std::vector<SampleInput> out;
  uint32_t seed = 500;
  for (const std::vector<int64_t>& shape : std::vector<std::vector<int64_t>>{
           {3, 4}, {4, 3}, {2, 3, 4}, {1, 1}, {2, 0, 3}, {0, 0}, {300, 257}}) {
    const bool large = shape[0] == 300;
    for (const auto& [name, x] : layouts(shape, t, seed++)) {
      for (int64_t diag : large ? std::vector<int64_t>{0, -2} : std::vector<int64_t>{0, 1, -1, 3, -5, 100}) {
        out.push_back(SampleInput{{x}, {{"diagonal", IValue(diag)}}, name});
      }
    }
  }
  out.push_back(SampleInput{{domain_tensor({4, 2, 3}, t, 590).permute({1, 2, 0})},
                            {{"diagonal", IValue(int64_t{1})}}, "[2, 3, 4] permuted"});
  return out;
}

OpInfo triangle_entry(bool upper) {
  OpInfo op;
  op.name = upper ? "triu" : "tril";
  op.dtypes = all_types();
  op.samples = triangle_samples;
  op.op = [upper](const SampleInput& s) {
    const int64_t k = s.int_arg("diagonal");
    return std::vector<Tensor>{upper ? lz::triu(s[0], k) : lz::tril(s[0], k)};
  };
  op.reference = [upper](const SampleInput& s) {
    const Tensor& x = s[0];
    const int64_t k = s.int_arg("diagonal");
    const std::vector<double> v = values(x);
    const int64_t nd = x.dim();
    return one(build_expected(x.sizes(), x.dtype(), [&](const Coord& c) {
      const int64_t i = c[nd - 2], j = c[nd - 1];
      const bool keep = upper ? j - i >= k : j - i <= k;
      return keep ? v[ravel(c, x.sizes())] : 0.0;
    }));
  };
  op.inplace = [upper](Tensor& self, const SampleInput& s) {
    if (upper) {
      self.triu_(s.int_arg("diagonal"));
    } else {
      self.tril_(s.int_arg("diagonal"));
    }
  };
  op.out = [upper](std::vector<Tensor>& outs, const SampleInput& s) {
    if (upper) {
      lz::triu_out(outs[0], s[0], s.int_arg("diagonal"));
    } else {
      lz::tril_out(outs[0], s[0], s.int_arg("diagonal"));
    }
  };
  const std::string name = op.name;
  op.errors = [name] {
    return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
        ShapeError, (SampleInput{{lz::zeros({3})}, {{"diagonal", IValue(int64_t{0})}}, "1-D"}),
        "[" + name + "] self: expected a tensor with 2 or more dimensions, got 1-D")};
  };
  return op;
}

OpInfo flip_entry() {
  OpInfo op;
  op.name = "flip";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) {
    std::vector<SampleInput> out;
    for (const SampleInput& s : unary_samples(t)) {
      const int64_t nd = s[0].dim();
      std::vector<std::vector<int64_t>> lists{{}};
      if (nd == 0) lists.push_back({0});
      if (nd >= 1) lists.push_back({-1});
      if (nd >= 2) {
        lists.push_back({0});
        lists.push_back({0, nd - 1});
      }
      if (nd >= 3) lists.push_back({2, 0, 1});
      for (const auto& dims : lists) {
        SampleInput d = s;
        d.kwargs["dims"] = IValue(dims);
        out.push_back(std::move(d));
      }
    }
    return out;
  };
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::flip(s[0], s.int_list_arg("dims"))}; };
  op.reference = [](const SampleInput& s) {
    const Tensor& x = s[0];
    std::vector<bool> flipped(static_cast<size_t>(x.dim()), false);
    for (int64_t d : s.int_list_arg("dims")) {
      if (x.dim() > 0) flipped[static_cast<size_t>(wrap(d, x.dim()))] = true;
    }
    return one(index_map(x, x.sizes(), [&](const Coord& c) {
      Coord src = c;
      for (size_t d = 0; d < c.size(); ++d) {
        if (flipped[d]) src[d] = x.size(static_cast<int64_t>(d)) - 1 - c[d];
      }
      return src;
    }));
  };
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) { lz::flip_out(outs[0], s[0], s.int_list_arg("dims")); };
  op.errors = [] {
    auto in = [](std::vector<int64_t> dims, std::string desc) {
      return SampleInput{{lz::zeros({2, 3})}, {{"dims", IValue(dims)}}, std::move(desc)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ValueError, in({0, -2}, "repeated"), "[flip] dims: dim 0 appears multiple times"),
        LZT_EXPECT_ERROR(IndexError, in({2}, "dim 2"), "[flip] dim: 2 is out of range for a 2-D tensor")};
  };
  return op;
}

OpInfo repeat_entry() {
  OpInfo op;
  op.name = "repeat";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) {
    std::vector<SampleInput> out;
    uint32_t seed = 600;
    for (const std::vector<int64_t>& shape :
         std::vector<std::vector<int64_t>>{{}, {3}, {2, 3}, {2, 0}, {1, 4}, {2, 3, 4}}) {
      const int64_t nd = static_cast<int64_t>(shape.size());
      std::vector<std::vector<int64_t>> lists;
      std::vector<int64_t> same(static_cast<size_t>(nd), 2);
      if (nd >= 1) same[0] = 3;
      lists.push_back(same);
      std::vector<int64_t> longer = same;
      longer.insert(longer.begin(), 2);
      lists.push_back(longer);
      std::vector<int64_t> ones(static_cast<size_t>(nd), 1);
      ones.insert(ones.begin(), {2, 1});
      lists.push_back(ones);
      if (nd >= 1) {
        std::vector<int64_t> zero = same;
        zero.back() = 0;
        lists.push_back(zero);
      }
      for (const auto& [name, x] : layouts(shape, t, seed++)) {
        for (const auto& r : lists) out.push_back(SampleInput{{x}, {{"repeats", IValue(r)}}, name});
      }
    }
    out.push_back(SampleInput{{domain_tensor({257, 300}, t, 690).t()},
                              {{"repeats", IValue(std::vector<int64_t>{2, 1, 2})}}, "large transposed"});
    out.push_back(SampleInput{{domain_tensor({1}, t, 691)},
                              {{"repeats", IValue(std::vector<int64_t>{100000})}}, "one element, many times"});
    return out;
  };
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::repeat(s[0], s.int_list_arg("repeats"))}; };
  op.reference = [](const SampleInput& s) {
    const Tensor& x = s[0];
    const lz::IntArrayRef r = s.int_list_arg("repeats");
    const int64_t lead = static_cast<int64_t>(r.size()) - x.dim();
    lz::SizeVec sizes;
    for (size_t i = 0; i < r.size(); ++i) {
      const int64_t have = static_cast<int64_t>(i) < lead ? 1 : x.size(static_cast<int64_t>(i) - lead);
      sizes.push_back(have * r[i]);
    }
    return one(index_map(x, sizes, [&](const Coord& c) {
      Coord src;
      for (int64_t d = 0; d < x.dim(); ++d) src.push_back(c[lead + d] % x.size(d));
      return src;
    }));
  };
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
    lz::repeat_out(outs[0], s[0], s.int_list_arg("repeats"));
  };
  op.errors = [] {
    auto in = [](std::vector<int64_t> r, std::string desc) {
      return SampleInput{{lz::zeros({2, 3})}, {{"repeats", IValue(r)}}, std::move(desc)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ShapeError, in({2}, "too few"),
                         "[repeat] repeats: the number of repeat dims (1) can not be smaller than the number of dimensions of the tensor (2)"),
        LZT_EXPECT_ERROR(ValueError, in({2, -1}, "negative"), "[repeat] repeats: negative repeat count -1")};
  };
  return op;
}

std::vector<SampleInput> pad_samples(ScalarType t, bool scalar_value) {
  std::vector<SampleInput> out;
  uint32_t seed = 700;
  const lz::Scalar fill = fill_scalar(t);
  const std::vector<IValue> values_kw =
      scalar_value ? std::vector<IValue>{IValue(fill)}
                   : std::vector<IValue>{IValue(std::nullopt), IValue(fill.to_double())};
  for (const std::vector<int64_t>& shape :
       std::vector<std::vector<int64_t>>{{}, {5}, {3, 4}, {2, 3, 4}, {2, 0, 3}, {300, 257}}) {
    const int64_t nd = static_cast<int64_t>(shape.size());
    std::vector<std::vector<int64_t>> pads{{}};
    if (nd >= 1) {
      pads.push_back({1, 2});
      pads.push_back({-1, 1});
      pads.push_back({0, 0});
    }
    if (nd >= 2) {
      pads.push_back({2, -2, 1, 0});
      pads.push_back({0, 1, -1, 2});
    }
    if (nd >= 3) pads.push_back({1, 1, 1, 1, 1, 1});
    if (shape.size() == 2 && shape[0] == 300) pads = {{3, -4, 1, 2}};
    for (const auto& [name, x] : layouts(shape, t, seed++)) {
      for (const auto& p : pads) {
        for (const IValue& v : values_kw) {
          out.push_back(SampleInput{{x}, {{"pad", IValue(p)}, {"value", v}}, name});
        }
      }
    }
  }
  return out;
}

std::vector<Expected> pad_reference(const SampleInput& s) {
  const Tensor& x = s[0];
  const lz::IntArrayRef p = s.int_list_arg("pad");
  const double value = s.arg("value").is_none() ? 0.0 : as_stored(x.dtype(), s.scalar_arg("value").to_double());
  const int64_t nd = x.dim();
  std::vector<int64_t> before(static_cast<size_t>(nd), 0);
  lz::SizeVec sizes(x.sizes().begin(), x.sizes().end());
  for (size_t i = 0; i < p.size() / 2; ++i) {
    const int64_t d = nd - 1 - static_cast<int64_t>(i);
    before[d] = p[2 * i];
    sizes[d] += p[2 * i] + p[2 * i + 1];
  }
  const std::vector<double> v = values(x);
  return one(build_expected(sizes, x.dtype(), [&](const Coord& c) {
    Coord src = c;
    for (int64_t d = 0; d < nd; ++d) {
      src[d] -= before[d];
      if (src[d] < 0 || src[d] >= x.size(d)) return value;
    }
    return v[ravel(src, x.sizes())];
  }));
}

std::vector<ErrorInput> pad_errors(const std::string& name, bool with_mode) {
  auto in = [&](std::vector<int64_t> p, std::string desc) {
    std::map<std::string, IValue> kw{{"pad", IValue(p)}, {"value", IValue(0.0)}};
    return SampleInput{{lz::zeros({2, 3})}, kw, std::move(desc)};
  };
  std::vector<ErrorInput> e{
      LZT_EXPECT_ERROR(ValueError, in({1, 1, 1}, "odd length"), "[constant_pad_nd] pad: length must be divisible by 2, got 3"),
      LZT_EXPECT_ERROR(ValueError, in({1, 1, 1, 1, 1, 1}, "too long"),
                       "[constant_pad_nd] pad: length 6 is too large for a 2-D tensor"),
      LZT_EXPECT_ERROR(ShapeError, in({-2, -2}, "negative size"),
                       "the input size 3, plus negative padding -2 and -2 resulted in a negative output size")};
  if (with_mode) {
    SampleInput reflect = in({1, 1}, "reflect");
    reflect.kwargs["mode"] = IValue("reflect");
    e.push_back(LZT_EXPECT_ERROR(NotImplementedError, reflect, "[pad] mode: 'reflect' padding is not implemented"));
    SampleInput circular = in({1, 1}, "circular");
    circular.kwargs["mode"] = IValue("circular");
    e.push_back(LZT_EXPECT_ERROR(NotImplementedError, circular, "'circular' padding is not implemented"));
    SampleInput unknown = in({1, 1}, "unknown mode");
    unknown.kwargs["mode"] = IValue("wrap");
    e.push_back(LZT_EXPECT_ERROR(ValueError, unknown, "[pad] mode: unknown padding mode 'wrap'"));
  } else {
    e.push_back(LZT_EXPECT_ERROR(
        ValueError,
        (SampleInput{{lz::zeros({2}, lz::kUInt8)}, {{"pad", IValue(std::vector<int64_t>{1, 1})}, {"value", IValue(int64_t{-1})}}, "-1 into uint8"}),
        "[constant_pad_nd] value: -1 cannot be converted to uint8"));
  }
  (void)name;
  return e;
}

OpInfo pad_entry() {
  OpInfo op;
  op.name = "pad";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) { return pad_samples(t, false); };
  op.op = [](const SampleInput& s) {
    std::optional<double> value;
    if (!s.arg("value").is_none()) value = s.double_arg("value");
    const std::string mode = s.has("mode") ? std::string(s.arg("mode").to_string_view()) : "constant";
    return std::vector<Tensor>{lz::pad(s[0], s.int_list_arg("pad"), mode, value)};
  };
  op.reference = pad_reference;
  op.errors = [] { return pad_errors("pad", true); };
  return op;
}

OpInfo constant_pad_nd_entry() {
  OpInfo op;
  op.name = "constant_pad_nd";
  op.dtypes = all_types();
  op.samples = [](ScalarType t) { return pad_samples(t, true); };
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::constant_pad_nd(s[0], s.int_list_arg("pad"), s.scalar_arg("value"))};
  };
  op.reference = pad_reference;
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
    lz::constant_pad_nd_out(outs[0], s[0], s.int_list_arg("pad"), s.scalar_arg("value"));
  };
  op.errors = [] { return pad_errors("constant_pad_nd", false); };
  return op;
}

}  // namespace

void add_shape_ops(std::vector<OpInfo>& t) {
  t.push_back(cat_entry());
  t.push_back(stack_entry());
  t.push_back(split_entry());
  t.push_back(split_with_sizes_entry());
  t.push_back(chunk_entry());
  add_indexing_ops(t);
  t.push_back(triangle_entry(true));
  t.push_back(triangle_entry(false));
  t.push_back(flip_entry());
  t.push_back(repeat_entry());
  t.push_back(pad_entry());
  t.push_back(constant_pad_nd_entry());
  add_view_ops(t);
}

}  // namespace lzt
