// Table entries: reductions.
#include <cmath>

#include "tests/op_table/entry_builders.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/tensor_access.h"

namespace lzt {

namespace {

using lz::Tensor;

// A float sum of n terms of magnitude <= m may differ from the exact sum by
// about log2(n) * eps * n * m: scale the absolute tolerance by the group size.
Tolerance sum_tolerance(lz::ScalarType t) {
  switch (t) {
    case lz::kFloat16: return {4e-3, 2.0};
    case lz::kBFloat16: return {2e-2, 16.0};
    case lz::kFloat32: return {1e-5, 1e-2};
    case lz::kFloat64: return {1e-12, 1e-9};
    default: return {0, 0};
  }
}

// Reduction samples: every unary sample with several dim lists.
std::vector<SampleInput> dim_samples(lz::ScalarType t) {
  std::vector<SampleInput> out;
  for (const SampleInput& s : unary_samples(t)) {
    const int64_t nd = s[0].dim();
    std::vector<std::vector<int64_t>> dim_lists = {{}};
    if (nd >= 1) dim_lists.push_back({nd - 1});
    if (nd >= 2) {
      dim_lists.push_back({0});
      dim_lists.push_back({0, -1});
    }
    for (const auto& dims : dim_lists) {
      for (bool keepdim : {false, true}) {
        SampleInput d = s;
        d.kwargs["dim"] = lz::IValue(dims);
        d.kwargs["keepdim"] = lz::IValue(keepdim);
        out.push_back(std::move(d));
      }
    }
  }
  return out;
}

lz::ScalarType sum_dtype(lz::ScalarType t) { return is_float(t) ? t : lz::kInt64; }

}  // namespace

void add_reduction_ops(std::vector<OpInfo>& t) {
  OpInfo op;
  op.name = "sum";
  op.dtypes = all_types();
  op.samples = dim_samples;
  op.op = [](const SampleInput& s) {
    return std::vector<Tensor>{lz::sum(s[0], s.int_list_arg("dim"), s.bool_arg("keepdim"))};
  };
  op.reference = [](const SampleInput& s) {
    return std::vector<Expected>{reduce_reference(s[0], s.int_list_arg("dim"), s.bool_arg("keepdim"),
                                                  sum_dtype(s[0].dtype()), [](const std::vector<double>& v) {
                                                    double acc = 0;
                                                    for (double x : v) acc += x;
                                                    return acc;
                                                  })};
  };
  op.out = [](std::vector<Tensor>& outs, const SampleInput& s) {
    lz::sum_out(outs[0], s[0], s.int_list_arg("dim"), s.bool_arg("keepdim"));
  };
  op.tolerance = sum_tolerance;
  op.errors = [] {
    return std::vector<ErrorInput>{
        LZT_EXPECT_ERROR(IndexError,
                         (SampleInput{{lz::zeros({2, 3})}, {{"dim", lz::IValue(std::vector<int64_t>{2})}, {"keepdim", lz::IValue(false)}}, "dim 2 of a 2-D tensor"}),
                         "[sum] dim: 2 is out of range for a 2-D tensor"),
        LZT_EXPECT_ERROR(ValueError,
                         (SampleInput{{lz::zeros({2, 3})}, {{"dim", lz::IValue(std::vector<int64_t>{1, -1})}, {"keepdim", lz::IValue(false)}}, "repeated dim"}),
                         "[sum] dim: dim 1 appears multiple times")};
  };
  t.push_back(std::move(op));
}

}  // namespace lzt
