// Table entries: matrix products (mm, bmm, matmul, addmm, linear). References
// are straightforward float64/int64 triple loops over the inputs' values.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "tests/op_table/entry_builders.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

using lz::Tensor;

std::vector<lz::ScalarType> matmul_types() { return numeric_types(); }

// Sums of products of multiples of 1/4 in [-8, 8] are exact in float32 for
// the sizes below; BLAS may still use another summation order, and large
// float64 sums round. 16-bit results are rounded once from float32.
Tolerance matmul_tolerance(lz::ScalarType t) {
  switch (t) {
    case lz::kFloat16: return {2e-3, 1e-3};
    case lz::kBFloat16: return {1.6e-2, 1e-2};
    case lz::kFloat32: return {1e-6, 1e-5};
    case lz::kFloat64: return {1e-13, 1e-12};
    default: return {0, 0};
  }
}

int64_t numel_of_sizes(const lz::SizeVec& s) {
  int64_t n = 1;
  for (int64_t v : s) n *= v;
  return n;
}

// Row-major strides of a value vector of logical shape `sizes`.
std::vector<int64_t> value_strides(lz::IntArrayRef sizes) {
  std::vector<int64_t> st(sizes.size(), 1);
  for (int64_t d = static_cast<int64_t>(sizes.size()) - 2; d >= 0; --d) st[d] = st[d + 1] * sizes[d + 1];
  return st;
}

// torch.matmul semantics, written independently: 1-D operands become a row
// (left) or a column (right) whose dim is dropped from the result, batch
// dims broadcast. alpha * product + beta * c (c broadcast, optional).
Expected matmul_reference(const Tensor& a, const Tensor& b, lz::ScalarType result,
                          const Tensor* c = nullptr, double beta = 0, double alpha = 1) {
  const std::vector<double> va = values(a), vb = values(b);
  lz::SizeVec as(a.sizes().begin(), a.sizes().end()), bs(b.sizes().begin(), b.sizes().end());
  const bool a_vec = as.size() == 1, b_vec = bs.size() == 1;
  if (a_vec) as.insert(as.begin(), 1);
  if (b_vec) bs.push_back(1);
  const int64_t n = as[as.size() - 2], k = as.back(), p = bs.back();
  const lz::SizeVec a_batch(as.begin(), as.end() - 2), b_batch(bs.begin(), bs.end() - 2);
  const lz::SizeVec batch = broadcast_sizes({a_batch, b_batch});
  const std::vector<int64_t> sa = value_strides(as), sb = value_strides(bs);
  lz::SizeVec out_sizes = batch;
  if (!a_vec) out_sizes.push_back(n);
  if (!b_vec) out_sizes.push_back(p);
  Expected e{out_sizes, result, {}};
  std::vector<double> cvals;
  if (c != nullptr) cvals = broadcast_values(*c, out_sizes);
  const int64_t nb = numel_of_sizes(batch);
  const bool integral = !is_float(result);
  std::vector<int64_t> index(batch.size(), 0);
  for (int64_t bi = 0; bi < nb; ++bi) {
    // Offsets of this batch in a and b (size-1 / missing dims broadcast).
    int64_t oa = 0, ob = 0;
    for (size_t d = 0; d < batch.size(); ++d) {
      const int64_t da = static_cast<int64_t>(d) - static_cast<int64_t>(batch.size() - a_batch.size());
      const int64_t db = static_cast<int64_t>(d) - static_cast<int64_t>(batch.size() - b_batch.size());
      if (da >= 0 && a_batch[da] != 1) oa += index[d] * sa[da];
      if (db >= 0 && b_batch[db] != 1) ob += index[d] * sb[db];
    }
    for (int64_t i = 0; i < n; ++i) {
      for (int64_t j = 0; j < p; ++j) {
        double acc = 0;
        int64_t iacc = 0;
        for (int64_t q = 0; q < k; ++q) {
          const double x = va[oa + i * sa[sa.size() - 2] + q * sa.back()];
          const double y = vb[ob + q * sb[sb.size() - 2] + j * sb.back()];
          acc += x * y;
          iacc += static_cast<int64_t>(x) * static_cast<int64_t>(y);
        }
        const size_t o = e.values.size();
        double v;
        if (integral) {
          int64_t iv = static_cast<int64_t>(alpha) * iacc;
          if (c != nullptr && beta != 0) iv += static_cast<int64_t>(beta) * static_cast<int64_t>(cvals[o]);
          v = static_cast<double>(iv);
        } else {
          v = alpha * acc;
          if (c != nullptr && beta != 0) v += beta * cvals[o];
        }
        e.values.push_back(as_stored(result, v));
      }
    }
    for (int64_t d = static_cast<int64_t>(batch.size()) - 1; d >= 0; --d) {
      if (++index[d] < batch[d]) break;
      index[d] = 0;
    }
  }
  return e;
}

