// lz::Tensor: a reference-counted handle to a TensorImpl, with libtorch's
// method names. Methods that compute something call the dispatcher through
// the free functions in core/ops_*.h; metadata accessors read the impl.
#pragma once

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <memory>
#include <optional>
#include <ostream>
#include <source_location>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include "core/error.h"
#include "core/generator.h"
#include "core/intrusive_ptr.h"
#include "core/layout.h"
#include "core/optional_int_array_ref.h"
#include "core/scalar.h"
#include "core/tensor_impl.h"
#include "core/tensor_options.h"

namespace lz {

namespace autograd {
class Node;
}
template <class T, size_t N>
class TensorAccessor;
namespace indexing {
class TensorIndex;
}

class Tensor {
 public:
  Tensor() = default;  // undefined: holds no impl
  explicit Tensor(intrusive_ptr<TensorImpl> impl) : impl_(std::move(impl)) {}
  Tensor(const Tensor&) = default;
  Tensor(Tensor&&) noexcept = default;
  // Assigning to a named tensor rebinds it; assigning to a temporary writes
  // through it, as in libtorch: x[1] = t copies t into row 1, x[1] = 5 fills it.
  Tensor& operator=(const Tensor&) & = default;
  Tensor& operator=(Tensor&&) & noexcept = default;
  Tensor& operator=(const Tensor& src) && { return copy_(src); }
  Tensor& operator=(Tensor&& src) && { return copy_(src); }
  Tensor& operator=(const Scalar& value) && { return fill_(value); }

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
  uint64_t _version() const { return impl()->version(); }

  // ---- Lazy mode -----------------------------------------------------------
  // A lazy tensor whose value is this tensor's (no copy): operators on it are
  // recorded, not run, until a value is needed. Self when already lazy.
  Tensor to_lazy() const;
  // The value of a lazy tensor as an eager tensor (runs pending work once;
  // later calls return the stored value). Self when already eager. `where`
  // (the caller) is named by LZ_DEBUG and recompilation warnings.
  Tensor to_eager(const std::source_location& where = std::source_location::current()) const;
  bool is_lazy() const { return defined() && key_set().has(DispatchKey::Lazy); }

