// Building blocks for table references: straightforward loops in float64 /
// int64 over the inputs' values (read with raw strided access), rounded the
// way the result dtype stores them. Nothing here calls a Lazuli operator.
#pragma once

#include <functional>
#include <optional>
#include <vector>

#include "tests/op_table/op_info.h"

namespace lzt {

// NumPy broadcasting of shapes, written independently of the library.
lz::SizeVec broadcast_sizes(const std::vector<lz::IntArrayRef>& shapes);

// Stores `v` as `dtype` would: integers wrap modulo 2^bits (the kernels'
// integer arithmetic), bool is v != 0, floats are kept (tolerances cover
// the result's rounding).
double as_stored(lz::ScalarType dtype, double v);

// out[i] = f(x[i]).
Expected map_reference(const lz::Tensor& x, lz::ScalarType result,
                       const std::function<double(double)>& f);
// out[i] = f(a[i], b[i]) over the broadcast shape.
Expected map_reference(const lz::Tensor& a, const lz::Tensor& b, lz::ScalarType result,
                       const std::function<double(double, double)>& f);
// out[i] = f(a[i], b[i], c[i]) over the broadcast shape.
Expected map_reference(const lz::Tensor& a, const lz::Tensor& b, const lz::Tensor& c,
                       lz::ScalarType result,
                       const std::function<double(double, double, double)>& f);

// Reduces x over `dims` (all dims when empty): reduce(values) receives the
// values of one output position's group in row-major order.
Expected reduce_reference(const lz::Tensor& x, lz::IntArrayRef dims, bool keepdim,
                          lz::ScalarType result,
                          const std::function<double(const std::vector<double>&)>& reduce);

// The float type a kernel computes integral inputs in (true division, exp).
lz::ScalarType float_result(lz::ScalarType input);

}  // namespace lzt
