// The tensor-level graph IR: compact SSA over operators of the dispatcher.
//
// A Graph is a set of arenas: nodes, values, node arguments and the pools
// their lists and runtime parameters live in, all contiguous vectors that
// keep their capacity across clear(), so a trace that is recorded, run and
// cleared every iteration allocates nothing per node once warm.
//
//   %0 : f32[4, 8] = input 0
//   %1 : f32[4, 8] = exp(%0)
//   %2 : f32[4, 8] = add.Tensor(%1, %0, alpha=$0)
//
// Values are small integer ids. Every value has a type (TensorMeta: dtype,
// sizes, device; strides are the executor's business). Every node's
// structural hash is computed when it is added, from its operator, its
// attributes, the hashes of its operands and the dtypes/ranks of its
// results, so hashing a graph costs O(outputs). Sizes are not hashed: they
// reach the hash only through attributes that name them (a view's shape).
//
// Node arguments follow the operator's schema one to one: a Tensor argument
// is an operand, a Scalar is a runtime parameter (its value is not hashed: a
// learning rate that changes every step keeps the graph's hash; only a few
// special values are, see is_special_scalar), a Generator
// is a runtime parameter too, everything else (ints, floats, lists, dtypes)
// is an attribute and hashed.
//
// A graph holds no tensors and no generators: its inputs and generators are
// numbered slots that whoever runs it binds (the lazy trace keeps the
// tensors and generators it recorded beside its graph, lazy/graph_data.h).
//
// The loop-level kernel IR that fusion lowers groups into will live next to
// this one in ir/ (ir/kernel_*.h); it refers to graph values by ValueId.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "absl/container/inlined_vector.h"
#include "core/layout.h"
#include "core/operator_info.h"
#include "core/scalar.h"
#include "core/tensor_meta.h"

namespace lz::ir {

using ValueId = uint32_t;
using NodeId = uint32_t;
inline constexpr uint32_t kNone = UINT32_MAX;

// How one schema argument of a node is stored.
enum class ArgKind : uint8_t {
  None,           // an absent optional argument
  Tensor,         // operand `index`
  TensorList,     // operands [index, index + count)
  OptTensorList,  // `count` entries at int pool [index..): operand number, or -1 for None
  Scalar,         // runtime scalar `index` of the graph's scalar pool
  Generator,      // runtime generator `index` (bound by whoever runs the graph)
  Int,            // i
  Double,         // d
  Bool,           // i (0/1)
  IntList,        // `count` ints at int pool [index..)
  DoubleList,     // `count` doubles at double pool [index..)
  BoolList,       // `count` 0/1 ints at int pool [index..)
  String,         // string pool `index`
  ScalarType,     // i
  Device,         // i = device type, index = device index
  Layout,         // i
  MemoryFormat,   // i
};
std::string_view to_string(ArgKind kind);

struct Arg {
  ArgKind kind = ArgKind::None;
  uint32_t index = 0;
  uint32_t count = 0;
  union {
    int64_t i = 0;
    double d;
  };
};

struct Node {
  const OperatorInfo* op = nullptr;  // nullptr: a graph input
  uint64_t hash = 0;
  ValueId first_output = 0;
  uint32_t num_outputs = 0;
  uint32_t args_begin = 0;  // into the argument arena
  uint32_t num_args = 0;
  uint32_t input_index = kNone;        // inputs: position in the input list
  // Inputs: the value is a C++ number wrapped as a 0-dim tensor (x * 0.5),
  // which promotes as a scalar where a 0-dim tensor would not.
  bool wrapped_number = false;
  // Random operators that draw from the default generator (no Generator
  // argument): the runtime generator that serves their call.
  uint32_t implicit_generator = kNone;
  absl::InlinedVector<ValueId, 3> operands;

  bool is_input() const { return op == nullptr; }
};

struct Value {
  TensorMeta type;
  NodeId node = 0;
  uint32_t output_index = 0;
  uint64_t hash = 0;
};

class Graph {
 public:
  Graph() = default;
  Graph(const Graph&) = delete;
  Graph& operator=(const Graph&) = delete;
  Graph(Graph&&) = default;
  Graph& operator=(Graph&&) = default;

  // ---- Building ------------------------------------------------------------
  // A graph input of `type`. The graph holds no data: whoever runs it
  // binds a tensor to each input (the lazy trace does). Its hash covers
  // dtype, rank, device, its position among the inputs and whether it is a
  // wrapped number, never its sizes or data.
  ValueId add_input(const TensorMeta& type, bool wrapped_number = false);

