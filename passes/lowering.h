// Lowerings: how one tensor operator becomes scalar expressions of the
// kernel IR. One table serves every code generator (they only see kernel
// IR). An operator without an entry is not fused: it runs as an eager step
// between kernels, named in the fusion plan with the reason.
//
// A lowering sees its node through a LowerContext: the expression of each
// tensor operand at the current point of the kernel's domain (broadcast,
// views and producers inside the group already resolved by the caller), its
// runtime scalars as kernel parameters, and, for reductions, a way to
// declare a reduction over the group's reduction axes.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "ir/graph.h"
#include "ir/kernel_ir.h"

namespace lz::passes {

class LowerContext {
 public:
  LowerContext(const ir::Graph& g, const ir::Node& n, ir::KernelBuilder& b) : g_(g), n_(n), b_(b) {}
  virtual ~LowerContext() = default;

  const ir::Graph& graph() const { return g_; }
  const ir::Node& node() const { return n_; }
  ir::KernelBuilder& builder() { return b_; }

  // Tensor operand `operand` (an index into node().operands) at the current
  // point, converted to `dtype`.
  ir::ExprId operand(uint32_t operand, ScalarType dtype);
  ScalarType operand_dtype(uint32_t operand) const;
  // Schema argument `argument` (a position, resolved once from the schema:
  // argument_position in core/op_id.h, shared_argument below; must exist).
  const ir::Arg& arg(uint32_t argument) const;
  // The operand index of Tensor argument `argument`; kNone when it is None.
  uint32_t tensor_arg(uint32_t argument) const;
  // Runtime Scalar argument `argument` as an expression of `dtype`;
  // `fallback` when the argument is None.
  ir::ExprId scalar(uint32_t argument, ScalarType dtype, double fallback = 0);
  // Schema argument `argument`, a tensor or a number (mul.Tensor and
  // mul.Scalar share one lowering), as the eager kernel computing in
  // `kernel_dtype` sees it: converted to that dtype, in its compute dtype
  // (a number for an f16/bf16 kernel is rounded to f16/bf16 first).
  ir::ExprId input(uint32_t argument, ScalarType kernel_dtype);
  // Whether Scalar argument `argument` is the special (hashed) value `v`.
  bool scalar_is(uint32_t argument, double v) const;
  ScalarType out_dtype(uint32_t output = 0) const;
  // The dtype the operator computes in given schema arguments `arguments`,
  // tensors or numbers (PyTorch's result_type, wrapped numbers included).
  ScalarType common_dtype(std::initializer_list<uint32_t> arguments) const;

  // Reduces `input` over the group's reduction axes; returns the reduced
  // value (constant over the inner points).
  virtual ir::ExprId reduce(ir::ReduceOp op, ir::ExprId input, ScalarType dtype) = 0;

  // Gathers (Lowering::gathered_operands). Tensor operand `operand` at the
  // current point, its dim `axis` at the int64 expression `index` instead
  // of the point's coordinate, in `dtype`: `steps` take the operand, `axis`
  // made size 1, to the shape the node's operands are read in (its
  // output's for pointwise nodes, the domain for reductions).
  virtual ir::ExprId gathered(uint32_t operand, int64_t axis, ir::ExprId index, ScalarType dtype,
                              std::vector<ir::ViewStep> steps) = 0;
  // Tensor operand `operand`, of at most one dimension, at the current
  // point's coordinate along output dim `axis`, converted to `dtype`.
  virtual ir::ExprId along(uint32_t operand, int64_t axis, ScalarType dtype) = 0;
  // The view step expanding a tensor to the shape the node's operands are
  // read in (its output's for pointwise nodes, the domain for reductions).
  virtual ir::ViewStep expand_to_point() = 0;

  // Pieces (Lowering::Kind::Place). The piece of the output along `axis`
  // starting at `offset` plus the sizes along `axis` of operands `after`,
  // as long as operand `size_operand` is there.
  virtual uint32_t piece(int64_t axis, int64_t offset, const std::vector<uint32_t>& after,
                         uint32_t size_operand) = 0;
  // Tensor operand `operand` placed in `pieces` (one per axis it is moved
  // along; its size elsewhere is the output's), converted to `dtype`: its
  // value where the point lies in all of them.
  virtual ir::ExprId placed(uint32_t operand, const std::vector<uint32_t>& pieces, ScalarType dtype) = 0;

 protected:
  virtual ir::ExprId operand_at_point(uint32_t operand) = 0;

