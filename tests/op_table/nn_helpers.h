// Helpers shared by the neural-network entries (entries_nn.cpp) and the
// loss entries (entries_losses.cpp).
#pragma once

#include <vector>

#include "tests/op_table/op_info.h"

namespace lzt {

// softmax (or log_softmax) of one row, in float64.
std::vector<double> softmax_values(const std::vector<double>& x, bool log);
// Normalisations and losses: each element rounds to the dtype before the sum.
Tolerance norm_tolerance(lz::ScalarType t);

}  // namespace lzt
