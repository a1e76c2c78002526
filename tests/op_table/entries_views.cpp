// Table entries: the view operators (view, reshape, flatten, permute,
// transpose, t, expand, expand_as, narrow, slice, select, squeeze,
// unsqueeze, as_strided) and copies (contiguous, clone, to, copy_). Each
// reference maps output coordinates to input coordinates; the checks also
// require views to share the input's storage (and copies not to), as in
// PyTorch.
#include <algorithm>
#include <optional>

#include "tests/op_table/entry_builders.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/shape_reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

using lz::IValue;
using lz::ScalarType;
using lz::Tensor;

int64_t wrap(int64_t d, int64_t nd) {
  const int64_t r = std::max<int64_t>(nd, 1);
  return d < 0 ? d + r : d;
}

// The same values (row-major) under new sizes.
Expected reshaped(const Tensor& x, lz::IntArrayRef sizes) {
  return Expected{lz::SizeVec(sizes.begin(), sizes.end()), x.dtype(), values(x)};
}

// A -1 in `shape` resolved against numel.
lz::SizeVec infer(lz::IntArrayRef shape, int64_t numel) {
  lz::SizeVec out(shape.begin(), shape.end());
  int64_t known = 1;
  int64_t at = -1;
  for (size_t i = 0; i < out.size(); ++i) {
    if (out[i] == -1) {
      at = static_cast<int64_t>(i);
    } else {
      known *= out[i];
    }
  }
  if (at >= 0) out[at] = numel / known;
  return out;
}

// Every unary sample once per kwarg set make(sample) returns.
std::vector<SampleInput> expand_samples(
    ScalarType t, const std::function<std::vector<std::map<std::string, IValue>>(const Tensor&)>& make) {
  std::vector<SampleInput> out;
  for (const SampleInput& base : unary_samples(t)) {
    for (const auto& kw : make(base[0])) {
      SampleInput s = base;
      for (const auto& [k, v] : kw) s.kwargs[k] = v;
      out.push_back(std::move(s));
    }
  }
  return out;
}

using Kw = std::map<std::string, IValue>;
using KwList = std::vector<Kw>;

std::vector<int64_t> sizes_of(const Tensor& x) { return std::vector<int64_t>(x.sizes().begin(), x.sizes().end()); }

Alias alias_if_contiguous(const SampleInput& s) { return s[0].is_contiguous() ? Alias::Always : Alias::Unchecked; }
Alias always(const SampleInput&) { return Alias::Always; }

OpInfo view_like(std::string name, std::function<std::vector<SampleInput>(ScalarType)> samples,
                 std::function<Tensor(const SampleInput&)> fn,
                 std::function<std::vector<Expected>(const SampleInput&)> reference,
                 std::function<Alias(const SampleInput&)> alias,
                 std::function<std::vector<ErrorInput>()> errors) {
  OpInfo op;
  op.name = std::move(name);
  op.dtypes = all_types();
  op.samples = std::move(samples);
  op.op = [fn](const SampleInput& s) { return std::vector<Tensor>{fn(s)}; };
  op.reference = reference;
  op.check = alias_check(reference, std::move(alias));
  op.errors = std::move(errors);
  return op;
}

SampleInput one_input(Tensor x, Kw kw, std::string desc) { return SampleInput{{std::move(x)}, std::move(kw), std::move(desc)}; }

// ---- view / reshape / flatten -----------------------------------------------------------

// Target shapes: all-but-one inferred, the sizes reversed, a trailing 1.
KwList reshape_targets(const Tensor& x, bool any_layout_only) {
  KwList out;
  std::vector<int64_t> plus_one = sizes_of(x);
  plus_one.push_back(1);
  out.push_back({{"size", IValue(plus_one)}});
  if (any_layout_only) return out;
  std::vector<int64_t> rev = sizes_of(x);
  std::reverse(rev.begin(), rev.end());
  out.push_back({{"size", IValue(rev)}});
  if (x.numel() > 0) {
    out.push_back({{"size", IValue(std::vector<int64_t>{-1})}});
    if (x.dim() >= 2) out.push_back({{"size", IValue(std::vector<int64_t>{x.size(0), -1})}});
  }
  return out;
}