SampleInput pair(const Tensor& a, const Tensor& b, std::string what) {
  return SampleInput{{a, b}, {}, std::move(what)};
}

// Two operands per shape pair, every combination of layouts for small
// pairs (contiguous, transposed, strided, expanded), plus a row-padded one.
std::vector<SampleInput> product_samples(lz::ScalarType t,
                                         const std::vector<std::pair<lz::SizeVec, lz::SizeVec>>& shapes,
                                         const std::vector<std::pair<lz::SizeVec, lz::SizeVec>>& layout_shapes) {
  std::vector<SampleInput> out;
  uint32_t seed = 100;
  for (const auto& [a, b] : shapes) {
    out.push_back(pair(domain_tensor(a, t, seed, {}), domain_tensor(b, t, seed + 1, {}),
                       lz::shape_str(a) + " @ " + lz::shape_str(b)));
    seed += 2;
  }
  for (const auto& [a, b] : layout_shapes) {
    const auto la = layouts(a, t, seed, {});
    const auto lb = layouts(b, t, seed + 10, {});
    seed += 20;
    for (const auto& [na, ta] : la) {
      for (const auto& [nb, tb] : lb) out.push_back(pair(ta, tb, na + " @ " + nb));
    }
  }
  return out;
}

ErrorInput shape_error(const Tensor& a, const Tensor& b, std::string what, std::string message) {
  return LZT_EXPECT_ERROR(ShapeError, pair(a, b, std::move(what)), std::move(message));
}

OpInfo mm_entry() {
  OpInfo op;
  op.name = "mm";
  op.dtypes = matmul_types();
  op.samples = [](lz::ScalarType t) {
    std::vector<SampleInput> s = product_samples(
        t,
        {{{3, 4}, {4, 5}}, {{1, 1}, {1, 1}}, {{5, 1}, {1, 4}}, {{1, 6}, {6, 1}}, {{0, 3}, {3, 4}},
         {{3, 0}, {0, 4}}, {{3, 4}, {4, 0}}, {{70, 130}, {130, 65}}},
        {{{3, 4}, {4, 5}}, {{4, 1}, {1, 3}}});
    // Rows padded in memory (leading dimension > columns), a large transposed
    // operand, and a column slice BLAS cannot read in place.
    s.push_back(pair(domain_tensor({3, 9}, t, 1, {}).narrow(1, 2, 4), domain_tensor({4, 6}, t, 2, {}),
                     "[3, 4] narrowed from [3, 9] @ [4, 6]"));
    s.push_back(pair(domain_tensor({90, 64}, t, 3, {}).t(), domain_tensor({90, 33}, t, 4, {}),
                     "[64, 90] transposed @ [90, 33]"));
    s.push_back(pair(domain_tensor({5, 4}, t, 5, {}), domain_tensor({8, 3}, t, 6, {}).slice(0, 0, std::nullopt, 2).t().t(),
                     "[5, 4] @ [4, 3] every other row"));
    return s;
  };
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::mm(s[0], s[1])}; };
  op.reference = [](const SampleInput& s) {
    return std::vector<Expected>{matmul_reference(s[0], s[1], s[0].dtype())};
  };
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) { lz::mm_out(outs[0], s[0], s[1]); };
  op.tolerance = matmul_tolerance;
  op.errors = [] {
    return std::vector<ErrorInput>{
        shape_error(lz::zeros({2, 3}), lz::zeros({4, 5}), "2x3 @ 4x5",
                    "[mm] mat1 and mat2 shapes cannot be multiplied (2x3 and 4x5)"),
        shape_error(lz::zeros({3}), lz::zeros({3, 2}), "1-D self", "[mm] self: expected a 2-D matrix, got a 1-D tensor"),
        shape_error(lz::zeros({3, 2}), lz::zeros({2, 2, 2}), "3-D mat2", "[mm] mat2: expected a 2-D matrix, got a 3-D tensor"),
        LZT_EXPECT_ERROR(TypeError, pair(lz::zeros({2, 3}), lz::zeros({3, 2}, lz::kFloat64), "float32 @ float64"),
                         "[mm] mat2: expected self and mat2 to have the same dtype, but got: float32 != float64"),
        LZT_EXPECT_ERROR(TypeError, pair(lz::zeros({2, 3}, lz::kBool), lz::zeros({3, 2}, lz::kBool), "bool"),
                         "[mm] self: matrix multiplication is not implemented for dtype bool"),
        LZT_EXPECT_ERROR(ValueError, pair(Tensor(), lz::zeros({3, 2}), "undefined self"),
                         "[mm] self: expected a defined tensor")};
  };
  return op;
}

