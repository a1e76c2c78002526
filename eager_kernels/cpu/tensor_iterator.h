// TensorIterator: the element-wise iteration layer of the CPU kernels.
// Given an output and inputs that broadcast to its shape, it computes byte
// strides per operand (0 along broadcast dims), orders dims so the output
// is walked in memory order, merges dims that are contiguous for every
// operand, and then runs a 1-D inner loop over the innermost dim:
//   loop(char** data, const int64_t* strides, int64_t n)
// where data[k] points at operand k's first element of the row and
// strides[k] is its step in bytes. Operand 0 is the output.
#pragma once

#include <array>
#include <initializer_list>

#include "core/tensor.h"

namespace lz::cpu {

class TensorIterator {
 public:
  static constexpr int kMaxOperands = 4;

  TensorIterator(const Tensor& out, std::initializer_list<Tensor> inputs);

  int noperands() const { return noperands_; }
  int64_t numel() const { return numel_; }
  // Dims left after merging; 1 means one flat loop.
  int ndim() const { return static_cast<int>(shape_.size()); }

  template <class Loop>
  void for_each(Loop&& loop) const;

 private:
  int noperands_ = 0;
  int64_t numel_ = 0;
  SizeVec shape_;  // outermost first
  std::array<SizeVec, kMaxOperands> strides_;  // bytes, per operand, same order as shape_
  std::array<char*, kMaxOperands> data_{};
};

template <class Loop>
void TensorIterator::for_each(Loop&& loop) const {
  if (numel_ == 0) return;
  std::array<char*, kMaxOperands> ptrs = data_;
  std::array<int64_t, kMaxOperands> inner{};
  if (shape_.empty()) {
    loop(ptrs.data(), inner.data(), int64_t{1});
    return;
  }
  const int inner_dim = ndim() - 1;
  for (int k = 0; k < noperands_; ++k) inner[k] = strides_[k][inner_dim];
  const int64_t n = shape_[inner_dim];
  if (inner_dim == 0) {
    loop(ptrs.data(), inner.data(), n);
    return;
  }
  // Odometer over the outer dims.
  SizeVec index(inner_dim, 0);
  while (true) {
    loop(ptrs.data(), inner.data(), n);
    int d = inner_dim - 1;
    for (; d >= 0; --d) {
      for (int k = 0; k < noperands_; ++k) ptrs[k] += strides_[k][d];
      if (++index[d] < shape_[d]) break;
      for (int k = 0; k < noperands_; ++k) ptrs[k] -= strides_[k][d] * shape_[d];
      index[d] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace lz::cpu