OpInfo view_entry() {
  return view_like(
      "view",
      [](ScalarType t) {
        // Any layout can gain a size-1 dim; only contiguous ones can be reshaped freely.
        return expand_samples(t, [](const Tensor& x) { return reshape_targets(x, !x.is_contiguous()); });
      },
      [](const SampleInput& s) { return s[0].view(s.int_list_arg("size")); },
      [](const SampleInput& s) { return one(reshaped(s[0], infer(s.int_list_arg("size"), s[0].numel()))); },
      always,
      [] {
        return std::vector<ErrorInput>{
            LZT_EXPECT_ERROR(ShapeError, one_input(lz::zeros({4, 3}).t(), {{"size", IValue(std::vector<int64_t>{12})}}, "transposed"),
                             "use reshape() instead"),
            LZT_EXPECT_ERROR(ShapeError, one_input(lz::zeros({4, 3}), {{"size", IValue(std::vector<int64_t>{5, -1})}}, "numel"),
                             "[view]")};
      });
}

OpInfo reshape_entry() {
  return view_like(
      "reshape",
      [](ScalarType t) { return expand_samples(t, [](const Tensor& x) { return reshape_targets(x, false); }); },
      [](const SampleInput& s) { return s[0].reshape(s.int_list_arg("size")); },
      [](const SampleInput& s) { return one(reshaped(s[0], infer(s.int_list_arg("size"), s[0].numel()))); },
      alias_if_contiguous,
      [] {
        return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
            ShapeError, one_input(lz::zeros({4, 3}), {{"size", IValue(std::vector<int64_t>{5})}}, "numel"), "[reshape]")};
      });
}

OpInfo flatten_entry() {
  return view_like(
      "flatten",
      [](ScalarType t) {
        return expand_samples(t, [](const Tensor& x) {
          KwList out{{{"start", IValue(int64_t{0})}, {"end", IValue(int64_t{-1})}}};
          if (x.dim() >= 2) {
            out.push_back({{"start", IValue(int64_t{1})}, {"end", IValue(int64_t{-1})}});
            out.push_back({{"start", IValue(int64_t{0})}, {"end", IValue(int64_t{0})}});
            out.push_back({{"start", IValue(int64_t{-2})}, {"end", IValue(int64_t{-2})}});
          }
          return out;
        });
      },
      [](const SampleInput& s) { return s[0].flatten(s.int_arg("start"), s.int_arg("end")); },
      [](const SampleInput& s) {
        const Tensor& x = s[0];
        if (x.dim() == 0) return one(reshaped(x, {1}));
        const int64_t a = wrap(s.int_arg("start"), x.dim()), b = wrap(s.int_arg("end"), x.dim());
        lz::SizeVec sizes;
        int64_t merged = 1;
        for (int64_t d = 0; d < x.dim(); ++d) {
          if (d < a || d > b) {
            sizes.push_back(x.size(d));
          } else {
            merged *= x.size(d);
            if (d == b) sizes.push_back(merged);
          }
        }
        return one(reshaped(x, sizes));
      },
      alias_if_contiguous,
      [] {
        return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
            ValueError, one_input(lz::zeros({2, 3, 4}), {{"start", IValue(int64_t{2})}, {"end", IValue(int64_t{1})}}, "start after end"),
            "[flatten] start_dim (2) cannot come after end_dim (1)")};
      });
}

// ---- permute / transpose / t ----------------------------------------------------------------

Expected permuted(const Tensor& x, const std::vector<int64_t>& perm) {
  lz::SizeVec sizes;
  for (int64_t p : perm) sizes.push_back(x.size(p));
  return index_map(x, sizes, [&](const Coord& c) {
    Coord src(c.size());
    for (size_t i = 0; i < perm.size(); ++i) src[static_cast<size_t>(perm[i])] = c[i];
    return src;
  });
}

