// Table entries: binary and ternary element-wise operators.
#include "tests/op_table/entry_builders.h"
#include "tests/op_table/reference.h"

namespace lzt {

namespace {

using lz::Tensor;

// op(tensor, Scalar) entries: the scalar joins type promotion as a wrapped number.
OpInfo scalar_entry(std::string name, std::vector<lz::ScalarType> dtypes,
                    std::function<Tensor(const Tensor&, const lz::Scalar&)> fn,
                    std::function<void(Tensor&, const lz::Scalar&)> inplace,
                    std::function<double(double, double)> reference, ResultRule result,
                    std::vector<lz::IValue> scalars) {
  OpInfo op;
  op.name = std::move(name);
  op.dtypes = std::move(dtypes);
  op.samples = [scalars](lz::ScalarType t) { return with_kwarg(unary_samples(t), "other", scalars); };
  op.op = [fn](const SampleInput& s) { return std::vector<Tensor>{fn(s[0], s.scalar_arg("other"))}; };
  op.reference = [reference, result](const SampleInput& s) {
    const lz::Scalar other = s.scalar_arg("other");
    const double v = other.to_double();
    return std::vector<Expected>{map_reference(s[0], result(lz::result_type(s[0], other)),
                                               [&](double x) { return reference(x, v); })};
  };
  op.inplace = [inplace](Tensor& self, const SampleInput& s) { inplace(self, s.scalar_arg("other")); };
  return op;
}

std::vector<ErrorInput> broadcast_errors(const std::string& name) {
  return {LZT_EXPECT_ERROR(ShapeError, (SampleInput{{lz::zeros({3}), lz::zeros({4})}, {}, "[3] and [4]"}),
                           "[" + name + "] self shape [3] and other shape [4] are not broadcastable"),
          LZT_EXPECT_ERROR(ValueError, (SampleInput{{lz::zeros({3}), Tensor()}, {}, "undefined other"}),
                           "[" + name + "] other: expected a defined tensor")};
}

}  // namespace

void add_binary_ops(std::vector<OpInfo>& t) {
  {
    OpInfo op = binary_entry(
        "add", all_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::add(a, b); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.add_(b); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::add_out(o, a, b); }},
        [](double x, double y) { return x + y; });
    op.errors = [] { return broadcast_errors("add"); };
    t.push_back(std::move(op));
  }
  {
    OpInfo op = binary_entry(
        "add.alpha", numeric_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::add(a, b, 3); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.add_(b, 3); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::add_out(o, a, b, 3); }},
        [](double x, double y) { return x + 3 * y; });
    // Samples use alpha 3; an error sample may pass its own.
    op.op = [](const SampleInput& s) {
      return std::vector<Tensor>{lz::add(s[0], s[1], s.has("alpha") ? s.scalar_arg("alpha") : lz::Scalar(3))};
    };
    op.errors = [] {
      return std::vector<ErrorInput>{LZT_EXPECT_ERROR(
          TypeError,
          (SampleInput{{lz::zeros({2}, lz::kInt32), lz::zeros({2}, lz::kInt32)}, {{"alpha", lz::IValue(2.5)}},
                       "int inputs, float alpha"}),
          "alpha must not be a floating point number")};
    };
    t.push_back(std::move(op));
  }
  {
    OpInfo op = binary_entry(
        "sub", numeric_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::sub(a, b); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.sub_(b); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::sub_out(o, a, b); }},
        [](double x, double y) { return x - y; });
    op.errors = [] {
      std::vector<ErrorInput> e = broadcast_errors("sub");
      e.push_back(LZT_EXPECT_ERROR(TypeError,
                                   (SampleInput{{lz::zeros({2}, lz::kBool), lz::zeros({2}, lz::kBool)}, {}, "bool"}),
                                   "[sub] subtraction, the `-` operator, with a bool tensor is not supported"));
      return e;
    };
    t.push_back(std::move(op));
  }
  {
    OpInfo op = binary_entry(
        "mul", all_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::mul(a, b); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.mul_(b); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::mul_out(o, a, b); }},
        [](double x, double y) { return x * y; });
    op.errors = [] { return broadcast_errors("mul"); };
    t.push_back(std::move(op));
  }
  {
    OpInfo op = binary_entry(
        "div", all_types(),
        {[](const Tensor& a, const Tensor& b) { return lz::div(a, b); },
         [](Tensor& a, const Tensor& b) -> Tensor& { return a.div_(b); },
         [](Tensor& o, const Tensor& a, const Tensor& b) -> Tensor& { return lz::div_out(o, a, b); }},
        [](double x, double y) { return x / y; }, to_float);
    op.errors = [] { return broadcast_errors("div"); };
    t.push_back(std::move(op));
  }
  const std::vector<lz::IValue> scalars = {lz::IValue(int64_t{2}), lz::IValue(2.5)};
  t.push_back(scalar_entry(
      "add.Scalar", numeric_types(), [](const Tensor& a, const lz::Scalar& s) { return lz::add(a, s); },
      [](Tensor& a, const lz::Scalar& s) { a.add_(s); }, [](double x, double y) { return x + y; },
      same_dtype, scalars));
  t.push_back(scalar_entry(
      "sub.Scalar", numeric_types(), [](const Tensor& a, const lz::Scalar& s) { return lz::sub(a, s); },
      [](Tensor& a, const lz::Scalar& s) { a.sub_(s); }, [](double x, double y) { return x - y; },
      same_dtype, scalars));
  t.push_back(scalar_entry(
      "mul.Scalar", numeric_types(), [](const Tensor& a, const lz::Scalar& s) { return lz::mul(a, s); },
      [](Tensor& a, const lz::Scalar& s) { a.mul_(s); }, [](double x, double y) { return x * y; },
      same_dtype, scalars));
  t.push_back(scalar_entry(
      "div.Scalar", numeric_types(), [](const Tensor& a, const lz::Scalar& s) { return lz::div(a, s); },
      [](Tensor& a, const lz::Scalar& s) { a.div_(s); }, [](double x, double y) { return x / y; },
      to_float, scalars));
}

}  // namespace lzt