OpInfo bmm_entry() {
  OpInfo op;
  op.name = "bmm";
  op.dtypes = matmul_types();
  op.samples = [](lz::ScalarType t) {
    std::vector<SampleInput> s = product_samples(
        t,
        {{{2, 3, 4}, {2, 4, 5}}, {{0, 3, 4}, {0, 4, 5}}, {{2, 0, 4}, {2, 4, 3}}, {{2, 3, 0}, {2, 0, 4}},
         {{1, 1, 1}, {1, 1, 1}}, {{3, 40, 70}, {3, 70, 30}}},
        {{{2, 3, 4}, {2, 4, 5}}});
    // Batch dim not outermost in memory, and a batch broadcast with stride 0.
    s.push_back(pair(domain_tensor({3, 2, 4}, t, 7, {}).permute({1, 0, 2}), domain_tensor({2, 4, 5}, t, 8, {}),
                     "[2, 3, 4] permuted from [3, 2, 4] @ [2, 4, 5]"));
    s.push_back(pair(domain_tensor({2, 3, 4}, t, 9, {}), domain_tensor({1, 4, 5}, t, 10, {}).expand({2, 4, 5}),
                     "[2, 3, 4] @ [1, 4, 5] expanded to [2, 4, 5]"));
    return s;
  };
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::bmm(s[0], s[1])}; };
  op.reference = [](const SampleInput& s) {
    return std::vector<Expected>{matmul_reference(s[0], s[1], s[0].dtype())};
  };
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) { lz::bmm_out(outs[0], s[0], s[1]); };
  op.tolerance = matmul_tolerance;
  op.errors = [] {
    return std::vector<ErrorInput>{
        shape_error(lz::zeros({3, 4}), lz::zeros({2, 4, 5}), "2-D self", "[bmm] self: expected a 3-D tensor, got a 2-D tensor"),
        shape_error(lz::zeros({2, 3, 4}), lz::zeros({3, 4, 5}), "batch 2 vs 3",
                    "[bmm] mat2: expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [3, 4]"),
        shape_error(lz::zeros({2, 3, 4}), lz::zeros({2, 5, 5}), "inner 4 vs 5",
                    "expected size for first two dimensions of batch2 tensor to be: [2, 4] but got: [2, 5]"),
        LZT_EXPECT_ERROR(TypeError, pair(lz::zeros({2, 3, 4}, lz::kInt32), lz::zeros({2, 4, 5}, lz::kInt64), "int32 @ int64"),
                         "[bmm] mat2: expected self and mat2 to have the same dtype, but got: int32 != int64")};
  };
  return op;
}

