// The operator test table (in the spirit of PyTorch's OpInfo): one entry per
// operator lists its sample inputs for every supported dtype, the call under
// test, an independent reference, tolerances, its in-place and out= forms and
// the inputs it must reject. The eager tests run every entry; the lazy,
// fusion and CUDA tests of later issues run the same entries on their path,
// so an operator added here is tested everywhere.
//
// Adding an operator: write an OpInfo in tests/op_table/entries_<family>.cpp
// (see the existing entries) and append it in that file's add_<family>_ops().
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include <lazuli/lazuli.h>

#include "core/ivalue.h"

namespace lzt {

// One call of an operator: its tensor arguments and its other arguments.
struct SampleInput {
  std::vector<lz::Tensor> tensors;
  std::map<std::string, lz::IValue> kwargs;
  std::string description;

  const lz::Tensor& operator[](size_t i) const { return tensors.at(i); }
  bool has(const std::string& name) const { return kwargs.count(name) != 0; }
  // std::out_of_range naming the argument when it is missing.
  const lz::IValue& arg(const std::string& name) const;
  int64_t int_arg(const std::string& name) const { return arg(name).to_int(); }
  double double_arg(const std::string& name) const { return arg(name).to_double(); }
  bool bool_arg(const std::string& name) const { return arg(name).to_bool(); }
  lz::Scalar scalar_arg(const std::string& name) const { return arg(name).to_scalar(); }
  lz::IntArrayRef int_list_arg(const std::string& name) const { return arg(name).to_int_list(); }

  // The description, each tensor's shape/dtype/strides and the kwargs.
  std::string str() const;
};

// An expected output: computed from the inputs' values only.
struct Expected {
  lz::SizeVec sizes;
  lz::ScalarType dtype;
  std::vector<double> values;  // row-major
};

// The expected outputs of a one-output operator.
inline std::vector<Expected> one(Expected e) { return std::vector<Expected>{std::move(e)}; }

struct Tolerance {
  double rtol = 0;
  double atol = 0;
};
// Exact for integers and bool; a few ulps of the result type for floats.
Tolerance default_tolerance(lz::ScalarType result);

// An input the operator must reject with an exception of a given type whose
// message contains `message`.
struct ErrorInput {
  SampleInput input;
  std::string type_name;
  std::function<bool(const std::exception&)> is_type;
  std::string message;
};

template <class E>
ErrorInput expect_error(SampleInput input, std::string type_name, std::string message) {
  return ErrorInput{std::move(input), std::move(type_name),
                    [](const std::exception& e) { return dynamic_cast<const E*>(&e) != nullptr; },
                    std::move(message)};
}
#define LZT_EXPECT_ERROR(Type, input, message) \
  ::lzt::expect_error<::lz::Type>((input), "lz::" #Type, (message))

struct OpInfo {
  std::string name;
  // Dtypes the samples are generated for (the operator supports them).
  std::vector<lz::ScalarType> dtypes;
  std::function<std::vector<SampleInput>(lz::ScalarType)> samples;
  // The call under test, through the public API; one or more outputs.
  std::function<std::vector<lz::Tensor>(const SampleInput&)> op;
  // The expected outputs, independent of the kernels under test.
  std::function<std::vector<Expected>(const SampleInput&)> reference;

  // Optional: the in-place form, writing op's first output into `self`
  // (the runner passes a clone of tensors[0], and the sample with
  // tensors[0] replaced by that clone).
  std::function<void(lz::Tensor& self, const SampleInput&)> inplace;
  // Optional: the out= form writing into `outs` (one per output).
  std::function<void(std::vector<lz::Tensor>& outs, const SampleInput&)> out;
  // Optional: tolerance per result dtype (default_tolerance otherwise).
  std::function<Tolerance(lz::ScalarType)> tolerance;
  // Optional: inputs the operator must reject.
  std::function<std::vector<ErrorInput>()> errors;
  // Optional, for results no reference can predict (random operators):
  // checks properties of the outputs instead; "" when they hold.
  std::function<std::string(const SampleInput&, const std::vector<lz::Tensor>&)> check;
};

// The whole table (built once).
const std::vector<OpInfo>& op_table();
// The entry named `name`; std::out_of_range if there is none.
const OpInfo& find_op(const std::string& name);

// Family registration functions (entries_<family>.cpp).
void add_unary_ops(std::vector<OpInfo>& table);
void add_binary_ops(std::vector<OpInfo>& table);
void add_reduction_ops(std::vector<OpInfo>& table);
void add_shape_ops(std::vector<OpInfo>& table);
void add_factory_ops(std::vector<OpInfo>& table);
void add_linalg_ops(std::vector<OpInfo>& table);
void add_nn_ops(std::vector<OpInfo>& table);

// Parts of a family kept in their own file, appended by that family's
// add_<family>_ops() at their place in the table.
void add_ternary_ops(std::vector<OpInfo>& table);    // entries_ternary.cpp, from add_binary_ops
void add_extremum_ops(std::vector<OpInfo>& table);   // entries_reduction_extremum.cpp, from add_reduction_ops
void add_indexing_ops(std::vector<OpInfo>& table);   // entries_indexing.cpp, from add_shape_ops
void add_view_ops(std::vector<OpInfo>& table);       // entries_views.cpp, from add_shape_ops
void add_view_scatter_ops(std::vector<OpInfo>& table);  // entries_view_scatter.cpp, from add_view_ops
void add_fill_ops(std::vector<OpInfo>& table);          // entries_fill.cpp, from add_view_ops
void add_loss_ops(std::vector<OpInfo>& table);          // entries_losses.cpp, from add_nn_ops

}  // namespace lzt
