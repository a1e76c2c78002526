#include "codegen_llvm/kernel_emitter.h"

#include <algorithm>
#include <functional>
#include <memory>

#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsX86.h>
#include <llvm/IR/Module.h>

#include "codegen_llvm/runtime_support.h"
#include "codegen_llvm/stage_plan.h"
#include "codegen_llvm/value_ops.h"

namespace lz::codegen_llvm {

using ir::ExprId;
using ir::ScalarOp;
using llvm::Value;

namespace {

// Reductions add vector partials into their (double for float sums)
// accumulator once per block: long rows keep float32 precision without
// paying for double arithmetic per element.
constexpr int64_t kBlock = 4096;
constexpr int kChains = 4;  // a power of two (joined as a tree)
// How far ahead streaming loops prefetch their unit-stride inputs. This
// VM's hardware prefetcher alone left one stream per core at ~74% of the
// copy bandwidth; measured over 1 KiB..16 KiB ahead (lz-bench, interleaved
// runs), 2 KiB was best: W1 67% -> 83-91%, W9 62-67% -> 71-72%.
constexpr int64_t kAheadBytes = 2048;
// How far ahead row kernels request the rows to come (see rows_ahead).
// Measured on W5 (4 KiB rows; layer_norm prefetches in its store pass):
// one row ahead 1.0x eager, two (8 KiB) 1.1x, three no better; W4 (softmax,
// prefetching during its exp pass) the same either way.
constexpr int64_t kRowAheadBytes = 8192;

class Emitter {
 public:
  Emitter(const ir::Kernel& k, const VariantSpec& spec, llvm::Module& m)
      : k_(k), spec_(spec), m_(m), c_(m.getContext()), b_(c_) {
    i64_ = llvm::Type::getInt64Ty(c_);
    auto* slot = llvm::StructType::create(c_, {llvm::Type::getDoubleTy(c_), i64_, i64_}, "ParamSlot");
    auto* i64p = llvm::PointerType::getUnqual(i64_);
    auto* i8pp = llvm::PointerType::getUnqual(llvm::Type::getInt8PtrTy(c_));
    args_ty_ = llvm::StructType::create(
        c_, {i64_, i64_, i64p, i64p, i8pp, llvm::PointerType::getUnqual(slot), i64_, llvm::Type::getInt8PtrTy(c_)},
        "KernelArgs");
    slot_ty_ = slot;
    width_ = std::max(4u, spec.vector_bits / 32);
    if (spec.cache_stages) cache_ = plan_stage_cache(k);
  }

  void emit(const std::string& prefix) {
    const bool reduction = has_reductions(k_);
    if (spec_.split) {
      auto* accp = llvm::PointerType::getUnqual(i64_);
      emit_function(prefix + "_partial", {i64_, i64_, i64_, accp}, [&](llvm::Function* f) {
        emit_partial(f->getArg(1), f->getArg(2), f->getArg(3), f->getArg(4));
      });
      emit_function(prefix + "_finish", {i64_, accp}, [&](llvm::Function* f) { emit_finish(f->getArg(1), f->getArg(2)); });
      return;
    }
    emit_function(prefix + "_run", {i64_, i64_}, [&](llvm::Function* f) {
      if (reduction) {
        emit_reduction_run(f->getArg(1), f->getArg(2));
      } else {
        emit_pointwise_run(f->getArg(1), f->getArg(2));
      }
      // Streamed stores are weakly ordered: make them visible before the
      // launcher's threads report completion (streaming is x86-only).
      if (spec_.streaming) b_.CreateIntrinsic(llvm::Intrinsic::x86_sse_sfence, {}, {});
    });
  }

 private:
  using Ptrs = std::vector<Value*>;

