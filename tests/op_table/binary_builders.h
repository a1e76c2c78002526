// Builders shared by the binary (entries_binary.cpp) and ternary
// (entries_ternary.cpp) element-wise entries: op(tensor, Scalar) entries,
// samples repeated per kwarg set, and dtype error inputs.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tests/op_table/entry_builders.h"
#include "tests/op_table/reference.h"
#include "tests/op_table/samples.h"

namespace lzt {

// Every sample once per value of each kwarg list entry (a list of kwarg maps).
inline std::vector<SampleInput> with_kwargs(const std::vector<SampleInput>& samples,
                                            const std::vector<std::map<std::string, lz::IValue>>& sets) {
  std::vector<SampleInput> out;
  for (const auto& set : sets) {
    for (SampleInput s : samples) {
      for (const auto& [k, v] : set) s.kwargs[k] = v;
      out.push_back(std::move(s));
    }
  }
  return out;
}

// op(tensor, Scalar) entries: the scalar joins type promotion as a wrapped number.
struct ScalarFns {
  std::function<lz::Tensor(const lz::Tensor&, const lz::Scalar&)> op;
  std::function<void(lz::Tensor&, const lz::Scalar&)> inplace;                      // may be empty
  std::function<void(lz::Tensor&, const lz::Tensor&, const lz::Scalar&)> out;       // may be empty
};

inline OpInfo scalar_entry(std::string name, std::vector<lz::ScalarType> dtypes, ScalarFns fns,
                           std::function<double(double, double)> reference, ResultRule result,
                           std::vector<lz::IValue> scalars, Domain domain = {}) {
  OpInfo op;
  op.name = std::move(name);
  op.dtypes = std::move(dtypes);
  op.samples = [scalars, domain](lz::ScalarType t) {
    return with_kwarg(unary_samples(t, domain), "other", scalars);
  };
  op.op = [fn = fns.op](const SampleInput& s) { return std::vector<lz::Tensor>{fn(s[0], s.scalar_arg("other"))}; };
  op.reference = [reference, result](const SampleInput& s) {
    const lz::Scalar other = s.scalar_arg("other");
    const lz::ScalarType r = result(lz::result_type(s[0], other));
    // The scalar is converted to the computation's dtype first (uint8 & -2 is uint8 & 254).
    const double v = as_stored(lz::result_type(s[0], other), other.to_double());
    return std::vector<Expected>{map_reference(s[0], r, [&](double x) { return reference(x, v); })};
  };
  if (fns.inplace) {
    op.inplace = [f = fns.inplace](lz::Tensor& self, const SampleInput& s) { f(self, s.scalar_arg("other")); };
  }
  if (fns.out) {
    op.out = [f = fns.out](std::vector<lz::Tensor>& outs, const SampleInput& s) {
      f(outs[0], s[0], s.scalar_arg("other"));
    };
  }
  return op;
}

// A TypeError input: two [2] tensors of dtypes a and b.
inline ErrorInput dtype_error(const std::string& name, lz::ScalarType a, lz::ScalarType b,
                              const std::string& message) {
  return LZT_EXPECT_ERROR(TypeError,
                          (SampleInput{{lz::zeros({2}, a), lz::zeros({2}, b)}, {},
                                       std::string(lz::to_string(a)) + " and " + std::string(lz::to_string(b))}),
                          message);
}

}  // namespace lzt