  // ---- Data access (eager CPU tensors; a lazy tensor is materialised) ------
  // ---- Autograd (autograd/: libtorch's names and behaviour) ------------------
  // Marks a floating-point leaf as a parameter whose gradient backward()
  // accumulates into grad(). ValueError for integer tensors, and for
  // switching it off on a non-leaf.
  const Tensor& requires_grad_(bool requires_grad = true) const;
  const Tensor& set_requires_grad(bool requires_grad) const { return requires_grad_(requires_grad); }
  // A leaf marked requires_grad_, or a result computed from one with grad mode on.
  bool requires_grad() const;
  // True for tensors without history (grad_fn() is null).
  bool is_leaf() const;
  // The node that computes this tensor's inputs' gradients (null for leaves);
  // grad_fn()->name() is "MulBackward" style (#include <lazuli/lazuli.h>).
  std::shared_ptr<autograd::Node> grad_fn() const;
  // Which output of grad_fn() this tensor is.
  uint32_t output_nr() const;
  // The accumulated gradient (undefined until a backward reaches this leaf).
  const Tensor& grad() const;
  Tensor& mutable_grad() const;
  // Gradients of this tensor with respect to the leaves it depends on,
  // accumulated into their grad(). `gradient` may be omitted for one-element
  // tensors; retain_graph (default: create_graph) keeps saved values for
  // another backward; create_graph records the backward for higher derivatives.
  void backward(const Tensor& gradient = {}, std::optional<bool> retain_graph = std::nullopt,
                bool create_graph = false) const;
  // A tensor sharing this one's values (and version counter) without history.
  Tensor detach() const;
  // Removes this tensor's history in place (ValueError for views of tensors with history).
  const Tensor& detach_() const;
  // Makes backward fill grad() of this non-leaf too.
  void retain_grad() const;
  bool retains_grad() const;
  // `hook(grad)` runs when this tensor's gradient is computed; a defined
  // result replaces the gradient. Returns the hook's index.
  unsigned register_hook(std::function<Tensor(const Tensor&)> hook) const;
  template <class Hook>
    requires std::is_void_v<std::invoke_result_t<Hook, const Tensor&>>
  unsigned register_hook(Hook hook) const {
    return register_hook(std::function<Tensor(const Tensor&)>([hook = std::move(hook)](const Tensor& g) {
      hook(g);
      return Tensor();
    }));
  }

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
  // a[i][j] element access (core/tensor_accessor.h). Deleted on a
  // temporary as in libtorch (where the values would die with it), so such
  // code is not written here that libtorch would reject.
  template <class T, size_t N>
  TensorAccessor<T, N> accessor() const&;
  template <class T, size_t N>
  TensorAccessor<T, N> accessor() && = delete;
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
  // rounding_mode: nullopt (true division), "trunc" or "floor".
  Tensor div(const Tensor& other, std::optional<std::string_view> rounding_mode) const;
  Tensor& div_(const Tensor& other, std::optional<std::string_view> rounding_mode);
  Tensor div(const Scalar& other, std::optional<std::string_view> rounding_mode) const;
  Tensor& div_(const Scalar& other, std::optional<std::string_view> rounding_mode);
  Tensor pow(const Tensor& exponent) const;
  Tensor pow(const Scalar& exponent) const;
  Tensor& pow_(const Tensor& exponent);
  Tensor& pow_(const Scalar& exponent);
  Tensor maximum(const Tensor& other) const;
  Tensor minimum(const Tensor& other) const;
  // libtorch's other spelling of maximum / minimum.
  Tensor max(const Tensor& other) const { return maximum(other); }
  Tensor min(const Tensor& other) const { return minimum(other); }
  Tensor floor_divide(const Tensor& other) const;
  Tensor floor_divide(const Scalar& other) const;
  Tensor remainder(const Tensor& other) const;
  Tensor remainder(const Scalar& other) const;
  Tensor& remainder_(const Tensor& other);
  Tensor& remainder_(const Scalar& other);
  Tensor fmod(const Tensor& other) const;
  Tensor fmod(const Scalar& other) const;
  Tensor& fmod_(const Tensor& other);
  Tensor& fmod_(const Scalar& other);
  Tensor atan2(const Tensor& other) const;
  Tensor& atan2_(const Tensor& other);
  Tensor clamp(const std::optional<Scalar>& min,
               const std::optional<Scalar>& max = std::nullopt) const;
  Tensor clamp(const std::optional<Tensor>& min,
               const std::optional<Tensor>& max = std::nullopt) const;
  Tensor& clamp_(const std::optional<Scalar>& min,
                 const std::optional<Scalar>& max = std::nullopt);
  Tensor& clamp_(const std::optional<Tensor>& min,
                 const std::optional<Tensor>& max = std::nullopt);
  Tensor clamp_min(const Scalar& min) const;
  Tensor clamp_min(const Tensor& min) const;
  Tensor clamp_max(const Scalar& max) const;
  Tensor clamp_max(const Tensor& max) const;
  Tensor lerp(const Tensor& end, const Scalar& weight) const;
  Tensor lerp(const Tensor& end, const Tensor& weight) const;
  Tensor& lerp_(const Tensor& end, const Scalar& weight);
  Tensor& lerp_(const Tensor& end, const Tensor& weight);
  Tensor addcmul(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1) const;
  Tensor& addcmul_(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1);
  Tensor addcdiv(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1) const;
  Tensor& addcdiv_(const Tensor& tensor1, const Tensor& tensor2, const Scalar& value = 1);
  // self where condition, else other.
  Tensor where(const Tensor& condition, const Tensor& other) const;
  Tensor where(const Tensor& condition, const Scalar& other) const;
  Tensor masked_fill(const Tensor& mask, const Scalar& value) const;
  Tensor masked_fill(const Tensor& mask, const Tensor& value) const;
  Tensor& masked_fill_(const Tensor& mask, const Scalar& value);
  Tensor& masked_fill_(const Tensor& mask, const Tensor& value);

