// How public functions call an operator: a typed handle looked up once per
// call site (function-local static), then an unboxed dispatcher call.
//
//   Tensor add(const Tensor& a, const Tensor& b, const Scalar& alpha) {
//     return LZ_OP("add.Tensor", Tensor(const Tensor&, const Tensor&, const Scalar&))
//         .call(a, b, alpha);
//   }
#pragma once

#include "core/dispatcher.h"

#define LZ_OP(name, ...)                                                                 \
  ([]() -> const ::lz::TypedOperatorHandle<__VA_ARGS__>& {                               \
    static const auto handle = ::lz::Dispatcher::singleton().find_typed<__VA_ARGS__>(name); \
    return handle;                                                                       \
  }())
