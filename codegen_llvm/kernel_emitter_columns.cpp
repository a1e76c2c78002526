// Column variants of reduction kernels (VariantSpec::columns). A reduction
// over leading axes (x.mean(0); a sum over every axis but the last) walked
// one outer point at a time reads down a column: one element per cache
// line, ~1 GB/s. A column variant takes a band of outer points along the
// last outer axis (the contiguous one) and reads the inner points in
// order, each a contiguous run of the band, into one accumulator per
// point held in an L1-sized array. Runs of a few cache lines (a band of
// 64 floats) read at half the speed of 4 KiB runs here: the hardware
// prefetchers follow long runs only. The additions per point are in a
// fixed order (rows in order, in blocks), so results do not depend on
// threads or bands.
#include <algorithm>
#include <memory>
#include <vector>

#include <llvm/IR/IRBuilder.h>

#include "codegen_llvm/kernel_emitter_impl.h"
#include "codegen_llvm/stage_plan.h"
#include "codegen_llvm/value_ops.h"

namespace lz::codegen_llvm {

namespace {

// Accumulator arrays of a band stay within this many bytes (of L1's 32 KiB).
constexpr int64_t kBandArrayBytes = 16 << 10;
constexpr int64_t kMaxBandPoints = 1024;
constexpr int64_t kMinBandPoints = 64;

// Bytes per outer point of a band's arrays: per reduction, its block and
// whole-walk accumulators and its result (see ColumnArrays).
int64_t band_bytes_per_point(const ir::Kernel& k) {
  int64_t bytes = 0;
  for (const ir::Reduction& r : k.reductions) {
    const int64_t elem = r.dtype == ScalarType::Double || r.dtype == ScalarType::Long ? 8 : 4;
    bytes += 2 * elem + 8;  // the whole-walk accumulator may be widened to double
  }
  return std::max<int64_t>(bytes, 1);
}

}  // namespace

int64_t column_band_points(const ir::Kernel& k) {
  int64_t points = kMaxBandPoints;
  while (points > kMinBandPoints && points * band_bytes_per_point(k) > kBandArrayBytes) points /= 2;
  return points;
}

namespace detail {

namespace {

// Float sums add this many rows in float, then into their double
// accumulator: the precision of reduce_segment's blocks per lane.
constexpr int64_t kColumnBlock = 64;
// Vectors per step of a band's loop over its points.
constexpr int kColumnUnroll = 4;
// Rows a reduction reads at once (a power of two dividing kColumnBlock).
constexpr int kRowsAtOnce = 4;

}  // namespace

// One array per reduction with a slot per outer point of the band: vectors
// for the band's full vectors, then scalars for its last points.
struct Emitter::ColumnArrays {
  std::vector<Value*> vec, scalar;  // per reduction: the array, or nullptr
  std::vector<llvm::Type*> vec_type, scalar_type;
};

Emitter::ColumnArrays Emitter::column_arrays(const std::vector<uint32_t>& reds, bool widened, int64_t band) {
  ValueOps vec(b_, width_, spec_.math), scalar(b_, 1, spec_.math);
  ColumnArrays a;
  a.vec.assign(k_.reductions.size(), nullptr);
  a.scalar.assign(k_.reductions.size(), nullptr);
  a.vec_type.assign(k_.reductions.size(), nullptr);
  a.scalar_type.assign(k_.reductions.size(), nullptr);
  for (uint32_t r : reds) {
    const ir::Reduction& red = k_.reductions[r];
    const ScalarType t = widened ? outer_acc_dtype(red) : red.dtype;
    a.vec_type[r] = vec.type(t);
    a.scalar_type[r] = scalar.type(t);
    a.vec[r] = entry_alloca(llvm::ArrayType::get(a.vec_type[r], static_cast<uint64_t>(band / width_)));
    a.scalar[r] = entry_alloca(llvm::ArrayType::get(a.scalar_type[r], width_));
  }
  return a;
}

Value* Emitter::column_slot(const ColumnArrays& a, uint32_t r, bool vector, Value* index) {
  Value* base = vector ? a.vec[r] : a.scalar[r];
  return b_.CreateGEP(llvm::cast<llvm::AllocaInst>(base)->getAllocatedType(), base, {b_.getInt64(0), index});
}

// body(ops, point offset in the band, slot index, vector?) for every point
// of a band of `count` points: full vectors (unrolled), then single points.
void Emitter::each_column(Value* count, const std::function<void(ValueOps&, Value*, Value*, bool)>& body) {
  ValueOps vec(b_, width_, spec_.math), scalar(b_, 1, spec_.math);
  Value* vectors = b_.CreateUDiv(count, b_.getInt64(width_));
  Value* unrolled = b_.CreateSub(vectors, b_.CreateURem(vectors, b_.getInt64(kColumnUnroll)));
  emit_for(b_.getInt64(0), unrolled, b_.getInt64(kColumnUnroll), [&](Value* v) {
    for (int u = 0; u < kColumnUnroll; ++u) {
      Value* slot = b_.CreateAdd(v, b_.getInt64(u));
      body(vec, b_.CreateMul(slot, b_.getInt64(width_)), slot, true);
    }
  });
  emit_for(unrolled, vectors, b_.getInt64(1),
           [&](Value* v) { body(vec, b_.CreateMul(v, b_.getInt64(width_)), v, true); });
  Value* first = b_.CreateMul(vectors, b_.getInt64(width_));
  emit_for(first, count, b_.getInt64(1), [&](Value* p) { body(scalar, p, b_.CreateSub(p, first), false); });
}

// Outer points [begin, end): segments along the last outer axis, cut into
// bands of column_band_points.
void Emitter::emit_column_run(Value* begin, Value* end) {
  const std::vector<StageGroup> groups = group_stages(k_);
  const int64_t band = column_band_points(k_);
  emit_while(begin, end, [&](Value* i) {
    Value* last = b_.CreateSub(num_outer_, b_.getInt64(1));
    Value* seg_len = size(last);
    Value* row = b_.CreateUDiv(i, seg_len);
    Value* col = b_.CreateSub(i, b_.CreateMul(row, seg_len));
    Value* n = b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, b_.CreateSub(seg_len, col), b_.CreateSub(end, i));
    const Ptrs offs = axis_offsets(row, b_.getInt64(0), last, {});
    emit_for(b_.getInt64(0), n, b_.getInt64(band), [&](Value* c) {
      Ptrs at;
      for (uint32_t a = 0; a < base_.size(); ++a) {
        at.push_back(b_.CreateAdd(offs[a], b_.CreateMul(b_.CreateAdd(col, c), seg_stride_[a])));
      }
      column_band(groups, at, b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, b_.CreateSub(n, c), b_.getInt64(band)),
                  band);
    });
    return n;
  });
}