OpInfo permute_entry() {
  return view_like(
      "permute",
      [](ScalarType t) {
        return expand_samples(t, [](const Tensor& x) {
          const int64_t nd = x.dim();
          std::vector<int64_t> rev, rot;
          for (int64_t d = nd - 1; d >= 0; --d) rev.push_back(d);
          for (int64_t d = 0; d < nd; ++d) rot.push_back((d + 1) % nd - (d % 2 ? nd : 0));  // some negative
          return KwList{{{"dims", IValue(rev)}}, {{"dims", IValue(rot)}}};
        });
      },
      [](const SampleInput& s) { return s[0].permute(s.int_list_arg("dims")); },
      [](const SampleInput& s) {
        std::vector<int64_t> perm;
        for (int64_t d : s.int_list_arg("dims")) perm.push_back(wrap(d, s[0].dim()));
        return one(permuted(s[0], perm));
      },
      always,
      [] {
        return std::vector<ErrorInput>{
            LZT_EXPECT_ERROR(ShapeError, one_input(lz::zeros({2, 3}), {{"dims", IValue(std::vector<int64_t>{0})}}, "too few"),
                             "[permute] dims: [0] has 1 entries but the input has 2 dims"),
            LZT_EXPECT_ERROR(ValueError, one_input(lz::zeros({2, 3}), {{"dims", IValue(std::vector<int64_t>{1, -1})}}, "repeated"),
                             "[permute] dims: [1, -1] repeats dim 1")};
      });
}

std::vector<int64_t> swap_perm(int64_t nd, int64_t a, int64_t b) {
  std::vector<int64_t> perm;
  for (int64_t d = 0; d < nd; ++d) perm.push_back(d);
  if (nd > 0) std::swap(perm[a], perm[b]);
  return perm;
}

OpInfo transpose_entry() {
  return view_like(
      "transpose",
      [](ScalarType t) {
        return expand_samples(t, [](const Tensor& x) {
          KwList out{{{"dim0", IValue(int64_t{0})}, {"dim1", IValue(int64_t{-1})}}};
          if (x.dim() >= 2) out.push_back({{"dim0", IValue(int64_t{-1})}, {"dim1", IValue(int64_t{-2})}});
          if (x.dim() >= 1) out.push_back({{"dim0", IValue(int64_t{0})}, {"dim1", IValue(int64_t{0})}});
          return out;
        });
      },
      [](const SampleInput& s) { return s[0].transpose(s.int_arg("dim0"), s.int_arg("dim1")); },
      [](const SampleInput& s) {
        const int64_t nd = s[0].dim();
        return one(permuted(s[0], swap_perm(nd, wrap(s.int_arg("dim0"), nd), wrap(s.int_arg("dim1"), nd))));
      },
      always,
      [] {
        return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
            IndexError, one_input(lz::zeros({2, 3}), {{"dim0", IValue(int64_t{0})}, {"dim1", IValue(int64_t{2})}}, "dim 2"),
            "[transpose] dim: 2 is out of range for a 2-D tensor")};
      });
}

OpInfo t_entry() {
  return view_like(
      "t",
      [](ScalarType t) {
        std::vector<SampleInput> out;
        for (const SampleInput& s : unary_samples(t)) {
          if (s[0].dim() <= 2) out.push_back(s);
        }
        return out;
      },
      [](const SampleInput& s) { return s[0].t(); },
      [](const SampleInput& s) {
        const int64_t nd = s[0].dim();
        return one(permuted(s[0], nd == 2 ? std::vector<int64_t>{1, 0} : swap_perm(nd, 0, 0)));
      },
      always,
      [] {
        return std::vector<ErrorInput>{LZT_EXPECT_ERROR(ShapeError, one_input(lz::zeros({2, 3, 4}), {}, "3-D"),
                                                        "[t] self: expects a tensor with <= 2 dimensions, got 3-D")};
      });
}

// ---- expand / expand_as -----------------------------------------------------------------------

// Sizes that broadcast x: a new leading dim of 2, size-1 dims grown to 3,
// the others kept (as -1 or their size).
std::vector<int64_t> expand_target(const Tensor& x, bool minus_one) {
  std::vector<int64_t> out{2};
  for (int64_t d = 0; d < x.dim(); ++d) {
    if (x.size(d) == 1) {
      out.push_back(3);
    } else {
      out.push_back(minus_one ? -1 : x.size(d));
    }
  }
  return out;
}