OpInfo matmul_entry() {
  OpInfo op;
  op.name = "matmul";
  op.dtypes = matmul_types();
  op.samples = [](lz::ScalarType t) {
    std::vector<SampleInput> s = product_samples(
        t,
        {{{4}, {4}},
         {{3, 4}, {4}},
         {{4}, {4, 5}},
         {{3, 4}, {4, 5}},
         {{2, 3, 4}, {4}},
         {{2, 3, 4}, {4, 5}},
         {{4}, {2, 4, 5}},
         {{3, 4}, {2, 4, 5}},
         {{2, 1, 3, 4}, {5, 4, 2}},
         {{2, 3, 4}, {2, 4, 5}},
         {{1, 3, 4}, {2, 2, 4, 1}},
         {{0}, {0}},
         {{0, 4}, {4, 5}},
         {{2, 0, 3, 4}, {4, 2}},
         {{3, 0}, {2, 0, 5}},
         {{4, 50, 60}, {60, 40}},
         {{60}, {3, 60, 20}}},
        {{{2, 3, 4}, {4, 5}}, {{3, 4}, {2, 4, 5}}});
    return s;
  };
  op.op = [](const SampleInput& s) { return std::vector<Tensor>{lz::matmul(s[0], s[1])}; };
  op.reference = [](const SampleInput& s) {
    return std::vector<Expected>{matmul_reference(s[0], s[1], s[0].dtype())};
  };
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) { lz::matmul_out(outs[0], s[0], s[1]); };
  op.tolerance = matmul_tolerance;
  op.errors = [] {
    return std::vector<ErrorInput>{
        shape_error(lz::zeros({}), lz::zeros({2, 2}), "0-D self",
                    "[matmul] both arguments to matmul need to be at least 1D, but they are 0D and 2D"),
        shape_error(lz::zeros({3}), lz::zeros({4}), "[3] @ [4]",
                    "[matmul] self and other shapes cannot be multiplied ([3] and [4])"),
        shape_error(lz::zeros({2, 3, 4}), lz::zeros({3, 5}), "[2, 3, 4] @ [3, 5]",
                    "[matmul] self and other shapes cannot be multiplied ([2, 3, 4] and [3, 5])"),
        shape_error(lz::zeros({2, 3, 4}), lz::zeros({3, 4, 5}), "batch 2 vs 3", "are not broadcastable"),
        LZT_EXPECT_ERROR(TypeError, pair(lz::zeros({3}), lz::zeros({3}, lz::kFloat64), "float32 @ float64"),
                         "[matmul] other: expected self and other to have the same dtype, but got: float32 != float64"),
        LZT_EXPECT_ERROR(TypeError, pair(lz::zeros({3}, lz::kBool), lz::zeros({3}, lz::kBool), "bool"),
                         "not implemented for dtype bool")};
  };
  return op;
}

// addmm: self (broadcast to the product's shape), mat1, mat2; beta/alpha kwargs.
OpInfo addmm_entry() {
  OpInfo op;
  op.name = "addmm";
  op.dtypes = matmul_types();
  op.samples = [](lz::ScalarType t) {
    struct Case {
      lz::SizeVec self, a, b;
    };
    const std::vector<Case> cases = {
        {{3, 5}, {3, 4}, {4, 5}}, {{5}, {3, 4}, {4, 5}},   {{1, 5}, {3, 4}, {4, 5}},
        {{3, 1}, {3, 4}, {4, 5}}, {{}, {3, 4}, {4, 5}},    {{3, 5}, {3, 0}, {0, 5}},
        {{0, 5}, {0, 4}, {4, 5}}, {{66, 40}, {66, 90}, {90, 40}}};
    std::vector<SampleInput> base;
    uint32_t seed = 300;
    for (const Case& c : cases) {
      base.push_back(SampleInput{{domain_tensor(c.self, t, seed, {}), domain_tensor(c.a, t, seed + 1, {}),
                                  domain_tensor(c.b, t, seed + 2, {})},
                                 {},
                                 lz::shape_str(c.self) + " + " + lz::shape_str(c.a) + " @ " + lz::shape_str(c.b)});
      seed += 3;
    }
    // Transposed self / mat1 / mat2.
    base.push_back(SampleInput{{domain_tensor({5, 3}, t, 1, {}).t(), domain_tensor({4, 3}, t, 2, {}).t(),
                                domain_tensor({5, 4}, t, 3, {}).t()},
                               {},
                               "all transposed"});
    const bool integral = !is_float(t);
    std::vector<std::pair<lz::Scalar, lz::Scalar>> coefficients;
    if (integral) {
      coefficients = {{1, 1}, {2, 3}, {0, 1}};
    } else {
      coefficients = {{1, 1}, {0.5, -2.0}, {0, 1}};
    }
    std::vector<SampleInput> out;
    for (const auto& [beta, alpha] : coefficients) {
      for (SampleInput s : base) {
        s.kwargs["beta"] = lz::IValue(beta);
        s.kwargs["alpha"] = lz::IValue(alpha);
        out.push_back(std::move(s));
      }
    }
    return out;
  };
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::addmm(s[0], s[1], s[2], s.scalar_arg("beta"), s.scalar_arg("alpha"))};
  };
  op.reference = [](const SampleInput& s) {
    return std::vector<Expected>{matmul_reference(s[1], s[2], s[0].dtype(), &s[0],
                                                  s.scalar_arg("beta").to_double(),
                                                  s.scalar_arg("alpha").to_double())};
  };
  op.inplace = [](Tensor& self, const SampleInput& s) {
    lz::addmm_(self, s[1], s[2], s.scalar_arg("beta"), s.scalar_arg("alpha"));
  };
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
    lz::addmm_out(outs[0], s[0], s[1], s[2], s.scalar_arg("beta"), s.scalar_arg("alpha"));
  };
  op.tolerance = matmul_tolerance;
  op.errors = [] {
    auto three = [](const Tensor& a, const Tensor& b, const Tensor& c, std::string what) {
      return SampleInput{{a, b, c}, {{"beta", lz::IValue(lz::Scalar(1))}, {"alpha", lz::IValue(lz::Scalar(1))}}, std::move(what)};
    };
    SampleInput float_beta = three(lz::zeros({2, 2}, lz::kInt64), lz::zeros({2, 3}, lz::kInt64),
                                   lz::zeros({3, 2}, lz::kInt64), "int64 with beta 0.5");
    float_beta.kwargs["beta"] = lz::IValue(lz::Scalar(0.5));
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ShapeError, three(lz::zeros({3}), lz::zeros({2, 3}), lz::zeros({3, 2}), "self [3] for a [2, 2] product"),
                         "[addmm] self: shape [3] cannot be broadcast to the result shape [2, 2]"),
        LZT_EXPECT_ERROR(ShapeError, three(lz::zeros({2, 2}), lz::zeros({2, 3}), lz::zeros({2, 2}), "2x3 @ 2x2"),
                         "[addmm] mat1 and mat2 shapes cannot be multiplied (2x3 and 2x2)"),
        LZT_EXPECT_ERROR(ShapeError, three(lz::zeros({2, 2}), lz::zeros({2, 3, 1}), lz::zeros({3, 2}), "3-D mat1"),
                         "[addmm] mat1: expected a 2-D matrix"),
        LZT_EXPECT_ERROR(TypeError, three(lz::zeros({2, 2}, lz::kFloat64), lz::zeros({2, 3}), lz::zeros({3, 2}), "float64 self"),
                         "[addmm] self: self and mat2 must have the same dtype, but got float64 and float32"),
        LZT_EXPECT_ERROR(TypeError, float_beta, "[addmm] beta: for integral input tensors (int64), beta must not be a floating point number")};
  };
  return op;
}

