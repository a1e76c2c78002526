// TensorAccessor<T, N>: libtorch's x.accessor<float, 2>(), element access
// a[i][j] through sizes and strides without a call per element. It keeps
// the values it reads alive (a lazy tensor's are materialised by
// accessor(): writes through it do not reach the lazy tensor), and a[i]
// is a view into it, valid while it lives. Indices are not checked, as in
// libtorch.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

#include "core/shape.h"
#include "core/tensor.h"

namespace lz {

// N dims of a TensorAccessor: a[i] drops the first.
template <class T, size_t N>
class TensorAccessorView {
 public:
  TensorAccessorView(T* data, const int64_t* sizes, const int64_t* strides)
      : data_(data), sizes_(sizes), strides_(strides) {}

  decltype(auto) operator[](int64_t i) const {
    if constexpr (N == 1) {
      return static_cast<T&>(data_[i * strides_[0]]);
    } else {
      return TensorAccessorView<T, N - 1>(data_ + i * strides_[0], sizes_ + 1, strides_ + 1);
    }
  }
  int64_t size(size_t dim) const { return sizes_[dim]; }
  int64_t stride(size_t dim) const { return strides_[dim]; }
  IntArrayRef sizes() const { return IntArrayRef(sizes_, N); }
  IntArrayRef strides() const { return IntArrayRef(strides_, N); }
  T* data() const { return data_; }

 private:
  T* data_;
  const int64_t* sizes_;
  const int64_t* strides_;
};

template <class T, size_t N>
class TensorAccessor {
 public:
  explicit TensorAccessor(Tensor values) : values_(std::move(values)), data_(values_.data_ptr<T>()) {
    for (size_t d = 0; d < N; ++d) {
      sizes_[d] = values_.size(static_cast<int64_t>(d));
      strides_[d] = values_.stride(static_cast<int64_t>(d));
    }
  }
  // Copies are independent: a[i] views the sizes of the accessor it is
  // called on, made at each call.
  decltype(auto) operator[](int64_t i) const { return view()[i]; }
  int64_t size(size_t dim) const { return sizes_[dim]; }
  int64_t stride(size_t dim) const { return strides_[dim]; }
  IntArrayRef sizes() const { return IntArrayRef(sizes_.data(), N); }
  IntArrayRef strides() const { return IntArrayRef(strides_.data(), N); }
  T* data() const { return data_; }

 private:
  TensorAccessorView<T, N> view() const { return {data_, sizes_.data(), strides_.data()}; }

  Tensor values_;
  T* data_;
  std::array<int64_t, N> sizes_{};
  std::array<int64_t, N> strides_{};
};

template <class T, size_t N>
TensorAccessor<T, N> Tensor::accessor() const& {
  static_assert(N > 0, "accessor: a 0-dim tensor has no dims to index; use item()");
  LZ_CHECK(dim() == static_cast<int64_t>(N), ShapeError, "[accessor] expected a ", N,
           "-D tensor, got one of shape ", shape_str(sizes()));
  return TensorAccessor<T, N>(to_eager());
}

}  // namespace lz
