// Graph hashing: structure counts (operators, attributes, operand order,
// dtypes, ranks, devices, input positions); sizes and runtime scalar values
// do not.
#include <catch2/catch.hpp>

#include <functional>

#include "tests/ir/graph_builders.h"

using namespace lz;
using namespace lz::ir;
using namespace lz::ir::testing;

namespace {

// The hash of the single output of the graph `build` makes.
uint64_t hash_of_graph(const std::function<ValueId(Graph&)>& build) {
  Graph g;
  const ValueId out = build(g);
  return g.hash_of(std::span<const ValueId>(&out, 1));
}

ValueId add_of(Graph& g, TensorMeta a, TensorMeta b, Scalar alpha, bool swap = false) {
  const ValueId x = g.add_input(a);
  const ValueId y = g.add_input(b);
  return node(g, "add.Tensor", {tensor_arg(swap ? 1 : 0), tensor_arg(swap ? 0 : 1), g.scalar_arg(alpha)},
              {x, y}, {a});
}

}  // namespace

TEST_CASE("graph: the hash ignores sizes", "[ir]") {
  const auto small = hash_of_graph([](Graph& g) {
    return add_of(g, type(kFloat, {4, 8}), type(kFloat, {4, 8}), Scalar(1));
  });
  const auto large = hash_of_graph([](Graph& g) {
    return add_of(g, type(kFloat, {1024, 3}), type(kFloat, {1024, 3}), Scalar(1));
  });
  CHECK(small == large);
}

TEST_CASE("graph: the hash ignores runtime scalar values but not their kind", "[ir]") {
  const auto with = [](Scalar s) {
    return hash_of_graph([=](Graph& g) { return add_of(g, type(kFloat, {4}), type(kFloat, {4}), s); });
  };
  CHECK(with(Scalar(7)) == with(Scalar(4)));
  CHECK(with(Scalar(0.25)) == with(Scalar(2.5)));
  CHECK(with(Scalar(7)) != with(Scalar(0.25)));
  CHECK(with(Scalar(7)) != with(Scalar(true)));
  CHECK(with(Scalar(0.25)) != with(Scalar(true)));
}

TEST_CASE("graph: the special scalars are hashed by value", "[ir]") {
  const auto with = [](Scalar s) {
    return hash_of_graph([=](Graph& g) { return add_of(g, type(kFloat, {4}), type(kFloat, {4}), s); });
  };
  CHECK(lz::ir::is_special_scalar(Scalar(1)));
  CHECK(lz::ir::is_special_scalar(Scalar(0.0)));
  CHECK(lz::ir::is_special_scalar(Scalar(-0.5)));
  CHECK_FALSE(lz::ir::is_special_scalar(Scalar(-0.0)));
  CHECK_FALSE(lz::ir::is_special_scalar(Scalar(4)));
  CHECK(with(Scalar(1)) != with(Scalar(4)));
  CHECK(with(Scalar(1)) != with(Scalar(0)));
  CHECK(with(Scalar(2)) != with(Scalar(3)));
  CHECK(with(Scalar(1.0)) != with(Scalar(0.5)));
  CHECK(with(Scalar(0.5)) != with(Scalar(0.25)));
  CHECK(with(Scalar(1)) == with(Scalar(1)));
}

TEST_CASE("graph: the hash changes with attributes", "[ir]") {
  const auto sum_over = [](int64_t dim, bool keepdim) {
    return hash_of_graph([=](Graph& g) {
      const ValueId x = g.add_input(type(kFloat, {4, 8}));
      const int64_t dims[] = {dim};
      return node(g, "sum.dim_IntList", {tensor_arg(0), g.int_list_arg(dims), bool_arg(keepdim), none_arg()},
                  {x}, {type(kFloat, {4})});
    });
  };
  CHECK(sum_over(1, false) == sum_over(1, false));
  CHECK(sum_over(1, false) != sum_over(0, false));
  CHECK(sum_over(1, false) != sum_over(1, true));

  const auto view_as = [](std::initializer_list<int64_t> shape) {
    return hash_of_graph([=](Graph& g) {
      const ValueId x = g.add_input(type(kFloat, {4, 8}));
      return node(g, "view", {tensor_arg(0), g.int_list_arg(shape)}, {x}, {type(kFloat, {2, 16})});
    });
  };
  // A view's shape is an attribute: the sizes it names reach the hash.
  CHECK(view_as({2, 16}) != view_as({16, 2}));

  const auto dropout = [](double p) {
    return hash_of_graph([=](Graph& g) {
      const ValueId x = g.add_input(type(kFloat, {4}));
      return node(g, "native_dropout", {tensor_arg(0), double_arg(p), bool_arg(true)}, {x},
                  {type(kFloat, {4}), type(kBool, {4})}, g.add_generator());
    });
  };
  CHECK(dropout(0.1) == dropout(0.1));
  CHECK(dropout(0.1) != dropout(0.2));
}

