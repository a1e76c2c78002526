// Shorthands for building graphs by hand in the ir tests: operators from the
// dispatcher, result types, Args, one call per node; a sample graph with
// every kind of line, and a test-only operator taking every argument kind.
#pragma once

#include <initializer_list>
#include <string_view>
#include <vector>

#include "core/dispatcher.h"
#include "core/op_registration.h"
#include "ir/graph.h"

namespace lz::ir::testing {

inline const OperatorEntry& op(std::string_view name) {
  return Dispatcher::singleton().find_or_throw(name).entry();
}

inline TensorMeta type(ScalarType dtype, std::initializer_list<int64_t> sizes,
                       Device device = Device(DeviceType::CPU)) {
  return TensorMeta{SizeVec(sizes), dtype, device};
}

inline Arg make_arg(ArgKind kind, int64_t i = 0, uint32_t index = 0, uint32_t count = 0) {
  Arg a;
  a.kind = kind;
  a.i = i;
  a.index = index;
  a.count = count;
  return a;
}
inline Arg tensor_arg(uint32_t operand) { return make_arg(ArgKind::Tensor, 0, operand); }
inline Arg tensor_list_arg(uint32_t first, uint32_t count) {
  return make_arg(ArgKind::TensorList, 0, first, count);
}
inline Arg int_arg(int64_t v) { return make_arg(ArgKind::Int, v); }
inline Arg bool_arg(bool v) { return make_arg(ArgKind::Bool, v ? 1 : 0); }
inline Arg dtype_arg(ScalarType t) { return make_arg(ArgKind::ScalarType, static_cast<int64_t>(t)); }
inline Arg none_arg() { return Arg{}; }
inline Arg double_arg(double d) {
  Arg a = make_arg(ArgKind::Double);
  a.d = d;
  return a;
}

// One node of operator `name`; returns its first result.
inline ValueId node(Graph& g, std::string_view name, std::initializer_list<Arg> args,
                    std::initializer_list<ValueId> operands, std::initializer_list<TensorMeta> outputs,
                    uint32_t implicit_generator = kNone) {
  return g.add_node(op(name), std::span<const Arg>(args.begin(), args.size()),
                    std::span<const ValueId>(operands.begin(), operands.size()),
                    std::span<const TensorMeta>(outputs.begin(), outputs.size()), implicit_generator);
}

// Inputs, a runtime scalar, two results, a view, an implicit generator, a
// Tensor list, a dtype, a None Tensor?; returns the outputs. Its text is
// kSampleText in test_graph_text.cpp.
inline std::vector<ValueId> build_sample(Graph& g) {
  const ValueId x = g.add_input(type(kFloat, {4, 8}));
  const ValueId bias = g.add_input(type(kFloat, {8}));
  const ValueId sum = node(g, "add.Tensor", {tensor_arg(0), tensor_arg(1), g.scalar_arg(Scalar(1))},
                           {x, bias}, {type(kFloat, {4, 8})});
  const ValueId max = node(g, "max.dim", {tensor_arg(0), int_arg(1), bool_arg(false)}, {sum},
                           {type(kFloat, {4}), type(kLong, {4})});
  const ValueId viewed = node(g, "view", {tensor_arg(0), g.int_list_arg({2, 16})}, {sum},
                              {type(kFloat, {2, 16})});
  const uint32_t gen = g.add_generator();
  const ValueId dropped = node(g, "native_dropout", {tensor_arg(0), double_arg(0.1), bool_arg(true)},
                               {viewed}, {type(kFloat, {2, 16}), type(kBool, {2, 16})}, gen);
  const ValueId joined = node(g, "cat", {tensor_list_arg(0, 2), int_arg(0)}, {viewed, dropped},
                              {type(kFloat, {4, 16})});
  const ValueId reduced = node(g, "sum.dim_IntList",
                               {tensor_arg(0), g.int_list_arg({1}), bool_arg(false), dtype_arg(kDouble)},
                               {joined}, {type(kDouble, {4})});
  const ValueId clamped = node(g, "clamp.Tensor", {tensor_arg(0), none_arg(), tensor_arg(1)}, {sum, x},
                               {type(kFloat, {4, 8})});
  return {reduced, max, clamped};
}

// A test-only operator with an argument of every kind a graph holds.
inline const OperatorEntry& everything_op() {
  static Library* lib = [] {
    auto* l = new Library("ir tests");  // lives as long as the process
    (void)l->def(
        "ir_test::everything(Tensor self, Tensor?[] indices, Tensor[] others, float[] weights, "
        "bool[] mask, str name, ScalarType dtype, Device device, Layout layout, "
        "MemoryFormat memory_format, Generator? generator, Scalar a, Scalar b, Scalar c, "
        "int? maybe, float x, Tensor? absent=None) -> Tensor");
    return l;
  }();
  (void)lib;
  return op("ir_test::everything");
}

}  // namespace lz::ir::testing
