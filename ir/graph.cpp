#include "ir/graph.h"

#include <bit>
#include <cstring>

#include "core/error.h"
#include "core/stable_hash.h"

namespace lz::ir {

std::string_view to_string(ArgKind kind) {
  switch (kind) {
    case ArgKind::None: return "none";
    case ArgKind::Tensor: return "tensor";
    case ArgKind::TensorList: return "tensor_list";
    case ArgKind::OptTensorList: return "optional_tensor_list";
    case ArgKind::Scalar: return "scalar";
    case ArgKind::Generator: return "generator";
    case ArgKind::Int: return "int";
    case ArgKind::Double: return "double";
    case ArgKind::Bool: return "bool";
    case ArgKind::IntList: return "int_list";
    case ArgKind::DoubleList: return "double_list";
    case ArgKind::BoolList: return "bool_list";
    case ArgKind::String: return "string";
    case ArgKind::ScalarType: return "dtype";
    case ArgKind::Device: return "device";
    case ArgKind::Layout: return "layout";
    case ArgKind::MemoryFormat: return "memory_format";
  }
  return "?";
}

ArgRef arg_ref(OpId op, std::string_view name) {
  return ArgRef{op, static_cast<uint32_t>(argument_position(op, name))};
}

const Arg* arg(const Graph& g, const Node& n, ArgRef r) {
  LZ_INTERNAL_ASSERT(is_op(n, r.op), "argument ", r.index, " of ", op_name(r.op), " read from a node of ",
                     n.is_input() ? std::string("an input") : n.op->name);
  return r.index < n.num_args ? &g.args(n)[r.index] : nullptr;
}

uint64_t input_hash(uint32_t input_index, bool wrapped_number) {
  const uint64_t h = hash_combine(stable_hash("input"), input_index);
  // A wrapped number (a C++ scalar in x * 0.5) promotes differently from a
  // 0-dim tensor; kernels lowered for one are wrong for the other.
  return wrapped_number ? hash_combine(h, stable_hash("wrapped number")) : h;
}

uint64_t value_hash(uint64_t node_hash, uint32_t output_index, const TensorMeta& type) {
  // One mix of the fields packed into a word (each fits its bits: output
  // index < 2^24, dtype < 2^8, rank < 2^8, device type < 2^8, index + 1 < 2^16):
  // every traced operator pays for this.
  const uint64_t packed = static_cast<uint64_t>(output_index & 0xffffff) |
                          static_cast<uint64_t>(type.dtype) << 24 |
                          static_cast<uint64_t>(type.sizes.size() & 0xff) << 32 |
                          static_cast<uint64_t>(type.device.type()) << 40 |
                          static_cast<uint64_t>(static_cast<uint16_t>(type.device.index() + 1)) << 48;
  return hash_combine(node_hash, packed);
}

ValueId Graph::add_input(const TensorMeta& type, bool wrapped_number) {
  const auto node_id = static_cast<NodeId>(nodes_.size());
  const auto value_id = static_cast<ValueId>(values_.size());
  Node& n = nodes_.emplace_back();
  n.input_index = static_cast<uint32_t>(inputs_.size());
  n.wrapped_number = wrapped_number;
  n.hash = input_hash(n.input_index, wrapped_number);
  n.first_output = value_id;
  n.num_outputs = 1;
  Value& v = values_.emplace_back();
  v.type = type;
  v.node = node_id;
  v.hash = value_hash(n.hash, 0, type);
  inputs_.push_back(value_id);
  return value_id;
}

Arg Graph::generator_arg() {
  Arg a;
  a.kind = ArgKind::Generator;
  a.index = add_generator();
  return a;
}

Arg Graph::int_list_arg(IntArrayRef values, ArgKind kind) {
  Arg a;
  a.kind = kind;
  a.index = static_cast<uint32_t>(ints_.size());
  a.count = static_cast<uint32_t>(values.size());
  ints_.insert(ints_.end(), values.begin(), values.end());
  return a;
}

Arg Graph::double_list_arg(std::span<const double> values) {
  Arg a;
  a.kind = ArgKind::DoubleList;
  a.index = static_cast<uint32_t>(doubles_.size());
  a.count = static_cast<uint32_t>(values.size());
  doubles_.insert(doubles_.end(), values.begin(), values.end());
  return a;
}

Arg Graph::copied_arg(const Graph& src, const Arg& a, bool copy_scalars) {
  switch (a.kind) {
    case ArgKind::Scalar: return copy_scalars ? scalar_arg(src.scalar(a.index)) : a;
    case ArgKind::IntList:
    case ArgKind::BoolList:
    case ArgKind::OptTensorList: return int_list_arg(src.int_pool(a), a.kind);
    case ArgKind::DoubleList: return double_list_arg(src.double_pool(a));
    case ArgKind::String: return string_arg(src.string_at(a));
    default: return a;  // inline payloads, operand positions, generator numbers
  }
}

Arg Graph::string_arg(std::string_view s) {
  Arg a;
  a.kind = ArgKind::String;
  a.index = static_cast<uint32_t>(strings_.size());
  strings_.emplace_back(s);
  return a;
}

ValueId Graph::add_node(const OperatorInfo& op, std::span<const Arg> args,
                        std::span<const ValueId> operands, std::span<const TensorMeta> outputs,
                        uint32_t implicit_generator) {
  uint64_t h = op.name_hash;
  // Only operands an argument refers to are read here; others are left for
  // the verifier to reject (tests build such graphs on purpose).
  auto operand_hash = [&](uint64_t i) {
    LZ_INTERNAL_ASSERT(i < operands.size(), "operand ", i, " of ", operands.size(), " for ", op.name);
    LZ_INTERNAL_ASSERT(operands[i] < values_.size(), op.name, ": operand %", operands[i],
                       " is not a value of this graph");
    return values_[operands[i]].hash;
  };
  for (const Arg& a : args) {
    // A tensor operand's kind goes into the mix with its hash (one mix per
    // operand, the common case); other kinds mix the kind first.
    if (a.kind == ArgKind::Tensor) {
      h = hash_combine(h, operand_hash(a.index) ^ static_cast<uint64_t>(ArgKind::Tensor));
      continue;
    }
    h = hash_combine(h, static_cast<uint64_t>(a.kind));
    switch (a.kind) {
      case ArgKind::None: break;
      case ArgKind::Tensor: break;
      case ArgKind::TensorList:
        h = hash_combine(h, a.count);
        for (uint32_t k = 0; k < a.count; ++k) h = hash_combine(h, operand_hash(a.index + k));
        break;
      case ArgKind::OptTensorList:
        h = hash_combine(h, a.count);
        for (uint32_t k = 0; k < a.count; ++k) {
          const int64_t operand = ints_[a.index + k];
          h = hash_combine(h, operand < 0 ? 0 : operand_hash(static_cast<uint64_t>(operand)));
        }
        break;
      // Runtime parameters: only which one and (for scalars) its kind, never
      // the value, which is read when the graph runs.
      case ArgKind::Scalar: {
        h = hash_combine(hash_combine(h, a.index), static_cast<uint64_t>(a.i));
        // Special values are part of the structure (x * 1 folds, alpha=1
        // needs no multiply, pow(x, 0.5) is a square root); any other value
        // is a runtime parameter.
        if (a.index < scalars_.size() && is_special_scalar(scalars_[a.index])) {
          h = hash_combine(h, 1 + std::bit_cast<uint64_t>(scalars_[a.index].to_double()));
        }
        break;
      }
      case ArgKind::Generator: h = hash_combine(h, a.index); break;
      case ArgKind::Double: h = hash_combine(h, std::bit_cast<uint64_t>(a.d)); break;
      case ArgKind::IntList:
      case ArgKind::BoolList:
        h = hash_combine(h, a.count);
        for (uint32_t k = 0; k < a.count; ++k) h = hash_combine(h, static_cast<uint64_t>(ints_[a.index + k]));
        break;
      case ArgKind::DoubleList:
        h = hash_combine(h, a.count);
        for (uint32_t k = 0; k < a.count; ++k) h = hash_combine(h, std::bit_cast<uint64_t>(doubles_[a.index + k]));
        break;
      case ArgKind::String: h = hash_combine(h, stable_hash(strings_[a.index])); break;
      case ArgKind::Device: h = hash_combine(hash_combine(h, static_cast<uint64_t>(a.i)), a.index); break;
      case ArgKind::Int:
      case ArgKind::Bool:
      case ArgKind::ScalarType:
      case ArgKind::Layout:
      case ArgKind::MemoryFormat: h = hash_combine(h, static_cast<uint64_t>(a.i)); break;
    }
  }
  if (implicit_generator != kNone) h = hash_combine(h, implicit_generator);

  const auto node_id = static_cast<NodeId>(nodes_.size());
  const auto first = static_cast<ValueId>(values_.size());
  Node& n = nodes_.emplace_back();
  n.op = &op;
  n.hash = h;
  n.first_output = first;
  n.num_outputs = static_cast<uint32_t>(outputs.size());
  n.args_begin = static_cast<uint32_t>(args_.size());
  n.num_args = static_cast<uint32_t>(args.size());
  n.implicit_generator = implicit_generator;
  n.operands.assign(operands.begin(), operands.end());
  args_.insert(args_.end(), args.begin(), args.end());
  for (uint32_t k = 0; k < outputs.size(); ++k) {
    Value& v = values_.emplace_back();
    v.type = outputs[k];
    v.node = node_id;
    v.output_index = k;
    v.hash = value_hash(h, k, outputs[k]);
  }
  return first;
}

void Graph::clear() {
  nodes_.clear();
  values_.clear();
  args_.clear();
  ints_.clear();
  doubles_.clear();
  strings_.clear();
  scalars_.clear();
  inputs_.clear();
  num_generators_ = 0;
}

bool is_special_scalar(const Scalar& s) {
  // 0 and 1 fold (x * 1, alpha=1); the others are the powers pow's eager
  // kernel computes as products, square roots and reciprocals.
  static constexpr double kSpecial[] = {0, 1, 2, 3, -1, -2, 0.5, -0.5};
  if (!s.is_floating_point()) {
    const int64_t v = s.to_long();
    return v >= -2 && v <= 3;
  }
  // Bitwise: -0.0 == 0.0 numerically, but x - (-0.0) is not x for x = -0.0.
  const uint64_t bits = std::bit_cast<uint64_t>(s.to_double());
  for (double v : kSpecial) {
    if (bits == std::bit_cast<uint64_t>(v)) return true;
  }
  return false;
}

uint64_t Graph::hash_of(std::span<const ValueId> values) const {
  uint64_t h = hash_combine(stable_hash("graph"), values.size());
  for (ValueId v : values) {
    LZ_INTERNAL_ASSERT(v < values_.size(), "hash_of: %", v, " is not a value of this graph");
    h = hash_combine(h, values_[v].hash);
  }
  return h;
}

}  // namespace lz::ir