  // ---- Comparison and logic (bool results) ---------------------------------
  Tensor eq(const Tensor& other) const;
  Tensor eq(const Scalar& other) const;
  Tensor ne(const Tensor& other) const;
  Tensor ne(const Scalar& other) const;
  Tensor lt(const Tensor& other) const;
  Tensor lt(const Scalar& other) const;
  Tensor le(const Tensor& other) const;
  Tensor le(const Scalar& other) const;
  Tensor gt(const Tensor& other) const;
  Tensor gt(const Scalar& other) const;
  Tensor ge(const Tensor& other) const;
  Tensor ge(const Scalar& other) const;
  Tensor logical_and(const Tensor& other) const;
  Tensor logical_or(const Tensor& other) const;
  Tensor logical_xor(const Tensor& other) const;
  Tensor logical_not() const;
  Tensor& logical_not_();
  Tensor bitwise_and(const Tensor& other) const;
  Tensor bitwise_and(const Scalar& other) const;
  Tensor bitwise_or(const Tensor& other) const;
  Tensor bitwise_or(const Scalar& other) const;
  Tensor bitwise_xor(const Tensor& other) const;
  Tensor bitwise_xor(const Scalar& other) const;
  Tensor bitwise_not() const;
  Tensor& bitwise_and_(const Tensor& other);
  Tensor& bitwise_and_(const Scalar& other);
  Tensor& bitwise_or_(const Tensor& other);
  Tensor& bitwise_or_(const Scalar& other);
  Tensor& bitwise_xor_(const Tensor& other);
  Tensor& bitwise_xor_(const Scalar& other);
  Tensor& bitwise_not_();
  Tensor isnan() const;
  Tensor isinf() const;

  // ---- Unary math ------------------------------------------------------------
  Tensor neg() const;
  Tensor& neg_();
  Tensor abs() const;
  Tensor& abs_();
  Tensor sign() const;
  Tensor& sign_();
  Tensor square() const;
  Tensor& square_();
  Tensor reciprocal() const;
  Tensor& reciprocal_();
  Tensor exp() const;
  Tensor& exp_();
  Tensor exp2() const;
  Tensor& exp2_();
  Tensor expm1() const;
  Tensor& expm1_();
  Tensor log() const;
  Tensor& log_();
  Tensor log2() const;
  Tensor& log2_();
  Tensor log1p() const;
  Tensor& log1p_();
  Tensor sqrt() const;
  Tensor& sqrt_();
  Tensor rsqrt() const;
  Tensor& rsqrt_();
  Tensor sin() const;
  Tensor& sin_();
  Tensor cos() const;
  Tensor& cos_();
  Tensor tan() const;
  Tensor& tan_();
  Tensor tanh() const;
  Tensor& tanh_();
  Tensor sigmoid() const;
  Tensor& sigmoid_();
  Tensor relu() const;
  Tensor& relu_();
  Tensor erf() const;
  Tensor& erf_();
  Tensor floor() const;
  Tensor& floor_();
  Tensor ceil() const;
  Tensor& ceil_();
  // Round half to even, as torch.round.
  Tensor round() const;
  Tensor& round_();
  Tensor trunc() const;
  Tensor& trunc_();