TEST_CASE("graph: the hash changes with the operator and the operand order", "[ir]") {
  const auto unary = [](std::string_view name) {
    return hash_of_graph([=](Graph& g) {
      const ValueId x = g.add_input(type(kFloat, {4}));
      return node(g, name, {tensor_arg(0)}, {x}, {type(kFloat, {4})});
    });
  };
  CHECK(unary("exp") == unary("exp"));
  CHECK(unary("exp") != unary("neg"));

  const auto straight = hash_of_graph([](Graph& g) { return add_of(g, type(kFloat, {4}), type(kFloat, {4}), 1); });
  const auto swapped = hash_of_graph([](Graph& g) { return add_of(g, type(kFloat, {4}), type(kFloat, {4}), 1, true); });
  CHECK(straight != swapped);
}

TEST_CASE("graph: the hash changes with dtypes, ranks, devices and input positions", "[ir]") {
  const auto exp_of = [](TensorMeta t) {
    return hash_of_graph([=](Graph& g) { return node(g, "exp", {tensor_arg(0)}, {g.add_input(t)}, {t}); });
  };
  const auto base = exp_of(type(kFloat, {4}));
  CHECK(base == exp_of(type(kFloat, {9})));
  CHECK(base != exp_of(type(kDouble, {4})));
  CHECK(base != exp_of(type(kFloat, {2, 2})));
  CHECK(base != exp_of(type(kFloat, {4}, Device(DeviceType::CUDA, 0))));
  CHECK(exp_of(type(kFloat, {4}, Device(DeviceType::CUDA, 0))) !=
        exp_of(type(kFloat, {4}, Device(DeviceType::CUDA, 1))));

  // Only the result's dtype differs.
  const auto exp_into = [](ScalarType out) {
    return hash_of_graph([=](Graph& g) {
      return node(g, "exp", {tensor_arg(0)}, {g.add_input(type(kLong, {4}))}, {type(out, {4})});
    });
  };
  CHECK(exp_into(kFloat) != exp_into(kDouble));

  // The same dtype read from input 0 or input 1.
  const auto exp_of_input = [](int which) {
    return hash_of_graph([=](Graph& g) {
      const ValueId a = g.add_input(type(kFloat, {4}));
      const ValueId b = g.add_input(type(kFloat, {4}));
      return node(g, "exp", {tensor_arg(0)}, {which == 0 ? a : b}, {type(kFloat, {4})});
    });
  };
  CHECK(exp_of_input(0) != exp_of_input(1));
}

TEST_CASE("graph: hash_of depends on the order of the values and survives clear()", "[ir]") {
  Graph g;
  const std::vector<ValueId> outputs = build_sample(g);
  const ValueId ab[] = {outputs[0], outputs[1]};
  const ValueId ba[] = {outputs[1], outputs[0]};
  CHECK(g.hash_of(ab) != g.hash_of(ba));
  const uint64_t before = g.hash_of(outputs);
  const size_t nodes = g.num_nodes();

  g.clear();
  CHECK(g.num_nodes() == 0);
  CHECK(g.num_values() == 0);
  CHECK(g.num_scalars() == 0);
  CHECK(g.num_generators() == 0);
  const std::vector<ValueId> again = build_sample(g);
  CHECK(again == outputs);
  CHECK(g.num_nodes() == nodes);
  CHECK(g.hash_of(again) == before);
}

TEST_CASE("graph: a node records its arguments, operands and results", "[ir]") {
  Graph g;
  build_sample(g);
  const Node& max = g.producer(3);
  CHECK(max.op->name == "max.dim");
  CHECK(max.first_output == 3);
  CHECK(max.num_outputs == 2);
  CHECK(g.value(4).output_index == 1);
  CHECK(g.value(4).type.dtype == kLong);
  REQUIRE(g.args(max).size() == 3);
  CHECK(g.args(max)[1].kind == ArgKind::Int);
  CHECK(g.args(max)[1].i == 1);
  const Node& dropout = g.producer(6);
  CHECK(dropout.implicit_generator == 0);
  CHECK(g.num_generators() == 1);
  const Node& view = g.producer(5);
  const auto shape = g.int_pool(g.args(view)[1]);
  CHECK(std::vector<int64_t>(shape.begin(), shape.end()) == std::vector<int64_t>{2, 16});
  CHECK(g.input_value(1) == 1);
  CHECK(to_string(ArgKind::OptTensorList) == "optional_tensor_list");
}
