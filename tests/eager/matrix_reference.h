// A float64 reference for the matrix product tests, computed from the
// operands' values (never by the kernels under test).
#pragma once

#include <cstdint>
#include <vector>

#include "tests/op_table/tensor_access.h"

namespace lzt {

// alpha * (a @ b) + beta * c0 of 2-D tensors of any layout, row-major;
// c0 (row-major values) is read only when beta is not zero.
inline std::vector<double> mm_reference(const lz::Tensor& a, const lz::Tensor& b, double alpha = 1,
                                        double beta = 0, const std::vector<double>& c0 = {}) {
  const std::vector<double> va = values(a), vb = values(b);
  const int64_t n = a.size(0), k = a.size(1), m = b.size(1);
  std::vector<double> out;
  for (int64_t i = 0; i < n; ++i) {
    for (int64_t j = 0; j < m; ++j) {
      double acc = 0;
      for (int64_t q = 0; q < k; ++q) acc += va[i * k + q] * vb[q * m + j];
      out.push_back(alpha * acc + (beta != 0 ? beta * c0[i * m + j] : 0.0));
    }
  }
  return out;
}

}  // namespace lzt