  // Pools for argument payloads; each returns the Arg to pass to add_node.
  // Inline: recording builds one per Scalar argument, and inlined the Arg
  // is stored field by field where it goes (a copy of one just built on
  // the stack stalls on store forwarding).
  Arg scalar_arg(const Scalar& s) {
    Arg a;
    a.kind = ArgKind::Scalar;
    a.index = static_cast<uint32_t>(scalars_.size());
    a.i = static_cast<int64_t>(s.kind());
    scalars_.push_back(s);
    return a;
  }
  // A random operator's generator: the graph only numbers them; whoever
  // runs it binds a generator to each number (the lazy trace does).
  Arg generator_arg();
  Arg int_list_arg(IntArrayRef values, ArgKind kind = ArgKind::IntList);
  Arg double_list_arg(std::span<const double> values);
  Arg string_arg(std::string_view s);
  // Argument `a` of a node of `src`, its pooled payload (lists, strings;
  // Scalars too when `copy_scalars`) copied into this graph's pools: what
  // copying the node into this graph passes to add_node. A generator
  // argument is copied as its number.
  Arg copied_arg(const Graph& src, const Arg& a, bool copy_scalars);
  uint32_t add_generator() { return num_generators_++; }

  // Appends a node of `op` with schema arguments `args` (Tensor/TensorList
  // args index into `operands`), results typed `outputs`; returns its first
  // output value (the others follow consecutively).
  ValueId add_node(const OperatorInfo& op, std::span<const Arg> args,
                   std::span<const ValueId> operands, std::span<const TensorMeta> outputs,
                   uint32_t implicit_generator = kNone);

  // Drops every node and value; keeps the arenas' capacity.
  void clear();

  // ---- Reading -------------------------------------------------------------
  size_t num_nodes() const { return nodes_.size(); }
  size_t num_values() const { return values_.size(); }
  size_t num_inputs() const { return inputs_.size(); }
  const Node& node(NodeId id) const { return nodes_[id]; }
  const Value& value(ValueId id) const { return values_[id]; }
  const Node& producer(ValueId id) const { return nodes_[values_[id].node]; }
  std::span<const Arg> args(const Node& n) const {
    return {args_.data() + n.args_begin, n.num_args};
  }
  ValueId input_value(uint32_t input_index) const { return inputs_[input_index]; }
  const Scalar& scalar(uint32_t index) const { return scalars_[index]; }
  size_t num_scalars() const { return scalars_.size(); }
  size_t num_generators() const { return num_generators_; }
  std::span<const int64_t> int_pool(const Arg& a) const { return {ints_.data() + a.index, a.count}; }
  std::span<const double> double_pool(const Arg& a) const {
    return {doubles_.data() + a.index, a.count};
  }
  std::string_view string_at(const Arg& a) const { return strings_[a.index]; }

  // The hash of a list of values (order matters): O(values.size()).
  uint64_t hash_of(std::span<const ValueId> values) const;

 private:
  std::vector<Node> nodes_;
  std::vector<Value> values_;
  std::vector<Arg> args_;
  std::vector<int64_t> ints_;
  std::vector<double> doubles_;
  std::vector<std::string> strings_;
  std::vector<Scalar> scalars_;
  std::vector<ValueId> inputs_;
  uint32_t num_generators_ = 0;
};

// A schema argument of a declared operator, by position, resolved once from
// its declared schema (core/operators.def):
//   static const ArgRef kDims = arg_ref(OpId::permute, "dims");
struct ArgRef {
  OpId op = OpId::kNone;
  uint32_t index = 0;
};
// InternalError when the operator's schema has no argument `name`.
ArgRef arg_ref(OpId op, std::string_view name);
// Argument `r` of node `n`, a node of r.op; nullptr when the node has fewer
// arguments (a parsed graph may leave trailing defaults out).
const Arg* arg(const Graph& g, const Node& n, ArgRef r);
// Whether `n` is a node of operator `op`.
inline bool is_op(const Node& n, OpId op) { return n.op != nullptr && n.op->id == op; }

// The hash of graph input `input_index`.
uint64_t input_hash(uint32_t input_index, bool wrapped_number);

// The hash of a value of `type` made by a node with hash `node_hash`.
uint64_t value_hash(uint64_t node_hash, uint32_t output_index, const TensorMeta& type);

// A "special" runtime scalar: exactly 0, 1, 2, 3, -1, -2, 0.5 or -0.5 (bool,
// int, or those doubles; -0.0 is not special). Hashing treats these by value
// (the PyTorch LTC rule), so passes may fold on them (x * 1 -> x) and
// lowerings specialise on them (pow(x, 0.5) is sqrt, as eagerly) and stay
// sound for a cached executable; every other value stays a runtime parameter.
bool is_special_scalar(const Scalar& s);

}  // namespace lz::ir
