// TensorIterator: the element-wise iteration layer of the CPU kernels.
// Given an output and inputs that broadcast to its shape, it computes byte
// strides per operand (0 along broadcast dims), orders dims so the output
// is walked in memory order, merges dims that are contiguous for every
// operand, and then runs a loop over rows of the innermost dim, as many at
// a time as the next dim holds:
//   loop(char** data, const int64_t* strides, int64_t n, int64_t rows)
// where data[k] points at operand k's first element, strides[k] is its step
// along a row and strides[kMaxOperands + k] between rows, in bytes. Operand
// 0 is the output. Large iterations are split across the thread pool
// (core/parallel.h). A kernel thus sees whole 2-D regions: rows too short
// for a loop call each are blocked across rows (cpu/loops.h).
#pragma once

#include <algorithm>
#include <array>
#include <initializer_list>

#include <absl/functional/function_ref.h>

#include "core/parallel.h"
#include "core/tensor.h"

namespace lz::cpu {

class TensorIterator {
 public:
  static constexpr int kMaxOperands = 4;

  TensorIterator(const Tensor& out, std::initializer_list<Tensor> inputs);

  int noperands() const { return noperands_; }
  // Bytes of the output (operand 0).
  int64_t output_nbytes() const { return output_nbytes_; }
  int64_t numel() const { return numel_; }
  // Operand k's dtype (0: the output).
  ScalarType dtype(int k) const { return dtypes_[k]; }
  // Dims left after merging; 1 means one flat loop.
  int ndim() const { return static_cast<int>(shape_.size()); }

  // Minimum iterations per parallel chunk (smaller iterations run on one thread).
  static constexpr int64_t kGrainSize = 32768;

  // loop(data, strides, n, rows) for `rows` rows of n elements: data[k] is
  // operand k's first element, strides[k] its step along a row and
  // strides[kMaxOperands + k] from one row to the next, in bytes.
  using RowsLoop = absl::FunctionRef<void(char** data, const int64_t* strides, int64_t n, int64_t rows)>;

  // Runs `loop` over the iteration space, in parallel over chunks of it
  // (rows may be split at chunk boundaries), handing it as many rows at a
  // time as the two inner dims hold. The walk over the outer dims is
  // compiled once, here, not once per operator and dtype.
  void for_each_rows(RowsLoop loop, int64_t grain = kGrainSize) const;

  // for_each_rows for a loop over one row at a time: loop(data, strides, n).
  template <class Loop>
  void for_each(Loop&& loop, int64_t grain = kGrainSize) const {
    for_each_rows(
        [&](char** data, const int64_t* strides, int64_t n, int64_t rows) {
          // Local copies: the loop's stores cannot alias them, so its
          // strides stay in registers.
          std::array<char*, kMaxOperands> row;
          std::array<int64_t, 2 * kMaxOperands> steps;
          std::copy_n(data, kMaxOperands, row.begin());
          std::copy_n(strides, 2 * kMaxOperands, steps.begin());
          for (int64_t r = 0; r < rows; ++r) {
            loop(row.data(), steps.data(), n);
            for (int k = 0; k < kMaxOperands; ++k) row[k] += steps[kMaxOperands + k];
          }
        },
        grain);
  }

 private:
  void for_each_range(RowsLoop loop, int64_t begin, int64_t end) const;

  int noperands_ = 0;
  int64_t numel_ = 0;
  int64_t output_nbytes_ = 0;
  SizeVec shape_;  // outermost first
  std::array<SizeVec, kMaxOperands> strides_;  // bytes, per operand, same order as shape_
  std::array<char*, kMaxOperands> data_{};
  std::array<ScalarType, kMaxOperands> dtypes_{};
  // The inputs, held so that one converted on the way in (a temporary of
  // `TensorIterator(out, {cast_to(x, dtype)})`) lives as long as the
  // iterator that points into it.
  std::array<Tensor, kMaxOperands - 1> inputs_;
};

}  // namespace lz::cpu
