// Helpers shared by the canonicalisation passes (canonicalize_*.cpp):
// special scalars and the node-by-node rewrite driver most passes are built on.
// Internal to passes/.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string_view>

#include "ir/graph.h"
#include "passes/graph_rewriter.h"
#include "passes/pass_manager.h"

namespace lz::passes::detail {

// The value a Tensor argument refers to.
inline ir::ValueId operand_of(const ir::Node& n, const ir::Arg& a) { return n.operands[a.index]; }

// 0 or 1 when `a` is a Scalar argument holding one of those special
// scalars (ir::is_special_scalar: hashed by value, so a fold on it is
// cached soundly); nullopt for any other scalar or argument.
std::optional<int> special_value(const ir::Graph& g, const ir::Arg* a);

// A Bool argument's value; nullopt when absent (None) or not a Bool.
std::optional<bool> bool_value(const ir::Arg* a);

// The integer list of an IntList argument.
inline std::span<const int64_t> int_list(const ir::Graph& g, const ir::Arg& a) { return g.int_pool(a); }

// `dim` wrapped into [0, rank) (PyTorch's wrap_dim; rank 0 wraps as 1).
int64_t wrap_dim(int64_t dim, size_t rank);

// The rank of value `v`.
inline size_t rank_of(const ir::Graph& g, ir::ValueId v) { return g.value(v).type.sizes.size(); }

// The driver of the local rewrite passes: walks the source nodes in order;
// for each non-input node with one result, `rule(rw, node)` returns the
// new-graph value that replaces its result (it may add nodes to do so), or
// kNone to copy the node unchanged. A replacement whose type (dtype, sizes,
// device) differs from the replaced value's is refused: the node is copied.
// Rules read operands through rw.mapped() and their producers in
// rw.graph(), so chains collapse in one walk. Returns whether anything was
// replaced; only then is `p` replaced by the rewritten program.
using NodeRule = std::function<ir::ValueId(GraphRewriter& rw, ir::NodeId node)>;
bool rewrite_nodes(Program& p, const NodeRule& rule);

// A Pass made of a name and a function.
class FunctionPass final : public Pass {
 public:
  FunctionPass(std::string_view name, bool (*fn)(Program&)) : name_(name), fn_(fn) {}
  std::string_view name() const override { return name_; }
  bool run(Program& p) override { return fn_(p); }

 private:
  std::string_view name_;
  bool (*fn_)(Program&);
};

}  // namespace lz::passes::detail
