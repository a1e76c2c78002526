// Tensor printing in PyTorch's repr style:
//   tensor([[ 1.5000, -2.0000],
//           [ 0.2500,  3.0000]])
//   tensor([1, 2, 3], dtype=lz.int32)
// Floats use fixed notation with 4 decimals, "1." when every value is whole,
// and scientific notation when magnitudes span more than 1000x (or are tiny
// or huge); columns are right-aligned to the widest value. Tensors with more
// than 1000 elements show the first and last 3 entries of each long dim.
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

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
  Formatter(ScalarType dtype, const std::vector<double>& values) : dtype_(dtype) {
    if (dtype == ScalarType::Bool) {
      width_ = 4;
      for (double v : values) width_ = std::max<int64_t>(width_, v != 0 ? 4 : 5);
      return;
    }
    if (!is_floating_point(dtype)) {
      for (double v : values) width_ = std::max<int64_t>(width_, format(v).size());
      return;
    }
    double max_abs = 0, min_abs = 0;
    bool any = false;
    int_mode_ = true;
    for (double v : values) {
      if (!std::isfinite(v) || v == 0) continue;
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
    for (double v : values) width_ = std::max<int64_t>(width_, format(v).size());
  }

  int64_t width() const { return width_; }

  std::string format(double v) const {
    char buf[64];
    if (dtype_ == ScalarType::Bool) return v != 0 ? "True" : "False";
    if (!is_floating_point(dtype_)) {
      std::snprintf(buf, sizeof(buf), "%lld", static_cast<long long>(v));
    } else if (std::isnan(v)) {
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

  std::string format_padded(double v) const {
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

  std::vector<double> collect() {
    std::vector<double> out;
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

  double value_at(const char* p) const { return load_scalar(p, t_.dtype()).to_double(); }
  const char* step(const char* p, int64_t d, int64_t i) const {
    return p + i * t_.strides()[d] * static_cast<int64_t>(t_.itemsize());
  }

  void collect_dim(int64_t d, const char* p, std::vector<double>& out) const {
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
  Tensor cpu = is_cpu() ? *this : _to_copy(*this, std::nullopt, Device(DeviceType::CPU));
  std::vector<std::string> suffixes;
  const std::string prefix = "tensor(";
  std::string body;
  if (cpu.numel() == 0) {
    body = "[]";
    if (cpu.dim() != 1) suffixes.push_back("size=" + sizes_tuple(cpu.sizes()));
  } else {
    Printer printer(cpu, cpu.numel() > kThreshold);
    const Formatter f(cpu.dtype(), printer.collect());
    body = printer.render(f, static_cast<int64_t>(prefix.size()));
  }
  if (!device().is_cpu()) suffixes.push_back("device='" + device().str() + "'");
  if (!has_default_dtype(dtype())) suffixes.push_back("dtype=lz." + std::string(lz::to_string(dtype())));
  std::string out = prefix + body;
  for (const std::string& s : suffixes) out += ", " + s;
  return out + ")";
}

std::ostream& operator<<(std::ostream& os, const Tensor& t) { return os << t.to_string(); }

}  // namespace lz
