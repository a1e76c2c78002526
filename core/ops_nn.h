// Neural-network operators users call directly (softmax, normalisations,
// linear, dropout, losses): libtorch's names (torch::softmax, torch::layer_norm, ...).
#pragma once

#include "core/tensor.h"

namespace lz {}  // namespace lz
