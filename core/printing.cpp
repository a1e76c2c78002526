// Tensor printing in PyTorch's repr style:
//   tensor([[ 1.5000, -2.0000],
//           [ 0.2500,  3.0000]])
//   tensor([1, 2, 3], dtype=lz.int32)
// Floats use fixed notation with 4 decimals, "1." when every value is whole,
// and scientific notation when magnitudes span more than 1000x (or are tiny
// or huge); columns are right-aligned to the widest value (for floats, the
// widest nonzero finite value: nan, inf and 0 never widen a column). Tensors
// with more than 1000 elements show the first and last 3 entries of each
// long dim. Suffixes (dtype=...) that would overflow 80 columns wrap to a
// new line.
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

#include "core/lazy_hooks.h"
#include "core/empty_tensor.h"
#include "core/ops_copy.h"
#include "core/tensor.h"

namespace lz {

namespace {

constexpr int64_t kThreshold = 1000;  // summarise above this many elements
constexpr int64_t kEdgeItems = 3;
constexpr int64_t kLineWidth = 80;

class Formatter {
 public:
  Formatter(ScalarType dtype, const std::vector<Scalar>& values) : dtype_(dtype) {
    if (!is_floating_point(dtype)) {
      for (const Scalar& v : values) width_ = std::max<int64_t>(width_, format(v).size());
      return;
    }
    double max_abs = 0, min_abs = 0;
    bool any = false;
    int_mode_ = true;
    std::vector<double> nonzero_finite;
    for (const Scalar& s : values) {
      const double v = s.to_double();
      if (!std::isfinite(v) || v == 0) continue;
      nonzero_finite.push_back(v);
      const double a = std::fabs(v);
      max_abs = any ? std::max(max_abs, a) : a;
      min_abs = any ? std::min(min_abs, a) : a;
      any = true;
      if (v != std::ceil(v)) int_mode_ = false;
    }
    if (any) {
      if (int_mode_) {
        sci_mode_ = max_abs / min_abs > 1000.0 || max_abs > 1e8;
      } else {
        sci_mode_ = max_abs / min_abs > 1000.0 || max_abs > 1e8 || min_abs < 1e-4;
      }
    }
    // As in PyTorch, only nonzero finite values set the width.
    for (double v : nonzero_finite) width_ = std::max<int64_t>(width_, format(Scalar(v)).size());
  }

  int64_t width() const { return width_; }

  std::string format(const Scalar& s) const {
    // Integers print exactly (through a double, int64 beyond 2^53 would not).
    if (!is_floating_point(dtype_)) return s.str();
    char buf[64];
    const double v = s.to_double();
    if (std::isnan(v)) {
      return "nan";
    } else if (std::isinf(v)) {
      return v > 0 ? "inf" : "-inf";
    } else if (sci_mode_) {
      std::snprintf(buf, sizeof(buf), "%.4e", v);
    } else if (int_mode_) {
      std::snprintf(buf, sizeof(buf), "%.0f.", v);
    } else {
      std::snprintf(buf, sizeof(buf), "%.4f", v);
    }
    return buf;
  }

  std::string format_padded(const Scalar& v) const {
    std::string s = format(v);
    return std::string(width_ > static_cast<int64_t>(s.size()) ? width_ - s.size() : 0, ' ') + s;
  }

 private:
  ScalarType dtype_;
  int64_t width_ = 1;
  bool int_mode_ = false;
  bool sci_mode_ = false;
};

// Walks a CPU tensor's elements (summarised or not) in row-major order.
class Printer {
 public:
  Printer(const Tensor& t, bool summarize) : t_(t), summarize_(summarize) {}

  std::vector<Scalar> collect() {
    std::vector<Scalar> out;
    collect_dim(0, static_cast<const char*>(t_.data_ptr()), out);
    return out;
  }

  std::string render(const Formatter& f, int64_t indent) {
    return render_dim(0, static_cast<const char*>(t_.data_ptr()), f, indent);
  }

 private:
  // Indices shown along dim d: all, or the first and last kEdgeItems (-1 marks the gap).
  std::vector<int64_t> shown(int64_t d) const {
    const int64_t n = t_.sizes()[d];
    std::vector<int64_t> idx;
    if (summarize_ && n > 2 * kEdgeItems) {
      for (int64_t i = 0; i < kEdgeItems; ++i) idx.push_back(i);
      idx.push_back(-1);
      for (int64_t i = n - kEdgeItems; i < n; ++i) idx.push_back(i);
    } else {
      for (int64_t i = 0; i < n; ++i) idx.push_back(i);
    }
    return idx;
  }

