// Argument checks shared by meta functions.
#pragma once

#include <string_view>

#include "core/tensor.h"

namespace lz::meta {

// ValueError "[op] arg: expected a defined tensor" for an undefined tensor.
void check_defined(std::string_view op, std::string_view arg, const Tensor& t);

// The 0-dim wrapped-number tensor a Tensor overload's meta function sees for
// number `s` (x * 2.5 promotes like x * wrapped(2.5)): its dtype (bool,
// int64 or float64), rank and flag are what promotion and broadcasting
// read; its value is zero, shared, and never read.
const Tensor& wrapped_number_meta(const Scalar& s);

}  // namespace lz::meta