// One band of `count` (<= band) points from element offsets `offsets`. Its
// stage groups run in order, each over every inner point.
void Emitter::column_band(const std::vector<StageGroup>& groups, const Ptrs& offsets, Value* count, int64_t band) {
  const ColumnArrays results = column_arrays(all_reductions(), false, band);
  std::vector<bool> done(k_.reductions.size(), false);
  // The reduced values of the reductions done so far, at one slot.
  auto bind_reduced = [&](Value* slot, bool vector) {
    reduced_.assign(k_.reductions.size(), nullptr);
    for (uint32_t r = 0; r < k_.reductions.size(); ++r) {
      if (!done[r]) continue;
      reduced_[r] = b_.CreateLoad(vector ? results.vec_type[r] : results.scalar_type[r],
                                  column_slot(results, r, vector, slot));
    }
  };
  // body(pointers at each of `rows_at_once` rows) for every inner point,
  // `rows_at_once` rows at a time (the last few of a segment one at a
  // time); `block` (when set) runs around each kColumnBlock rows of a
  // segment.
  auto each_row = [&](int rows_at_once, const std::function<void(const std::vector<Ptrs>&)>& body,
                      const std::function<void(const std::function<void()>&)>& block) {
    Value* last = b_.CreateSub(rank_, b_.getInt64(1));
    Value* rows = size(last);
    Value* segments = b_.CreateSelect(b_.CreateICmpEQ(rows, b_.getInt64(0)), b_.getInt64(0),
                                      b_.CreateUDiv(inner_count_, b_.CreateBinaryIntrinsic(
                                                                      llvm::Intrinsic::smax, rows, b_.getInt64(1))));
    emit_for(b_.getInt64(0), segments, b_.getInt64(1), [&](Value* s) {
      const Ptrs offs = axis_offsets(s, num_outer_, last, offsets);
      auto row_at = [&](Value* r) {
        Ptrs row;
        for (uint32_t a = 0; a < base_.size(); ++a) {
          row.push_back(b_.CreateGEP(memory_type(c_, buffer_dtype(a)), base_[a],
                                     b_.CreateAdd(offs[a], b_.CreateMul(r, walk_stride_[a]))));
        }
        return row;
      };
      auto rows_from = [&](Value* first, Value* stop) {
        Value* grouped =
            b_.CreateSub(stop, b_.CreateSRem(b_.CreateSub(stop, first), b_.getInt64(rows_at_once)));
        emit_for(first, grouped, b_.getInt64(rows_at_once), [&](Value* r) {
          std::vector<Ptrs> group;
          for (int k = 0; k < rows_at_once; ++k) group.push_back(row_at(b_.CreateAdd(r, b_.getInt64(k))));
          body(group);
        });
        if (rows_at_once > 1) emit_for(grouped, stop, b_.getInt64(1), [&](Value* r) { body({row_at(r)}); });
      };
      if (!block) return rows_from(b_.getInt64(0), rows);
      emit_for(b_.getInt64(0), rows, b_.getInt64(kColumnBlock), [&](Value* p) {
        Value* stop =
            b_.CreateBinaryIntrinsic(llvm::Intrinsic::smin, rows, b_.CreateAdd(p, b_.getInt64(kColumnBlock)));
        block([&] { rows_from(p, stop); });
      });
    });
  };
  auto band_ptrs = [&] {
    Ptrs ptrs;
    for (uint32_t a = 0; a < base_.size(); ++a) {
      ptrs.push_back(b_.CreateGEP(memory_type(c_, buffer_dtype(a)), base_[a], offsets[a]));
    }
    return ptrs;
  };
  for (const StageGroup& g : groups) {
    switch (g.kind) {
      case StageGroup::Kind::Reduce: {
        // Per reduction: the accumulators of the current block of rows, and
        // of the whole walk (outer_acc_type).
        const ColumnArrays part = column_arrays(g.items, false, band);
        const ColumnArrays total = column_arrays(g.items, true, band);
        auto fill = [&](const ColumnArrays& arrays, bool widened) {
          each_column(count, [&](ValueOps& ops, Value*, Value* slot, bool vector) {
            for (uint32_t r : g.items) {
              const ir::Reduction& red = k_.reductions[r];
              b_.CreateStore(ops.identity(red.op, widened ? outer_acc_dtype(red) : red.dtype),
                             column_slot(arrays, r, vector, slot));
            }
          });
        };
        fill(total, true);
        // Rows in a fixed tree ((r0 + r1) + (r2 + r3)), then into the
        // accumulator: four rows read at once keep more requests in flight.
        auto accumulate = [&](const std::vector<Ptrs>& rows) {
          each_column(count, [&](ValueOps& ops, Value* j, Value* slot, bool vector) {
            bind_reduced(slot, vector);
            std::vector<std::unique_ptr<Eval>> evs;
            for (const Ptrs& row : rows) evs.push_back(std::make_unique<Eval>(*this, ops, row, j));
            for (uint32_t r : g.items) {
              const ir::Reduction& red = k_.reductions[r];
              std::vector<Value*> values;
              for (auto& ev : evs) values.push_back(ev->get(red.input));
              for (size_t half = values.size() / 2; half > 0; half /= 2) {
                for (size_t i = 0; i < half; ++i) {
                  values[i] = ops.combine(red.op, values[2 * i], values[2 * i + 1], red.dtype);
                }
              }
              Value* at = column_slot(part, r, vector, slot);
              Value* old = b_.CreateLoad(ops.type(red.dtype), at);
              b_.CreateStore(ops.combine(red.op, old, values[0], red.dtype), at);
            }
          });
        };
        auto block = [&](const std::function<void()>& rows) {
          fill(part, false);
          rows();
          each_column(count, [&](ValueOps& ops, Value*, Value* slot, bool vector) {
            for (uint32_t r : g.items) {
              const ir::Reduction& red = k_.reductions[r];
              const ScalarType acc_t = outer_acc_dtype(red);
              Value* wide = ops.convert(b_.CreateLoad(ops.type(red.dtype), column_slot(part, r, vector, slot)),
                                        red.dtype, acc_t);
              Value* at = column_slot(total, r, vector, slot);
              b_.CreateStore(ops.combine(red.op, b_.CreateLoad(ops.type(acc_t), at), wide, acc_t), at);
            }
          });
        };
        each_row(kRowsAtOnce, accumulate, block);
        each_column(count, [&](ValueOps& ops, Value*, Value* slot, bool vector) {
          for (uint32_t r : g.items) {
            const ir::Reduction& red = k_.reductions[r];
            const ScalarType acc_t = outer_acc_dtype(red);
            Value* acc = b_.CreateLoad(ops.type(acc_t), column_slot(total, r, vector, slot));
            b_.CreateStore(ops.convert(acc, acc_t, red.dtype), column_slot(results, r, vector, slot));
          }
        });
        for (uint32_t r : g.items) done[r] = true;
        break;
      }
      case StageGroup::Kind::Store:
        each_row(
            1,
            [&](const std::vector<Ptrs>& rows) {
              const Ptrs& row = rows[0];
              each_column(count, [&](ValueOps& ops, Value* j, Value* slot, bool vector) {
                bind_reduced(slot, vector);
                Eval ev(*this, ops, row, j);
                for (uint32_t s : g.items) {
                  store(ops, row, k_.stores[s].access, j, ev.get(k_.stores[s].value), spec_.streaming && vector);
                }
              });
            },
            nullptr);
        break;
      case StageGroup::Kind::ReducedStore: {
        const Ptrs ptrs = band_ptrs();
        each_column(count, [&](ValueOps& ops, Value* j, Value* slot, bool vector) {
          bind_reduced(slot, vector);
          Eval ev(*this, ops, ptrs, j);
          for (uint32_t s : g.items) store(ops, ptrs, k_.stores[s].access, j, ev.get(k_.stores[s].value));
        });
        break;
      }
    }
  }
  reduced_.assign(k_.reductions.size(), nullptr);
}

}  // namespace detail

}  // namespace lz::codegen_llvm
