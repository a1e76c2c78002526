// Lazuli's autograd (libtorch's names, lz:: for torch::): Tensor's
// requires_grad_(), backward(), grad() (core/tensor.h), grad mode guards,
// lz::autograd::grad and the backward graph's nodes for inspection.
#pragma once

#include "autograd/engine.h"
#include "autograd/grad_mode.h"
#include "autograd/node.h"
#include "autograd/nn_layers.h"
#include "autograd/optimizer.h"