// linear: input [*, in], weight [out, in], optional bias (kwarg has_bias).
OpInfo linear_entry() {
  OpInfo op;
  op.name = "linear";
  op.dtypes = matmul_types();
  op.samples = [](lz::ScalarType t) {
    struct Case {
      lz::SizeVec input, weight, bias;
      bool has_bias;
    };
    const std::vector<Case> cases = {
        {{4}, {3, 4}, {3}, true},         {{4}, {3, 4}, {}, false},       {{2, 4}, {3, 4}, {3}, true},
        {{2, 4}, {3, 4}, {}, true},       {{2, 4}, {3, 4}, {}, false},    {{2, 3, 4}, {5, 4}, {5}, true},
        {{2, 3, 4}, {5, 4}, {}, false},   {{0, 4}, {3, 4}, {3}, true},    {{5, 0}, {3, 0}, {3}, true},
        {{2, 2, 3, 4}, {6, 4}, {6}, true}, {{64, 100}, {50, 100}, {50}, true}};
    std::vector<SampleInput> out;
    uint32_t seed = 700;
    for (const Case& c : cases) {
      std::vector<Tensor> ts{domain_tensor(c.input, t, seed, {}), domain_tensor(c.weight, t, seed + 1, {})};
      if (c.has_bias) ts.push_back(domain_tensor(c.bias, t, seed + 2, {}));
      out.push_back(SampleInput{ts, {{"has_bias", lz::IValue(c.has_bias)}},
                                lz::shape_str(c.input) + " with weight " + lz::shape_str(c.weight) +
                                    (c.has_bias ? " and bias " + lz::shape_str(c.bias) : " without bias")});
      seed += 3;
    }
    // A transposed (non-contiguous) 3-D input and a weight stored [in, out].
    out.push_back(SampleInput{{domain_tensor({2, 4, 3}, t, 1, {}).transpose(1, 2), domain_tensor({4, 5}, t, 2, {}).t(),
                               domain_tensor({5}, t, 3, {})},
                              {{"has_bias", lz::IValue(true)}},
                              "[2, 3, 4] transposed, weight [5, 4] transposed, bias [5]"});
    return out;
  };
  auto bias_of = [](const SampleInput& s) {
    return s.bool_arg("has_bias") ? std::optional<Tensor>(s[2]) : std::nullopt;
  };
  op.op = [bias_of](const SampleInput& s) { return std::vector<Tensor>{lz::linear(s[0], s[1], bias_of(s))}; };
  op.reference = [](const SampleInput& s) {
    const Tensor& w = s[1];
    // input @ w^T (+ bias): transpose w's values by hand.
    const std::vector<double> wv = values(w);
    const int64_t o = w.size(0), i = w.size(1);
    std::vector<double> wt(wv.size());
    for (int64_t r = 0; r < o; ++r) {
      for (int64_t c = 0; c < i; ++c) wt[c * o + r] = wv[r * i + c];
    }
    const Tensor wt_tensor = make_tensor(wt, {i, o}, w.dtype());
    if (s.bool_arg("has_bias")) {
      return std::vector<Expected>{matmul_reference(s[0], wt_tensor, s[0].dtype(), &s[2], 1, 1)};
    }
    return std::vector<Expected>{matmul_reference(s[0], wt_tensor, s[0].dtype())};
  };
  op.out = [bias_of](std::vector<Tensor>& outs, const SampleInput& s) {
    lz::linear_out(outs[0], s[0], s[1], bias_of(s));
  };
  op.tolerance = matmul_tolerance;
  op.errors = [] {
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ShapeError,
                         (SampleInput{{lz::zeros({2, 4}), lz::zeros({3, 5}), lz::zeros({3})}, {{"has_bias", lz::IValue(true)}}, "in 4 vs 5"}),
                         "mat1 and mat2 shapes cannot be multiplied (2x4 and 5x3)"),
        LZT_EXPECT_ERROR(ShapeError,
                         (SampleInput{{lz::zeros({2, 3, 4}), lz::zeros({3, 5})}, {{"has_bias", lz::IValue(false)}}, "3-D input, in 4 vs 5"}),
                         "[matmul] self and other shapes cannot be multiplied ([2, 3, 4] and [5, 3])")};
  };
  return op;
}

