// Tensor-Scalar overloads of binary operators (mul.Scalar: x * 2.5) made
// from the Tensor overload's meta function and impl, with the number as a
// wrapped 0-dim tensor: eager results and errors are the Tensor overload's
// by construction. Each is a structured operator of its own, not a
// composite, so the Lazy key records mul.Scalar itself with the number as a
// runtime scalar argument: tracing x * 2.5 makes no 0-dim tensor, no graph
// input, and no second dispatch, and a new number reuses the executable.
#pragma once

#include <string_view>

#include "core/empty_tensor.h"
#include "eager_kernels/meta/meta_utils.h"
#include "core/op_registration.h"

namespace lz {

template <auto Meta, auto Impl, class MetaFn = decltype(Meta)>
struct ScalarOther;

template <auto Meta, auto Impl, class... Rest>
struct ScalarOther<Meta, Impl, TensorMeta (*)(const Tensor&, const Tensor&, Rest...)> {
  static TensorMeta meta(const Tensor& self, const Scalar& other, Rest... rest) {
    return Meta(self, meta::wrapped_number_meta(other), rest...);
  }
  static void impl(const Tensor& out, const Tensor& self, const Scalar& other, Rest... rest) {
    Impl(out, self, wrapped_scalar_tensor(other), rest...);
  }
};

// Registers a Tensor-Scalar overload (and its declared variants).
// ScalarMeta defaults to the adapted Tensor meta; pass one when the
// number's value needs a check of its own.
template <auto Meta, auto Impl, auto ScalarMeta = &ScalarOther<Meta, Impl>::meta>
void def_scalar_overload(Library& lib, OpId id) {
  lib.def_structured<ScalarMeta>(id).template impl<&ScalarOther<Meta, Impl>::impl>(DispatchKey::CPU);
}

}  // namespace lz