Expected broadcast_to(const Tensor& x, lz::IntArrayRef sizes) {
  const int64_t lead = static_cast<int64_t>(sizes.size()) - x.dim();
  return index_map(x, sizes, [&](const Coord& c) {
    Coord src;
    for (int64_t d = 0; d < x.dim(); ++d) src.push_back(x.size(d) == 1 ? 0 : c[lead + d]);
    return src;
  });
}

OpInfo expand_entry() {
  return view_like(
      "expand",
      [](ScalarType t) {
        return expand_samples(t, [](const Tensor& x) {
          return KwList{{{"size", IValue(expand_target(x, false))}}, {{"size", IValue(expand_target(x, true))}},
                        {{"size", IValue(sizes_of(x))}}};
        });
      },
      [](const SampleInput& s) { return s[0].expand(s.int_list_arg("size")); },
      [](const SampleInput& s) {
        const lz::IntArrayRef target = s.int_list_arg("size");
        const int64_t lead = static_cast<int64_t>(target.size()) - s[0].dim();
        lz::SizeVec sizes(target.begin(), target.end());
        for (int64_t d = 0; d < s[0].dim(); ++d) {
          if (sizes[lead + d] == -1) sizes[lead + d] = s[0].size(d);
        }
        return one(broadcast_to(s[0], sizes));
      },
      always,
      [] {
        return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
            ShapeError, one_input(lz::zeros({2, 3}), {{"size", IValue(std::vector<int64_t>{2, 4})}}, "3 to 4"),
            "[expand] size: the expanded size of the tensor (4) must match the existing size (3) at non-singleton dimension 1")};
      });
}

OpInfo expand_as_entry() {
  OpInfo op = view_like(
      "expand_as",
      [](ScalarType t) {
        std::vector<SampleInput> out;
        uint32_t seed = 900;
        for (const SampleInput& s : unary_samples(t)) {
          const std::vector<int64_t> target = expand_target(s[0], false);
          SampleInput e = s;
          e.tensors.push_back(domain_tensor(target, lz::kInt32, seed++));  // only its shape matters
          out.push_back(std::move(e));
        }
        return out;
      },
      [](const SampleInput& s) { return s[0].expand_as(s[1]); },
      [](const SampleInput& s) { return one(broadcast_to(s[0], s[1].sizes())); },
      always,
      [] {
        return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
            ShapeError, (SampleInput{{lz::zeros({2, 3}), lz::zeros({3, 2})}, {}, "[2, 3] as [3, 2]"}), "[expand]")};
      });
  return op;
}

// ---- narrow / slice / select -------------------------------------------------------------------

Expected sliced(const Tensor& x, int64_t d, int64_t start, int64_t len, int64_t step) {
  lz::SizeVec sizes(x.sizes().begin(), x.sizes().end());
  sizes[d] = len;
  return index_map(x, sizes, [&](const Coord& c) {
    Coord src = c;
    src[d] = start + c[d] * step;
    return src;
  });
}

OpInfo narrow_entry() {
  return view_like(
      "narrow",
      [](ScalarType t) {
        return expand_samples(t, [](const Tensor& x) {
          KwList out;
          for (int64_t d = 0; d < x.dim(); ++d) {
            const int64_t size = x.size(d);
            auto kw = [&](int64_t start, int64_t len) {
              return Kw{{"dim", IValue(d == x.dim() - 1 ? int64_t{-1} : d)}, {"start", IValue(start)}, {"length", IValue(len)}};
            };
            out.push_back(kw(0, size));
            if (size >= 1) out.push_back(kw(1, size - 1));
            if (size >= 2) out.push_back(kw(-2, 1));
            out.push_back(kw(size, 0));
          }
          return out;
        });
      },
      [](const SampleInput& s) { return s[0].narrow(s.int_arg("dim"), s.int_arg("start"), s.int_arg("length")); },
      [](const SampleInput& s) {
        const int64_t d = wrap(s.int_arg("dim"), s[0].dim());
        int64_t start = s.int_arg("start");
        if (start < 0) start += s[0].size(d);
        return one(sliced(s[0], d, start, s.int_arg("length"), 1));
      },
      always,
      [] {
        return std::vector<ErrorInput>{
            LZT_EXPECT_ERROR(IndexError,
                             one_input(lz::zeros({3}), {{"dim", IValue(int64_t{0})}, {"start", IValue(int64_t{2})}, {"length", IValue(int64_t{2})}}, "past the end"),
                             "[narrow] start (2) + length (2) exceeds dimension 0 of size 3"),
            LZT_EXPECT_ERROR(IndexError,
                             one_input(lz::zeros({}), {{"dim", IValue(int64_t{0})}, {"start", IValue(int64_t{0})}, {"length", IValue(int64_t{1})}}, "0-dim"),
                             "[narrow] self: cannot narrow a 0-dim tensor")};
      });
}