 private:
  // A runtime scalar argument: a constant when special (0, 1), else a parameter.
  ir::ExprId scalar_value(const ir::Arg& a, ScalarType dtype);
  // Whether tensor operand `operand` is a C++ number wrapped as a 0-dim input.
  bool is_wrapped_number(uint32_t operand) const;

  const ir::Graph& g_;
  const ir::Node& n_;
  ir::KernelBuilder& b_;
};

// The dtype expressions of values of dtype `t` compute in: f16/bf16 compute
// in f32, as the eager kernels do.
ScalarType compute_dtype(ScalarType t);

struct Lowering {
  // Concat: the node's output is its operands, of one shape, side by side
  // (cat, stack). It is lowered at the store, not as an expression: the
  // kernel runs over an operand's shape and stores each operand through the
  // view `part` of the output (lower_group.cpp), so nothing in the kernel
  // reads the output itself.
  //
  // Place: the node's output holds its operands at offsets (cat of unequal
  // parts, constant_pad_nd): the kernel runs over the output's shape and
  // selects, by LowerContext::placed pieces, which operand a point reads.
  // Like a Concat, nothing in the kernel reads the output itself.
  enum class Kind : uint8_t { Pointwise, Reduction, Concat, Place };
  Kind kind = Kind::Pointwise;
  // Relative cost per element, for the recompute rule of the planner: the
  // cost of its costliest scalar operation (ir/scalar_ops.def).
  int cost = 1;
  // The expression of the node's output at the current point (of its first
  // output: a node whose other outputs are read runs eagerly).
  ir::ExprId (*lower)(LowerContext& cx) = nullptr;
  // Reductions: the reduced dims of the node's first operand (bit mask);
  // nullptr for pointwise operators.
  uint64_t (*reduce_axes)(const ir::Graph& g, const ir::Node& n) = nullptr;
  // Why this node cannot be lowered although its operator can (nullptr: it
  // can), e.g. integer division, whose eager kernel raises on a zero.
  const char* (*refuse)(const ir::Graph& g, const ir::Node& n) = nullptr;
  // Concatenations: the view step taking the output to the place of
  // operand `operand` (the step must not depend on sizes the graph does
  // not fix: an executable serves every size of its graph).
  ir::ViewStep (*part)(const ir::Graph& g, const ir::Node& n, uint32_t operand) = nullptr;
  // Operands (bit k: node operand k) read at computed indices
  // (LowerContext::gathered): loaded, or recomputed at the gathered points
  // when the planner moves a cheap element-wise producer only the gather
  // reads into the gather's kernel; never computed there at every point.
  uint64_t gathered_operands = 0;
  // Reductions: the operand whose shape is the domain (reduce_axes are its dims).
  uint32_t domain_operand = 0;
  // The lowering tried when `refuse` refuses a node (cat: Concat for equal
  // parts, else Place).
  const Lowering* otherwise = nullptr;
};

// The lowerings, indexed by OpId: each declared operator has a lowering, an
// explicit reason it has none ("not lowered: <reason>"), or neither (no
// entry: tests/passes/test_lowering_completeness.cpp says which operators
// may have none).
class LoweringTable {
 public:
  void add(OpId op, const Lowering& l);
  // `op` runs its eager kernel between kernels, for `reason`.
  void not_lowered(OpId op, std::string_view reason);

  const Lowering* find(OpId op) const;
  // The reason given to not_lowered; empty when none was.
  std::string_view not_lowered_reason(OpId op) const;

 private:
  struct Entry {
    std::optional<Lowering> lowering;
    std::string_view not_lowered;
  };
  std::array<Entry, kNumOpIds> entries_;
};
const LoweringTable& lowering_table();

// The lowering of `n`'s operator, or nullptr (then *why_not says why: "no
// lowering", "a random operator", ...). Also refuses nodes whose dtypes or
// arguments the lowering does not cover (a device change, complex dtypes).
const Lowering* find_lowering(const ir::Graph& g, const ir::Node& n, std::string* why_not);

namespace detail {
// The position of argument `name` in each operator of `ops`, which share a
// lowering: InternalError (at start-up) if an operator lacks it or has it
// elsewhere. Lowering files resolve their arguments with it once.
uint32_t shared_argument(std::initializer_list<OpId> ops, std::string_view name);

// The entries, one function per family (lowering_pointwise.cpp,
// lowering_reduction.cpp, lowering_concat.cpp, lowering_gather.cpp).
void add_pointwise_lowerings(LoweringTable& table);
void add_reduction_lowerings(LoweringTable& table);
void add_concat_lowerings(LoweringTable& table);
void add_gather_lowerings(LoweringTable& table);
}  // namespace detail

}  // namespace lz::passes
