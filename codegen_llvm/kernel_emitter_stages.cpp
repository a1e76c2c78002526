// The Emitter's stage loops (kernel_emitter_impl.h): the vector and scalar
// loops of store and reduction stages over one segment, the reductions'
// accumulators, prefetching, and the bodies of the entry points (_run of
// pointwise and reduction kernels, _partial and _finish). Separate from
// the expressions they evaluate (kernel_emitter_exprs.cpp) and from the
// setup and segment walk (kernel_emitter.cpp).
#include <algorithm>
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "codegen_llvm/kernel_emitter_impl.h"
#include "codegen_llvm/stage_plan.h"
#include "codegen_llvm/value_ops.h"

namespace lz::codegen_llvm::detail {

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

}  // namespace

// Inputs read at one address for the whole segment are loaded once before
// its loops: LLVM cannot hoist them itself past the stores (it does not
// know outputs never overlap inputs read through a broadcast).
struct Emitter::Hoist {
  Emitter& em;
  Hoist(Emitter& e, const Ptrs& ptrs) : em(e) {
    em.hoisted_.assign(em.base_.size(), nullptr);
    for (uint32_t a = 0; a < em.base_.size(); ++a) {
      if (em.spec_.classes[a] != StrideClass::Broadcast || em.is_output(a) || em.is_gathered(a)) continue;
      llvm::Type* mem = memory_type(em.c_, em.buffer_dtype(a));
      em.hoisted_[a] = em.b_.CreateAlignedLoad(mem, ptrs[a], llvm::Align(mem->getPrimitiveSizeInBits() / 8));
    }
  }
  ~Hoist() { em.hoisted_.assign(em.base_.size(), nullptr); }
};

// Stores of `stores` at every point of a segment: vectors, and a masked
// vector for the points left over (and, streaming, for those before the
// first aligned store).
void Emitter::store_segment(const std::vector<uint32_t>& stores, const Ptrs& ptrs, Value* n) {
  const Hoist hoist(*this, ptrs);
  Value* lead = b_.getInt64(0);
  const bool streaming = spec_.streaming && streamed_access(stores) >= 0;
  if (streaming) {  // points up to the first streamed store's alignment
    const uint32_t a = static_cast<uint32_t>(streamed_access(stores));
    const uint64_t bytes = memory_type(c_, buffer_dtype(a))->getPrimitiveSizeInBits() / 8;
    const uint64_t line = std::min<uint64_t>(64, width_ * bytes);
    Value* addr = b_.CreatePtrToInt(ptrs[a], i64_);
    Value* gap = b_.CreateAnd(b_.CreateSub(b_.getInt64(line), b_.CreateAnd(addr, b_.getInt64(line - 1))),
                              b_.getInt64(line - 1));
    lead = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, n, b_.CreateUDiv(gap, b_.getInt64(bytes)));
  }
  Value* vend = b_.CreateSub(n, b_.CreateSRem(b_.CreateSub(n, lead), b_.getInt64(width_)));
  auto at = [&](ValueOps& ops, Value* j) {
    Eval ev(*this, ops, ptrs, j);
    for (uint32_t s : stores) store(ops, ptrs, k_.stores[s].access, j, ev.get(k_.stores[s].value), streaming);
  };
  emit_for(lead, vend, b_.getInt64(width_), [&](Value* j) {
    ValueOps ops(b_, width_, spec_.math);
    prefetch_next_row(ptrs, j);
    prefetch_ahead(ptrs, j);
    at(ops, j);
  });
  if (!streaming) {
    emit_masked(vend, b_.CreateSub(n, vend), at);
    return;
  }
  // The points before the first aligned store and those after the last
  // vector: one masked copy of the code run twice, not two copies (each
  // copy of a kernel's math costs as much compile time as the vector loop;
  // points are independent, so their order does not matter).
  emit_for(b_.getInt64(0), b_.getInt64(2), b_.getInt64(1), [&](Value* k) {
    Value* lead_part = b_.CreateICmpEQ(k, b_.getInt64(0));
    emit_masked(b_.CreateSelect(lead_part, b_.getInt64(0), vend),
                b_.CreateSelect(lead_part, lead, b_.CreateSub(n, vend)), at);
  });
}

