// Argument checks shared by meta functions.
#pragma once

#include <string_view>

#include "core/tensor.h"

namespace lz::meta {

// ValueError "[op] arg: expected a defined tensor" for an undefined tensor.
void check_defined(std::string_view op, std::string_view arg, const Tensor& t);

}  // namespace lz::meta
