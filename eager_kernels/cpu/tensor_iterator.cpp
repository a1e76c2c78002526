#include "eager_kernels/cpu/tensor_iterator.h"

#include <algorithm>
#include <numeric>

namespace lz::cpu {

TensorIterator::TensorIterator(const Tensor& out, std::initializer_list<Tensor> inputs) {
  std::array<const Tensor*, kMaxOperands> operands{};
  noperands_ = 1 + static_cast<int>(inputs.size());
  LZ_INTERNAL_ASSERT(noperands_ <= kMaxOperands, "TensorIterator: too many operands");
  operands[0] = &out;
  int next = 1;
  for (const Tensor& t : inputs) {
    inputs_[next - 1] = t;
    operands[next] = &inputs_[next - 1];
    ++next;
  }
  for (int k = 0; k < noperands_; ++k) dtypes_[k] = operands[k]->dtype();

  const IntArrayRef shape = out.sizes();
  const int nd = static_cast<int>(shape.size());
  numel_ = out.numel();
  output_nbytes_ = numel_ * static_cast<int64_t>(out.itemsize());

  // Fast path for the common case: a contiguous output and inputs that are
  // either contiguous with the same shape or a single broadcast element.
  bool flat = out.is_contiguous();
  for (int k = 1; k < noperands_ && flat; ++k) {
    const Tensor& t = *operands[k];
    flat = t.numel() == 1 || (t.is_contiguous() && t.sizes() == shape);
  }
  if (flat) {
    shape_.assign(1, numel_);
    for (int k = 0; k < noperands_; ++k) {
      const Tensor& t = *operands[k];
      const bool broadcast = k > 0 && t.numel() == 1 && numel_ != 1;
      strides_[k].assign(1, broadcast ? 0 : static_cast<int64_t>(t.itemsize()));
      data_[k] = numel_ == 0 ? nullptr : static_cast<char*>(t.data_ptr());
    }
    return;
  }

  // Byte strides of every operand against the output's shape (0 where broadcast).
  std::array<SizeVec, kMaxOperands> strides;
  for (int k = 0; k < noperands_; ++k) {
    const Tensor& t = *operands[k];
    LZ_INTERNAL_ASSERT(is_expandable_to(t.sizes(), shape), "TensorIterator: operand shape ",
                       shape_str(t.sizes()), " does not broadcast to ", shape_str(shape));
    const int lead = nd - static_cast<int>(t.dim());
    const int64_t item = static_cast<int64_t>(t.itemsize());
    strides[k].assign(nd, 0);
    for (int d = 0; d < static_cast<int>(t.dim()); ++d) {
      if (t.sizes()[d] != 1) strides[k][lead + d] = t.strides()[d] * item;
    }
    data_[k] = numel_ == 0 ? nullptr : static_cast<char*>(t.data_ptr());
  }

  // Order dims outermost-first by the operands' strides (output first), so
  // a transposed output is still written in memory order.
  absl::InlinedVector<int, 6> perm(nd);
  std::iota(perm.begin(), perm.end(), 0);
  auto is_outer = [&](int a, int b) {  // should dim a come before dim b?
    for (int op = 0; op < noperands_; ++op) {
      const int64_t sa = strides[op][a], sb = strides[op][b];
      if (sa == 0 || sb == 0 || sa == sb) continue;
      return sa > sb;
    }
    return false;
  };
  // Insertion sort: the comparison is not a strict weak order across
  // operands, and there are only a handful of dims.
  for (int i = 1; i < nd; ++i) {
    for (int j = i; j > 0 && is_outer(perm[j], perm[j - 1]); --j) std::swap(perm[j], perm[j - 1]);
  }

  // Drop size-1 dims and merge a dim into the previous (outer) one when
  // every operand steps contiguously across the pair.
  for (int p : perm) {
    if (shape[p] == 1) continue;
    if (!shape_.empty()) {
      const size_t last = shape_.size() - 1;
      bool mergeable = true;
      for (int op = 0; op < noperands_ && mergeable; ++op) {
        mergeable = strides_[op][last] == strides[op][p] * shape[p];
      }
      if (mergeable) {
        shape_[last] *= shape[p];
        for (int op = 0; op < noperands_; ++op) strides_[op][last] = strides[op][p];
        continue;
      }
    }
    shape_.push_back(shape[p]);
    for (int op = 0; op < noperands_; ++op) strides_[op].push_back(strides[op][p]);
  }
  if (shape_.empty() && nd > 0) {
    // Every dim had size 1 (or the tensor is empty): one flat loop.
    shape_.push_back(numel_);
    for (int op = 0; op < noperands_; ++op) strides_[op].push_back(0);
  }
}

}  // namespace lz::cpu
