// KernelBuilder: appends to a Kernel, deduplicating expressions and accesses.
#include <cmath>
#include <cstring>

#include "core/error.h"
#include "ir/kernel_ir.h"

namespace lz::ir {

namespace {

bool same_expr(const Expr& a, const Expr& b) {
  return a.op == b.op && a.dtype == b.dtype && a.operands[0] == b.operands[0] &&
         a.operands[1] == b.operands[1] && a.operands[2] == b.operands[2] && a.index == b.index &&
         std::memcmp(&a.constant, &b.constant, sizeof(double)) == 0 && a.iconstant == b.iconstant;
}

}  // namespace

ExprId KernelBuilder::add(const Expr& e) {
  // Kernels hold tens of expressions: a backwards scan finds the common
  // case (a value just built) at once and costs nothing worth a hash map.
  for (size_t i = k_->exprs.size(); i-- > 0;) {
    if (same_expr(k_->exprs[i], e)) return static_cast<ExprId>(i);
  }
  k_->exprs.push_back(e);
  return static_cast<ExprId>(k_->exprs.size() - 1);
}

ExprId KernelBuilder::load(uint32_t access, ScalarType dtype) {
  Expr e;
  e.op = ScalarOp::Load;
  e.dtype = dtype;
  e.index = access;
  return add(e);
}

ExprId KernelBuilder::constant(double value, ScalarType dtype) {
  Expr e;
  e.op = ScalarOp::Constant;
  e.dtype = dtype;
  if (is_floating_point(dtype)) {
    e.constant = value;
  } else if (dtype == ScalarType::Bool) {
    e.iconstant = value != 0 ? 1 : 0;
  } else {
    e.iconstant = static_cast<int64_t>(value);
  }
  return add(e);
}

ExprId KernelBuilder::param(uint32_t index, ScalarType dtype) {
  Expr e;
  e.op = ScalarOp::Param;
  e.dtype = dtype;
  e.index = index;
  if (index >= k_->num_params) k_->num_params = index + 1;
  return add(e);
}

ExprId KernelBuilder::reduce_count(ScalarType dtype) {
  Expr e;
  e.op = ScalarOp::ReduceCount;
  e.dtype = dtype;
  return add(e);
}

ExprId KernelBuilder::reduced(uint32_t reduction) {
  Expr e;
  e.op = ScalarOp::Reduced;
  e.dtype = k_->reductions.at(reduction).dtype;
  e.index = reduction;
  return add(e);
}

ExprId KernelBuilder::unary(ScalarOp op, ExprId a, ScalarType dtype) {
  Expr e;
  e.op = op;
  e.dtype = dtype;
  e.operands[0] = a;
  return add(e);
}

ExprId KernelBuilder::cast(ExprId a, ScalarType dtype) {
  if (k_->exprs[a].dtype == dtype) return a;
  return unary(ScalarOp::Cast, a, dtype);
}

ExprId KernelBuilder::binary(ScalarOp op, ExprId a, ExprId b, ScalarType dtype) {
  Expr e;
  e.op = op;
  e.dtype = dtype;
  e.operands[0] = a;
  e.operands[1] = b;
  return add(e);
}

ExprId KernelBuilder::select(ExprId cond, ExprId a, ExprId b, ScalarType dtype) {
  Expr e;
  e.op = ScalarOp::Select;
  e.dtype = dtype;
  e.operands[0] = cond;
  e.operands[1] = a;
  e.operands[2] = b;
  return add(e);
}

uint32_t KernelBuilder::add_buffer(ScalarType dtype, uint32_t rank, bool output) {
  k_->buffers.push_back(KernelBuffer{dtype, rank, output});
  return static_cast<uint32_t>(k_->buffers.size() - 1);
}

uint32_t KernelBuilder::add_access(Access a) {
  for (size_t i = 0; i < k_->accesses.size(); ++i) {
    if (k_->accesses[i] == a) return static_cast<uint32_t>(i);
  }
  k_->accesses.push_back(std::move(a));
  return static_cast<uint32_t>(k_->accesses.size() - 1);
}

uint32_t KernelBuilder::add_reduction(ReduceOp op, ExprId input, ScalarType dtype) {
  k_->reductions.push_back(Reduction{op, input, dtype});
  const auto index = static_cast<uint32_t>(k_->reductions.size() - 1);
  k_->stages.push_back(Stage{Stage::Kind::Reduce, index});
  return index;
}

uint32_t KernelBuilder::add_store(uint32_t access, ExprId value, bool reduced) {
  k_->stores.push_back(Store{access, value, reduced});
  const auto index = static_cast<uint32_t>(k_->stores.size() - 1);
  k_->stages.push_back(Stage{Stage::Kind::Store, index});
  return index;
}

}  // namespace lz::ir
