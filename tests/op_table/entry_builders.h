// Builders for the common shapes of table entries, so an element-wise
// operator is one call: its public functions, its float64 reference and the
// dtype rule of its result.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "tests/op_table/op_info.h"
#include "tests/op_table/samples.h"

namespace lzt {

// Dtype lists (functions, not globals: the table is built during static
// initialisation of the test binaries, before other globals may exist).
inline std::vector<lz::ScalarType> all_types() {
  return {lz::kBool,  lz::kUInt8,   lz::kInt8,     lz::kInt16,   lz::kInt32,
          lz::kInt64, lz::kFloat16, lz::kBFloat16, lz::kFloat32, lz::kFloat64};
}
inline std::vector<lz::ScalarType> numeric_types() {
  return {lz::kUInt8,   lz::kInt8,     lz::kInt16,   lz::kInt32,  lz::kInt64,
          lz::kFloat16, lz::kBFloat16, lz::kFloat32, lz::kFloat64};
}
inline std::vector<lz::ScalarType> signed_types() {
  return {lz::kInt8, lz::kInt16, lz::kInt32, lz::kInt64, lz::kFloat16, lz::kBFloat16, lz::kFloat32, lz::kFloat64};
}
inline std::vector<lz::ScalarType> float_types() {
  return {lz::kFloat16, lz::kBFloat16, lz::kFloat32, lz::kFloat64};
}

// The result dtype of an element-wise op given its (promoted) input dtype.
using ResultRule = std::function<lz::ScalarType(lz::ScalarType)>;
inline lz::ScalarType same_dtype(lz::ScalarType t) { return t; }
inline lz::ScalarType to_float(lz::ScalarType t) {
  return t == lz::kFloat16 || t == lz::kBFloat16 || t == lz::kFloat32 || t == lz::kFloat64 ? t : lz::kFloat32;
}
inline lz::ScalarType to_bool(lz::ScalarType) { return lz::kBool; }

struct UnaryFns {
  std::function<lz::Tensor(const lz::Tensor&)> op;
  std::function<lz::Tensor&(lz::Tensor&)> inplace;                     // may be empty
  std::function<lz::Tensor&(lz::Tensor&, const lz::Tensor&)> out;      // may be empty
};

// An element-wise unary operator over unary_samples(domain).
OpInfo unary_entry(std::string name, std::vector<lz::ScalarType> dtypes, UnaryFns fns,
                   std::function<double(double)> reference, ResultRule result = same_dtype,
                   Domain domain = {});

struct BinaryFns {
  std::function<lz::Tensor(const lz::Tensor&, const lz::Tensor&)> op;
  std::function<lz::Tensor&(lz::Tensor&, const lz::Tensor&)> inplace;                    // may be empty
  std::function<lz::Tensor&(lz::Tensor&, const lz::Tensor&, const lz::Tensor&)> out;    // may be empty
};

// An element-wise binary operator over binary_samples(a, b), plus samples
// pairing each dtype with every other dtype in `dtypes` (type promotion).
OpInfo binary_entry(std::string name, std::vector<lz::ScalarType> dtypes, BinaryFns fns,
                    std::function<double(double, double)> reference, ResultRule result = same_dtype,
                    Domain a = {}, Domain b = {});

}  // namespace lzt
