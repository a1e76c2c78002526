// lz::Tensor: a reference-counted handle to a TensorImpl, with libtorch's
// method names. Methods that compute something call the dispatcher through
// the free functions in core/ops_*.h; metadata accessors read the impl.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/intrusive_ptr.h"
#include "core/layout.h"
#include "core/scalar.h"
#include "core/tensor_impl.h"
#include "core/tensor_options.h"

namespace lz {

class Tensor {
 public:
  Tensor() = default;  // undefined: holds no impl
  explicit Tensor(intrusive_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}

  bool defined() const { return static_cast<bool>(impl_); }
  TensorImpl* unsafe_get_impl() const { return impl_.get(); }
  const intrusive_ptr<TensorImpl>& impl_ptr() const { return impl_; }
  uint32_t use_count() const { return impl_.use_count(); }
  // Same TensorImpl (not merely equal values).
  bool is_same(const Tensor& other) const { return impl_ == other.impl_; }

  // ---- Metadata ------------------------------------------------------------
  IntArrayRef sizes() const { return impl()->sizes(); }
  int64_t size(int64_t dim) const { return impl()->size(dim); }
  IntArrayRef strides() const { return impl()->strides(); }
  int64_t stride(int64_t dim) const { return impl()->stride(dim); }
  int64_t dim() const { return impl()->dim(); }
  int64_t ndimension() const { return dim(); }
  int64_t numel() const { return impl()->numel(); }
  size_t element_size() const { return impl()->itemsize(); }
  size_t itemsize() const { return impl()->itemsize(); }
  size_t nbytes() const { return static_cast<size_t>(numel()) * itemsize(); }
  int64_t storage_offset() const { return impl()->storage_offset(); }
  bool is_contiguous() const { return impl()->is_contiguous(); }
  ScalarType scalar_type() const { return impl()->dtype(); }
  ScalarType dtype() const { return impl()->dtype(); }
  Device device() const { return impl()->device(); }
  bool is_cpu() const { return device().is_cpu(); }
  bool is_cuda() const { return device().is_cuda(); }
  bool is_floating_point() const { return lz::is_floating_point(dtype()); }
  DispatchKeySet key_set() const { return impl()->key_set(); }
  TensorOptions options() const { return TensorOptions(dtype()).device(device()); }
  // In-place modifications seen by this tensor and its views so far.
  uint64_t _version() const { return impl()->version_counter().current(); }

  // ---- Data access (eager CPU tensors) -------------------------------------
  void* data_ptr() const;
  // TypeError if T is not this tensor's element type.
  template <class T>
  T* data_ptr() const;
  template <class T>
  const T* const_data_ptr() const {
    return data_ptr<T>();
  }
  // The single value of a one-element tensor.
  Scalar item() const;
  template <class T>
  T item() const {
    return item().to<T>();
  }

  // ---- Arithmetic ----------------------------------------------------------
  Tensor add(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor add(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor& add_(const Tensor& other, const Scalar& alpha = 1);
  Tensor& add_(const Scalar& other, const Scalar& alpha = 1);
  Tensor sub(const Tensor& other, const Scalar& alpha = 1) const;
  Tensor sub(const Scalar& other, const Scalar& alpha = 1) const;
  Tensor& sub_(const Tensor& other, const Scalar& alpha = 1);
  Tensor& sub_(const Scalar& other, const Scalar& alpha = 1);
  Tensor mul(const Tensor& other) const;
  Tensor mul(const Scalar& other) const;
  Tensor& mul_(const Tensor& other);
  Tensor& mul_(const Scalar& other);
  Tensor div(const Tensor& other) const;
  Tensor div(const Scalar& other) const;
  Tensor& div_(const Tensor& other);
  Tensor& div_(const Scalar& other);
  Tensor neg() const;
  Tensor& neg_();
  Tensor exp() const;
  Tensor& exp_();
  Tensor relu() const;
  Tensor& relu_();

  // ---- Reductions ----------------------------------------------------------
  Tensor sum(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor sum(IntArrayRef dim, bool keepdim = false,
             std::optional<ScalarType> dtype = std::nullopt) const;

  // ---- Copies and conversions ----------------------------------------------
  Tensor& copy_(const Tensor& src, bool non_blocking = false);
  Tensor& fill_(const Scalar& value);
  Tensor& zero_();
  Tensor clone(std::optional<MemoryFormat> memory_format = std::nullopt) const;
  // Self when already contiguous, else a contiguous copy.
  Tensor contiguous() const;
  // Self when nothing changes (unless copy), else a converted copy.
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false) const;
  Tensor to(Device device, std::optional<ScalarType> dtype = std::nullopt,
            bool non_blocking = false, bool copy = false) const;
  Tensor to(const TensorOptions& options, bool non_blocking = false, bool copy = false) const;

  // ---- Views (share storage with self) -------------------------------------
  Tensor view(IntArrayRef size) const;
  Tensor reshape(IntArrayRef shape) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor permute(IntArrayRef dims) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor t() const;
  Tensor expand(IntArrayRef size) const;
  Tensor expand_as(const Tensor& other) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor slice(int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
               std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor as_strided(IntArrayRef size, IntArrayRef stride,
                    std::optional<int64_t> storage_offset = std::nullopt) const;
  // x[i] == x.select(0, i)
  Tensor operator[](int64_t index) const;

  // ---- Compound assignment (in place) --------------------------------------
  Tensor& operator+=(const Tensor& other) { return add_(other); }
  Tensor& operator+=(const Scalar& other) { return add_(other); }
  Tensor& operator-=(const Tensor& other) { return sub_(other); }
  Tensor& operator-=(const Scalar& other) { return sub_(other); }
  Tensor& operator*=(const Tensor& other) { return mul_(other); }
  Tensor& operator*=(const Scalar& other) { return mul_(other); }
  Tensor& operator/=(const Tensor& other) { return div_(other); }
  Tensor& operator/=(const Scalar& other) { return div_(other); }

  // PyTorch-style text, e.g. "tensor([1, 2], dtype=lz.int32)".
  std::string to_string() const;

 private:
  TensorImpl* impl() const {
    LZ_CHECK(impl_, Error, "[Tensor] this tensor is undefined (default-constructed)");
    return impl_.get();
  }
  intrusive_ptr<TensorImpl> impl_;
};

using TensorList = absl::Span<const Tensor>;

Tensor operator-(const Tensor& self);
Tensor operator+(const Tensor& a, const Tensor& b);
Tensor operator+(const Tensor& a, const Scalar& b);
Tensor operator+(const Scalar& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Tensor& b);
Tensor operator-(const Tensor& a, const Scalar& b);
Tensor operator-(const Scalar& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Tensor& b);
Tensor operator*(const Tensor& a, const Scalar& b);
Tensor operator*(const Scalar& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Tensor& b);
Tensor operator/(const Tensor& a, const Scalar& b);
Tensor operator/(const Scalar& a, const Tensor& b);

std::ostream& operator<<(std::ostream& os, const Tensor& t);

namespace detail {
[[noreturn]] void throw_data_ptr_dtype_mismatch(const Tensor& t, ScalarType requested);
}

template <class T>
T* Tensor::data_ptr() const {
  if (dtype() != scalar_type_of<T>) detail::throw_data_ptr_dtype_mismatch(*this, scalar_type_of<T>);
  return static_cast<T*>(data_ptr());
}

}  // namespace lz
