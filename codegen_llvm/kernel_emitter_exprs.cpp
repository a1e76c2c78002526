// The Emitter's expressions (kernel_emitter_impl.h): loads and stores of
// the accesses at a point or a vector of points, the evaluation of the
// kernel's expressions there (Eval), uniform expressions and the scratch
// rows of cache_stages variants. Separate from the loops that call them
// (kernel_emitter.cpp, kernel_emitter_stages.cpp).
#include <algorithm>
#include <memory>

#include <llvm/IR/IRBuilder.h>

#include "codegen_llvm/kernel_emitter_impl.h"
#include "codegen_llvm/value_ops.h"

namespace lz::codegen_llvm::detail {

// Memory of access `a` at offset j (elements) of the segment starting at ptrs[a].
Value* Emitter::load(ValueOps& ops, const Ptrs& ptrs, uint32_t a, Value* j) {
  const ScalarType t = buffer_dtype(a);
  llvm::Type* mem = memory_type(c_, t);
  const unsigned w = ops.width();
  const llvm::Align align(mem->getPrimitiveSizeInBits() / 8);
  const StrideClass cls = spec_.classes[a];
  Value* raw;
  Value* mask = w > 1 ? mask_ : nullptr;
  if (cls == StrideClass::Broadcast && hoisted_[a] != nullptr) {
    raw = w > 1 ? b_.CreateVectorSplat(w, hoisted_[a]) : hoisted_[a];
  } else if (w == 1 || cls == StrideClass::Broadcast) {
    Value* at = cls == StrideClass::Broadcast ? ptrs[a] : element(ptrs, a, j);
    raw = b_.CreateAlignedLoad(mem, at, align);
    if (w > 1) raw = b_.CreateVectorSplat(w, raw);
  } else if (cls == StrideClass::Unit) {
    auto* vt = llvm::FixedVectorType::get(mem, w);
    Value* p = b_.CreateBitCast(b_.CreateGEP(mem, ptrs[a], j), llvm::PointerType::getUnqual(vt));
    raw = mask != nullptr ? static_cast<Value*>(b_.CreateMaskedLoad(vt, p, align, mask, llvm::Constant::getNullValue(vt)))
                          : b_.CreateAlignedLoad(vt, p, align);
  } else {
    auto* vt = llvm::FixedVectorType::get(mem, w);
    raw = b_.CreateMaskedGather(vt, lane_pointers(ptrs, a, j, w), align, mask,
                                mask != nullptr ? llvm::Constant::getNullValue(vt) : nullptr);
  }
  return ops.from_memory(raw, t);
}

// Memory of gathered access `a` at offset j of the segment, its gathered
// axis at `index` (a value of the kernel's width): lanes whose index is
// outside [0, extent) read nothing (0) and set KernelArgs::fault, so the
// launch reports the error after the kernel, as eager's kernels do.
Value* Emitter::gather(ValueOps& ops, const Ptrs& ptrs, uint32_t a, Value* j, Value* index) {
  const ScalarType t = buffer_dtype(a);
  llvm::Type* mem = memory_type(c_, t);
  const unsigned w = ops.width();
  const auto lanes = [&](Value* v) { return b_.CreateVectorSplat(w, v); };
  if (w == 1) index = lanes(index);
  Value* inside = b_.CreateICmpULT(index, lanes(gather_extent_[a]));
  // Masked-off lanes (emit_masked) read nothing and raise no fault.
  if (w > 1 && mask_ != nullptr) inside = b_.CreateSelect(mask_, inside, llvm::Constant::getNullValue(inside->getType()));
  Value* unfaulted = w > 1 && mask_ != nullptr ? b_.CreateOr(inside, b_.CreateNot(mask_)) : inside;
  Value* offset = b_.CreateMul(b_.CreateSelect(inside, index, lanes(b_.getInt64(0))), lanes(gather_stride_[a]));
  const bool one_row = w == 1 || spec_.classes[a] == StrideClass::Broadcast;
  Value* rows = one_row ? lanes(element(ptrs, a, j)) : lane_pointers(ptrs, a, j, w);
  auto* vt = llvm::FixedVectorType::get(mem, w);
  Value* raw = b_.CreateMaskedGather(vt, b_.CreateGEP(mem, rows, offset),
                                     llvm::Align(mem->getPrimitiveSizeInBits() / 8), inside,
                                     llvm::Constant::getNullValue(vt));
  // One conditional store per vector: the flag's cache line is written only on a fault.
  auto* flag_t = llvm::FixedVectorType::get(i64_, 1);
  Value* outside = b_.CreateVectorSplat(1, b_.CreateNot(b_.CreateAndReduce(unfaulted)));
  b_.CreateMaskedStore(b_.CreateVectorSplat(1, b_.getInt64(1)),
                       b_.CreateBitCast(fault_, llvm::PointerType::getUnqual(flag_t)), llvm::Align(8), outside);
  if (w == 1) raw = b_.CreateExtractElement(raw, uint64_t{0});
  return ops.from_memory(raw, t);
}

Value* Emitter::element(const Ptrs& ptrs, uint32_t a, Value* j) {
  llvm::Type* mem = memory_type(c_, buffer_dtype(a));
  switch (spec_.classes[a]) {
    case StrideClass::Broadcast: return ptrs[a];
    case StrideClass::Unit: return b_.CreateGEP(mem, ptrs[a], j);
    case StrideClass::Strided: return b_.CreateGEP(mem, ptrs[a], b_.CreateMul(j, seg_stride_[a]));
  }
  return ptrs[a];
}

Value* Emitter::lane_pointers(const Ptrs& ptrs, uint32_t a, Value* j, unsigned w) {
  llvm::SmallVector<llvm::Constant*, 16> lanes;
  for (unsigned l = 0; l < w; ++l) lanes.push_back(b_.getInt64(l));
  Value* idx = b_.CreateAdd(b_.CreateVectorSplat(w, j), llvm::ConstantVector::get(lanes));
  if (spec_.classes[a] != StrideClass::Unit) idx = b_.CreateMul(idx, b_.CreateVectorSplat(w, seg_stride_[a]));
  return b_.CreateGEP(memory_type(c_, buffer_dtype(a)), ptrs[a], idx);
}

// `aligned`: the vector store's address is a multiple of its size (or of
// 64 bytes), so a streaming variant may write it non-temporally.
void Emitter::store(ValueOps& ops, const Ptrs& ptrs, uint32_t a, Value* j, Value* v, bool aligned) {
  const ScalarType t = buffer_dtype(a);
  llvm::Type* mem = memory_type(c_, t);
  const unsigned bytes = mem->getPrimitiveSizeInBits() / 8;
  Value* raw = ops.to_memory(v, t);
  const unsigned w = ops.width();
  if (w == 1) {
    b_.CreateAlignedStore(raw, element(ptrs, a, j), llvm::Align(bytes));
  } else if (spec_.classes[a] == StrideClass::Unit) {
    auto* vt = llvm::FixedVectorType::get(mem, w);
    Value* at = b_.CreateBitCast(b_.CreateGEP(mem, ptrs[a], j), llvm::PointerType::getUnqual(vt));
    if (mask_ != nullptr) {
      b_.CreateMaskedStore(raw, at, llvm::Align(bytes), mask_);
      return;
    }
    if (!aligned) {
      b_.CreateAlignedStore(raw, at, llvm::Align(bytes));
      return;
    }
    llvm::StoreInst* st = b_.CreateAlignedStore(raw, at, llvm::Align(std::min(64u, w * bytes)));
    st->setMetadata(llvm::LLVMContext::MD_nontemporal,
                    llvm::MDNode::get(c_, {llvm::ConstantAsMetadata::get(b_.getInt32(1))}));
  } else {
    // Lanes in order: with a broadcast store the last point's value wins, as in the interpreter.
    b_.CreateMaskedScatter(raw, lane_pointers(ptrs, a, j, w), llvm::Align(bytes), mask_);
  }
}

Emitter::Eval::Eval(Emitter& e, ValueOps& o, const Ptrs& p, Value* at)
    : em(e), ops(o), ptrs(p), j(at), memo(e.k_.exprs.size(), nullptr) {}

// The scalar evaluation of uniform expressions, made on first use.
Emitter::Eval& Emitter::Eval::scalar() {
  if (scalar_eval == nullptr) {
    scalar_ops = std::make_unique<ValueOps>(em.b_, 1, em.spec_.math);
    scalar_eval = std::make_unique<Eval>(em, *scalar_ops, ptrs, j);
  }
  return *scalar_eval;
}

Value* Emitter::Eval::get(ExprId id) {
  if (memo[id] != nullptr) return memo[id];
  const int32_t slot = em.group_ >= 0 && !em.cache_.slot_of.empty() ? em.cache_.slot_of[id] : -1;
  if (slot >= 0 && em.cache_.writer[slot] != static_cast<uint32_t>(em.group_)) {
    memo[id] = em.scratch_access(ops, slot, id, j, nullptr);
    return memo[id];
  }
  Value* v = compute(id);
  if (slot >= 0) em.scratch_access(ops, slot, id, j, v);
  const ir::Expr& e = em.k_.exprs[id];
  if (!(e.op == ScalarOp::Load && em.is_output(e.index))) memo[id] = v;
  return v;
}

Value* Emitter::Eval::compute(ExprId id) {
  const ir::Expr& e = em.k_.exprs[id];
  Value* v = nullptr;
  switch (e.op) {
    case ScalarOp::Load: {
      const ScalarType bt = em.buffer_dtype(e.index);
      v = ops.convert(em.load(ops, ptrs, e.index, j), bt, e.dtype);
      break;
    }
    case ScalarOp::Gather: {
      if (ops.width() > 1 && em.is_uniform(id)) {
        v = ops.splat(scalar().get(id));
        break;
      }
      const ScalarType bt = em.buffer_dtype(e.index);
      v = ops.convert(em.gather(ops, ptrs, e.index, j, get(e.operands[0])), bt, e.dtype);
      break;
    }
    case ScalarOp::Constant: v = ops.constant(e); break;
    case ScalarOp::InPiece: {
      ir::Expr c;
      c.op = ScalarOp::Constant;
      c.dtype = ScalarType::Bool;
      c.iconstant = e.index < em.spec_.in_piece.size() && em.spec_.in_piece[e.index] ? 1 : 0;
      v = ops.constant(c);
      break;
    }
    case ScalarOp::Param:
      if (ops.width() > 1 && em.leaf_slot_[id] != nullptr) {
        v = ops.splat(em.b_.CreateLoad(em.leaf_[id]->getType(), em.leaf_slot_[id], /*isVolatile=*/true));
        break;
      }
      v = ops.splat(em.leaf_[id]);
      break;
    case ScalarOp::ReduceCount: v = ops.splat(em.leaf_[id]); break;
    case ScalarOp::Reduced: {
      const ScalarType rt = em.k_.reductions[e.index].dtype;
      if (em.spec_.columns) {  // one value per column: a vector of this width already
        v = ops.convert(em.reduced_[e.index], rt, e.dtype);
        break;
      }
      ValueOps scalar(em.b_, 1, em.spec_.math);
      v = ops.splat(scalar.convert(em.reduced_[e.index], rt, e.dtype));
      break;
    }
    default: {
      const int n = ir::arity(e.op);
      const ScalarType operand = em.k_.exprs[e.operands[n == 3 ? 1 : 0]].dtype;
      if (ops.width() > 1 && em.is_uniform(id)) {
        // The same at every point (layer_norm's rsqrt of the variance):
        // computed once as a scalar, not in every lane.
        v = ops.splat(scalar().get(id));
      } else if (n == 1) {
        v = ops.unary(e.op, get(e.operands[0]), operand, e.dtype);
      } else {
        // Operands in order, each emitted just before the next (not in the
        // compiler's order of a call's arguments): a number reloaded from
        // its slot (load_args) then sits next to its use.
        Value* a = get(e.operands[0]);
        Value* b = get(e.operands[1]);
        if (e.op == ScalarOp::Div && is_floating_point(e.dtype) && ops.width() > 1 && em.is_uniform(e.operands[1])) {
          v = ops.div_by_invariant(a, b, e.dtype);
        } else if (n == 2) {
          v = ops.binary(e.op, a, b, operand, e.dtype);
        } else {
          Value* c = ops.truth(a, em.k_.exprs[e.operands[0]].dtype);
          v = em.b_.CreateSelect(c, b, get(e.operands[2]));
        }
      }
    }
  }
  return v;
}

// Whether expression `id` is the same at every point of a segment: no
// load that moves along the segment axis feeds it.
bool Emitter::is_uniform(ExprId id) {
  if (uniform_.empty()) {
    uniform_.assign(k_.exprs.size(), 1);
    for (size_t i = 0; i < k_.exprs.size(); ++i) {
      const ir::Expr& e = k_.exprs[i];
      if (e.op == ScalarOp::Load) uniform_[i] = spec_.classes[e.index] == StrideClass::Broadcast && !is_output(e.index);
      if (e.op == ScalarOp::Gather) uniform_[i] = spec_.classes[e.index] == StrideClass::Broadcast;
      if (e.op == ScalarOp::Reduced && spec_.columns) uniform_[i] = 0;
      for (int o = 0; o < ir::arity(e.op); ++o) uniform_[i] &= uniform_[e.operands[o]];
    }
  }
  return uniform_[id] != 0;
}

// Reads (value == nullptr) or writes the kept value of expression `id`
// at inner point seg_first_ + j of the scratch row of `slot`.
Value* Emitter::scratch_access(ValueOps& ops, int32_t slot, ExprId id, Value* j, Value* value) {
  llvm::Type* elem = compute_type(c_, k_.exprs[id].dtype);
  Value* base = b_.CreateBitCast(scratch_[static_cast<size_t>(slot)], llvm::PointerType::getUnqual(elem));
  Value* at = b_.CreateGEP(elem, base, b_.CreateAdd(seg_first_, j));
  llvm::Type* ty = ops.type(k_.exprs[id].dtype);
  at = b_.CreateBitCast(at, llvm::PointerType::getUnqual(ty));
  const llvm::Align align(elem->getPrimitiveSizeInBits() / 8);
  if (mask_ != nullptr && ops.width() > 1) {
    if (value == nullptr) return b_.CreateMaskedLoad(ty, at, align, mask_, llvm::Constant::getNullValue(ty));
    b_.CreateMaskedStore(value, at, align, mask_);
    return value;
  }
  if (value == nullptr) return b_.CreateAlignedLoad(ty, at, align);
  b_.CreateAlignedStore(value, at, align);
  return value;
}

}  // namespace lz::codegen_llvm::detail
