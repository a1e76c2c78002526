// The one parser for operator schemas, run once per operator at registration.
#pragma once

#include <string_view>

#include "core/function_schema.h"

namespace lz {

// Parses PyTorch's schema grammar: name, optional overload, typed arguments
// with alias annotations, defaults and a '*' kwarg-only marker, and returns.
// SchemaError with the column and a caret under the offending text otherwise.
FunctionSchema parse_schema(std::string_view text);

}  // namespace lz