std::optional<int64_t> opt_int(const SampleInput& s, const std::string& name) {
  if (s.arg(name).is_none()) return std::nullopt;
  return s.int_arg(name);
}

OpInfo slice_entry() {
  return view_like(
      "slice",
      [](ScalarType t) {
        return expand_samples(t, [](const Tensor& x) {
          KwList out;
          for (int64_t d = 0; d < x.dim(); ++d) {
            auto kw = [&](std::optional<int64_t> start, std::optional<int64_t> end, int64_t step) {
              return Kw{{"dim", IValue(d)}, {"start", IValue(start)}, {"end", IValue(end)}, {"step", IValue(step)}};
            };
            out.push_back(kw(1, std::nullopt, 1));
            out.push_back(kw(std::nullopt, -1, 2));
            out.push_back(kw(-100, 100, 3));
            out.push_back(kw(2, 1, 1));
          }
          return out;
        });
      },
      [](const SampleInput& s) {
        return s[0].slice(s.int_arg("dim"), opt_int(s, "start"), opt_int(s, "end"), s.int_arg("step"));
      },
      [](const SampleInput& s) {
        const int64_t d = wrap(s.int_arg("dim"), s[0].dim());
        const int64_t size = s[0].size(d), step = s.int_arg("step");
        auto clamp = [size](int64_t v) {
          if (v < 0) v += size;
          return std::min(std::max<int64_t>(v, 0), size);
        };
        const int64_t start = clamp(opt_int(s, "start").value_or(0));
        const int64_t end = std::max(start, clamp(opt_int(s, "end").value_or(size)));
        return one(sliced(s[0], d, start, (end - start + step - 1) / step, step));
      },
      always,
      [] {
        return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
            ValueError,
            one_input(lz::zeros({3}), {{"dim", IValue(int64_t{0})}, {"start", IValue(std::nullopt)}, {"end", IValue(std::nullopt)}, {"step", IValue(int64_t{0})}}, "step 0"),
            "[slice] step: must be positive, got 0")};
      });
}

OpInfo select_entry() {
  return view_like(
      "select",
      [](ScalarType t) {
        return expand_samples(t, [](const Tensor& x) {
          KwList out;
          for (int64_t d = 0; d < x.dim(); ++d) {
            if (x.size(d) == 0) continue;
            out.push_back({{"dim", IValue(d)}, {"index", IValue(int64_t{0})}});
            out.push_back({{"dim", IValue(d - x.dim())}, {"index", IValue(int64_t{-1})}});
          }
          return out;
        });
      },
      [](const SampleInput& s) { return s[0].select(s.int_arg("dim"), s.int_arg("index")); },
      [](const SampleInput& s) {
        const Tensor& x = s[0];
        const int64_t d = wrap(s.int_arg("dim"), x.dim());
        int64_t index = s.int_arg("index");
        if (index < 0) index += x.size(d);
        lz::SizeVec sizes(x.sizes().begin(), x.sizes().end());
        sizes.erase(sizes.begin() + d);
        return one(index_map(x, sizes, [&](const Coord& c) {
          Coord src = c;
          src.insert(src.begin() + d, index);
          return src;
        }));
      },
      always,
      [] {
        return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
            IndexError, one_input(lz::zeros({3, 2}), {{"dim", IValue(int64_t{0})}, {"index", IValue(int64_t{3})}}, "index 3"),
            "[select] index: 3 is out of bounds for dimension 0 with size 3")};
      });
}

// ---- squeeze / unsqueeze / as_strided -----------------------------------------------------------

