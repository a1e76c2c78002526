// Table entries: unary element-wise operators.
#include <cmath>

#include "tests/op_table/entry_builders.h"

namespace lzt {

using lz::Tensor;

void add_unary_ops(std::vector<OpInfo>& t) {
  {
    OpInfo op = unary_entry("neg", numeric_types(),
                            {[](const Tensor& x) { return lz::neg(x); },
                             [](Tensor& x) -> Tensor& { return lz::neg_(x); },
                             [](Tensor& o, const Tensor& x) -> Tensor& { return lz::neg_out(o, x); }},
                            [](double x) { return -x; });
    op.errors = [] {
      return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
          TypeError, (SampleInput{{lz::zeros({2}, lz::kBool)}, {}, "bool"}), "[neg] self: negation")};
    };
    t.push_back(std::move(op));
  }
  t.push_back(unary_entry("exp", all_types(),
                          {[](const Tensor& x) { return lz::exp(x); },
                           [](Tensor& x) -> Tensor& { return lz::exp_(x); },
                           [](Tensor& o, const Tensor& x) -> Tensor& { return lz::exp_out(o, x); }},
                          [](double x) { return std::exp(x); }, to_float));
  {
    OpInfo op = unary_entry("relu", numeric_types(),
                            {[](const Tensor& x) { return lz::relu(x); },
                             [](Tensor& x) -> Tensor& { return lz::relu_(x); },
                             [](Tensor& o, const Tensor& x) -> Tensor& { return lz::relu_out(o, x); }},
                            [](double x) { return x < 0 ? 0.0 : x; });
    op.errors = [] {
      return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
          TypeError, (SampleInput{{lz::zeros({2}, lz::kBool)}, {}, "bool"}), "[relu] self: not implemented for dtype bool")};
    };
    t.push_back(std::move(op));
  }
}

}  // namespace lzt
