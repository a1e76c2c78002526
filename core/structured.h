// Structured kernels: an operator written as a meta function
//   TensorMeta meta(const Tensor& self, const Tensor& other, const Scalar& alpha)
// and an impl that writes a preallocated output
//   void impl(const Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha)
// From the pair this header generates the three typed kernels:
//   functional  meta -> allocate -> impl
//   in-place    meta -> check the result fits self -> impl into self
//   out=        meta -> resize/check out -> impl into out
// When the destination's dtype differs from the result dtype, or it partially
// overlaps an input (a.add_(a.t())), the impl writes a temporary that is then
// copied in, so every variant gives the functional answer.
#pragma once

#include <string>
#include <type_traits>

#include "core/empty_tensor.h"
#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::detail {

// ShapeError/TypeError/DeviceError unless `m` can be written into `self`.
void check_inplace_result(const std::string& op, const Tensor& self, const TensorMeta& m);
// Resizes an empty `out` to m, else checks it matches; errors like above.
void prepare_out(const std::string& op, const Tensor& out, const TensorMeta& m);
// Whether writing `dst` could clobber `input` before it is read: the two
// share memory but are not the very same elements in the same order.
bool partially_overlaps(const Tensor& dst, const Tensor& input);
// dst.copy_(src) through the dispatcher (dtype conversion included).
void copy_into(const Tensor& dst, const Tensor& src);

template <class T>
bool overlaps(const Tensor& dst, const T& arg) {
  if constexpr (std::is_same_v<std::decay_t<T>, Tensor>) {
    return partially_overlaps(dst, arg);
  } else if constexpr (std::is_same_v<std::decay_t<T>, std::optional<Tensor>>) {
    return arg && partially_overlaps(dst, *arg);
  } else if constexpr (std::is_same_v<std::decay_t<T>, TensorList>) {
    for (const Tensor& t : arg) {
      if (partially_overlaps(dst, t)) return true;
    }
    return false;
  } else {
    return false;
  }
}

template <auto Meta, auto Impl, class MetaFn = decltype(Meta)>
struct Structured;

template <auto Meta, auto Impl, class Self, class... Rest>
struct Structured<Meta, Impl, TensorMeta (*)(Self, Rest...)> {
  static_assert(std::is_same_v<decltype(Impl), void (*)(const Tensor&, Self, Rest...)>,
                "a structured impl takes (const Tensor& out, <the meta function's arguments>)");

  // In-place needs a Tensor first argument to write into.
  static constexpr bool kHasInplace = std::is_same_v<std::decay_t<Self>, Tensor>;

  // Operator names for error messages, set at registration.
  static inline std::string inplace_name = "<inplace>";
  static inline std::string out_name = "<out>";

  static Tensor functional(Self self, Rest... rest) {
    const TensorMeta m = Meta(self, rest...);
    Tensor out = empty_tensor(m);
    Impl(out, self, rest...);
    return out;
  }

  static Tensor inplace(Self self, Rest... rest)
    requires kHasInplace
  {
    const TensorMeta m = Meta(self, rest...);
    check_inplace_result(inplace_name, self, m);
    write(self, m, self, rest...);
    return self;
  }

  static Tensor out(Self self, Rest... rest, const Tensor& out) {
    const TensorMeta m = Meta(self, rest...);
    prepare_out(out_name, out, m);
    write(out, m, self, rest...);
    return out;
  }

 private:
  static void write(const Tensor& dst, const TensorMeta& m, Self self, Rest... rest) {
    const bool direct = dst.dtype() == m.dtype && !overlaps(dst, self) && !(overlaps(dst, rest) || ...);
    if (direct) {
      dst.unsafe_get_impl()->prepare_write();
      Impl(dst, self, rest...);
      dst.unsafe_get_impl()->version_counter().bump();
    } else {
      Tensor tmp = empty_tensor(m);
      Impl(tmp, self, rest...);
      copy_into(dst, tmp);  // copy_ bumps the version
    }
  }
};

}  // namespace lz::detail
