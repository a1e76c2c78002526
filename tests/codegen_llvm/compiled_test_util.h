// Shared by the compiled-kernel tests: buffers of any dtype laid out in the
// ways an executor binds them (contiguous, transposed, sliced, broadcast),
// and a check that runs one launch through a CompiledKernel and through the
// reference interpreter (the oracle) on identical inputs, then compares
// every output buffer element by element (exactly, or within ulps or a
// relative tolerance).
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "codegen_interp/kernel_interpreter.h"
#include "codegen_llvm/compiled_kernel.h"
#include "core/half.h"
#include "core/scalar.h"
#include "core/scalar_type.h"
#include "ir/kernel_ir.h"
#include "ir/kernel_launch.h"

namespace lz::compiled_testing {

using ir::ExprId;
using ir::Kernel;
using ir::KernelBuilder;
using ir::ReduceOp;
using ir::ScalarOp;

// 64-byte aligned storage, so two buffers are aligned alike (as the
// launcher wants for streaming stores) whatever malloc does.
template <class T>
struct Aligned64 {
  using value_type = T;
  Aligned64() = default;
  template <class U>
  Aligned64(const Aligned64<U>&) {}
  T* allocate(size_t n) { return static_cast<T*>(::operator new(n * sizeof(T), std::align_val_t{64})); }
  void deallocate(T* p, size_t) { ::operator delete(p, std::align_val_t{64}); }
  template <class U>
  bool operator==(const Aligned64<U>&) const { return true; }
};

// One kernel buffer's memory: `numel` elements of `dtype`.
struct Array {
  ScalarType dtype = ScalarType::Float;
  int64_t numel = 0;
  std::vector<uint64_t, Aligned64<uint64_t>> words;

  Array(ScalarType t, int64_t n) : dtype(t), numel(n), words(static_cast<size_t>((std::max<int64_t>(n, 1) * elem() + 7) / 8), 0) {}
  int64_t elem() const { return static_cast<int64_t>(element_size(dtype)); }
  char* data() { return reinterpret_cast<char*>(words.data()); }
  const char* data() const { return reinterpret_cast<const char*>(words.data()); }
};

// How an input access sees its buffer, relative to a domain of shape `d`.
enum class Layout : uint8_t {
  Contiguous,   // a tensor of shape d
  Transposed,   // a contiguous tensor of shape reversed(d), permuted back
  Sliced,       // the last axis sliced with step 2 out of a tensor twice as long
  BcastInner,   // extent 1 (stride 0) along the last axis
  BcastOuter,   // extent 1 (stride 0) along the first axis longer than 1
  Scalar0d,     // a 0-dim tensor broadcast everywhere
};
inline constexpr Layout kAllLayouts[] = {Layout::Contiguous, Layout::Transposed, Layout::Sliced,
                                         Layout::BcastInner, Layout::BcastOuter, Layout::Scalar0d};
inline const char* to_string(Layout l) {
  switch (l) {
    case Layout::Contiguous: return "contiguous";
    case Layout::Transposed: return "transposed";
    case Layout::Sliced: return "sliced";
    case Layout::BcastInner: return "bcast-inner";
    case Layout::BcastOuter: return "bcast-outer";
    case Layout::Scalar0d: return "0-dim";
  }
  return "?";
}

inline std::vector<int64_t> contiguous_strides(const std::vector<int64_t>& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t i = shape.size(); i-- > 1;) s[i - 1] = s[i] * std::max<int64_t>(shape[i], 1);
  return s;
}

inline int64_t numel_of(const std::vector<int64_t>& shape) {
  int64_t n = 1;
  for (int64_t e : shape) n *= e;
  return n;
}

// Value distributions.
enum class Fill : uint8_t {
  Mixed,     // floats in [-4, 4] with special values (NaN, inf, -0, huge); any integers
  Positive,  // floats in [0.5, 1.5); integers in [-100, 100]; bools mostly true
  NearOne,   // floats in [0.95, 1.05]; integers in [-2, 2]
  Signed,    // floats in [-1, 1), no special values; integers in [-100, 100]
};

