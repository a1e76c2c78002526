// Shape and data-movement operators (concatenation, splitting, indexing,
// triangles, flips, repeats, padding): libtorch's names and argument order.
#pragma once

#include "core/tensor.h"

namespace lz {}  // namespace lz
