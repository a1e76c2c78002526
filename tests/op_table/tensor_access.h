// Reading and writing tensor elements without any Lazuli operator, so that
// expected values in tests never come from the kernels under test: tensors
// are built by writing their bytes (make_tensor) and read back by walking
// sizes/strides over raw memory (values / int_values), with independent
// decoders for the 16-bit float formats. Shared by every test suite and by
// the operator table.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include <lazuli/lazuli.h>

namespace lzt {

using lz::ScalarType;

inline const std::vector<ScalarType> kAllDtypes = {lz::kBool,    lz::kUInt8,    lz::kInt8,    lz::kInt16,
                                                   lz::kInt32,   lz::kInt64,    lz::kFloat16, lz::kBFloat16,
                                                   lz::kFloat32, lz::kFloat64};
inline const std::vector<ScalarType> kNumericDtypes = {lz::kUInt8,   lz::kInt8,    lz::kInt16,
                                                       lz::kInt32,   lz::kInt64,   lz::kFloat16,
                                                       lz::kBFloat16, lz::kFloat32, lz::kFloat64};
inline const std::vector<ScalarType> kFloatDtypes = {lz::kFloat16, lz::kBFloat16, lz::kFloat32,
                                                     lz::kFloat64};

inline bool is_float(ScalarType t) {
  return t == lz::kFloat16 || t == lz::kBFloat16 || t == lz::kFloat32 || t == lz::kFloat64;
}
inline bool is_int(ScalarType t) {
  return t == lz::kUInt8 || t == lz::kInt8 || t == lz::kInt16 || t == lz::kInt32 || t == lz::kInt64;
}

// ---- Independent 16-bit float codecs -----------------------------------------

inline double decode_half(uint16_t h) {
  const int sign = (h >> 15) & 1;
  const int exp = (h >> 10) & 0x1f;
  const int mant = h & 0x3ff;
  double v;
  if (exp == 0) {
    v = std::ldexp(static_cast<double>(mant), -24);
  } else if (exp == 31) {
    v = mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else {
    v = std::ldexp(1.0 + mant / 1024.0, exp - 15);
  }
  return sign ? -v : v;
}

inline double decode_bfloat16(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// ---- Raw element access -----------------------------------------------------

inline double load(const char* p, ScalarType t) {
  switch (t) {
    case lz::kBool: return *reinterpret_cast<const uint8_t*>(p) != 0 ? 1.0 : 0.0;
    case lz::kUInt8: return *reinterpret_cast<const uint8_t*>(p);
    case lz::kInt8: return *reinterpret_cast<const int8_t*>(p);
    case lz::kInt16: return *reinterpret_cast<const int16_t*>(p);
    case lz::kInt32: return *reinterpret_cast<const int32_t*>(p);
    case lz::kInt64: return static_cast<double>(*reinterpret_cast<const int64_t*>(p));
    case lz::kFloat16: {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      return decode_half(bits);
    }
    case lz::kBFloat16: {
      uint16_t bits;
      std::memcpy(&bits, p, 2);
      return decode_bfloat16(bits);
    }
    case lz::kFloat32: return *reinterpret_cast<const float*>(p);
    case lz::kFloat64: return *reinterpret_cast<const double*>(p);
    default: break;
  }
  throw std::logic_error("lzt::load: unexpected dtype");
}

inline int64_t load_int(const char* p, ScalarType t) {
  switch (t) {
    case lz::kBool: return *reinterpret_cast<const uint8_t*>(p) != 0;
    case lz::kUInt8: return *reinterpret_cast<const uint8_t*>(p);
    case lz::kInt8: return *reinterpret_cast<const int8_t*>(p);
    case lz::kInt16: return *reinterpret_cast<const int16_t*>(p);
    case lz::kInt32: return *reinterpret_cast<const int32_t*>(p);
    case lz::kInt64: return *reinterpret_cast<const int64_t*>(p);
    default: return static_cast<int64_t>(load(p, t));
  }
}

// Writes v (exactly representable, or rounded by lz::Half / lz::BFloat16).
inline void store(char* p, ScalarType t, double v) {
  switch (t) {
    case lz::kBool: *reinterpret_cast<uint8_t*>(p) = v != 0 ? 1 : 0; return;
    case lz::kUInt8: *reinterpret_cast<uint8_t*>(p) = static_cast<uint8_t>(static_cast<int64_t>(v)); return;
    case lz::kInt8: *reinterpret_cast<int8_t*>(p) = static_cast<int8_t>(static_cast<int64_t>(v)); return;
    case lz::kInt16: *reinterpret_cast<int16_t*>(p) = static_cast<int16_t>(static_cast<int64_t>(v)); return;
    case lz::kInt32: *reinterpret_cast<int32_t*>(p) = static_cast<int32_t>(static_cast<int64_t>(v)); return;
    case lz::kInt64: *reinterpret_cast<int64_t*>(p) = static_cast<int64_t>(v); return;
    case lz::kFloat16: {
      const lz::Half h(static_cast<float>(v));
      std::memcpy(p, &h.bits, 2);
      return;
    }
    case lz::kBFloat16: {
      const lz::BFloat16 h(static_cast<float>(v));
      std::memcpy(p, &h.bits, 2);
      return;
    }
    case lz::kFloat32: *reinterpret_cast<float*>(p) = static_cast<float>(v); return;
    case lz::kFloat64: *reinterpret_cast<double*>(p) = v; return;
    default: break;
  }
  throw std::logic_error("lzt::store: unexpected dtype");
}

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
inline std::vector<double> values(const lz::Tensor& t) {
  std::vector<double> out;
  out.reserve(static_cast<size_t>(t.numel()));
  const ScalarType dt = t.dtype();
  for_each_element(t, [&](const char* p) { out.push_back(load(p, dt)); });
  return out;
}

// The values of an integral/bool tensor as int64 (exact for every int64).
inline std::vector<int64_t> int_values(const lz::Tensor& t) {
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(t.numel()));
  const ScalarType dt = t.dtype();
  for_each_element(t, [&](const char* p) { out.push_back(load_int(p, dt)); });
  return out;
}

// The raw 16-bit patterns of a float16/bfloat16 tensor.
inline std::vector<uint16_t> bits16(const lz::Tensor& t) {
  std::vector<uint16_t> out;
  for_each_element(t, [&](const char* p) {
    uint16_t b;
    std::memcpy(&b, p, 2);
    out.push_back(b);
  });
  return out;
}

inline int64_t numel_of(lz::IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

// A new contiguous tensor of `dtype` holding `vals` (row-major), written
// byte-by-byte without any operator besides the allocation.
inline lz::Tensor make_tensor(const std::vector<double>& vals, lz::IntArrayRef sizes,
                              ScalarType dtype) {
  if (numel_of(sizes) != static_cast<int64_t>(vals.size())) {
    throw std::logic_error("lzt::make_tensor: " + std::to_string(vals.size()) + " values for sizes " + lz::shape_str(sizes));
  }
  lz::Tensor t = lz::empty(sizes, dtype);
  char* p = static_cast<char*>(t.data_ptr());
  const size_t item = t.itemsize();
  for (size_t i = 0; i < vals.size(); ++i) store(p + i * item, dtype, vals[i]);
  return t;
}

inline lz::Tensor make_tensor(const std::vector<double>& vals, ScalarType dtype) {
  return make_tensor(vals, {static_cast<int64_t>(vals.size())}, dtype);
}

// Deterministic sample values valid for `dtype` and exactly representable in
// it: bool {0,1}, uint8 [0,255], signed ints [-50,50], floats multiples of
// 0.25 in [-8, 8] (exact even in bfloat16). Nonzero when `nonzero`.
inline std::vector<double> sample_values(ScalarType dtype, int64_t n, uint32_t seed = 1,
                                         bool nonzero = false) {
  std::vector<double> out;
  uint32_t state = seed * 2654435761u + 12345u;
  auto next = [&state]() {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  while (static_cast<int64_t>(out.size()) < n) {
    double v;
    switch (dtype) {
      case lz::kBool: v = next() % 2; break;
      case lz::kUInt8: v = next() % 256; break;
      case lz::kInt8:
      case lz::kInt16:
      case lz::kInt32:
      case lz::kInt64: v = static_cast<double>(static_cast<int64_t>(next() % 101) - 50); break;
      default: v = (static_cast<double>(next() % 65) - 32) * 0.25; break;
    }
    if (nonzero && v == 0) continue;
    out.push_back(v);
  }
  return out;
}

inline lz::Tensor sample_tensor(lz::IntArrayRef sizes, ScalarType dtype, uint32_t seed = 1,
                                bool nonzero = false) {
  return make_tensor(sample_values(dtype, numel_of(sizes), seed, nonzero), sizes, dtype);
}

// Relative tolerance of one result rounded to `dtype` (a couple of ulps: the
// kernel may round an intermediate float32 result once more than the float64
// reference does).
inline double rtol_for(ScalarType t) {
  switch (t) {
    case lz::kFloat16: return 2.0 / 1024;
    case lz::kBFloat16: return 2.0 / 128;
    case lz::kFloat32: return 4e-7;
    case lz::kFloat64: return 1e-14;
    default: return 0;
  }
}

// Rounds a float64 value as storing it in `dtype` does (integers wrap modulo
// 2^bits, like the kernels' integer arithmetic).
inline double round_to(ScalarType t, double v) {
  switch (t) {
    case lz::kBool: return v != 0 ? 1 : 0;
    case lz::kUInt8: return static_cast<uint8_t>(static_cast<int64_t>(v));
    case lz::kInt8: return static_cast<int8_t>(static_cast<int64_t>(v));
    case lz::kInt16: return static_cast<int16_t>(static_cast<int64_t>(v));
    case lz::kInt32: return static_cast<int32_t>(static_cast<int64_t>(v));
    case lz::kInt64: return static_cast<double>(static_cast<int64_t>(v));
    case lz::kFloat16: return static_cast<float>(lz::Half(static_cast<float>(v)));
    case lz::kBFloat16: return static_cast<float>(lz::BFloat16(static_cast<float>(v)));
    case lz::kFloat32: return static_cast<float>(v);
    default: return v;
  }
}

// `v` converted to `target` as PyTorch converts: integers truncate, bool is != 0.
inline double converted_value(ScalarType target, double v) {
  if (target == lz::kBool) return v != 0 ? 1 : 0;
  if (is_int(target)) return round_to(target, std::trunc(v));
  return v;
}

inline std::string fmt(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

inline std::string fmt(lz::IntArrayRef s) { return lz::shape_str(s); }

// "" when `actual` matches `expected` element-wise (same count; NaN matches
// NaN; infinities must be equal), else a description of the first mismatch.
inline std::string mismatch(const std::vector<double>& actual, const std::vector<double>& expected,
                            double rtol, double atol = 0) {
  if (actual.size() != expected.size()) {
    return "size " + std::to_string(actual.size()) + " vs expected " + std::to_string(expected.size());
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    const double a = actual[i], e = expected[i];
    bool ok;
    if (std::isnan(e) || std::isnan(a)) {
      ok = std::isnan(e) && std::isnan(a);
    } else if (std::isinf(e) || std::isinf(a)) {
      ok = a == e;
    } else {
      ok = std::fabs(a - e) <= atol + rtol * std::fabs(e);
    }
    if (!ok) {
      return "element " + std::to_string(i) + ": got " + fmt(a) + ", expected " + fmt(e);
    }
  }
  return "";
}

inline std::string mismatch(const lz::Tensor& actual, const std::vector<double>& expected,
                            double rtol, double atol = 0) {
  return ::lzt::mismatch(values(actual), expected, rtol, atol);
}

inline std::string int_mismatch(const std::vector<int64_t>& actual,
                                const std::vector<int64_t>& expected) {
  if (actual.size() != expected.size()) {
    return "size " + std::to_string(actual.size()) + " vs expected " + std::to_string(expected.size());
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    if (actual[i] != expected[i]) {
      return "element " + std::to_string(i) + ": got " + std::to_string(actual[i]) +
             ", expected " + std::to_string(expected[i]);
    }
  }
  return "";
}

// Whether two tensors have identical sizes and bit-identical values (NaN
// matches NaN), read through their own strides.
inline std::string same_values(const lz::Tensor& a, const lz::Tensor& b) {
  if (a.sizes() != b.sizes()) return "shape " + fmt(a.sizes()) + " vs " + fmt(b.sizes());
  if (a.dtype() != b.dtype()) return "dtype mismatch";
  return ::lzt::mismatch(values(a), values(b), 0, 0);
}

// Elementwise reference for a tensor of any layout.
inline std::vector<double> map_values(const lz::Tensor& t, const std::function<double(double)>& f) {
  std::vector<double> out;
  for (double v : values(t)) out.push_back(f(v));
  return out;
}

// The values of `t` broadcast to `sizes` (row-major), via NumPy rules.
inline std::vector<double> broadcast_values(const lz::Tensor& t, lz::IntArrayRef sizes) {
  const std::vector<double> v = values(t);
  const int64_t nd = static_cast<int64_t>(sizes.size());
  const int64_t lead = nd - t.dim();
  std::vector<int64_t> src_strides(t.dim(), 1);  // row-major strides of the values vector
  for (int64_t d = t.dim() - 2; d >= 0; --d) src_strides[d] = src_strides[d + 1] * t.size(d + 1);
  std::vector<double> out;
  const int64_t n = numel_of(sizes);
  std::vector<int64_t> index(nd, 0);
  for (int64_t k = 0; k < n; ++k) {
    int64_t off = 0;
    for (int64_t d = 0; d < t.dim(); ++d) {
      if (t.size(d) != 1) off += index[lead + d] * src_strides[d];
    }
    out.push_back(v[off]);
    for (int64_t d = nd - 1; d >= 0; --d) {
      if (++index[d] < sizes[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

// Reference of a binary op over broadcast inputs.
inline std::vector<double> binary_reference(const lz::Tensor& a, const lz::Tensor& b,
                                            lz::IntArrayRef sizes,
                                            const std::function<double(double, double)>& f) {
  const std::vector<double> va = broadcast_values(a, sizes), vb = broadcast_values(b, sizes);
  std::vector<double> out;
  for (size_t i = 0; i < va.size(); ++i) out.push_back(f(va[i], vb[i]));
  return out;
}

inline std::string check_values(const lz::Tensor& t, const std::vector<double>& expected) {
  return ::lzt::mismatch(values(t), expected, rtol_for(t.dtype()));
}

inline std::vector<int64_t> sizes_vec(lz::IntArrayRef s) { return std::vector<int64_t>(s.begin(), s.end()); }

}  // namespace lzt