inline void set_float(Array& a, int64_t i, double v) {
  char* p = a.data() + i * a.elem();
  switch (a.dtype) {
    case ScalarType::Half: { const uint16_t b = Half(static_cast<float>(v)).bits; std::memcpy(p, &b, 2); break; }
    case ScalarType::BFloat16: { const uint16_t b = BFloat16(static_cast<float>(v)).bits; std::memcpy(p, &b, 2); break; }
    case ScalarType::Float: { const float f = static_cast<float>(v); std::memcpy(p, &f, 4); break; }
    default: std::memcpy(p, &v, 8); break;
  }
}

inline void set_int(Array& a, int64_t i, int64_t v) {
  char* p = a.data() + i * a.elem();
  switch (a.dtype) {
    case ScalarType::Bool: { const uint8_t b = v != 0; std::memcpy(p, &b, 1); break; }
    case ScalarType::Byte: { const auto b = static_cast<uint8_t>(v); std::memcpy(p, &b, 1); break; }
    case ScalarType::Int: { const auto b = static_cast<int32_t>(v); std::memcpy(p, &b, 4); break; }
    default: std::memcpy(p, &v, 8); break;
  }
}

inline bool is_floating(ScalarType t) {
  return t == ScalarType::Half || t == ScalarType::BFloat16 || t == ScalarType::Float || t == ScalarType::Double;
}

inline void fill(Array& a, std::mt19937_64& rng, Fill f) {
  std::uniform_real_distribution<double> u(0, 1);
  static constexpr double kSpecial[] = {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity(),
                                        -std::numeric_limits<double>::infinity(), -0.0, 0.0, 1e30, -3e9, 300.7, -1.5,
                                        2.5, 65504, 1e-40};
  static constexpr int64_t kSpecialInt[] = {0, 0, -1, 1, INT64_MIN, INT64_MAX, INT32_MIN, INT32_MAX, 255, 128, -128, 2};
  for (int64_t i = 0; i < a.numel; ++i) {
    const double r = u(rng);
    if (is_floating(a.dtype)) {
      double v = 0;
      switch (f) {
        case Fill::Mixed:
          v = r < 0.04 ? kSpecial[rng() % std::size(kSpecial)] : -4 + 8 * u(rng);
          if (a.dtype == ScalarType::Double && r >= 0.04) v += u(rng) * 1e-9;  // bits beyond float precision
          break;
        case Fill::Positive: v = 0.5 + r; break;
        case Fill::NearOne: v = 0.95 + 0.1 * r; break;
        case Fill::Signed: v = 2 * r - 1; break;
      }
      set_float(a, i, v);
    } else if (a.dtype == ScalarType::Bool) {
      set_int(a, i, f == Fill::Mixed ? (r < 0.5) : (r < 0.995));
    } else {
      int64_t v = 0;
      switch (f) {
        case Fill::Mixed:
          v = r < 0.15 ? kSpecialInt[rng() % std::size(kSpecialInt)] : r < 0.6 ? static_cast<int64_t>(rng()) : static_cast<int64_t>(rng() % 21) - 10;
          break;
        case Fill::Positive: case Fill::Signed: v = static_cast<int64_t>(rng() % 201) - 100; break;
        case Fill::NearOne: v = r < 0.8 ? 1 : static_cast<int64_t>(rng() % 5) - 2; break;
      }
      set_int(a, i, v);
    }
  }
}

// One access's binding: its buffer, the element offset of domain index 0 and strides.
struct Binding {
  uint32_t buffer = 0;
  int64_t offset = 0;
  std::vector<int64_t> strides;
};

// A launch described by value, so it can be run twice on separate output copies.
struct Case {
  std::vector<int64_t> domain;
  std::vector<Array> buffers;      // kernel buffers, in order
  std::vector<Binding> bindings;   // per access
  std::vector<Scalar> params;