OpInfo squeeze_entry(bool with_dim) {
  return view_like(
      with_dim ? "squeeze.dim" : "squeeze",
      [with_dim](ScalarType t) {
        std::vector<SampleInput> base = expand_samples(t, [with_dim](const Tensor& x) {
          if (!with_dim) return KwList{Kw{}};
          KwList out;
          for (int64_t d = -1; d < std::max<int64_t>(x.dim(), 1); ++d) out.push_back({{"dim", IValue(d)}});
          return out;
        });
        // Size-1 dims in several places.
        uint32_t seed = 950;
        for (const std::vector<int64_t>& shape :
             std::vector<std::vector<int64_t>>{{1, 3, 1, 4, 1}, {1}, {2, 1, 0}}) {
          for (const auto& [name, x] : layouts(shape, t, seed++)) {
            if (!with_dim) {
              base.push_back(one_input(x, {}, name));
              continue;
            }
            for (int64_t d = 0; d < x.dim(); ++d) base.push_back(one_input(x, {{"dim", IValue(d)}}, name));
          }
        }
        return base;
      },
      [with_dim](const SampleInput& s) { return with_dim ? s[0].squeeze(s.int_arg("dim")) : s[0].squeeze(); },
      [with_dim](const SampleInput& s) {
        const Tensor& x = s[0];
        std::vector<bool> drop(static_cast<size_t>(x.dim()), false);
        for (int64_t d = 0; d < x.dim(); ++d) {
          drop[d] = x.size(d) == 1 && (!with_dim || wrap(s.int_arg("dim"), x.dim()) == d);
        }
        lz::SizeVec sizes;
        for (int64_t d = 0; d < x.dim(); ++d) {
          if (!drop[d]) sizes.push_back(x.size(d));
        }
        return one(reshaped(x, sizes));
      },
      always,
      [with_dim] {
        if (!with_dim) return std::vector<ErrorInput>{};
        return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
            IndexError, one_input(lz::zeros({1, 2}), {{"dim", IValue(int64_t{2})}}, "dim 2"),
            "[squeeze] dim: 2 is out of range for a 2-D tensor")};
      });
}

OpInfo unsqueeze_entry() {
  return view_like(
      "unsqueeze",
      [](ScalarType t) {
        return expand_samples(t, [](const Tensor& x) {
          KwList out;
          for (int64_t d = -x.dim() - 1; d <= x.dim(); ++d) out.push_back({{"dim", IValue(d)}});
          return out;
        });
      },
      [](const SampleInput& s) { return s[0].unsqueeze(s.int_arg("dim")); },
      [](const SampleInput& s) {
        const Tensor& x = s[0];
        int64_t d = s.int_arg("dim");
        if (d < 0) d += x.dim() + 1;
        lz::SizeVec sizes(x.sizes().begin(), x.sizes().end());
        sizes.insert(sizes.begin() + d, 1);
        return one(reshaped(x, sizes));
      },
      always,
      [] {
        return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
            IndexError, one_input(lz::zeros({2}), {{"dim", IValue(int64_t{3})}}, "dim 3"),
            "[unsqueeze] dim: 3 is out of range for a 2-D tensor")};
      });
}

OpInfo as_strided_entry() {
  return view_like(
      "as_strided",
      [](ScalarType t) {
        std::vector<SampleInput> out;
        uint32_t seed = 970;
        // Contiguous bases with storage offset 0: storage element k is value k.
        for (int64_t n : {1, 6, 12, 300 * 257}) {
          const Tensor x = domain_tensor({n}, t, seed++);
          auto add = [&](std::vector<int64_t> size, std::vector<int64_t> stride, std::optional<int64_t> offset) {
            out.push_back(one_input(x, {{"size", IValue(size)}, {"stride", IValue(stride)}, {"offset", IValue(offset)}},
                                    "base [" + std::to_string(n) + "]"));
          };
          add({n}, {1}, std::nullopt);
          add({}, {}, n - 1);
          add({0, 3}, {3, 1}, 0);
          if (n >= 6) {
            add({2, 3}, {3, 1}, std::nullopt);
            add({3, 2}, {1, 3}, 0);         // transposed
            add({2, 2}, {1, 1}, n - 3);     // overlapping
            add({3, 4}, {0, 1}, 1);         // broadcast rows
          }
          if (n >= 12) add({2, 3}, {5, 2}, 1);  // gaps
        }
        return out;
      },
      [](const SampleInput& s) {
        return s[0].as_strided(s.int_list_arg("size"), s.int_list_arg("stride"), opt_int(s, "offset"));
      },
      [](const SampleInput& s) {
        const std::vector<double> storage = values(s[0]);
        const lz::IntArrayRef stride = s.int_list_arg("stride");
        const int64_t offset = opt_int(s, "offset").value_or(0);
        return one(build_expected(s.int_list_arg("size"), s[0].dtype(), [&](const Coord& c) {
          int64_t k = offset;
          for (size_t i = 0; i < c.size(); ++i) k += c[i] * stride[i];
          return storage[static_cast<size_t>(k)];
        }));
      },
      always,
      [] {
        return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
            ValueError,
            one_input(lz::zeros({4}), {{"size", IValue(std::vector<int64_t>{3})}, {"stride", IValue(std::vector<int64_t>{2})}, {"offset", IValue(std::nullopt)}}, "past the storage"),
            "[as_strided] size [3], stride [2] and offset 0 reach element 4 but the storage holds only 4 elements")};
      });
}

