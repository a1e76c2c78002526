// Tiled variants of pointwise kernels (VariantSpec::tiled()). Adding a
// transpose to a row-major matrix walked row by row reads one cache line of
// the transpose per element; walked in tiles, the tile's lines of the
// transpose are a column's worth of rows apart, 8 KiB for W13's [2048,
// 8192], so they all fall in one L1 set and evict each other (a tiled
// gather measured 34 ms, no better than untiled). A tiled variant copies
// each tile of a transposed input into an L1 block first, reading the
// transpose along its own contiguous axis and requesting the next tile's
// lines meanwhile (they are pages apart: the hardware prefetchers do not
// follow them); the vector loops then read the block with unit stride.
// Measured in a hand-written loop for W13: 34 ms gathered, 9.5 ms copied.
#include <algorithm>
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "codegen_llvm/kernel_emitter_impl.h"
#include "codegen_llvm/value_ops.h"

namespace lz::codegen_llvm::detail {

// Row blocks [begin, end) of the outer space (rows: outer points over all
// axes but the last, in row-major order).
void Emitter::emit_tiled_run(Value* begin, Value* end) {
  std::vector<uint32_t> stores;
  for (const ir::Stage& s : k_.stages) stores.push_back(s.index);
  const auto n_access = static_cast<uint32_t>(base_.size());
  Value* last = b_.CreateSub(rank_, b_.getInt64(1));
  Value* columns = size(last);
  Value* product = entry_alloca(i64_);  // rows: the extents of every axis but the last
  b_.CreateStore(b_.getInt64(1), product);
  emit_for(b_.getInt64(0), last, b_.getInt64(1), [&](Value* axis) {
    b_.CreateStore(b_.CreateMul(b_.CreateLoad(i64_, product), size(axis)), product);
  });
  Value* rows = b_.CreateLoad(i64_, product);
  // Per row of a block, per access: its offset (computed once per block).
  auto* row_array = llvm::ArrayType::get(i64_, kTileRows * std::max<uint32_t>(n_access, 1));
  Value* row_offsets = entry_alloca(row_array);
  auto row_slot = [&](Value* r, uint32_t a) {
    Value* index = b_.CreateAdd(b_.CreateMul(r, b_.getInt64(n_access)), b_.getInt64(a));
    return b_.CreateGEP(row_array, row_offsets, {b_.getInt64(0), index});
  };
  // Per transposed access: its tile, kTileRows rows of kTileColumns elements.
  std::vector<Value*> block(n_access, nullptr);
  for (uint32_t a = 0; a < n_access; ++a) {
    if (!spec_.transposed.empty() && spec_.transposed[a]) {
      block[a] = entry_alloca(llvm::ArrayType::get(memory_type(c_, buffer_dtype(a)), kTileRows * kTileColumns));
    }
  }
  emit_for(begin, end, b_.getInt64(1), [&](Value* blk) {
    Value* first = b_.CreateMul(blk, b_.getInt64(kTileRows));
    Value* count = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, b_.getInt64(kTileRows), b_.CreateSub(rows, first));
    emit_for(b_.getInt64(0), count, b_.getInt64(1), [&](Value* r) {
      const Ptrs offs = axis_offsets(b_.CreateAdd(first, r), b_.getInt64(0), last, {});
      for (uint32_t a = 0; a < n_access; ++a) b_.CreateStore(offs[a], row_slot(r, a));
    });
    emit_for(b_.getInt64(0), columns, b_.getInt64(kTileColumns), [&](Value* c0) {
      Value* n = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, b_.getInt64(kTileColumns), b_.CreateSub(columns, c0));
      for (uint32_t a = 0; a < n_access; ++a) {
        if (block[a] == nullptr) continue;
        llvm::Type* mem = memory_type(c_, buffer_dtype(a));
        auto* block_type = llvm::cast<llvm::AllocaInst>(block[a])->getAllocatedType();
        const int64_t line = std::max<int64_t>(1, 64 / static_cast<int64_t>(mem->getPrimitiveSizeInBits() / 8));
        emit_for(b_.getInt64(0), n, b_.getInt64(1), [&](Value* c) {
          Value* column = b_.CreateMul(b_.CreateAdd(c0, c), seg_stride_[a]);
          Value* ahead = b_.CreateMul(b_.CreateAdd(b_.CreateAdd(c0, c), b_.getInt64(kTileColumns)), seg_stride_[a]);
          for (int64_t r = 0; r < kTileRows; r += line) {  // the next tile's lines of this column
            Value* row = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, b_.getInt64(r), b_.CreateSub(count, b_.getInt64(1)));
            Value* at = b_.CreateGEP(mem, base_[a], b_.CreateAdd(b_.CreateLoad(i64_, row_slot(row, a)), ahead));
            b_.CreateIntrinsic(llvm::Intrinsic::prefetch, {at->getType()},
                               {at, b_.getInt32(0), b_.getInt32(3), b_.getInt32(1)});
          }
          emit_for(b_.getInt64(0), count, b_.getInt64(1), [&](Value* r) {
            Value* from = b_.CreateGEP(mem, base_[a], b_.CreateAdd(b_.CreateLoad(i64_, row_slot(r, a)), column));
            Value* to = b_.CreateGEP(block_type, block[a],
                                     {b_.getInt64(0), b_.CreateAdd(b_.CreateMul(r, b_.getInt64(kTileColumns)), c)});
            b_.CreateStore(b_.CreateLoad(mem, from), to);
          });
        });
      }
      emit_for(b_.getInt64(0), count, b_.getInt64(1), [&](Value* r) {
        Ptrs ptrs;
        for (uint32_t a = 0; a < n_access; ++a) {
          if (block[a] != nullptr) {
            auto* block_type = llvm::cast<llvm::AllocaInst>(block[a])->getAllocatedType();
            ptrs.push_back(b_.CreateGEP(block_type, block[a], {b_.getInt64(0), b_.CreateMul(r, b_.getInt64(kTileColumns))}));
            continue;
          }
          Value* off = b_.CreateAdd(b_.CreateLoad(i64_, row_slot(r, a)), b_.CreateMul(c0, seg_stride_[a]));
          ptrs.push_back(b_.CreateGEP(memory_type(c_, buffer_dtype(a)), base_[a], off));
        }
        store_segment(stores, ptrs, n);
      });
    });
  });
}

}  // namespace lz::codegen_llvm::detail
