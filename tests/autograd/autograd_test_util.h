// Small helpers shared by the autograd tests.
#pragma once

#include <vector>

#include <lazuli/lazuli.h>

#include "tests/eager/test_util.h"

namespace lzt {

// A float64 leaf that requires grad, from row-major values.
inline lz::Tensor leaf(const std::vector<double>& v, lz::IntArrayRef sizes) {
  lz::Tensor t = make_tensor(v, sizes, lz::kFloat64);
  t.requires_grad_();
  return t;
}

}  // namespace lzt