// ---- dot and outer (composites of mul and sum) -------------------------------------

OpInfo vector_product_entry(bool is_dot) {
  OpInfo op;
  op.name = is_dot ? "dot" : "outer";
  op.dtypes = matmul_types();
  op.samples = [](lz::ScalarType t) {
    return product_samples(t, {{{4}, {4}}, {{1}, {1}}, {{0}, {0}}, {{3000}, {3000}}}, {{{5}, {5}}});
  };
  op.op = [is_dot](const SampleInput& s) {
    return std::vector<Tensor>{is_dot ? s[0].dot(s[1]) : lz::outer(s[0], s[1])};
  };
  op.reference = [is_dot](const SampleInput& s) {
    const std::vector<double> a = values(s[0]), b = values(s[1]);
    const lz::ScalarType t = s[0].dtype();
    Expected e{{}, t, {}};
    if (is_dot) {
      double sum = 0;
      for (size_t i = 0; i < a.size(); ++i) sum += a[i] * b[i];
      e.values = {as_stored(t, sum)};  // integer sums wrap in the dtype
    } else {
      e.sizes = {static_cast<int64_t>(a.size()), static_cast<int64_t>(b.size())};
      for (double x : a) {
        for (double y : b) e.values.push_back(as_stored(t, x * y));
      }
    }
    return std::vector<Expected>{e};
  };
  op.tolerance = matmul_tolerance;
  const std::string name = op.name;
  op.errors = [is_dot, name] {
    const std::string args = is_dot ? "self, tensor" : "self, vec2";
    std::vector<ErrorInput> e{
        shape_error(lz::zeros({2, 3}), lz::zeros({3}), "2-D self", "[" + name + "] " + args + ": expected 1-D tensors, got 2-D and 1-D")};
    if (is_dot) {
      e.push_back(shape_error(lz::zeros({3}), lz::zeros({4}), "[3] and [4]",
                              "[dot] self, tensor: expected tensors of one size, got [3] and [4]"));
      e.push_back(LZT_EXPECT_ERROR(TypeError, pair(lz::zeros({3}), lz::zeros({3}, lz::kFloat64), "float32 and float64"),
                                   "[dot] self, tensor: expected one dtype, got float32 and float64"));
      e.push_back(LZT_EXPECT_ERROR(TypeError, pair(lz::zeros({3}, lz::kBool), lz::zeros({3}, lz::kBool), "bool"),
                                   "[dot] self: bool tensors are not supported"));
    }
    return e;
  };
  return op;
}

