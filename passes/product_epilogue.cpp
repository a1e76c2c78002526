#include "passes/product_epilogue.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/operator_info.h"

namespace lz::passes {

namespace {

// The product computed by eager group `p` (mm or addmm of 2-D float32,
// float16 or bfloat16 matrices on the CPU: the products
// cpu::matmul_with_epilogue computes), or kNone.
ir::ValueId product_of(const ir::Graph& g, const FusionGroup& p) {
  if (p.is_kernel() || p.nodes.size() != 1) return ir::kNone;
  const ir::Node& n = g.node(p.nodes[0]);
  if (n.is_input() || (n.op->id != OpId::mm && n.op->id != OpId::addmm)) return ir::kNone;
  const TensorMeta& t = g.value(n.first_output).type;
  const bool packed = t.dtype == ScalarType::Float || t.dtype == ScalarType::Half || t.dtype == ScalarType::BFloat16;
  if (!packed || !t.device.is_cpu() || t.sizes.size() != 2) return ir::kNone;
  return n.first_output;
}

// Why kernel group `k` cannot run on blocks of `product`'s result, or ""
// when it can: its points must be independent of one another and of where
// the block lies (no reduction, piece or gather), and it must read the
// product only at the point it computes.
std::string why_not_epilogue(const ir::Graph& g, const FusionGroup& k, ir::ValueId product) {
  const ir::Kernel& kernel = k.kernel;
  if (kernel.rank != 2 || g.value(k.domain).type.sizes != g.value(product).type.sizes) {
    return "its domain is not the product's result";
  }
  if (kernel.is_reduction() || !kernel.pieces.empty()) return "it reduces or has pieces";
  if (std::any_of(kernel.exprs.begin(), kernel.exprs.end(), [](const ir::Expr& e) { return e.op == ir::ScalarOp::Gather; })) {
    return "it gathers";
  }
  bool reads_product = false;
  for (const ir::Access& a : kernel.accesses) {
    if (k.buffer_values[a.buffer] != product || kernel.buffers[a.buffer].output) continue;
    if (!a.views.empty()) return "it reads the product through a view";
    reads_product = true;
  }
  return reads_product ? "" : "it does not read the product";
}

}  // namespace

void mark_product_epilogues(const ir::Graph& g, FusionPlan& plan) {
  for (size_t i = 1; i < plan.groups.size(); ++i) {
    FusionGroup& k = plan.groups[i];
    if (!k.is_kernel()) continue;
    const ir::ValueId product = product_of(g, plan.groups[i - 1]);
    if (product == ir::kNone) continue;
    const std::string why_not = why_not_epilogue(g, k, product);
    const std::string& op = g.producer(product).op->name;
    if (!why_not.empty()) {
      plan.decisions.push_back(absl::StrCat("kernel ", k.kernel.name, " is not the epilogue of %", product, " (",
                                            op, "): ", why_not));
      continue;
    }
    k.product_epilogue = true;
    plan.decisions.push_back(absl::StrCat("kernel ", k.kernel.name, " is the epilogue of %", product, " (", op,
                                          "): run on each finished block of the product"));
  }
}

}  // namespace lz::passes