  // ---- Functions and loops ---------------------------------------------------
  void emit_function(const std::string& name, std::vector<llvm::Type*> extra, const std::function<void(llvm::Function*)>& body) {
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

  Value* field(Value* args, unsigned i, llvm::Type* ty) {
    return b_.CreateLoad(ty, b_.CreateStructGEP(args_ty_, args, i));
  }

  void load_args(Value* args) {
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
    hoisted_.assign(k_.accesses.size(), nullptr);
    next_row_.assign(k_.accesses.size(), nullptr);
    Value* seg_axis = b_.CreateSub(rank_, b_.getInt64(1));
    for (uint32_t a = 0; a < k_.accesses.size(); ++a) {
      llvm::Type* mem = memory_type(c_, buffer_dtype(a));
      Value* raw = b_.CreateLoad(llvm::Type::getInt8PtrTy(c_), b_.CreateGEP(llvm::Type::getInt8PtrTy(c_), data, b_.getInt64(a)));
      base_.push_back(b_.CreateBitCast(raw, llvm::PointerType::getUnqual(mem)));
      // Reductions walk segments along the last (inner) axis, pointwise
      // kernels along the last outer axis: both are the last axis.
      seg_stride_.push_back(stride(a, seg_axis));
    }
    ValueOps scalar(b_, 1, spec_.math);
    leaf_.assign(k_.exprs.size(), nullptr);
    for (size_t i = 0; i < k_.exprs.size(); ++i) {
      const ir::Expr& e = k_.exprs[i];
      if (e.op == ScalarOp::Param) {
        Value* slot = b_.CreateGEP(slot_ty_, params, b_.getInt64(e.index));
        Value* d = b_.CreateLoad(llvm::Type::getDoubleTy(c_), b_.CreateStructGEP(slot_ty_, slot, 0));
        Value* iv = b_.CreateLoad(i64_, b_.CreateStructGEP(slot_ty_, slot, 1));
        Value* is_float = b_.CreateICmpNE(b_.CreateLoad(i64_, b_.CreateStructGEP(slot_ty_, slot, 2)), b_.getInt64(0));
        leaf_[i] = b_.CreateSelect(is_float, scalar.convert(d, ScalarType::Double, e.dtype),
                                   scalar.convert(iv, ScalarType::Long, e.dtype));
      } else if (e.op == ScalarOp::ReduceCount) {
        leaf_[i] = scalar.convert(inner_count_, ScalarType::Long, e.dtype);
      }
    }
    reduced_.assign(k_.reductions.size(), nullptr);
  }

  Value* stride(uint32_t access, Value* axis) {
    Value* index = b_.CreateAdd(b_.CreateMul(b_.getInt64(access), rank_), axis);
    return b_.CreateLoad(i64_, b_.CreateGEP(i64_, strides_, index));
  }
  Value* size(Value* axis) { return b_.CreateLoad(i64_, b_.CreateGEP(i64_, sizes_, axis)); }

  Value* entry_alloca(llvm::Type* ty) {
    llvm::IRBuilder<> at(&entry_->front());
    return at.CreateAlloca(ty);
  }

  // for (i = begin; i < end; i += body(i)), with the induction variable in
  // memory (SROA/mem2reg turn it into a register).
  void emit_while(Value* begin, Value* end, const std::function<Value*(Value*)>& body) {
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

  void emit_for(Value* begin, Value* end, Value* step, const std::function<void(Value*)>& body) {
    emit_while(begin, end, [&](Value* i) {
      body(i);
      return step;
    });
  }

  // Per access, the element offset of linear index `linear` over axes
  // [first, last) (row-major), plus `extra`. No axis or one axis (the
  // usual cases after merging) is inline arithmetic; more call
  // codegen_llvm/runtime_support.h, once per segment.
  Ptrs axis_offsets(Value* linear, Value* first, Value* last, const Ptrs& extra) {
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
        kAxisOffsetsSymbol, llvm::FunctionType::get(llvm::Type::getVoidTy(c_),
                                                    {fn_->getArg(0)->getType(), i64_, i64_, i64_, i64_, ptr, ptr}, false));
    b_.CreateCall(f, {fn_->getArg(0), linear, first, last, b_.getInt64(n), base, out});
    b_.CreateBr(done);
    b_.SetInsertPoint(done);
    Ptrs offs;
    for (uint64_t a = 0; a < n; ++a) offs.push_back(b_.CreateLoad(i64_, b_.CreateGEP(i64_, out, b_.getInt64(a))));
    return offs;
  }

  // Walks linear indices [begin, end) over axes [first, rank) in segments
  // along the last axis: body(pointers at the segment start, length).
  void for_segments(Value* begin, Value* end, Value* first, const Ptrs& extra,
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
        Value* off = b_.CreateAdd(offs[a], b_.CreateMul(col, seg_stride_[a]));
        ptrs.push_back(b_.CreateGEP(memory_type(c_, buffer_dtype(a)), base_[a], off));
      }
      body(ptrs, n, i);
      return n;
    });
  }

  // ---- Expressions ---------------------------------------------------------------
  ScalarType buffer_dtype(uint32_t access) const { return k_.buffers[k_.accesses[access].buffer].dtype; }
  bool is_output(uint32_t access) const { return k_.buffers[k_.accesses[access].buffer].output; }