// ---- contiguous / clone / to / copy_ ---------------------------------------------------------------

OpInfo contiguous_entry() {
  return view_like(
      "contiguous", [](ScalarType t) { return unary_samples(t); },
      [](const SampleInput& s) {
        const Tensor c = s[0].contiguous();
        if (!c.is_contiguous()) throw std::logic_error("contiguous() returned a non-contiguous tensor");
        return c;
      },
      [](const SampleInput& s) { return one(reshaped(s[0], s[0].sizes())); },
      [](const SampleInput& s) {
        if (s[0].is_contiguous()) return Alias::Always;
        return s[0].numel() > 0 ? Alias::Never : Alias::Unchecked;
      },
      [] { return std::vector<ErrorInput>{}; });
}

OpInfo clone_entry() {
  return view_like(
      "clone", [](ScalarType t) { return unary_samples(t); }, [](const SampleInput& s) { return s[0].clone(); },
      [](const SampleInput& s) { return one(reshaped(s[0], s[0].sizes())); },
      [](const SampleInput& s) { return s[0].numel() > 0 ? Alias::Never : Alias::Unchecked; },
      [] {
        return std::vector<ErrorInput>{
            LZT_EXPECT_ERROR(ValueError, (SampleInput{{Tensor()}, {}, "undefined"}), "[clone] self: expected a defined tensor")};
      });
}

// Samples of every layout whose values every target dtype holds exactly
// (no negative values when converting to uint8).
std::vector<SampleInput> conversion_samples(ScalarType t) {
  std::vector<SampleInput> out;
  uint32_t seed = 1000;
  for (ScalarType target : all_types()) {
    const Domain domain = target == lz::kUInt8 ? Domain{0, 8} : Domain{};
    for (const std::vector<int64_t>& shape :
         std::vector<std::vector<int64_t>>{{}, {0}, {5}, {3, 4}, {2, 3, 4}, {300, 257}}) {
      for (const auto& [name, x] : layouts(shape, t, seed++, domain)) {
        out.push_back(one_input(x, {{"dtype", IValue(target)}}, name + " to " + std::string(lz::to_string(target))));
      }
    }
  }
  return out;
}

// Every other sample converts through TensorOptions (to.dtype_layout).
std::vector<SampleInput> conversion_samples_with_options(ScalarType t) {
  std::vector<SampleInput> out = conversion_samples(t);
  for (size_t i = 1; i < out.size(); i += 2) {
    out[i].kwargs["options"] = IValue(true);
    out[i].description += " (options)";
  }
  return out;
}

OpInfo to_entry() {
  return view_like(
      "to.dtype", conversion_samples_with_options,
      [](const SampleInput& s) {
        const ScalarType target = s.arg("dtype").to_scalar_type();
        return s.has("options") ? s[0].to(lz::TensorOptions(target)) : s[0].to(target);
      },
      [](const SampleInput& s) {
        const ScalarType target = s.arg("dtype").to_scalar_type();
        Expected e{lz::SizeVec(s[0].sizes().begin(), s[0].sizes().end()), target, {}};
        for (double v : values(s[0])) e.values.push_back(converted_value(target, v));
        return one(std::move(e));
      },
      [](const SampleInput& s) {
        if (s[0].dtype() == s.arg("dtype").to_scalar_type()) return Alias::Always;
        return s[0].numel() > 0 ? Alias::Never : Alias::Unchecked;
      },
      [] { return std::vector<ErrorInput>{}; });
}

