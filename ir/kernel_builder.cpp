// KernelBuilder: appends to a Kernel, deduplicating expressions and accesses.
#include <string>

#include "core/error.h"
#include "ir/kernel_ir.h"

namespace lz::ir {

namespace {

// The identity of an expression as bytes (fields copied one by one: no padding).
std::string expr_key(const Expr& e) {
  std::string key;
  const auto put = [&key](const auto& field) { key.append(reinterpret_cast<const char*>(&field), sizeof field); };
  put(e.op);
  put(e.dtype);
  put(e.operands);
  put(e.index);
  put(e.constant);
  put(e.iconstant);
  return key;
}

}  // namespace

bool Access::gathered() const {
  for (const ViewStep& v : views) {
    if (v.kind == ViewStep::Kind::Gathered) return true;
  }
  return false;
}

std::string key_of(const std::vector<ViewStep>& views) {
  std::string key;
  for (const ViewStep& v : views) {
    key += ";" + std::to_string(static_cast<int>(v.kind));
    for (int64_t i : v.ints) key += "," + std::to_string(i);
  }
  return key;
}

ExprId KernelBuilder::add(const Expr& e) {
  const auto [it, inserted] = exprs_.emplace(expr_key(e), static_cast<ExprId>(k_->exprs.size()));
  if (inserted) k_->exprs.push_back(e);
  return it->second;
}

ExprId KernelBuilder::load(uint32_t access, ScalarType dtype) {
  Expr e;
  e.op = ScalarOp::Load;
  e.dtype = dtype;
  e.index = access;
  return add(e);
}

ExprId KernelBuilder::gather(uint32_t access, ExprId index, ScalarType dtype) {
  Expr e;
  e.op = ScalarOp::Gather;
  e.dtype = dtype;
  e.index = access;
  e.operands[0] = index;
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

ExprId KernelBuilder::in_piece(uint32_t piece) {
  Expr e;
  e.op = ScalarOp::InPiece;
  e.dtype = ScalarType::Bool;
  e.index = piece;
  return add(e);
}

uint32_t KernelBuilder::add_piece(Piece p) {
  for (uint32_t i = 0; i < k_->pieces.size(); ++i) {
    if (k_->pieces[i] == p) return i;
  }
  k_->pieces.push_back(std::move(p));
  return static_cast<uint32_t>(k_->pieces.size() - 1);
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
  const auto [it, inserted] = accesses_.emplace(std::to_string(a.buffer) + key_of(a.views), static_cast<uint32_t>(k_->accesses.size()));
  if (inserted) k_->accesses.push_back(std::move(a));
  return it->second;
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
