// Lazuli's public C++ API: #include <lazuli/lazuli.h>, namespace lz.
// Names and argument order follow libtorch (torch::/at:: becomes lz::).
#pragma once

#include "core/cpu_allocator.h"
#include "core/device.h"
#include "core/error.h"
#include "core/factories.h"
#include "core/generator.h"
#include "core/layout.h"
#include "core/ops_compare.h"
#include "core/ops_copy.h"
#include "core/ops_pointwise.h"
#include "core/ops_reduction.h"
#include "core/ops_views.h"
#include "core/scalar.h"
#include "core/scalar_type.h"
#include "core/tensor.h"
#include "core/tensor_options.h"
#include "core/type_promotion.h"
