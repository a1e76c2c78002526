// emit_kernel and the Emitter's setup: the entry points, the kernel
// arguments, the loop helpers and the walk over segments. The Emitter's
// other members are in kernel_emitter_exprs.cpp and
// kernel_emitter_stages.cpp (the class: kernel_emitter_impl.h).
#include "codegen_llvm/kernel_emitter.h"

#include <algorithm>
#include <functional>
#include <memory>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>

#include "codegen_llvm/kernel_emitter_impl.h"
#include "codegen_llvm/runtime_support.h"
#include "codegen_llvm/stage_plan.h"
#include "codegen_llvm/value_ops.h"

namespace lz::codegen_llvm {

namespace detail {

namespace {
// Kernels with more Param expressions than this keep them in stack slots
// instead of registers (Emitter::load_args).
constexpr int64_t kMaxHoistedParams = 16;
}  // namespace

Emitter::Emitter(const ir::Kernel& k, const VariantSpec& spec, llvm::Module& m)
    : k_(k), spec_(spec), m_(m), c_(m.getContext()), b_(c_) {
  i64_ = llvm::Type::getInt64Ty(c_);
  auto* slot = llvm::StructType::create(c_, {llvm::Type::getDoubleTy(c_), i64_, i64_}, "ParamSlot");
  auto* i64p = llvm::PointerType::getUnqual(i64_);
  auto* i8pp = llvm::PointerType::getUnqual(llvm::Type::getInt8PtrTy(c_));
  args_ty_ = llvm::StructType::create(
      c_, {i64_, i64_, i64p, i64p, i8pp, llvm::PointerType::getUnqual(slot), i64_, llvm::Type::getInt8PtrTy(c_), i64p,
           i64p},
      "KernelArgs");
  slot_ty_ = slot;
  width_ = std::max(4u, spec.vector_bits / 32);
  if (spec.cache_stages) cache_ = plan_stage_cache(k);
}

void Emitter::emit(const std::string& prefix) {
  const bool reduction = has_reductions(k_);
  if (spec_.split) {
    auto* accp = llvm::PointerType::getUnqual(i64_);
    emit_function(prefix + "_partial", {i64_, i64_, i64_, accp}, [&](llvm::Function* f) {
      emit_partial(f->getArg(1), f->getArg(2), f->getArg(3), f->getArg(4));
    });
    emit_function(prefix + "_finish", {i64_, accp},
                  [&](llvm::Function* f) { emit_finish(f->getArg(1), f->getArg(2)); });
    return;
  }
  emit_function(prefix + "_run", {i64_, i64_}, [&](llvm::Function* f) {
    if (spec_.columns) {
      emit_column_run(f->getArg(1), f->getArg(2));
    } else if (spec_.tiled()) {
      emit_tiled_run(f->getArg(1), f->getArg(2));
    } else if (reduction) {
      emit_reduction_run(f->getArg(1), f->getArg(2));
    } else {
      emit_pointwise_run(f->getArg(1), f->getArg(2));
    }
    // Streamed stores are weakly ordered: make them visible before the
    // launcher's threads report completion (streaming is x86-only).
    if (spec_.streaming) b_.CreateIntrinsic(llvm::Intrinsic::x86_sse_sfence, {}, {});
  });
}

void Emitter::emit_function(const std::string& name, std::vector<llvm::Type*> extra,
                            const std::function<void(llvm::Function*)>& body) {
  std::vector<llvm::Type*> params{llvm::PointerType::getUnqual(args_ty_)};
  params.insert(params.end(), extra.begin(), extra.end());
  auto* fty = llvm::FunctionType::get(llvm::Type::getVoidTy(c_), params, false);
  fn_ = llvm::Function::Create(fty, llvm::Function::ExternalLinkage, name, m_);
  fn_->addParamAttr(0, llvm::Attribute::NoAlias);
  fn_->addFnAttr(llvm::Attribute::NoUnwind);
  entry_ = llvm::BasicBlock::Create(c_, "entry", fn_);
  b_.SetInsertPoint(entry_);
  load_args(fn_->getArg(0));
  body(fn_);
  b_.CreateRetVoid();
}

Value* Emitter::field(Value* args, unsigned i, llvm::Type* ty) {
  return b_.CreateLoad(ty, b_.CreateStructGEP(args_ty_, args, i));
}

void Emitter::load_args(Value* args) {
  num_outer_ = field(args, 0, i64_);
  num_inner_ = field(args, 1, i64_);
  rank_ = b_.CreateAdd(num_outer_, num_inner_);
  sizes_ = field(args, 2, llvm::PointerType::getUnqual(i64_));
  strides_ = field(args, 3, llvm::PointerType::getUnqual(i64_));
  Value* data = field(args, 4, llvm::PointerType::getUnqual(llvm::Type::getInt8PtrTy(c_)));
  Value* params = field(args, 5, llvm::PointerType::getUnqual(slot_ty_));
  inner_count_ = field(args, 6, i64_);
  scratch_.clear();
  if (!cache_.writer.empty()) {
    Value* scratch = field(args, 7, llvm::Type::getInt8PtrTy(c_));
    for (size_t slot = 0; slot < cache_.writer.size(); ++slot) {
      Value* at = b_.CreateGEP(b_.getInt8Ty(), scratch, b_.CreateMul(inner_count_, b_.getInt64(cache_.offset[slot])));
      scratch_.push_back(at);
    }
  }
  base_.clear();
  seg_stride_.clear();
  walk_stride_.clear();
  hoisted_.assign(k_.accesses.size(), nullptr);
  next_row_.assign(k_.accesses.size(), nullptr);
  Value* seg_axis = b_.CreateSub(rank_, b_.getInt64(1));
  Value* vector_axis = spec_.columns ? b_.CreateSub(num_outer_, b_.getInt64(1)) : seg_axis;
  gather_stride_.assign(k_.accesses.size(), nullptr);
  gather_extent_.assign(k_.accesses.size(), nullptr);
  Value* gathers = nullptr;
  for (uint32_t a = 0; a < k_.accesses.size(); ++a) {
    if (!is_gathered(a)) continue;
    if (gathers == nullptr) {
      gathers = field(args, 8, llvm::PointerType::getUnqual(i64_));
      fault_ = field(args, 9, llvm::PointerType::getUnqual(i64_));
    }
    gather_stride_[a] = b_.CreateLoad(i64_, b_.CreateGEP(i64_, gathers, b_.getInt64(2 * a)));
    gather_extent_[a] = b_.CreateLoad(i64_, b_.CreateGEP(i64_, gathers, b_.getInt64(2 * a + 1)));
  }
  for (uint32_t a = 0; a < k_.accesses.size(); ++a) {
    llvm::Type* mem = memory_type(c_, buffer_dtype(a));
    Value* raw = b_.CreateLoad(llvm::Type::getInt8PtrTy(c_),
                               b_.CreateGEP(llvm::Type::getInt8PtrTy(c_), data, b_.getInt64(a)));
    base_.push_back(b_.CreateBitCast(raw, llvm::PointerType::getUnqual(mem)));
    // Reductions walk segments along the last (inner) axis, pointwise
    // kernels along the last outer axis: both are the last axis. Column
    // variants run their vectors along the last outer axis.
    walk_stride_.push_back(stride(a, seg_axis));
    seg_stride_.push_back(spec_.columns ? stride(a, vector_axis) : walk_stride_.back());
  }
  ValueOps scalar(b_, 1, spec_.math);
  leaf_.assign(k_.exprs.size(), nullptr);
  leaf_slot_.assign(k_.exprs.size(), nullptr);
  // LICM hoists every splat of a number out of the loops, so all of them
  // stay live across the loop: past the vector registers (W8's 50 numbers)
  // the register allocator spends most of the compile evicting and
  // spilling them. A kernel with that many numbers keeps them in stack
  // slots instead, reloaded where used (volatile: neither promoted to
  // registers nor hoisted); a broadcast load costs a load slot per use.
  const auto num_params = std::count_if(k_.exprs.begin(), k_.exprs.end(),
                                        [](const ir::Expr& e) { return e.op == ScalarOp::Param; });
  const bool params_in_slots = num_params > kMaxHoistedParams;
  for (size_t i = 0; i < k_.exprs.size(); ++i) {
    const ir::Expr& e = k_.exprs[i];
    if (e.op == ScalarOp::Param) {
      Value* slot = b_.CreateGEP(slot_ty_, params, b_.getInt64(e.index));
      Value* d = b_.CreateLoad(llvm::Type::getDoubleTy(c_), b_.CreateStructGEP(slot_ty_, slot, 0));
      Value* iv = b_.CreateLoad(i64_, b_.CreateStructGEP(slot_ty_, slot, 1));
      Value* is_float = b_.CreateICmpNE(b_.CreateLoad(i64_, b_.CreateStructGEP(slot_ty_, slot, 2)), b_.getInt64(0));
      leaf_[i] = b_.CreateSelect(is_float, scalar.convert(d, ScalarType::Double, e.dtype),
                                 scalar.convert(iv, ScalarType::Long, e.dtype));
      if (params_in_slots) {
        leaf_slot_[i] = entry_alloca(leaf_[i]->getType());
        b_.CreateStore(leaf_[i], leaf_slot_[i]);
      }
    } else if (e.op == ScalarOp::ReduceCount) {
      leaf_[i] = scalar.convert(inner_count_, ScalarType::Long, e.dtype);
    }
  }
  reduced_.assign(k_.reductions.size(), nullptr);
}

Value* Emitter::stride(uint32_t access, Value* axis) {
  Value* index = b_.CreateAdd(b_.CreateMul(b_.getInt64(access), rank_), axis);
  return b_.CreateLoad(i64_, b_.CreateGEP(i64_, strides_, index));
}
Value* Emitter::size(Value* axis) { return b_.CreateLoad(i64_, b_.CreateGEP(i64_, sizes_, axis)); }

Value* Emitter::entry_alloca(llvm::Type* ty) {
  llvm::IRBuilder<> at(&entry_->front());
  return at.CreateAlloca(ty);
}

// for (i = begin; i < end; i += body(i)), with the induction variable in
// memory (SROA/mem2reg turn it into a register).
void Emitter::emit_while(Value* begin, Value* end, const std::function<Value*(Value*)>& body) {
  Value* iv = entry_alloca(i64_);
  b_.CreateStore(begin, iv);
  auto* head = llvm::BasicBlock::Create(c_, "loop", fn_);
  auto* loop_body = llvm::BasicBlock::Create(c_, "body", fn_);
  auto* exit = llvm::BasicBlock::Create(c_, "exit", fn_);
  b_.CreateBr(head);
  b_.SetInsertPoint(head);
  Value* i = b_.CreateLoad(i64_, iv);
  b_.CreateCondBr(b_.CreateICmpSLT(i, end), loop_body, exit);
  b_.SetInsertPoint(loop_body);
  Value* step = body(i);
  b_.CreateStore(b_.CreateAdd(b_.CreateLoad(i64_, iv), step), iv);
  b_.CreateBr(head);
  b_.SetInsertPoint(exit);
}

void Emitter::emit_for(Value* begin, Value* end, Value* step, const std::function<void(Value*)>& body) {
  emit_while(begin, end, [&](Value* i) {
    body(i);
    return step;
  });
}

// body(ops, j) for the `count` points from j (0 <= count <= the vector
// width), as one vector whose lanes past `count` are masked off: a
// remainder costs one more copy of the vector code, not a scalar one
// (compile time: the scalar copy of a kernel's math is as large).
void Emitter::emit_masked(Value* j, Value* count, const std::function<void(ValueOps&, Value*)>& body) {
  auto* run = llvm::BasicBlock::Create(c_, "masked", fn_);
  auto* done = llvm::BasicBlock::Create(c_, "masked.done", fn_);
  b_.CreateCondBr(b_.CreateICmpSGT(count, b_.getInt64(0)), run, done);
  b_.SetInsertPoint(run);
  llvm::SmallVector<llvm::Constant*, 16> lanes;
  for (unsigned l = 0; l < width_; ++l) lanes.push_back(b_.getInt64(l));
  mask_ = b_.CreateICmpULT(llvm::ConstantVector::get(lanes), b_.CreateVectorSplat(width_, count));
  ValueOps ops(b_, width_, spec_.math);
  body(ops, j);
  mask_ = nullptr;
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
}

// Per access, the element offset of linear index `linear` over axes
// [first, last) (row-major), plus `extra`. No axis or one axis (the
// usual cases after merging) is inline arithmetic; more call
// codegen_llvm/runtime_support.h, once per segment.
Emitter::Ptrs Emitter::axis_offsets(Value* linear, Value* first, Value* last, const Ptrs& extra) {
  const auto n = static_cast<uint64_t>(base_.size());
  auto* ptr = llvm::PointerType::getUnqual(i64_);
  auto* array = llvm::ArrayType::get(i64_, std::max<uint64_t>(n, 1));
  Value* out = b_.CreateBitCast(entry_alloca(array), ptr);
  auto extra_of = [&](uint64_t a) { return extra.empty() ? b_.getInt64(0) : extra[a]; };
  auto* one_axis = llvm::BasicBlock::Create(c_, "offsets.one", fn_);
  auto* general = llvm::BasicBlock::Create(c_, "offsets.call", fn_);
  auto* done = llvm::BasicBlock::Create(c_, "offsets.done", fn_);
  Value* count = b_.CreateSub(last, first);
  for (uint64_t a = 0; a < n; ++a) b_.CreateStore(extra_of(a), b_.CreateGEP(i64_, out, b_.getInt64(a)));
  llvm::SwitchInst* sw = b_.CreateSwitch(count, general, 2);
  sw->addCase(b_.getInt64(0), done);
  sw->addCase(b_.getInt64(1), one_axis);
  b_.SetInsertPoint(one_axis);  // the coordinate is `linear` itself
  for (uint64_t a = 0; a < n; ++a) {
    b_.CreateStore(b_.CreateAdd(extra_of(a), b_.CreateMul(linear, stride(static_cast<uint32_t>(a), first))),
                   b_.CreateGEP(i64_, out, b_.getInt64(a)));
  }
  b_.CreateBr(done);
  b_.SetInsertPoint(general);
  Value* base = llvm::ConstantPointerNull::get(ptr);
  if (!extra.empty()) {
    base = b_.CreateBitCast(entry_alloca(array), ptr);
    for (uint64_t a = 0; a < n; ++a) b_.CreateStore(extra[a], b_.CreateGEP(i64_, base, b_.getInt64(a)));
  }
  llvm::FunctionCallee f = m_.getOrInsertFunction(
      kAxisOffsetsSymbol,
      llvm::FunctionType::get(llvm::Type::getVoidTy(c_),
                              {fn_->getArg(0)->getType(), i64_, i64_, i64_, i64_, ptr, ptr}, false));
  b_.CreateCall(f, {fn_->getArg(0), linear, first, last, b_.getInt64(n), base, out});
  b_.CreateBr(done);
  b_.SetInsertPoint(done);
  Ptrs offs;
  for (uint64_t a = 0; a < n; ++a) offs.push_back(b_.CreateLoad(i64_, b_.CreateGEP(i64_, out, b_.getInt64(a))));
  return offs;
}

// Walks linear indices [begin, end) over axes [first, rank) in segments
// along the last axis: body(pointers at the segment start, length, index
// of its first point).
void Emitter::for_segments(Value* begin, Value* end, Value* first, const Ptrs& extra,
                           const std::function<void(const Ptrs&, Value*, Value*)>& body) {
  emit_while(begin, end, [&](Value* i) {
    Value* seg_axis = b_.CreateSub(rank_, b_.getInt64(1));
    Value* seg_len = size(seg_axis);
    Value* row = b_.CreateUDiv(i, seg_len);
    Value* col = b_.CreateSub(i, b_.CreateMul(row, seg_len));
    Value* n = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, b_.CreateSub(seg_len, col), b_.CreateSub(end, i));
    const Ptrs offs = axis_offsets(row, first, seg_axis, extra);
    Ptrs ptrs;
    for (uint32_t a = 0; a < base_.size(); ++a) {
      Value* off = b_.CreateAdd(offs[a], b_.CreateMul(col, walk_stride_[a]));
      ptrs.push_back(b_.CreateGEP(memory_type(c_, buffer_dtype(a)), base_[a], off));
    }
    body(ptrs, n, i);
    return n;
  });
}

}  // namespace detail

std::unique_ptr<llvm::Module> emit_kernel(const ir::Kernel& k, const VariantSpec& spec, const std::string& prefix,
                                          llvm::LLVMContext& context) {
  auto m = std::make_unique<llvm::Module>(prefix, context);
  detail::Emitter(k, spec, *m).emit(prefix);
  return m;
}

JitEngine::EmitFn kernel_emit_fn(const ir::Kernel& k, VariantSpec spec, std::string prefix) {
  return [&k, spec = std::move(spec), prefix = std::move(prefix)](llvm::LLVMContext& context) {
    return emit_kernel(k, spec, prefix, context);
  };
}

}  // namespace lz::codegen_llvm