  Scalar value_at(const char* p) const { return load_scalar(p, t_.dtype()); }
  const char* step(const char* p, int64_t d, int64_t i) const {
    return p + i * t_.strides()[d] * static_cast<int64_t>(t_.itemsize());
  }

  void collect_dim(int64_t d, const char* p, std::vector<Scalar>& out) const {
    if (d == t_.dim()) {
      out.push_back(value_at(p));
      return;
    }
    for (int64_t i : shown(d)) {
      if (i >= 0) collect_dim(d + 1, step(p, d, i), out);
    }
  }

  std::string render_dim(int64_t d, const char* p, const Formatter& f, int64_t indent) const {
    if (t_.dim() == 0) return f.format(value_at(p));
    if (d == t_.dim() - 1) {
      // One row, wrapped to the line width.
      const int64_t per_line = std::max<int64_t>(1, (kLineWidth - indent) / (f.width() + 2));
      std::vector<std::string> items;
      for (int64_t i : shown(d)) items.push_back(i >= 0 ? f.format_padded(value_at(step(p, d, i))) : " ...");
      std::string out = "[";
      for (size_t i = 0; i < items.size(); ++i) {
        if (i > 0) {
          out += ",";
          out += (static_cast<int64_t>(i) % per_line == 0) ? "\n" + std::string(indent + 1, ' ') : " ";
        }
        out += items[i];
      }
      return out + "]";
    }
    const std::string separator =
        "," + std::string(t_.dim() - d - 1, '\n') + std::string(indent + 1, ' ');
    std::string out = "[";
    bool first = true;
    for (int64_t i : shown(d)) {
      if (!first) out += separator;
      first = false;
      out += i >= 0 ? render_dim(d + 1, step(p, d, i), f, indent + 1) : "...";
    }
    return out + "]";
  }

  const Tensor& t_;
  bool summarize_;
};

bool has_default_dtype(ScalarType t) {
  return t == default_float_dtype() || t == ScalarType::Long || t == ScalarType::Bool;
}

std::string sizes_tuple(IntArrayRef sizes) {
  std::string out = "(";
  for (size_t i = 0; i < sizes.size(); ++i) out += (i ? ", " : "") + std::to_string(sizes[i]);
  return out + ")";
}

}  // namespace

std::string Tensor::to_string() const {
  if (!defined()) return "tensor(undefined)";
  if (is_lazy()) {
    const LazyHooks& hooks = lazy_hooks();
    LZ_CHECK(hooks.to_eager != nullptr, NotImplementedError, "[print] the lazy layer is not part of this build");
    return hooks.to_eager(*this, SyncCause::Print).to_string();
  }
  Tensor cpu = is_cpu() ? *this : _to_copy(*this, Device(DeviceType::CPU));
  std::vector<std::string> suffixes;
  const std::string prefix = "tensor(";
  const std::string dtype_suffix = "dtype=lz." + std::string(lz::to_string(dtype()));
  // Suffix order as in PyTorch: device, size, dtype.
  if (!device().is_cpu()) suffixes.push_back("device='" + device().str() + "'");
  std::string body;
  if (cpu.numel() == 0) {
    body = "[]";
    if (cpu.dim() != 1) suffixes.push_back("size=" + sizes_tuple(cpu.sizes()));
    // No values show the dtype, so anything but the default float is named
    // (int64 and bool included).
    if (dtype() != default_float_dtype()) suffixes.push_back(dtype_suffix);
  } else {
    Printer printer(cpu, cpu.numel() > kThreshold);
    const Formatter f(cpu.dtype(), printer.collect());
    body = printer.render(f, static_cast<int64_t>(prefix.size()));
    if (!has_default_dtype(dtype())) suffixes.push_back(dtype_suffix);
  }
  // A suffix that would pass the line width goes on its own line, indented
  // under the first value. PyTorch's length measure is kept, quirk and all:
  // with no newline it counts the whole text plus 2.
  std::string out = prefix + body;
  const size_t newline = out.rfind('\n');
  int64_t last_line = static_cast<int64_t>(out.size()) -
                      (newline == std::string::npos ? -1 : static_cast<int64_t>(newline)) + 1;
  for (const std::string& s : suffixes) {
    const int64_t len = static_cast<int64_t>(s.size());
    if (last_line + len + 2 > kLineWidth) {
      out += ",\n" + std::string(prefix.size(), ' ') + s;
      last_line = static_cast<int64_t>(prefix.size()) + len;
    } else {
      out += ", " + s;
      last_line += len + 2;
    }
  }
  return out + ")";
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << t.to_string(); }

}  // namespace lz