  // Memory of access `a` at offset j (elements) of the segment starting at ptrs[a].
  Value* load(ValueOps& ops, const Ptrs& ptrs, uint32_t a, Value* j) {
    const ScalarType t = buffer_dtype(a);
    llvm::Type* mem = memory_type(c_, t);
    const unsigned w = ops.width();
    const llvm::Align align(mem->getPrimitiveSizeInBits() / 8);
    const StrideClass cls = spec_.classes[a];
    Value* raw;
    if (cls == StrideClass::Broadcast && hoisted_[a] != nullptr) {
      raw = w > 1 ? b_.CreateVectorSplat(w, hoisted_[a]) : hoisted_[a];
    } else if (w == 1 || cls == StrideClass::Broadcast) {
      Value* at = cls == StrideClass::Broadcast ? ptrs[a] : element(ptrs, a, j);
      raw = b_.CreateAlignedLoad(mem, at, align);
      if (w > 1) raw = b_.CreateVectorSplat(w, raw);
    } else if (cls == StrideClass::Unit) {
      auto* vt = llvm::FixedVectorType::get(mem, w);
      Value* p = b_.CreateBitCast(b_.CreateGEP(mem, ptrs[a], j), llvm::PointerType::getUnqual(vt));
      raw = b_.CreateAlignedLoad(vt, p, align);
    } else {
      raw = b_.CreateMaskedGather(llvm::FixedVectorType::get(mem, w), lane_pointers(ptrs, a, j, w), align);
    }
    return ops.from_memory(raw, t);
  }

  Value* element(const Ptrs& ptrs, uint32_t a, Value* j) {
    llvm::Type* mem = memory_type(c_, buffer_dtype(a));
    switch (spec_.classes[a]) {
      case StrideClass::Broadcast: return ptrs[a];
      case StrideClass::Unit: return b_.CreateGEP(mem, ptrs[a], j);
      case StrideClass::Strided: return b_.CreateGEP(mem, ptrs[a], b_.CreateMul(j, seg_stride_[a]));
    }
    return ptrs[a];
  }

  Value* lane_pointers(const Ptrs& ptrs, uint32_t a, Value* j, unsigned w) {
    llvm::SmallVector<llvm::Constant*, 16> lanes;
    for (unsigned l = 0; l < w; ++l) lanes.push_back(b_.getInt64(l));
    Value* idx = b_.CreateAdd(b_.CreateVectorSplat(w, j), llvm::ConstantVector::get(lanes));
    if (spec_.classes[a] != StrideClass::Unit) idx = b_.CreateMul(idx, b_.CreateVectorSplat(w, seg_stride_[a]));
    return b_.CreateGEP(memory_type(c_, buffer_dtype(a)), ptrs[a], idx);
  }