// The first unit-stride access `stores` write (the one streamed stores align to), or -1.
int64_t Emitter::streamed_access(const std::vector<uint32_t>& stores) const {
  for (uint32_t s : stores) {
    if (spec_.classes[k_.stores[s].access] == StrideClass::Unit) return k_.stores[s].access;
  }
  return -1;
}

llvm::Type* Emitter::outer_acc_type(const ir::Reduction& r) {
  const bool widen = is_floating_point(r.dtype) && (r.op == ir::ReduceOp::Sum || r.op == ir::ReduceOp::Prod);
  return widen ? llvm::Type::getDoubleTy(c_) : compute_type(c_, r.dtype);
}
ScalarType Emitter::outer_acc_dtype(const ir::Reduction& r) {
  return outer_acc_type(r)->isDoubleTy() ? ScalarType::Double : r.dtype;
}

// Reductions `reds` over a segment, in blocks of kBlock points, into the
// outer accumulators `accs` (allocas of outer_acc_type).
// A cheap body (softmax's max pass, layer_norm's sums) gets kChains
// vector accumulators per reduction, the body unrolled kChains times: it
// is bound by the combine's latency (a NaN-propagating max is ~8 cycles)
// otherwise. The chains are joined in a fixed tree, so results stay
// deterministic.
void Emitter::reduce_segment(const std::vector<uint32_t>& reds, const Ptrs& ptrs, Value* n, const Ptrs& accs) {
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
    for (uint32_t r : reds) {
      const ir::Reduction& red = k_.reductions[r];
      for (Ptrs& chain : vacc) {
        chain.push_back(entry_alloca(vec.type(red.dtype)));
        b_.CreateStore(vec.identity(red.op, red.dtype), chain.back());
      }
    }
    auto accumulate = [&](ValueOps& ops, Value* j, const Ptrs& into) {
      Eval ev(*this, ops, ptrs, j);
      for (size_t i = 0; i < reds.size(); ++i) {
        const ir::Reduction& red = k_.reductions[reds[i]];
        Value* v = ev.get(red.input);
        if (mask_ != nullptr) v = b_.CreateSelect(mask_, v, ops.identity(red.op, red.dtype));
        Value* old = b_.CreateLoad(ops.type(red.dtype), into[i]);
        b_.CreateStore(ops.combine(red.op, old, v, red.dtype), into[i]);
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
    if (chains > 1) emit_for(uend, vend, b_.getInt64(width_), [&](Value* j) { accumulate(vec, j, vacc[0]); });
    emit_masked(vend, b_.CreateSub(end, vend), [&](ValueOps& ops, Value* j) { accumulate(ops, j, vacc[0]); });
    for (size_t i = 0; i < reds.size(); ++i) {
      const ir::Reduction& red = k_.reductions[reds[i]];
      std::vector<Value*> chains;
      for (const Ptrs& chain : vacc) chains.push_back(b_.CreateLoad(vec.type(red.dtype), chain[i]));
      for (size_t half = chains.size() / 2; half > 0; half /= 2) {
        for (size_t c = 0; c < half; ++c) chains[c] = vec.combine(red.op, chains[c], chains[c + half], red.dtype);
      }
      Value* block = vec.horizontal(red.op, chains[0], red.dtype);
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
void Emitter::prefetch_next_row(const Ptrs& ptrs, Value* j) {
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
Value* Emitter::rows_ahead(uint32_t a) {
  const int64_t elem = static_cast<int64_t>(memory_type(c_, buffer_dtype(a))->getPrimitiveSizeInBits() / 8);
  Value* row_bytes = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smax, b_.CreateMul(inner_count_, b_.getInt64(elem)),
                                              b_.getInt64(1));
  return b_.CreateUDiv(b_.CreateAdd(row_bytes, b_.getInt64(kRowAheadBytes - 1)), row_bytes);
}

// Streaming kernels (pointwise, partial reductions): each unit-stride
// input is requested kAheadBytes ahead of the vector being read.
void Emitter::prefetch_ahead(const Ptrs& ptrs, Value* j) {
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

Emitter::Ptrs Emitter::start_accumulators(const std::vector<uint32_t>& reds) {
  ValueOps scalar(b_, 1, spec_.math);
  Ptrs accs;
  for (uint32_t r : reds) {
    const ir::Reduction& red = k_.reductions[r];
    accs.push_back(entry_alloca(outer_acc_type(red)));
    b_.CreateStore(scalar.identity(red.op, outer_acc_dtype(red)), accs.back());
  }
  return accs;
}

void Emitter::finish_accumulators(const std::vector<uint32_t>& reds, const Ptrs& accs) {
  ValueOps scalar(b_, 1, spec_.math);
  for (size_t i = 0; i < reds.size(); ++i) {
    const ir::Reduction& red = k_.reductions[reds[i]];
    Value* acc = b_.CreateLoad(outer_acc_type(red), accs[i]);
    reduced_[reds[i]] = scalar.convert(acc, outer_acc_dtype(red), red.dtype);
  }
}

void Emitter::reduced_stores(const std::vector<uint32_t>& stores, const Ptrs& outer) {
  ValueOps scalar(b_, 1, spec_.math);
  Ptrs ptrs;
  for (uint32_t a = 0; a < base_.size(); ++a) {
    ptrs.push_back(b_.CreateGEP(memory_type(c_, buffer_dtype(a)), base_[a], outer[a]));
  }
  Eval ev(*this, scalar, ptrs, b_.getInt64(0));
  for (uint32_t s : stores) store(scalar, ptrs, k_.stores[s].access, b_.getInt64(0), ev.get(k_.stores[s].value));
}

void Emitter::emit_pointwise_run(Value* begin, Value* end) {
  std::vector<uint32_t> stores;
  for (const ir::Stage& s : k_.stages) stores.push_back(s.index);
  prefetch_ahead_ = true;
  for_segments(begin, end, b_.getInt64(0), {},
               [&](const Ptrs& ptrs, Value* n, Value*) { store_segment(stores, ptrs, n); });
  prefetch_ahead_ = false;
}

// The pass that requests the next row (prefetch_next_row): the longest,
// so the requests spread over the most time. That is the last reduction
// pass when one computes expensive math (softmax's exp), else the store
// pass after it (layer_norm's reductions are an add or an FMA per
// element; its store pass loads weight and bias and writes). Measured on
// a hand-written layer_norm: the store pass 1.10x the second reduction pass.
size_t Emitter::prefetching_group(const std::vector<StageGroup>& groups) const {
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

void Emitter::emit_reduction_run(Value* begin, Value* end) {
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

std::vector<uint32_t> Emitter::all_reductions() const {
  std::vector<uint32_t> reds(k_.reductions.size());
  for (uint32_t r = 0; r < reds.size(); ++r) reds[r] = r;
  return reds;
}

void Emitter::emit_partial(Value* o, Value* inner_begin, Value* inner_end, Value* out) {
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
    Value* bits = acc->getType()->isFloatingPointTy()
                      ? b_.CreateBitCast(b_.CreateFPExt(acc, llvm::Type::getDoubleTy(c_)), i64_)
                  : (red.dtype == ScalarType::Bool || red.dtype == ScalarType::Byte) ? b_.CreateZExt(acc, i64_)
                                                                                      : b_.CreateSExt(acc, i64_);
    b_.CreateStore(bits, b_.CreateGEP(i64_, out, b_.getInt64(r)));
  }
}

void Emitter::emit_finish(Value* o, Value* in) {
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

}  // namespace lz::codegen_llvm::detail