  // An input buffer of `dtype` seen through `layout`; returns its buffer index.
  uint32_t add_input(ScalarType dtype, Layout layout, std::mt19937_64& rng, Fill f = Fill::Mixed) {
    const std::vector<int64_t>& d = domain;
    const size_t r = d.size();
    std::vector<int64_t> shape = d, strides;
    if (r == 0) layout = Layout::Scalar0d;
    switch (layout) {
      case Layout::Contiguous: strides = contiguous_strides(shape); break;
      case Layout::Transposed: {
        const std::vector<int64_t> rev(d.rbegin(), d.rend());
        const std::vector<int64_t> rs = contiguous_strides(rev);
        strides.assign(rs.rbegin(), rs.rend());
        break;
      }
      case Layout::Sliced:
        shape.back() *= 2;
        strides = contiguous_strides(shape);
        strides.back() = 2;
        break;
      case Layout::BcastInner:
        shape.back() = 1;
        strides = contiguous_strides(shape);
        strides.back() = 0;
        break;
      case Layout::BcastOuter: {  // the first axis longer than 1 (axis 0 if none)
        size_t axis = 0;
        while (axis + 1 < r && d[axis] <= 1) ++axis;
        shape[axis] = 1;
        strides = contiguous_strides(shape);
        strides[axis] = 0;
        break;
      }
      case Layout::Scalar0d:
        shape.assign(1, 1);
        strides.assign(r, 0);
        break;
    }
    buffers.emplace_back(dtype, numel_of(shape));
    fill(buffers.back(), rng, f);
    const auto b = static_cast<uint32_t>(buffers.size() - 1);
    bindings.push_back(Binding{b, 0, strides});
    return b;
  }

  // An output buffer: contiguous over the domain with the axes in `reduce`
  // at extent 1 (stride 0). Filled with a sentinel so unwritten elements show.
  uint32_t add_output(ScalarType dtype, uint64_t reduce = 0) {
    std::vector<int64_t> shape = domain;
    for (size_t i = 0; i < shape.size(); ++i) {
      if ((reduce >> i) & 1) shape[i] = 1;
    }
    std::vector<int64_t> strides = contiguous_strides(shape);
    for (size_t i = 0; i < shape.size(); ++i) {
      if ((reduce >> i) & 1) strides[i] = 0;
    }
    buffers.emplace_back(dtype, numel_of(shape));
    std::memset(buffers.back().data(), 0xA5, buffers.back().words.size() * 8);
    const auto b = static_cast<uint32_t>(buffers.size() - 1);
    bindings.push_back(Binding{b, 0, strides});
    return b;
  }

  ir::KernelLaunch launch(std::vector<Array>& mem) const {
    ir::KernelLaunch l{domain, {}, params};
    for (const Binding& b : bindings) {
      Array& a = mem[b.buffer];
      l.accesses.push_back(ir::BoundAccess{a.data() + b.offset * a.elem(), b.strides});
    }
    return l;
  }
};

// Tolerance for one output buffer: exact unless ulps or rel/abs say otherwise.
// Two NaNs are equal (payloads are not compared).
struct Tol {
  int64_t ulps = 0;
  double rel = 0;
  double abs = 0;
};

inline double get_float(const Array& a, int64_t i) {
  const char* p = a.data() + i * a.elem();
  uint16_t h;
  switch (a.dtype) {
    case ScalarType::Half: std::memcpy(&h, p, 2); return static_cast<float>(Half::from_bits(h));
    case ScalarType::BFloat16: std::memcpy(&h, p, 2); return static_cast<float>(BFloat16::from_bits(h));
    case ScalarType::Float: { float f; std::memcpy(&f, p, 4); return f; }
    default: { double d; std::memcpy(&d, p, 8); return d; }
  }
}

