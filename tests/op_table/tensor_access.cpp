// The element access and reference helpers of tensor_access.h, compiled with
// optimisation whatever the tests' own level: every operator test reads and
// compares its results through them, element by element.
#include "tensor_access.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace lzt {

double decode_half(uint16_t h) {
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

double decode_bfloat16(uint16_t b) {
  const uint32_t bits = static_cast<uint32_t>(b) << 16;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

double load(const char* p, ScalarType t) {
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

int64_t load_int(const char* p, ScalarType t) {
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

void store(char* p, ScalarType t, double v) {
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

std::vector<double> values(const lz::Tensor& t) {
  std::vector<double> out;
  out.reserve(static_cast<size_t>(t.numel()));
  const ScalarType dt = t.dtype();
  for_each_element(t, [&](const char* p) { out.push_back(load(p, dt)); });
  return out;
}

std::vector<int64_t> int_values(const lz::Tensor& t) {
  std::vector<int64_t> out;
  out.reserve(static_cast<size_t>(t.numel()));
  const ScalarType dt = t.dtype();
  for_each_element(t, [&](const char* p) { out.push_back(load_int(p, dt)); });
  return out;
}

std::vector<uint16_t> bits16(const lz::Tensor& t) {
  std::vector<uint16_t> out;
  for_each_element(t, [&](const char* p) {
    uint16_t b;
    std::memcpy(&b, p, 2);
    out.push_back(b);
  });
  return out;
}

int64_t numel_of(lz::IntArrayRef sizes) {
  int64_t n = 1;
  for (int64_t s : sizes) n *= s;
  return n;
}

lz::Tensor make_tensor(const std::vector<double>& vals, lz::IntArrayRef sizes, ScalarType dtype) {
  if (numel_of(sizes) != static_cast<int64_t>(vals.size())) {
    throw std::logic_error("lzt::make_tensor: " + std::to_string(vals.size()) + " values for sizes " +
                           lz::shape_str(sizes));
  }
  lz::Tensor t = lz::empty(sizes, dtype);
  char* p = static_cast<char*>(t.data_ptr());
  const size_t item = t.itemsize();
  for (size_t i = 0; i < vals.size(); ++i) store(p + i * item, dtype, vals[i]);
  return t;
}

lz::Tensor make_tensor(const std::vector<double>& vals, ScalarType dtype) {
  return make_tensor(vals, {static_cast<int64_t>(vals.size())}, dtype);
}

std::vector<double> sample_values(ScalarType dtype, int64_t n, uint32_t seed, bool nonzero) {
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

lz::Tensor sample_tensor(lz::IntArrayRef sizes, ScalarType dtype, uint32_t seed, bool nonzero) {
  return make_tensor(sample_values(dtype, numel_of(sizes), seed, nonzero), sizes, dtype);
}

double rtol_for(ScalarType t) {
  switch (t) {
    case lz::kFloat16: return 2.0 / 1024;
    case lz::kBFloat16: return 2.0 / 128;
    case lz::kFloat32: return 4e-7;
    case lz::kFloat64: return 1e-14;
    default: return 0;
  }
}

double round_to(ScalarType t, double v) {
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

double converted_value(ScalarType target, double v) {
  if (target == lz::kBool) return v != 0 ? 1 : 0;
  if (is_int(target)) return round_to(target, std::trunc(v));
  return v;
}

std::string fmt(double v) {
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

std::string fmt(lz::IntArrayRef s) {
  return lz::shape_str(s);
}

std::string mismatch(const std::vector<double>& actual, const std::vector<double>& expected, double rtol,
                     double atol) {
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

std::string mismatch(const lz::Tensor& actual, const std::vector<double>& expected, double rtol,
                     double atol) {
  return ::lzt::mismatch(values(actual), expected, rtol, atol);
}

std::string int_mismatch(const std::vector<int64_t>& actual, const std::vector<int64_t>& expected) {
  if (actual.size() != expected.size()) {
    return "size " + std::to_string(actual.size()) + " vs expected " + std::to_string(expected.size());
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    if (actual[i] != expected[i]) {
      return "element " + std::to_string(i) + ": got " + std::to_string(actual[i]) + ", expected " +
             std::to_string(expected[i]);
    }
  }
  return "";
}

std::string same_values(const lz::Tensor& a, const lz::Tensor& b) {
  if (a.sizes() != b.sizes()) return "shape " + fmt(a.sizes()) + " vs " + fmt(b.sizes());
  if (a.dtype() != b.dtype()) return "dtype mismatch";
  return ::lzt::mismatch(values(a), values(b), 0, 0);
}

std::vector<double> map_values(const lz::Tensor& t, const std::function<double(double)>& f) {
  std::vector<double> out;
  for (double v : values(t)) out.push_back(f(v));
  return out;
}

std::vector<double> broadcast_values(const lz::Tensor& t, lz::IntArrayRef sizes) {
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

std::vector<double> binary_reference(const lz::Tensor& a, const lz::Tensor& b, lz::IntArrayRef sizes,
                                     const std::function<double(double, double)>& f) {
  const std::vector<double> va = broadcast_values(a, sizes), vb = broadcast_values(b, sizes);
  std::vector<double> out;
  for (size_t i = 0; i < va.size(); ++i) out.push_back(f(va[i], vb[i]));
  return out;
}

std::string check_values(const lz::Tensor& t, const std::vector<double>& expected) {
  return ::lzt::mismatch(values(t), expected, rtol_for(t.dtype()));
}

std::vector<int64_t> sizes_vec(lz::IntArrayRef s) {
  return std::vector<int64_t>(s.begin(), s.end());
}

}  // namespace lzt