  // `aligned`: the vector store's address is a multiple of its size (or of
  // 64 bytes), so a streaming variant may write it non-temporally.
  void store(ValueOps& ops, const Ptrs& ptrs, uint32_t a, Value* j, Value* v, bool aligned = false) {
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
      if (!aligned) {
        b_.CreateAlignedStore(raw, at, llvm::Align(bytes));
        return;
      }
      llvm::StoreInst* st = b_.CreateAlignedStore(raw, at, llvm::Align(std::min(64u, w * bytes)));
      st->setMetadata(llvm::LLVMContext::MD_nontemporal,
                      llvm::MDNode::get(c_, {llvm::ConstantAsMetadata::get(b_.getInt32(1))}));
    } else {
      // Lanes in order: with a broadcast store the last point's value wins, as in the interpreter.
      b_.CreateMaskedScatter(raw, lane_pointers(ptrs, a, j, w), llvm::Align(bytes));
    }
  }

  // Evaluates expressions at one point (or one vector of points). Loads of
  // outputs are not remembered: an earlier stage of the same loop may have
  // stored them since.
  struct Eval {
    Emitter& em;
    ValueOps& ops;
    const Ptrs& ptrs;
    Value* j;
    std::vector<Value*> memo;
    Eval(Emitter& e, ValueOps& o, const Ptrs& p, Value* at) : em(e), ops(o), ptrs(p), j(at), memo(e.k_.exprs.size(), nullptr) {}

    // The scalar evaluation of uniform expressions, made on first use.
    Eval& scalar() {
      if (scalar_eval == nullptr) {
        scalar_ops = std::make_unique<ValueOps>(em.b_, 1, em.spec_.math);
        scalar_eval = std::make_unique<Eval>(em, *scalar_ops, ptrs, j);
      }
      return *scalar_eval;
    }
    std::unique_ptr<ValueOps> scalar_ops;
    std::unique_ptr<Eval> scalar_eval;

    Value* get(ExprId id) {
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

    Value* compute(ExprId id) {
      const ir::Expr& e = em.k_.exprs[id];
      Value* v = nullptr;
      switch (e.op) {
        case ScalarOp::Load: {
          const ScalarType bt = em.buffer_dtype(e.index);
          v = ops.convert(em.load(ops, ptrs, e.index, j), bt, e.dtype);
          break;
        }
        case ScalarOp::Constant: v = ops.constant(e); break;
        case ScalarOp::Param: case ScalarOp::ReduceCount: v = ops.splat(em.leaf_[id]); break;
        case ScalarOp::Reduced: {
          ValueOps scalar(em.b_, 1, em.spec_.math);
          v = ops.splat(scalar.convert(em.reduced_[e.index], em.k_.reductions[e.index].dtype, e.dtype));
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
          } else if (e.op == ScalarOp::Div && is_floating_point(e.dtype) && ops.width() > 1 && em.is_uniform(e.operands[1])) {
            v = ops.div_by_invariant(get(e.operands[0]), get(e.operands[1]), e.dtype);
          } else if (n == 2) {
            v = ops.binary(e.op, get(e.operands[0]), get(e.operands[1]), operand, e.dtype);
          } else {
            const ScalarType cond = em.k_.exprs[e.operands[0]].dtype;
            Value* c = ops.truth(get(e.operands[0]), cond);
            v = em.b_.CreateSelect(c, get(e.operands[1]), get(e.operands[2]));
          }
        }
      }
      return v;
    }
  };

  // Whether expression `id` is the same at every point of a segment: no
  // load that moves along the segment axis feeds it.
  bool is_uniform(ExprId id) {
    if (uniform_.empty()) {
      uniform_.assign(k_.exprs.size(), 1);
      for (size_t i = 0; i < k_.exprs.size(); ++i) {
        const ir::Expr& e = k_.exprs[i];
        if (e.op == ScalarOp::Load) uniform_[i] = spec_.classes[e.index] == StrideClass::Broadcast && !is_output(e.index);
        for (int o = 0; o < ir::arity(e.op); ++o) uniform_[i] &= uniform_[e.operands[o]];
      }
    }
    return uniform_[id] != 0;
  }

  // Reads (value == nullptr) or writes the kept value of expression `id`
  // at inner point seg_first_ + j of the scratch row of `slot`.
  Value* scratch_access(ValueOps& ops, int32_t slot, ExprId id, Value* j, Value* value) {
    llvm::Type* elem = compute_type(c_, k_.exprs[id].dtype);
    Value* base = b_.CreateBitCast(scratch_[static_cast<size_t>(slot)], llvm::PointerType::getUnqual(elem));
    Value* at = b_.CreateGEP(elem, base, b_.CreateAdd(seg_first_, j));
    llvm::Type* ty = ops.type(k_.exprs[id].dtype);
    at = b_.CreateBitCast(at, llvm::PointerType::getUnqual(ty));
    const llvm::Align align(elem->getPrimitiveSizeInBits() / 8);
    if (value == nullptr) return b_.CreateAlignedLoad(ty, at, align);
    b_.CreateAlignedStore(value, at, align);
    return value;
  }

  // ---- Stage loops -----------------------------------------------------------------
  // Inputs read at one address for the whole segment are loaded once before
  // its loops: LLVM cannot hoist them itself past the stores (it does not
  // know outputs never overlap inputs read through a broadcast).
  struct Hoist {
    Emitter& em;
    Hoist(Emitter& e, const Ptrs& ptrs) : em(e) {
      em.hoisted_.assign(em.base_.size(), nullptr);
      for (uint32_t a = 0; a < em.base_.size(); ++a) {
        if (em.spec_.classes[a] != StrideClass::Broadcast || em.is_output(a)) continue;
        llvm::Type* mem = memory_type(em.c_, em.buffer_dtype(a));
        em.hoisted_[a] = em.b_.CreateAlignedLoad(mem, ptrs[a], llvm::Align(mem->getPrimitiveSizeInBits() / 8));
      }
    }
    ~Hoist() { em.hoisted_.assign(em.base_.size(), nullptr); }
  };

  // Stores of `stores` at every point of a segment: vectors, then a scalar remainder.
  void store_segment(const std::vector<uint32_t>& stores, const Ptrs& ptrs, Value* n) {
    const Hoist hoist(*this, ptrs);
    Value* lead = b_.getInt64(0);
    const bool streaming = spec_.streaming && streamed_access(stores) >= 0;
    if (streaming) {  // scalar points until the first streamed store is aligned
      const uint32_t a = static_cast<uint32_t>(streamed_access(stores));
      const uint64_t bytes = memory_type(c_, buffer_dtype(a))->getPrimitiveSizeInBits() / 8;
      const uint64_t line = std::min<uint64_t>(64, width_ * bytes);
      Value* addr = b_.CreatePtrToInt(ptrs[a], i64_);
      Value* gap = b_.CreateAnd(b_.CreateSub(b_.getInt64(line), b_.CreateAnd(addr, b_.getInt64(line - 1))), b_.getInt64(line - 1));
      lead = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, n, b_.CreateUDiv(gap, b_.getInt64(bytes)));
    }
    Value* vend = b_.CreateSub(n, b_.CreateSRem(b_.CreateSub(n, lead), b_.getInt64(width_)));
    auto points = [&](unsigned w, Value* lo, Value* hi) {
      emit_for(lo, hi, b_.getInt64(w), [&](Value* j) {
        ValueOps ops(b_, w, spec_.math);
        if (w > 1) {
          prefetch_next_row(ptrs, j);
          prefetch_ahead(ptrs, j);
        }
        Eval ev(*this, ops, ptrs, j);
        for (uint32_t s : stores) store(ops, ptrs, k_.stores[s].access, j, ev.get(k_.stores[s].value), streaming);
      });
    };
    points(1, b_.getInt64(0), lead);
    points(width_, lead, vend);
    points(1, vend, n);
  }

  // The first unit-stride access `stores` write (the one streamed stores align to), or -1.
  int64_t streamed_access(const std::vector<uint32_t>& stores) const {
    for (uint32_t s : stores) {
      if (spec_.classes[k_.stores[s].access] == StrideClass::Unit) return k_.stores[s].access;
    }
    return -1;
  }

  llvm::Type* outer_acc_type(const ir::Reduction& r) {
    const bool widen = is_floating_point(r.dtype) && (r.op == ir::ReduceOp::Sum || r.op == ir::ReduceOp::Prod);
    return widen ? llvm::Type::getDoubleTy(c_) : compute_type(c_, r.dtype);
  }
  ScalarType outer_acc_dtype(const ir::Reduction& r) {
    return outer_acc_type(r)->isDoubleTy() ? ScalarType::Double : r.dtype;
  }

  // Reductions `reds` over a segment, in blocks of kBlock points, into the
  // outer accumulators `accs` (allocas of outer_acc_type).
  // A cheap body (softmax's max pass, layer_norm's sums) gets kChains
  // vector accumulators per reduction, the body unrolled kChains times: it
  // is bound by the combine's latency (a NaN-propagating max is ~8 cycles)
  // otherwise. The chains are joined in a fixed tree, so results stay
  // deterministic.
  void reduce_segment(const std::vector<uint32_t>& reds, const Ptrs& ptrs, Value* n, const Ptrs& accs) {
    const Hoist hoist(*this, ptrs);
    ValueOps vec(b_, width_, spec_.math), scalar(b_, 1, spec_.math);
    const int chains = cheap_reduction_body(k_, reds) ? kChains : 1;
    const int64_t unrolled = int64_t{width_} * chains;
    emit_for(b_.getInt64(0), n, b_.getInt64(kBlock), [&](Value* p) {
      Value* m = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, b_.CreateSub(n, p), b_.getInt64(kBlock));
      Value* end = b_.CreateAdd(p, m);
      Value* uend = b_.CreateSub(end, b_.CreateSRem(m, b_.getInt64(unrolled)));
      Value* vend = b_.CreateSub(end, b_.CreateSRem(m, b_.getInt64(width_)));
      std::vector<Ptrs> vacc(static_cast<size_t>(chains));
      Ptrs sacc;
      for (uint32_t r : reds) {
        const ir::Reduction& red = k_.reductions[r];
        for (Ptrs& chain : vacc) {
          chain.push_back(entry_alloca(vec.type(red.dtype)));
          b_.CreateStore(vec.identity(red.op, red.dtype), chain.back());
        }
        sacc.push_back(entry_alloca(scalar.type(red.dtype)));
        b_.CreateStore(scalar.identity(red.op, red.dtype), sacc.back());
      }
      auto accumulate = [&](ValueOps& ops, Value* j, const Ptrs& into) {
        Eval ev(*this, ops, ptrs, j);
        for (size_t i = 0; i < reds.size(); ++i) {
          const ir::Reduction& red = k_.reductions[reds[i]];
          Value* old = b_.CreateLoad(ops.type(red.dtype), into[i]);
          b_.CreateStore(ops.combine(red.op, old, ev.get(red.input), red.dtype), into[i]);
        }
      };
      emit_for(p, uend, b_.getInt64(unrolled), [&](Value* j) {
        for (int c = 0; c < chains; ++c) {
          Value* at = b_.CreateAdd(j, b_.getInt64(int64_t{c} * width_));
          prefetch_next_row(ptrs, at);
          prefetch_ahead(ptrs, at);
          accumulate(vec, at, vacc[c]);
        }
      });
      emit_for(uend, vend, b_.getInt64(width_), [&](Value* j) { accumulate(vec, j, vacc[0]); });
      emit_for(vend, end, b_.getInt64(1), [&](Value* j) { accumulate(scalar, j, sacc); });
      for (size_t i = 0; i < reds.size(); ++i) {
        const ir::Reduction& red = k_.reductions[reds[i]];
        std::vector<Value*> chains;
        for (const Ptrs& chain : vacc) chains.push_back(b_.CreateLoad(vec.type(red.dtype), chain[i]));
        for (size_t half = chains.size() / 2; half > 0; half /= 2) {
          for (size_t c = 0; c < half; ++c) chains[c] = vec.combine(red.op, chains[c], chains[c + half], red.dtype);
        }
        Value* block = scalar.combine(red.op, vec.horizontal(red.op, chains[0], red.dtype),
                                      b_.CreateLoad(scalar.type(red.dtype), sacc[i]), red.dtype);
        const ScalarType acc_t = outer_acc_dtype(red);
        Value* wide = scalar.convert(block, red.dtype, acc_t);
        Value* old = b_.CreateLoad(outer_acc_type(red), accs[i]);
        b_.CreateStore(scalar.combine(red.op, old, wide, acc_t), accs[i]);
      }
    });
  }

  // Row kernels: during one pass over this outer point's row (in cache by
  // then; prefetching_group picks which), a row to come (rows_ahead) is
  // requested from memory (one prefetch per vector: per cache line for
  // float32), so that row's first pass finds it in cache. Measured on an
  // earlier (Intel) host, W4/W5: in the first pass, 39%/66% of the copy
  // bandwidth; in the last reduction pass 47%/75%. Only unit-stride
  // inputs; a prefetch never faults.
  void prefetch_next_row(const Ptrs& ptrs, Value* j) {
    if (!prefetch_rows_) return;
    for (uint32_t a = 0; a < base_.size(); ++a) {
      if (spec_.classes[a] != StrideClass::Unit || is_output(a) || next_row_[a] == nullptr) continue;
      Value* at = b_.CreateGEP(memory_type(c_, buffer_dtype(a)), ptrs[a], b_.CreateAdd(j, next_row_[a]));
      b_.CreateIntrinsic(llvm::Intrinsic::prefetch, {at->getType()},
                         {at, b_.getInt32(0), b_.getInt32(3), b_.getInt32(1)});
    }
  }

  // How many rows ahead access a's prefetch_next_row requests: enough rows
  // to be kRowAheadBytes ahead, at least the next one. Requested only one
  // row ahead, a short row's last requests are still in flight when its
  // first pass wants them.
  Value* rows_ahead(uint32_t a) {
    const int64_t elem = static_cast<int64_t>(memory_type(c_, buffer_dtype(a))->getPrimitiveSizeInBits() / 8);
    Value* row_bytes = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, b_.CreateMul(inner_count_, b_.getInt64(elem)),
                                                b_.getInt64(1));
    return b_.CreateUDiv(b_.CreateAdd(row_bytes, b_.getInt64(kRowAheadBytes - 1)), row_bytes);
  }

  // Streaming kernels (pointwise, partial reductions): each unit-stride
  // input is requested kAheadBytes ahead of the vector being read.
  void prefetch_ahead(const Ptrs& ptrs, Value* j) {
    if (!prefetch_ahead_) return;
    for (uint32_t a = 0; a < base_.size(); ++a) {
      if (spec_.classes[a] != StrideClass::Unit || is_output(a)) continue;
      llvm::Type* mem = memory_type(c_, buffer_dtype(a));
      const int64_t ahead = kAheadBytes / static_cast<int64_t>(mem->getPrimitiveSizeInBits() / 8);
      Value* at = b_.CreateGEP(mem, ptrs[a], b_.CreateAdd(j, b_.getInt64(ahead)));
      b_.CreateIntrinsic(llvm::Intrinsic::prefetch, {at->getType()},
                         {at, b_.getInt32(0), b_.getInt32(3), b_.getInt32(1)});
    }
  }

  Ptrs start_accumulators(const std::vector<uint32_t>& reds) {
    ValueOps scalar(b_, 1, spec_.math);
    Ptrs accs;
    for (uint32_t r : reds) {
      const ir::Reduction& red = k_.reductions[r];
      accs.push_back(entry_alloca(outer_acc_type(red)));
      b_.CreateStore(scalar.identity(red.op, outer_acc_dtype(red)), accs.back());
    }
    return accs;
  }

  void finish_accumulators(const std::vector<uint32_t>& reds, const Ptrs& accs) {
    ValueOps scalar(b_, 1, spec_.math);
    for (size_t i = 0; i < reds.size(); ++i) {
      const ir::Reduction& red = k_.reductions[reds[i]];
      Value* acc = b_.CreateLoad(outer_acc_type(red), accs[i]);
      reduced_[reds[i]] = scalar.convert(acc, outer_acc_dtype(red), red.dtype);
    }
  }

  void reduced_stores(const std::vector<uint32_t>& stores, const Ptrs& outer) {
    ValueOps scalar(b_, 1, spec_.math);
    Ptrs ptrs;
    for (uint32_t a = 0; a < base_.size(); ++a) ptrs.push_back(b_.CreateGEP(memory_type(c_, buffer_dtype(a)), base_[a], outer[a]));
    Eval ev(*this, scalar, ptrs, b_.getInt64(0));
    for (uint32_t s : stores) store(scalar, ptrs, k_.stores[s].access, b_.getInt64(0), ev.get(k_.stores[s].value));
  }

  void emit_pointwise_run(Value* begin, Value* end) {
    std::vector<uint32_t> stores;
    for (const ir::Stage& s : k_.stages) stores.push_back(s.index);
    prefetch_ahead_ = true;
    for_segments(begin, end, b_.getInt64(0), {}, [&](const Ptrs& ptrs, Value* n, Value*) { store_segment(stores, ptrs, n); });
    prefetch_ahead_ = false;
  }

  // The pass that requests the next row (prefetch_next_row): the longest,
  // so the requests spread over the most time. That is the last reduction
  // pass when one computes expensive math (softmax's exp), else the store
  // pass after it (layer_norm's reductions are an add or an FMA per
  // element; its store pass loads weight and bias and writes). Measured on
  // a hand-written layer_norm: the store pass 1.10x the second reduction pass.
  size_t prefetching_group(const std::vector<StageGroup>& groups) const {
    size_t last_reduce = groups.size();
    bool all_cheap = true;
    for (size_t gi = 0; gi < groups.size(); ++gi) {
      if (groups[gi].kind != StageGroup::Kind::Reduce) continue;
      last_reduce = gi;
      all_cheap = all_cheap && cheap_reduction_body(k_, groups[gi].items);
    }
    if (!all_cheap) return last_reduce;
    for (size_t gi = last_reduce + 1; gi < groups.size(); ++gi) {
      if (groups[gi].kind == StageGroup::Kind::Store) return gi;
    }
    return last_reduce;
  }

  void emit_reduction_run(Value* begin, Value* end) {
    const std::vector<StageGroup> groups = group_stages(k_);
    next_row_.assign(base_.size(), nullptr);
    const size_t prefetching = prefetching_group(groups);
    Value* last_outer = b_.CreateSub(num_outer_, b_.getInt64(1));
    for (uint32_t a = 0; a < base_.size(); ++a) next_row_[a] = b_.CreateMul(stride(a, last_outer), rows_ahead(a));
    emit_for(begin, end, b_.getInt64(1), [&](Value* o) {
      const Ptrs outer = axis_offsets(o, b_.getInt64(0), num_outer_, {});
      for (size_t gi = 0; gi < groups.size(); ++gi) {
        const StageGroup& g = groups[gi];
        // Reduced stores evaluate once per outer point, outside the inner
        // loops: plan_stage_cache keeps nothing for them, and a kept value
        // (per inner point, maybe not yet written) is not theirs to read.
        group_ = g.kind == StageGroup::Kind::ReducedStore ? -1 : static_cast<int32_t>(gi);
        prefetch_rows_ = gi == prefetching;
        switch (g.kind) {
          case StageGroup::Kind::Reduce: {
            const Ptrs accs = start_accumulators(g.items);
            for_segments(b_.getInt64(0), inner_count_, num_outer_, outer, [&](const Ptrs& ptrs, Value* n, Value* first) {
              seg_first_ = first;
              reduce_segment(g.items, ptrs, n, accs);
            });
            finish_accumulators(g.items, accs);
            break;
          }
          case StageGroup::Kind::Store:
            for_segments(b_.getInt64(0), inner_count_, num_outer_, outer, [&](const Ptrs& ptrs, Value* n, Value* first) {
              seg_first_ = first;
              store_segment(g.items, ptrs, n);
            });
            break;
          case StageGroup::Kind::ReducedStore: reduced_stores(g.items, outer); break;
        }
      }
      group_ = -1;
      prefetch_rows_ = false;
    });
  }

  std::vector<uint32_t> all_reductions() const {
    std::vector<uint32_t> reds(k_.reductions.size());
    for (uint32_t r = 0; r < reds.size(); ++r) reds[r] = r;
    return reds;
  }

  void emit_partial(Value* o, Value* inner_begin, Value* inner_end, Value* out) {
    const std::vector<uint32_t> reds = all_reductions();
    const Ptrs outer = axis_offsets(o, b_.getInt64(0), num_outer_, {});
    const Ptrs accs = start_accumulators(reds);
    prefetch_ahead_ = true;
    for_segments(inner_begin, inner_end, num_outer_, outer,
                 [&](const Ptrs& ptrs, Value* n, Value*) { reduce_segment(reds, ptrs, n, accs); });
    prefetch_ahead_ = false;
    for (uint32_t r : reds) {
      const ir::Reduction& red = k_.reductions[r];
      Value* acc = b_.CreateLoad(outer_acc_type(red), accs[r]);
      Value* bits = acc->getType()->isFloatingPointTy() ? b_.CreateBitCast(b_.CreateFPExt(acc, llvm::Type::getDoubleTy(c_)), i64_)
                    : (red.dtype == ScalarType::Bool || red.dtype == ScalarType::Byte) ? b_.CreateZExt(acc, i64_)
                                                                                        : b_.CreateSExt(acc, i64_);
      b_.CreateStore(bits, b_.CreateGEP(i64_, out, b_.getInt64(r)));
    }
  }

  void emit_finish(Value* o, Value* in) {
    const Ptrs outer = axis_offsets(o, b_.getInt64(0), num_outer_, {});
    for (uint32_t r = 0; r < k_.reductions.size(); ++r) {
      const ir::Reduction& red = k_.reductions[r];
      Value* bits = b_.CreateLoad(i64_, b_.CreateGEP(i64_, in, b_.getInt64(r)));
      llvm::Type* ct = compute_type(c_, red.dtype);
      reduced_[r] = ct->isFloatingPointTy() ? b_.CreateFPTrunc(b_.CreateBitCast(bits, llvm::Type::getDoubleTy(c_)), ct)
                                             : b_.CreateTrunc(bits, ct);
      if (ct->isDoubleTy()) reduced_[r] = b_.CreateBitCast(bits, ct);
    }
    std::vector<uint32_t> stores;
    for (const ir::Stage& s : k_.stages) {
      if (s.kind == ir::Stage::Kind::Store) stores.push_back(s.index);
    }
    reduced_stores(stores, outer);
  }

  const ir::Kernel& k_;
  const VariantSpec& spec_;
  llvm::Module& m_;
  llvm::LLVMContext& c_;
  llvm::IRBuilder<> b_;
  llvm::Type* i64_ = nullptr;
  llvm::StructType* args_ty_ = nullptr;
  llvm::StructType* slot_ty_ = nullptr;
  unsigned width_ = 16;
  // Per function being emitted.
  llvm::Function* fn_ = nullptr;
  llvm::BasicBlock* entry_ = nullptr;
  Value *num_outer_ = nullptr, *num_inner_ = nullptr, *rank_ = nullptr, *sizes_ = nullptr, *strides_ = nullptr,
        *inner_count_ = nullptr;
  Ptrs base_, seg_stride_;
  Ptrs hoisted_;                 // per access: its value for the current segment, when loaded once
  StageCache cache_;             // cache_stages variants: the values kept between groups
  std::vector<uint8_t> uniform_; // per expression: is_uniform (computed on first use)
  Ptrs next_row_;                // run of a reduction: per access, the stride to the next outer point
  bool prefetch_rows_ = false;  // set while emitting the group that prefetches the next row
  bool prefetch_ahead_ = false;  // set while emitting a streaming loop (prefetch_ahead)
  Ptrs scratch_;                 // per slot: its scratch row
  int32_t group_ = -1;           // the stage group whose inner loops are being emitted (run of a reduction), else -1
  Value* seg_first_ = nullptr;   // the inner index of the current segment's first point
  std::vector<Value*> leaf_;     // per expression: Param / ReduceCount values (scalars)
  std::vector<Value*> reduced_;  // per reduction: its value at the current outer point
};

}  // namespace

std::unique_ptr<llvm::Module> emit_kernel(const ir::Kernel& k, const VariantSpec& spec, const std::string& prefix,
                                          llvm::LLVMContext& context) {
  auto m = std::make_unique<llvm::Module>(prefix, context);
  Emitter(k, spec, *m).emit(prefix);
  return m;
}

JitEngine::EmitFn kernel_emit_fn(const ir::Kernel& k, VariantSpec spec, std::string prefix) {
  return [&k, spec = std::move(spec), prefix = std::move(prefix)](llvm::LLVMContext& context) {
    return emit_kernel(k, spec, prefix, context);
  };
}

}  // namespace lz::codegen_llvm