// Distance in units in the last place of `t` (sign-magnitude bits mapped to a line).
inline int64_t ulp_distance(const Array& a, const Array& b, int64_t i) {
  const int64_t n = a.elem();
  uint64_t x = 0, y = 0;
  std::memcpy(&x, a.data() + i * n, static_cast<size_t>(n));
  std::memcpy(&y, b.data() + i * n, static_cast<size_t>(n));
  const uint64_t sign = uint64_t{1} << (8 * n - 1);
  auto line = [&](uint64_t v) { return (v & sign) ? -static_cast<int64_t>(v & ~sign) : static_cast<int64_t>(v); };
  const int64_t d = line(x) - line(y);
  return d < 0 ? -d : d;
}

// "" when `got` matches `want`, else the first few mismatches.
inline std::string compare_arrays(const Array& got, const Array& want, const Tol& tol) {
  std::ostringstream os;
  int shown = 0;
  int64_t bad = 0;
  for (int64_t i = 0; i < want.numel; ++i) {
    bool ok;
    if (!is_floating(want.dtype)) {
      ok = std::memcmp(got.data() + i * got.elem(), want.data() + i * want.elem(), static_cast<size_t>(want.elem())) == 0;
    } else {
      const double g = get_float(got, i), w = get_float(want, i);
      ok = (std::isnan(g) && std::isnan(w)) || ulp_distance(got, want, i) <= tol.ulps ||
           (std::isfinite(w) && std::fabs(g - w) <= tol.rel * std::fabs(w) + tol.abs);
    }
    if (ok) continue;
    ++bad;
    if (shown++ < 4) {
      os << "  [" << i << "] compiled ";
      if (is_floating(want.dtype)) {
        os.precision(17);
        os << get_float(got, i) << " interpreter " << get_float(want, i) << " (" << ulp_distance(got, want, i) << " ulps)";
      } else {
        int64_t g = 0, w = 0;
        std::memcpy(&g, got.data() + i * got.elem(), static_cast<size_t>(got.elem()));
        std::memcpy(&w, want.data() + i * want.elem(), static_cast<size_t>(want.elem()));
        os << "bits 0x" << std::hex << g << " interpreter 0x" << w << std::dec;
      }
      os << "\n";
    }
  }
  if (bad == 0) return "";
  return std::to_string(bad) + " of " + std::to_string(want.numel) + " elements differ:\n" + os.str();
}

// Runs `c` through `run` (a backend running `k`) and the interpreter, each
// on its own copy of every buffer, and compares each output buffer; `tols`
// per buffer index (missing: exact). Returns "" when all agree.
template <class Run>
std::string compare_backend_with_interpreter(const ir::Kernel& k, const Run& run, const Case& c,
                                             const std::vector<Tol>& tols = {}) {
  std::vector<Array> got = c.buffers, want = c.buffers;
  run(c.launch(got));
  codegen_interp::run_kernel(k, c.launch(want));
  std::string out;
  for (size_t b = 0; b < c.buffers.size(); ++b) {
    if (!k.buffers[b].output) continue;
    const std::string d = compare_arrays(got[b], want[b], b < tols.size() ? tols[b] : Tol{});
    if (!d.empty()) out += "out buffer " + std::to_string(b) + " (" + std::string(to_string(c.buffers[b].dtype)) + "): " + d;
  }
  return out;
}

inline std::string compare_with_interpreter(const codegen_llvm::CompiledKernel& ck, const Case& c,
                                            const std::vector<Tol>& tols = {}) {
  return compare_backend_with_interpreter(ck.kernel(), [&](const ir::KernelLaunch& l) { ck.run(l); }, c, tols);
}

// A kernel access to a new input or output buffer of dtype `t` and `rank`.
inline uint32_t input(ir::KernelBuilder& b, ScalarType t, uint32_t rank) {
  return b.add_access({b.add_buffer(t, rank, false), {}});
}
inline uint32_t output(ir::KernelBuilder& b, ScalarType t, uint32_t rank) {
  return b.add_access({b.add_buffer(t, rank, true), {}});
}

inline std::string describe(const std::vector<int64_t>& domain) {
  std::ostringstream os;
  os << "[";
  for (size_t i = 0; i < domain.size(); ++i) os << (i ? "," : "") << domain[i];
  os << "]";
  return os.str();
}

}  // namespace lz::compiled_testing
