// TensorIterator: the element-wise iteration layer of the CPU kernels.
// Given an output and inputs that broadcast to its shape, it computes byte
// strides per operand (0 along broadcast dims), orders dims so the output
// is walked in memory order, merges dims that are contiguous for every
// operand, and then runs a 1-D inner loop over the innermost dim:
//   loop(char** data, const int64_t* strides, int64_t n)
// where data[k] points at operand k's first element of the row and
// strides[k] is its step in bytes. Operand 0 is the output. Large
// iterations are split across the thread pool (core/parallel.h).
#pragma once

#include <algorithm>
#include <array>
#include <initializer_list>

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

  // Runs `loop` over every row, in parallel over chunks of the flattened
  // iteration space (rows may be split at chunk boundaries).
  template <class Loop>
  void for_each(Loop&& loop, int64_t grain = kGrainSize) const;

 private:
  template <class Loop>
  void for_each_range(Loop& loop, int64_t begin, int64_t end) const;

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

template <class Loop>
void TensorIterator::for_each(Loop&& loop, int64_t grain) const {
  if (numel_ == 0) return;
  if (parallel_chunks(0, numel_, grain) == 1) {
    for_each_range(loop, 0, numel_);
    return;
  }
  parallel_for(0, numel_, grain, [&](int64_t begin, int64_t end) { for_each_range(loop, begin, end); });
}

template <class Loop>
void TensorIterator::for_each_range(Loop& loop, int64_t begin, int64_t end) const {
  std::array<char*, kMaxOperands> ptrs = data_;
  std::array<int64_t, kMaxOperands> inner{};
  if (shape_.empty()) {
    loop(ptrs.data(), inner.data(), int64_t{1});
    return;
  }
  const int nd = ndim();
  const int id = nd - 1;  // the inner dim
  for (int k = 0; k < noperands_; ++k) inner[k] = strides_[k][id];
  // Coordinates of `begin` in the iteration shape, and the pointers there.
  SizeVec index(nd, 0);
  int64_t rest = begin;
  for (int d = id; d >= 0; --d) {
    index[d] = rest % shape_[d];
    rest /= shape_[d];
    for (int k = 0; k < noperands_; ++k) ptrs[k] += index[d] * strides_[k][d];
  }
  int64_t remaining = end - begin;
  while (true) {
    const int64_t n = std::min(shape_[id] - index[id], remaining);
    loop(ptrs.data(), inner.data(), n);
    remaining -= n;
    if (remaining == 0) return;
    // Step to the start of the next row: rewind the inner dim, then carry.
    for (int k = 0; k < noperands_; ++k) ptrs[k] -= index[id] * inner[k];
    index[id] = 0;
    for (int d = id - 1; d >= 0; --d) {
      for (int k = 0; k < noperands_; ++k) ptrs[k] += strides_[k][d];
      if (++index[d] < shape_[d]) break;
      for (int k = 0; k < noperands_; ++k) ptrs[k] -= strides_[k][d] * shape_[d];
      index[d] = 0;
    }
  }
}

}  // namespace lz::cpu
