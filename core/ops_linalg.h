// Matrix products (through OpenBLAS for the float types): libtorch's names.
#pragma once

#include "core/tensor.h"

namespace lz {}  // namespace lz