  // ---- Reductions ----------------------------------------------------------
  Tensor sum(std::optional<ScalarType> dtype = std::nullopt) const;
  // nullopt dims reduce everything.
  Tensor sum(OptionalIntArrayRef dim, bool keepdim = false,
             std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor mean(OptionalIntArrayRef dim, bool keepdim = false,
              std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor prod(std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor prod(int64_t dim, bool keepdim = false,
              std::optional<ScalarType> dtype = std::nullopt) const;
  // Of all elements.
  Tensor max() const;
  Tensor min() const;
  // (values, indices) along dim.
  std::tuple<Tensor, Tensor> max(int64_t dim, bool keepdim = false) const;
  std::tuple<Tensor, Tensor> min(int64_t dim, bool keepdim = false) const;
  Tensor amax(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor amin(IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor argmax(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  Tensor argmin(std::optional<int64_t> dim = std::nullopt, bool keepdim = false) const;
  // correction: 1 (Bessel) by default; nullopt dims reduce everything.
  Tensor var(OptionalIntArrayRef dim = std::nullopt,
             const std::optional<Scalar>& correction = std::nullopt, bool keepdim = false) const;
  Tensor std(OptionalIntArrayRef dim = std::nullopt,
             const std::optional<Scalar>& correction = std::nullopt, bool keepdim = false) const;
  // libtorch's `unbiased` forms: correction 1 or 0. They take a bool and
  // nothing that converts to one, so x.var(1) reduces dim 1 and x.var(1, 2)
  // means correction 2 (libtorch reads both as an `unbiased` flag).
  template <std::same_as<bool> B>
  Tensor var(B unbiased) const {
    return var(std::nullopt, Scalar(unbiased ? 1 : 0));
  }
  template <std::same_as<bool> B>
  Tensor var(OptionalIntArrayRef dim, B unbiased, bool keepdim = false) const {
    return var(dim, Scalar(unbiased ? 1 : 0), keepdim);
  }
  template <std::same_as<bool> B>
  Tensor std(B unbiased) const {
    return std(std::nullopt, Scalar(unbiased ? 1 : 0));
  }
  template <std::same_as<bool> B>
  Tensor std(OptionalIntArrayRef dim, B unbiased, bool keepdim = false) const {
    return std(dim, Scalar(unbiased ? 1 : 0), keepdim);
  }
  Tensor norm(const std::optional<Scalar>& p = 2, IntArrayRef dim = {}, bool keepdim = false) const;
  Tensor logsumexp(IntArrayRef dim, bool keepdim = false) const;
  Tensor all() const;
  Tensor all(int64_t dim, bool keepdim = false) const;
  Tensor any() const;
  Tensor any(int64_t dim, bool keepdim = false) const;
  Tensor cumsum(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;

  // ---- Linear algebra and composites ---------------------------------------
  Tensor mm(const Tensor& mat2) const;
  Tensor bmm(const Tensor& mat2) const;
  Tensor matmul(const Tensor& other) const;
  Tensor dot(const Tensor& tensor) const;
  Tensor outer(const Tensor& vec2) const;
  Tensor addmm(const Tensor& mat1, const Tensor& mat2, const Scalar& beta = 1,
               const Scalar& alpha = 1) const;
  Tensor softmax(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;
  Tensor log_softmax(int64_t dim, std::optional<ScalarType> dtype = std::nullopt) const;

  // ---- Shape and data movement ---------------------------------------------
  std::vector<Tensor> split(int64_t split_size, int64_t dim = 0) const;
  std::vector<Tensor> split(IntArrayRef split_sizes, int64_t dim = 0) const;
  std::vector<Tensor> chunk(int64_t chunks, int64_t dim = 0) const;
  Tensor index_select(int64_t dim, const Tensor& index) const;
  Tensor gather(int64_t dim, const Tensor& index, bool sparse_grad = false) const;
  Tensor nonzero() const;
  Tensor masked_select(const Tensor& mask) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor scatter(int64_t dim, const Tensor& index, const Scalar& value) const;
  Tensor& scatter_(int64_t dim, const Tensor& index, const Tensor& src);
  Tensor& scatter_(int64_t dim, const Tensor& index, const Scalar& value);
  Tensor scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const;
  Tensor& scatter_add_(int64_t dim, const Tensor& index, const Tensor& src);
  Tensor index_add(int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha = 1) const;
  Tensor& index_add_(int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha = 1);
  Tensor triu(int64_t diagonal = 0) const;
  Tensor tril(int64_t diagonal = 0) const;
  Tensor& triu_(int64_t diagonal = 0);
  Tensor& tril_(int64_t diagonal = 0);
  Tensor flip(IntArrayRef dims) const;
  Tensor repeat(IntArrayRef repeats) const;

  // ---- Copies and conversions ----------------------------------------------
  Tensor& copy_(const Tensor& src, bool non_blocking = false);
  Tensor& fill_(const Scalar& value);
  Tensor& zero_();
  Tensor clone(std::optional<MemoryFormat> memory_format = std::nullopt) const;
  // Self when already contiguous, else a contiguous copy.
  Tensor contiguous(MemoryFormat memory_format = MemoryFormat::Contiguous) const;
  // Self when nothing changes (unless copy), else a converted copy.
  Tensor to(ScalarType dtype, bool non_blocking = false, bool copy = false,
            std::optional<MemoryFormat> memory_format = std::nullopt) const;
  Tensor to(Device device, std::optional<ScalarType> dtype = std::nullopt,
            bool non_blocking = false, bool copy = false) const;
  Tensor to(const TensorOptions& options, bool non_blocking = false, bool copy = false) const;
  // x.to(lz::kCPU): neither Device nor TensorOptions is a better match for a DeviceType.
  Tensor to(DeviceType device, std::optional<ScalarType> dtype = std::nullopt,
            bool non_blocking = false, bool copy = false) const {
    return to(Device(device), dtype, non_blocking, copy);
  }
  Tensor cpu() const { return to(DeviceType::CPU); }
  Tensor cuda() const { return to(DeviceType::CUDA); }
  Tensor toType(ScalarType dtype) const { return to(dtype); }
  Tensor type_as(const Tensor& other) const { return to(other.dtype()); }
  // New tensors with self's dtype and device unless options say otherwise.
  Tensor new_empty(IntArrayRef size, const TensorOptions& options = {}) const;
  Tensor new_zeros(IntArrayRef size, const TensorOptions& options = {}) const;
  Tensor new_ones(IntArrayRef size, const TensorOptions& options = {}) const;
  Tensor new_full(IntArrayRef size, const Scalar& fill_value, const TensorOptions& options = {}) const;

  // ---- Filled in place from a random draw -------------------------------
  Tensor& uniform_(double from = 0, double to = 1, std::optional<Generator> generator = std::nullopt);
  Tensor& normal_(double mean = 0, double std = 1, std::optional<Generator> generator = std::nullopt);
  // 1 with probability p, else 0.
  Tensor& bernoulli_(double p = 0.5, std::optional<Generator> generator = std::nullopt);

  // ---- Views (share storage with self) -------------------------------------
  Tensor view(IntArrayRef size) const;
  Tensor reshape(IntArrayRef shape) const;
  Tensor flatten(int64_t start_dim = 0, int64_t end_dim = -1) const;
  Tensor permute(IntArrayRef dims) const;
  Tensor transpose(int64_t dim0, int64_t dim1) const;
  Tensor t() const;
  // implicit: an expand the frontend inserted (PyTorch's flag; no effect).
  Tensor expand(IntArrayRef size, bool implicit = false) const;
  Tensor expand_as(const Tensor& other) const;
  Tensor view_as(const Tensor& other) const { return view(other.sizes()); }
  Tensor reshape_as(const Tensor& other) const { return reshape(other.sizes()); }
  Tensor swapaxes(int64_t axis0, int64_t axis1) const { return transpose(axis0, axis1); }
  Tensor swapdims(int64_t dim0, int64_t dim1) const { return transpose(dim0, dim1); }
  // The slices along dim, each without it (views of self).
  std::vector<Tensor> unbind(int64_t dim = 0) const;
  Tensor narrow(int64_t dim, int64_t start, int64_t length) const;
  Tensor slice(int64_t dim = 0, std::optional<int64_t> start = std::nullopt,
               std::optional<int64_t> end = std::nullopt, int64_t step = 1) const;
  Tensor select(int64_t dim, int64_t index) const;
  Tensor squeeze() const;
  Tensor squeeze(int64_t dim) const;
  // Each listed dim of size 1 (others stay, as in libtorch).
  Tensor squeeze(IntArrayRef dims) const;
  Tensor unsqueeze(int64_t dim) const;
  Tensor as_strided(IntArrayRef size, IntArrayRef stride,
                    std::optional<int64_t> storage_offset = std::nullopt) const;
  // x[i] == x.select(0, i)
  Tensor operator[](int64_t index) const;
  // x[...] in libtorch's spelling (core/tensor_indexing.h): integers, Slice,
  // None, Ellipsis and bools give views; integer tensors gather a copy.
  Tensor index(std::initializer_list<indexing::TensorIndex> indices) const;
  Tensor index(absl::Span<const indexing::TensorIndex> indices) const;
  // x[...] = values (broadcast to what index() returns).
  Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices, const Tensor& values);
  Tensor& index_put_(absl::Span<const indexing::TensorIndex> indices, const Tensor& values);
  Tensor& index_put_(std::initializer_list<indexing::TensorIndex> indices, const Scalar& value);
  // The entries `index` along dim set to value.
  Tensor& index_fill_(int64_t dim, const Tensor& index, const Scalar& value);

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
// ~ is bitwise_not (logical not for bool tensors).
Tensor operator~(const Tensor& self);
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
Tensor operator%(const Tensor& a, const Tensor& b);
Tensor operator%(const Tensor& a, const Scalar& b);
Tensor operator&(const Tensor& a, const Tensor& b);
Tensor operator|(const Tensor& a, const Tensor& b);
Tensor operator^(const Tensor& a, const Tensor& b);
// Comparisons give bool tensors, as in libtorch.
Tensor operator==(const Tensor& a, const Tensor& b);
Tensor operator==(const Tensor& a, const Scalar& b);
Tensor operator!=(const Tensor& a, const Tensor& b);
Tensor operator!=(const Tensor& a, const Scalar& b);
Tensor operator<(const Tensor& a, const Tensor& b);
Tensor operator<(const Tensor& a, const Scalar& b);
Tensor operator<=(const Tensor& a, const Tensor& b);
Tensor operator<=(const Tensor& a, const Scalar& b);
Tensor operator>(const Tensor& a, const Tensor& b);
Tensor operator>(const Tensor& a, const Scalar& b);
Tensor operator>=(const Tensor& a, const Tensor& b);
Tensor operator>=(const Tensor& a, const Scalar& b);

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
