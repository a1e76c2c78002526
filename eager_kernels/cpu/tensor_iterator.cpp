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

void TensorIterator::for_each_rows(RowsLoop loop, int64_t grain) const {
  if (numel_ == 0) return;
  if (parallel_chunks(0, numel_, grain) == 1) {
    for_each_range(loop, 0, numel_);
    return;
  }
  parallel_for(0, numel_, grain, [&](int64_t begin, int64_t end) { for_each_range(loop, begin, end); });
}

void TensorIterator::for_each_range(RowsLoop loop, int64_t begin, int64_t end) const {
  std::array<char*, kMaxOperands> ptrs = data_;
  std::array<int64_t, 2 * kMaxOperands> steps{};  // along a row, then between rows
  if (shape_.empty()) {
    loop(ptrs.data(), steps.data(), 1, 1);
    return;
  }
  const int nd = ndim();
  const int id = nd - 1;  // the inner dim
  const int od = nd - 2;  // the dim the rows run along (none when -1)
  for (int k = 0; k < noperands_; ++k) {
    steps[k] = strides_[k][id];
    if (od >= 0) steps[kMaxOperands + k] = strides_[k][od];
  }
  // Coordinates of `begin` in the iteration shape, and the pointers there.
  SizeVec index(nd, 0);
  int64_t rest = begin;
  for (int d = id; d >= 0; --d) {
    index[d] = rest % shape_[d];
    rest /= shape_[d];
    for (int k = 0; k < noperands_; ++k) ptrs[k] += index[d] * strides_[k][d];
  }
  // Moves the pointers, at the start of a row, `count` rows on (carrying
  // into the outer dims); count never passes the end of dim od.
  const auto next_rows = [&](int64_t count) {
    if (od < 0) return;
    for (int k = 0; k < noperands_; ++k) ptrs[k] += count * strides_[k][od];
    index[od] += count;
    if (index[od] < shape_[od]) return;
    for (int k = 0; k < noperands_; ++k) ptrs[k] -= strides_[k][od] * shape_[od];
    index[od] = 0;
    for (int d = od - 1; d >= 0; --d) {
      for (int k = 0; k < noperands_; ++k) ptrs[k] += strides_[k][d];
      if (++index[d] < shape_[d]) break;
      for (int k = 0; k < noperands_; ++k) ptrs[k] -= strides_[k][d] * shape_[d];
      index[d] = 0;
    }
  };
  const int64_t n = shape_[id];
  int64_t remaining = end - begin;
  while (remaining > 0) {
    if (index[id] != 0 || remaining < n) {
      // Part of a row (where a chunk starts or ends inside one).
      const int64_t m = std::min(n - index[id], remaining);
      loop(ptrs.data(), steps.data(), m, 1);
      remaining -= m;
      if (remaining == 0) return;
      for (int k = 0; k < noperands_; ++k) ptrs[k] -= index[id] * steps[k];
      index[id] = 0;
      next_rows(1);
      continue;
    }
    const int64_t rows = od < 0 ? 1 : std::min(remaining / n, shape_[od] - index[od]);
    loop(ptrs.data(), steps.data(), n, rows);
    remaining -= rows * n;
    if (remaining > 0) next_rows(rows);
  }
}

}  // namespace lz::cpu