std::vector<SampleInput> copy_samples(ScalarType t) {
  std::vector<SampleInput> out;
  uint32_t seed = 1100;
  struct Pair {
    std::vector<int64_t> dst, src;
  };
  const std::vector<Pair> pairs = {{{3, 4}, {3, 4}}, {{3, 4}, {4}},     {{3, 4}, {3, 1}}, {{2, 3, 4}, {}},
                                   {{}, {}},         {{0, 3}, {3}},     {{5}, {1}},       {{300, 257}, {300, 257}},
                                   {{300, 257}, {257}}};
  for (ScalarType src_t : all_types()) {
    const Domain domain = t == lz::kUInt8 ? Domain{0, 8} : Domain{};
    for (const Pair& p : pairs) {
      const auto dsts = layouts(p.dst, t, seed++);
      const auto srcs = layouts(p.src, src_t, seed++, domain);
      for (size_t i = 0; i < std::max(dsts.size(), srcs.size()); ++i) {
        const auto& [dn, dst] = dsts[i % dsts.size()];
        if (dn.find("expanded") != std::string::npos) continue;  // not writable
        const auto& [sn, src] = srcs[i % srcs.size()];
        out.push_back(SampleInput{{dst, src}, {}, "into " + dn + " from " + std::string(lz::to_string(src_t)) + " " + sn});
      }
    }
  }
  return out;
}

OpInfo copy_entry() {
  OpInfo op;
  op.name = "copy_";
  op.dtypes = all_types();
  op.samples = copy_samples;
  op.inplace = [](Tensor& self, const SampleInput& s) { self.copy_(s[1]); };
  op.reference = [](const SampleInput& s) {
    Expected e{lz::SizeVec(s[0].sizes().begin(), s[0].sizes().end()), s[0].dtype(), {}};
    for (double v : broadcast_values(s[1], s[0].sizes())) e.values.push_back(converted_value(s[0].dtype(), v));
    return one(std::move(e));
  };
  op.errors = [] {
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ShapeError, (SampleInput{{lz::zeros({3}), lz::zeros({4})}, {}, "[4] into [3]"}),
                         "[copy_] src: shape [4] cannot be broadcast to self shape [3]"),
        LZT_EXPECT_ERROR(ValueError, (SampleInput{{lz::zeros({1}).expand({3}), lz::zeros({3})}, {}, "into an expanded view"}),
                         "[copy_] self: unsupported operation: more than one element of the written-to tensor")};
  };
  // The functional form writes into a copy of the destination (same dense
  // layout), except for a destination that is an expanded view: that one is
  // written directly, to check the error.
  op.op = [](const SampleInput& s) {
    bool expanded = false;
    for (size_t d = 0; d < s[0].strides().size(); ++d) expanded |= s[0].strides()[d] == 0 && s[0].sizes()[d] > 1;
    Tensor dst = expanded ? s[0] : s[0].clone();
    dst.copy_(s[1]);
    return std::vector<Tensor>{dst};
  };
  return op;
}

}  // namespace

void add_view_ops(std::vector<OpInfo>& t) {
  t.push_back(view_entry());
  t.push_back(reshape_entry());
  t.push_back(flatten_entry());
  t.push_back(permute_entry());
  t.push_back(transpose_entry());
  t.push_back(t_entry());
  t.push_back(expand_entry());
  t.push_back(expand_as_entry());
  t.push_back(narrow_entry());
  t.push_back(slice_entry());
  t.push_back(select_entry());
  t.push_back(squeeze_entry(false));
  t.push_back(squeeze_entry(true));
  t.push_back(unsqueeze_entry());
  t.push_back(as_strided_entry());
  t.push_back(contiguous_entry());
  t.push_back(clone_entry());
  t.push_back(to_entry());
  t.push_back(copy_entry());
  add_fill_ops(t);
  add_view_scatter_ops(t);
}

}  // namespace lzt
