#include "ir/printer.h"

#include <charconv>
#include <cstdio>
#include <sstream>

#include "core/device.h"
#include "core/layout.h"

namespace lz::ir {

void print_double(std::string& out, double d) {
  char buf[64];
  // Shortest text that reads back to the same bits (inf, -inf, nan as words).
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), d);
  out.append(buf, ec == std::errc() ? end : buf);
}

namespace {

// Indexed by ScalarType; one name per dtype, never an alias.
constexpr std::string_view kDtypeNames[] = {"b8", "u8", "i8", "i16", "i32", "i64", "f16", "bf16", "f32", "f64"};
static_assert(std::size(kDtypeNames) == kNumScalarTypes, "a dtype without a short name");
static_assert(static_cast<int>(ScalarType::Float) == 8 && static_cast<int>(ScalarType::Bool) == 0,
              "kDtypeNames follows LZ_FORALL_SCALAR_TYPES");

void print_string_literal(std::string& out, std::string_view s) {
  out += '"';
  for (const char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
          char buf[8];
          std::snprintf(buf, sizeof(buf), "\\x%02x", static_cast<unsigned>(static_cast<unsigned char>(c)));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  out += '"';
}

void print_device(std::string& out, int64_t type, int64_t index) {
  if (type == static_cast<int64_t>(DeviceType::CPU)) {
    out += "cpu";
  } else if (type == static_cast<int64_t>(DeviceType::CUDA)) {
    out += "cuda:" + std::to_string(index);
  } else {
    out += "?device";
  }
}

// Prints the node's pieces; every index is checked so a broken graph still prints.
class NodePrinter {
 public:
  NodePrinter(const Graph& g, const Node& n, std::string& out) : g_(g), n_(n), out_(out) {}

  void print() {
    print_results();
    out_ += " = ";
    if (n_.is_input()) {
      out_ += "input " + std::to_string(n_.input_index);
      if (n_.wrapped_number) out_ += " {wrapped_number}";
      return;
    }
    out_ += n_.op->name;
    out_ += '(';
    const auto args = g_.args(n_);
    const auto& schema_args = n_.op->schema.arguments();
    bool first = true;
    // Tensor arguments positionally, then the rest by name: two passes.
    for (const bool positional : {true, false}) {
      for (size_t i = 0; i < args.size(); ++i) {
        const bool has_schema = i < schema_args.size();
        const bool tensor_like = has_schema ? schema_args[i].type.is_tensor_like()
                                            : is_tensor_kind(args[i].kind);
        if (tensor_like != positional) continue;
        if (!first) out_ += ", ";
        first = false;
        if (!positional) out_ += (has_schema ? schema_args[i].name : "?arg" + std::to_string(i)) + "=";
        print_arg(args[i]);
      }
    }
    out_ += ')';
    if (n_.implicit_generator != kNone) {
      out_ += " {generator=$g" + std::to_string(n_.implicit_generator) + "}";
    }
  }

 private:
  static bool is_tensor_kind(ArgKind k) {
    return k == ArgKind::Tensor || k == ArgKind::TensorList || k == ArgKind::OptTensorList;
  }

  void print_results() {
    if (n_.num_outputs == 0) {
      out_ += "()";
      return;
    }
    for (uint32_t k = 0; k < n_.num_outputs; ++k) {
      if (k > 0) out_ += ", ";
      const ValueId v = n_.first_output + k;
      out_ += "%" + std::to_string(v) + " : ";
      out_ += v < g_.num_values() ? print_type(g_.value(v).type) : "?";
    }
  }

  void print_operand(int64_t operand_index) {
    if (operand_index >= 0 && static_cast<size_t>(operand_index) < n_.operands.size()) {
      out_ += "%" + std::to_string(n_.operands[static_cast<size_t>(operand_index)]);
    } else {
      out_ += "%?";
    }
  }

  template <class Each>
  void print_list(uint32_t count, Each each) {
    out_ += '[';
    for (uint32_t k = 0; k < count; ++k) {
      if (k > 0) out_ += ", ";
      each(k);
    }
    out_ += ']';
  }

  void print_arg(const Arg& a) {
    switch (a.kind) {
      case ArgKind::None: out_ += "None"; return;
      case ArgKind::Tensor: print_operand(a.index); return;
      case ArgKind::TensorList:
        print_list(a.count, [&](uint32_t k) { print_operand(int64_t{a.index} + k); });
        return;
      case ArgKind::OptTensorList: {
        const auto ints = g_.int_pool(a);
        print_list(a.count, [&](uint32_t k) {
          if (ints[k] < 0) {
            out_ += "None";
          } else {
            print_operand(ints[k]);
          }
        });
        return;
      }
      case ArgKind::Scalar: out_ += "$" + std::to_string(a.index); return;
      case ArgKind::Generator: out_ += "$g" + std::to_string(a.index); return;
      case ArgKind::Int: out_ += std::to_string(a.i); return;
      case ArgKind::Double: print_double(out_, a.d); return;
      case ArgKind::Bool: print_bool(a.i); return;
      case ArgKind::IntList: {
        const auto ints = g_.int_pool(a);
        print_list(a.count, [&](uint32_t k) { out_ += std::to_string(ints[k]); });
        return;
      }
      case ArgKind::DoubleList: {
        const auto doubles = g_.double_pool(a);
        print_list(a.count, [&](uint32_t k) { print_double(out_, doubles[k]); });
        return;
      }
      case ArgKind::BoolList: {
        const auto ints = g_.int_pool(a);
        print_list(a.count, [&](uint32_t k) { print_bool(ints[k]); });
        return;
      }
      case ArgKind::String: print_string_literal(out_, g_.string_at(a)); return;
      case ArgKind::ScalarType: out_ += dtype_short_name(static_cast<ScalarType>(a.i)); return;
      case ArgKind::Device: print_device(out_, a.i, a.index); return;
      case ArgKind::Layout: out_ += a.i == static_cast<int64_t>(Layout::Strided) ? "strided" : "?layout"; return;
      case ArgKind::MemoryFormat:
        if (a.i == static_cast<int64_t>(MemoryFormat::Contiguous)) {
          out_ += "contiguous_format";
        } else if (a.i == static_cast<int64_t>(MemoryFormat::Preserve)) {
          out_ += "preserve_format";
        } else {
          out_ += "?memory_format";
        }
        return;
    }
    out_ += "?";
  }

  void print_bool(int64_t i) { out_ += i == 0 ? "false" : i == 1 ? "true" : "?" + std::to_string(i); }

  const Graph& g_;
  const Node& n_;
  std::string& out_;
};

void print_scalar_entry(std::string& out, uint32_t index, const Scalar& s) {
  out += "  $" + std::to_string(index) + " = ";
  switch (s.kind()) {
    case Scalar::Kind::Bool: out += s.to_bool() ? "true : bool" : "false : bool"; break;
    case Scalar::Kind::Int: out += std::to_string(s.to_long()) + " : int"; break;
    case Scalar::Kind::Double:
      print_double(out, s.to_double());
      out += " : double";
      break;
  }
  out += '\n';
}

}  // namespace

std::string_view dtype_short_name(ScalarType t) {
  const auto i = static_cast<int>(t);
  return i >= 0 && i < kNumScalarTypes ? kDtypeNames[i] : "?";
}

std::string print_type(const TensorMeta& type) {
  std::string out(dtype_short_name(type.dtype));
  out += '[';
  for (size_t k = 0; k < type.sizes.size(); ++k) {
    if (k > 0) out += ", ";
    out += std::to_string(type.sizes[k]);
  }
  out += ']';
  if (!type.device.is_cpu()) {
    out += '@';
    print_device(out, static_cast<int64_t>(type.device.type()), type.device.index());
  }
  return out;
}

std::string print_node(const Graph& g, NodeId id) {
  std::string out;
  if (id >= g.num_nodes()) return "?node " + std::to_string(id);
  NodePrinter(g, g.node(id), out).print();
  return out;
}

std::string print_graph(const Graph& g, std::span<const ValueId> outputs) {
  std::string out = "graph {\n";
  for (NodeId id = 0; id < g.num_nodes(); ++id) {
    out += "  ";
    out += print_node(g, id);
    out += '\n';
  }
  if (!outputs.empty()) {
    out += "  return ";
    for (size_t k = 0; k < outputs.size(); ++k) {
      if (k > 0) out += ", ";
      out += "%" + std::to_string(outputs[k]);
    }
    out += '\n';
  }
  out += "}\n";
  if (g.num_scalars() > 0) {
    out += "scalars {\n";
    for (uint32_t k = 0; k < g.num_scalars(); ++k) print_scalar_entry(out, k, g.scalar(k));
    out += "}\n";
  }
  if (g.num_generators() > 0) {
    out += "generators { ";
    for (size_t k = 0; k < g.num_generators(); ++k) {
      if (k > 0) out += ", ";
      out += "$g" + std::to_string(k);
    }
    out += " }\n";
  }
  return out;
}

std::ostream& operator<<(std::ostream& os, const Graph& g) { return os << print_graph(g); }

}  // namespace lz::ir