// ---- einsum -----------------------------------------------------------------------

// einsum written as the sum over every assignment of the labels: `letters`
// is the equation with "..." spelled out as letters and the output explicit
// ("bij,bjk->bik"); a dim of size 1 broadcasts.
Expected einsum_reference(const std::string& letters, const std::vector<Tensor>& operands) {
  const size_t arrow = letters.find("->");
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    const size_t comma = letters.find(',', start);
    const size_t end = std::min(comma, arrow);
    terms.push_back(letters.substr(start, end - start));
    if (comma == std::string::npos || comma > arrow) break;
    start = comma + 1;
  }
  const std::string out = letters.substr(arrow + 2);
  std::map<char, int64_t> size;
  for (size_t k = 0; k < terms.size(); ++k) {
    for (size_t d = 0; d < terms[k].size(); ++d) {
      const int64_t here = operands[k].size(static_cast<int64_t>(d));
      const auto [it, fresh] = size.try_emplace(terms[k][d], here);
      if (!fresh && it->second == 1) it->second = here;
    }
  }
  std::vector<char> labels;
  for (const auto& [c, s] : size) labels.push_back(c);
  std::vector<std::vector<double>> vals;
  for (const Tensor& x : operands) vals.push_back(values(x));
  const lz::ScalarType t = operands[0].dtype();
  Expected e{{}, t, {}};
  for (char c : out) e.sizes.push_back(size[c]);
  std::vector<double> acc(static_cast<size_t>(numel_of_sizes(e.sizes)), 0.0);
  std::map<char, int64_t> at;
  for (char c : labels) at[c] = 0;
  int64_t total = 1;
  for (char c : labels) total *= size[c];
  for (int64_t n = 0; n < total; ++n) {
    int64_t rest = n;
    for (size_t i = labels.size(); i-- > 0;) {
      at[labels[i]] = rest % size[labels[i]];
      rest /= size[labels[i]];
    }
    double product = 1;
    for (size_t k = 0; k < terms.size(); ++k) {
      const std::vector<int64_t> st = value_strides(operands[k].sizes());
      int64_t offset = 0;
      for (size_t d = 0; d < terms[k].size(); ++d) {
        if (operands[k].size(static_cast<int64_t>(d)) != 1) offset += at[terms[k][d]] * st[d];
      }
      product *= vals[k][static_cast<size_t>(offset)];
    }
    int64_t o = 0;
    for (char c : out) o = o * size[c] + at[c];
    acc[static_cast<size_t>(o)] += product;
  }
  for (double v : acc) e.values.push_back(as_stored(t, v));
  return e;
}

