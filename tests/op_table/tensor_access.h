// Reading and writing tensor elements without any Lazuli operator, so that
// expected values in tests never come from the kernels under test: tensors
// are built by writing their bytes (make_tensor) and read back by walking
// sizes/strides over raw memory (values / int_values), with independent
// decoders for the 16-bit float formats. Shared by every test suite and by
// the operator table.
#pragma once

#include <lazuli/lazuli.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace lzt {

using lz::ScalarType;

inline const std::vector<ScalarType> kAllDtypes = {lz::kBool,    lz::kUInt8,  lz::kInt8,    lz::kInt16,
                                                   lz::kInt32,   lz::kInt64,  lz::kFloat16, lz::kBFloat16,
                                                   lz::kFloat32, lz::kFloat64};
inline const std::vector<ScalarType> kNumericDtypes = {lz::kUInt8,    lz::kInt8,    lz::kInt16,
                                                       lz::kInt32,    lz::kInt64,   lz::kFloat16,
                                                       lz::kBFloat16, lz::kFloat32, lz::kFloat64};
inline const std::vector<ScalarType> kFloatDtypes = {lz::kFloat16, lz::kBFloat16, lz::kFloat32, lz::kFloat64};

inline bool is_float(ScalarType t) {
  return t == lz::kFloat16 || t == lz::kBFloat16 || t == lz::kFloat32 || t == lz::kFloat64;
}
inline bool is_int(ScalarType t) {
  return t == lz::kUInt8 || t == lz::kInt8 || t == lz::kInt16 || t == lz::kInt32 || t == lz::kInt64;
}

// ---- Independent 16-bit float codecs -----------------------------------------

double decode_half(uint16_t h);

double decode_bfloat16(uint16_t b);

// ---- Raw element access -----------------------------------------------------

double load(const char* p, ScalarType t);

int64_t load_int(const char* p, ScalarType t);

// Writes v (exactly representable, or rounded by lz::Half / lz::BFloat16).
void store(char* p, ScalarType t, double v);

// Visits every element of t in row-major logical order with its address.
template <class F>
void for_each_element(const lz::Tensor& t, F&& f) {
  if (t.numel() == 0) return;
  const char* p = static_cast<const char*>(t.data_ptr());
  const int64_t nd = t.dim();
  const int64_t item = static_cast<int64_t>(t.itemsize());
  const std::vector<int64_t> sizes(t.sizes().begin(), t.sizes().end());
  std::vector<int64_t> steps(nd);  // byte strides
  for (int64_t d = 0; d < nd; ++d) steps[d] = t.strides()[d] * item;
  std::vector<int64_t> index(nd, 0);
  for (int64_t n = 0; n < t.numel(); ++n) {
    f(p);
    for (int64_t d = nd - 1; d >= 0; --d) {
      p += steps[d];
      if (++index[d] < sizes[d]) break;
      p -= steps[d] * sizes[d];
      index[d] = 0;
    }
  }
}

// The values of t (any layout) in row-major logical order, as doubles.
std::vector<double> values(const lz::Tensor& t);

// The values of an integral/bool tensor as int64 (exact for every int64).
std::vector<int64_t> int_values(const lz::Tensor& t);

// The raw 16-bit patterns of a float16/bfloat16 tensor.
std::vector<uint16_t> bits16(const lz::Tensor& t);

int64_t numel_of(lz::IntArrayRef sizes);

// A new contiguous tensor of `dtype` holding `vals` (row-major), written
// byte-by-byte without any operator besides the allocation.
lz::Tensor make_tensor(const std::vector<double>& vals, lz::IntArrayRef sizes, ScalarType dtype);

lz::Tensor make_tensor(const std::vector<double>& vals, ScalarType dtype);

// Deterministic sample values valid for `dtype` and exactly representable in
// it: bool {0,1}, uint8 [0,255], signed ints [-50,50], floats multiples of
// 0.25 in [-8, 8] (exact even in bfloat16). Nonzero when `nonzero`.
std::vector<double> sample_values(ScalarType dtype, int64_t n, uint32_t seed = 1, bool nonzero = false);

lz::Tensor sample_tensor(lz::IntArrayRef sizes, ScalarType dtype, uint32_t seed = 1, bool nonzero = false);

// Relative tolerance of one result rounded to `dtype` (a couple of ulps: the
// kernel may round an intermediate float32 result once more than the float64
// reference does).
double rtol_for(ScalarType t);

// Rounds a float64 value as storing it in `dtype` does (integers wrap modulo
// 2^bits, like the kernels' integer arithmetic).
double round_to(ScalarType t, double v);

// `v` converted to `target` as PyTorch converts: integers truncate, bool is != 0.
double converted_value(ScalarType target, double v);

std::string fmt(double v);

std::string fmt(lz::IntArrayRef s);

// "" when `actual` matches `expected` element-wise (same count; NaN matches
// NaN; infinities must be equal), else a description of the first mismatch.
std::string mismatch(const std::vector<double>& actual, const std::vector<double>& expected, double rtol,
                     double atol = 0);

std::string mismatch(const lz::Tensor& actual, const std::vector<double>& expected, double rtol,
                     double atol = 0);

std::string int_mismatch(const std::vector<int64_t>& actual, const std::vector<int64_t>& expected);

// Whether two tensors have identical sizes and bit-identical values (NaN
// matches NaN), read through their own strides.
std::string same_values(const lz::Tensor& a, const lz::Tensor& b);

// Elementwise reference for a tensor of any layout.
std::vector<double> map_values(const lz::Tensor& t, const std::function<double(double)>& f);

// The values of `t` broadcast to `sizes` (row-major), via NumPy rules.
std::vector<double> broadcast_values(const lz::Tensor& t, lz::IntArrayRef sizes);

// Reference of a binary op over broadcast inputs.
std::vector<double> binary_reference(const lz::Tensor& a, const lz::Tensor& b, lz::IntArrayRef sizes,
                                     const std::function<double(double, double)>& f);

std::string check_values(const lz::Tensor& t, const std::vector<double>& expected);

std::vector<int64_t> sizes_vec(lz::IntArrayRef s);

}  // namespace lzt
