#include "ir/verifier.h"

#include "core/device.h"
#include "core/error.h"
#include "core/layout.h"
#include "core/stable_hash.h"
#include "ir/printer.h"

namespace lz::ir {

std::optional<ArgKind> expected_arg_kind(const SchemaType& type) {
  if (type.is_list) {
    switch (type.base) {
      case BaseType::Tensor: return type.element_optional ? ArgKind::OptTensorList : ArgKind::TensorList;
      case BaseType::Int: return ArgKind::IntList;
      case BaseType::Float: return ArgKind::DoubleList;
      case BaseType::Bool: return ArgKind::BoolList;
      default: return std::nullopt;
    }
  }
  switch (type.base) {
    case BaseType::Tensor: return ArgKind::Tensor;
    case BaseType::Scalar: return ArgKind::Scalar;
    case BaseType::Int: return ArgKind::Int;
    case BaseType::Float: return ArgKind::Double;
    case BaseType::Bool: return ArgKind::Bool;
    case BaseType::Str: return ArgKind::String;
    case BaseType::ScalarType: return ArgKind::ScalarType;
    case BaseType::Device: return ArgKind::Device;
    case BaseType::Layout: return ArgKind::Layout;
    case BaseType::MemoryFormat: return ArgKind::MemoryFormat;
    case BaseType::Generator: return ArgKind::Generator;
  }
  return std::nullopt;
}

namespace {

bool valid_dtype(int64_t i) { return i >= 0 && i < kNumScalarTypes; }

bool valid_device(int64_t type, int64_t index) {
  if (type == static_cast<int64_t>(DeviceType::CPU)) return index == 0;
  return type == static_cast<int64_t>(DeviceType::CUDA) && index >= 0;
}

class Verifier {
 public:
  explicit Verifier(const Graph& g) : g_(g) {}

  void run(std::span<const ValueId> outputs) {
    ValueId next_value = 0;
    for (NodeId id = 0; id < g_.num_nodes(); ++id) {
      id_ = id;
      const Node& n = g_.node(id);
      check_results(n, next_value);
      next_value += n.num_outputs;
      if (n.is_input()) {
        check_input(n);
      } else {
        check_operator_node(n);
      }
    }
    LZ_CHECK(next_value == g_.num_values(), InternalError, "verify_graph: the graph has ",
             g_.num_values(), " values but its nodes define ", next_value);
    for (const ValueId v : outputs) {
      LZ_CHECK(v < g_.num_values(), InternalError, "verify_graph: output %", v,
               " is not a value of the graph (it has ", g_.num_values(), ")");
    }
  }

 private:
  template <class... Parts>
  [[noreturn]] void fail(const Parts&... parts) const {
    throw InternalError(detail::str_cat("verify_graph: node ", id_, " `", print_node(g_, id_),
                                        "`: ", parts...));
  }

  void check_results(const Node& n, ValueId first) const {
    if (n.first_output != first) fail("its first result should be %", first, ", not %", n.first_output);
    if (uint64_t{first} + n.num_outputs > g_.num_values()) fail("its results run past the last value");
    for (uint32_t k = 0; k < n.num_outputs; ++k) {
      const ValueId v = first + k;
      const Value& value = g_.value(v);
      if (value.node != id_ || value.output_index != k) {
        fail("%", v, " names node ", value.node, " output ", value.output_index, " as its producer");
      }
      if (value.hash != value_hash(n.hash, k, value.type)) {
        fail("%", v, " has a hash that does not follow from its node and type");
      }
      const TensorMeta& t = value.type;
      if (!valid_dtype(static_cast<int64_t>(t.dtype))) {
        fail("%", v, " has an invalid dtype (", static_cast<int>(t.dtype), ")");
      }
      for (const int64_t size : t.sizes) {
        if (size < 0) fail("%", v, " has a negative size");
      }
      if (!valid_device(static_cast<int64_t>(t.device.type()), t.device.index())) {
        fail("%", v, " has an invalid device");
      }
    }
  }

  void check_input(const Node& n) const {
    if (n.num_args != 0 || !n.operands.empty()) fail("an input has arguments or operands");
    if (n.num_outputs != 1) fail("an input has ", n.num_outputs, " results, not 1");
    if (n.implicit_generator != kNone) fail("an input has a generator");
    if (n.input_index >= g_.num_inputs() || g_.input_value(n.input_index) != n.first_output) {
      fail("input ", n.input_index, " is not in the graph's input list at that position");
    }
    if (n.input_index < g_.num_inputs() && n.hash != input_hash(n.input_index, n.wrapped_number)) {
      fail("an input's hash does not follow from its position");
    }
    if (n.wrapped_number && !g_.value(n.first_output).type.sizes.empty()) {
      fail("a wrapped number input is not 0-dim");
    }
  }