OpInfo einsum_entry() {
  OpInfo op;
  op.name = "einsum";
  op.dtypes = matmul_types();
  op.samples = [](lz::ScalarType t) {
    struct Case {
      std::string equation, letters;
      std::vector<lz::SizeVec> shapes;
    };
    const std::vector<Case> cases{
        {"ij,jk->ik", "ij,jk->ik", {{3, 4}, {4, 5}}},
        {"ij,jk", "ij,jk->ik", {{2, 3}, {3, 2}}},
        {"ii->i", "ii->i", {{4, 4}}},
        {"ii", "ii->", {{3, 3}}},
        {"ij->ji", "ij->ji", {{2, 3}}},
        {"abc->ca", "abc->ca", {{2, 3, 4}}},
        {"abc->", "abc->", {{2, 3, 4}}},
        {"bij,bjk->bik", "bij,bjk->bik", {{2, 3, 4}, {2, 4, 5}}},
        {"...ij,...jk->...ik", "bij,bjk->bik", {{2, 3, 4}, {1, 4, 5}}},
        {"...ij->...ji", "abij->abji", {{2, 1, 3, 2}}},
        {"i...->i", "ia->i", {{3, 4}}},
        {"i,j->ij", "i,j->ij", {{3}, {4}}},
        {"i,j", "i,j->ij", {{2}, {3}}},
        {"i,i->", "i,i->", {{5}, {5}}},
        {"i,i->i", "i,i->i", {{5}, {5}}},
        {"ij,ij,ij->", "ij,ij,ij->", {{2, 3}, {2, 3}, {2, 3}}},
        {"ij,jk,kl->il", "ij,jk,kl->il", {{2, 3}, {3, 4}, {4, 2}}},
        {"iij,jk->ik", "iij,jk->ik", {{3, 3, 2}, {2, 4}}},
        {"Ab,bA->A", "Ab,bA->A", {{3, 2}, {2, 3}}},
        {"ij,jk->ik", "ij,jk->ik", {{0, 3}, {3, 2}}},
        {"ij,jk->ik", "ij,jk->ik", {{2, 0}, {0, 3}}},
        {",->", ",->", {{}, {}}},
        {",i->i", ",i->i", {{}, {4}}},
        {"i , j -> j i", "i,j->ji", {{2}, {3}}},
    };
    std::vector<SampleInput> out;
    uint32_t seed = 300;
    for (const Case& c : cases) {
      SampleInput s{{}, {{"equation", lz::IValue(c.equation)}, {"letters", lz::IValue(c.letters)}}, c.equation};
      for (const lz::SizeVec& shape : c.shapes) s.tensors.push_back(domain_tensor(shape, t, seed++, {}));
      out.push_back(std::move(s));
    }
    // Non-contiguous operands: a transposed and an expanded one.
    out.push_back(SampleInput{{domain_tensor({4, 3}, t, seed, {}).t(), domain_tensor({4, 1}, t, seed + 1, {}).expand({4, 5})},
                              {{"equation", lz::IValue("ij,jk->ik")}, {"letters", lz::IValue("ij,jk->ik")}},
                              "transposed @ expanded"});
    return out;
  };
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::einsum(s.arg("equation").to_string_view(), s.tensors)};
  };
  op.reference = [](const SampleInput& s) {
    return std::vector<Expected>{einsum_reference(std::string(s.arg("letters").to_string_view()), s.tensors)};
  };
  op.tolerance = matmul_tolerance;
  op.errors = [] {
    auto call = [](std::string equation, std::vector<Tensor> tensors, std::string what) {
      return SampleInput{std::move(tensors), {{"equation", lz::IValue(std::move(equation))}}, std::move(what)};
    };
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(ValueError, call("ij,jk->ik", {lz::zeros({2, 3})}, "two terms, one tensor"),
                         "[einsum] equation: \"ij,jk->ik\" has 2 operand terms for 1 tensors"),
        LZT_EXPECT_ERROR(ValueError, call("ij->k", {lz::zeros({2, 3})}, "unknown output subscript"),
                         "an output subscript appears in no operand"),
        LZT_EXPECT_ERROR(ValueError, call("ij->ii", {lz::zeros({2, 3})}, "repeated output subscript"),
                         "an output subscript appears twice"),
        LZT_EXPECT_ERROR(ValueError, call("i1", {lz::zeros({2, 3})}, "a digit"), "subscripts are letters"),
        LZT_EXPECT_ERROR(ValueError, call("i..j", {lz::zeros({2, 3})}, "two dots"), "one \"...\" per term"),
        LZT_EXPECT_ERROR(ShapeError, call("ij", {lz::zeros({2, 3, 4})}, "3-D for two subscripts"),
                         "[einsum] tensors[0]: the equation gives 2 subscripts for a tensor of dimension 3"),
        LZT_EXPECT_ERROR(ShapeError, call("ij,jk->ik", {lz::zeros({2, 3}), lz::zeros({4, 5})}, "3 vs 4"),
                         "covers dims of sizes 3 and 4, which do not broadcast"),
        LZT_EXPECT_ERROR(ShapeError, call("ii->i", {lz::zeros({2, 3})}, "diagonal of [2, 3]"),
                         "needs dims of one size, got [2, 3]"),
        LZT_EXPECT_ERROR(TypeError, call("i,i->", {lz::zeros({3}), lz::zeros({3}, lz::kFloat64)}, "float32 and float64"),
                         "[einsum] tensors[1]: expected float32 as tensors[0], got float64"),
        LZT_EXPECT_ERROR(TypeError, call("i->", {lz::zeros({3}, lz::kBool)}, "bool"),
                         "[einsum] tensors: bool tensors are not supported"),
        LZT_EXPECT_ERROR(ValueError, call("", {}, "no operands"), "[einsum] tensors: expected at least one operand")};
  };
  return op;
}

}  // namespace

void add_linalg_ops(std::vector<OpInfo>& t) {
  t.push_back(mm_entry());
  t.push_back(bmm_entry());
  t.push_back(matmul_entry());
  t.push_back(addmm_entry());
  t.push_back(linear_entry());
  t.push_back(vector_product_entry(true));
  t.push_back(vector_product_entry(false));
  t.push_back(einsum_entry());
}

}  // namespace lzt