  void check_operator_node(const Node& n) const {
    const OperatorInfo& op = *n.op;
    if (!op.registered) fail("operator ", op.name, " is no longer registered");
    if (n.wrapped_number) fail("an operator node is marked a wrapped number");
    for (const ValueId v : n.operands) {
      if (v >= n.first_output) fail("operand %", v, " is used before it is defined");
    }
    const auto& schema_args = op.schema.arguments();
    const auto args = g_.args(n);
    if (args.size() != schema_args.size()) {
      fail(args.size(), " arguments, but ", op.name, " takes ", schema_args.size());
    }
    for (size_t i = 0; i < args.size(); ++i) check_arg(n, schema_args[i], args[i]);
    check_result_count(n, op);
    if (n.implicit_generator != kNone && n.implicit_generator >= g_.num_generators()) {
      fail("implicit generator $g", n.implicit_generator, " is not in the pool (",
           g_.num_generators(), " generators)");
    }
  }

  void check_arg(const Node& n, const Argument& schema_arg, const Arg& a) const {
    const std::optional<ArgKind> expected = expected_arg_kind(schema_arg.type);
    if (!expected) fail("argument '", schema_arg.name, "' has a type a graph cannot hold: ", schema_arg.type.str());
    if (a.kind == ArgKind::None) {
      if (!schema_arg.type.optional) fail("argument '", schema_arg.name, "' is None but not optional");
      return;
    }
    if (a.kind != *expected) {
      fail("argument '", schema_arg.name, "' (", schema_arg.type.str(), ") is stored as ",
           to_string(a.kind), ", expected ", to_string(*expected));
    }
    const auto operand_ok = [&](uint64_t i) { return i < n.operands.size(); };
    const auto bad = [&](auto... what) { fail("argument '", schema_arg.name, "': ", what...); };
    switch (a.kind) {
      case ArgKind::Tensor:
        if (!operand_ok(a.index)) bad("operand index ", a.index, " out of range");
        break;
      case ArgKind::TensorList:
        if (uint64_t{a.index} + a.count > n.operands.size()) {
          bad("operands [", a.index, ", ", uint64_t{a.index} + a.count, ") out of range");
        }
        break;
      case ArgKind::OptTensorList:
        for (const int64_t i : g_.int_pool(a)) {
          if (i < -1 || (i >= 0 && !operand_ok(static_cast<uint64_t>(i)))) bad("operand index ", i, " out of range");
        }
        break;
      case ArgKind::Scalar:
        if (a.index >= g_.num_scalars()) bad("scalar $", a.index, " is not in the pool (", g_.num_scalars(), " scalars)");
        if (a.i != static_cast<int64_t>(g_.scalar(a.index).kind())) bad("scalar $", a.index, " recorded with another kind");
        break;
      case ArgKind::Generator:
        if (a.index >= g_.num_generators()) bad("generator $g", a.index, " is not in the pool (", g_.num_generators(), " generators)");
        break;
      case ArgKind::Bool:
        if (a.i != 0 && a.i != 1) bad("bool payload ", a.i);
        break;
      case ArgKind::BoolList:
        for (const int64_t i : g_.int_pool(a)) {
          if (i != 0 && i != 1) bad("bool list entry ", i);
        }
        break;
      case ArgKind::ScalarType:
        if (!valid_dtype(a.i)) bad("invalid dtype ", a.i);
        break;
      case ArgKind::Device:
        if (!valid_device(a.i, a.index)) bad("invalid device (type ", a.i, ", index ", a.index, ")");
        break;
      case ArgKind::Layout:
        if (a.i != static_cast<int64_t>(Layout::Strided)) bad("invalid layout ", a.i);
        break;
      case ArgKind::MemoryFormat:
        if (a.i != static_cast<int64_t>(MemoryFormat::Contiguous) &&
            a.i != static_cast<int64_t>(MemoryFormat::Preserve)) {
          bad("invalid memory format ", a.i);
        }
        break;
      default: break;
    }
  }

  void check_result_count(const Node& n, const OperatorInfo& op) const {
    const auto& returns = op.schema.returns();
    for (const Return& r : returns) {
      if (!r.type.is_tensor_like() || r.type.optional || r.type.element_optional) {
        fail(op.name, " returns ", r.type.str(), ", which is not a graph value");
      }
    }
    const bool any_count = returns.size() == 1 && returns[0].type.is_list;
    if (!any_count && n.num_outputs != returns.size()) {
      fail(n.num_outputs, " results, but ", op.name, " returns ", returns.size());
    }
    if (!any_count) {
      for (const Return& r : returns) {
        if (r.type.is_list) fail(op.name, " returns a Tensor[] among other results");
      }
    }
  }

  const Graph& g_;
  NodeId id_ = 0;
};

}  // namespace

void verify_graph(const Graph& g, std::span<const ValueId> outputs) { Verifier(g).run(outputs); }

}  // namespace lz::ir
