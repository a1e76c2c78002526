// The three renderings of a RunReport (report.h). Numbers go through snprintf
// and std::to_chars by hand: GCC 12 has no std::format, and the JSON must be
// exact and locale-free.
#include "report.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace lz::bench_runner {
namespace {

std::string fmt(const char* format, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, format, v);
  return buf;
}

// Three significant digits without switching to exponents for the usual
// millisecond range: 1234, 123, 12.3, 1.23, 0.123, 0.0123.
std::string sig3(double v) {
  if (!std::isfinite(v)) return "-";
  const double a = std::fabs(v);
  if (a == 0) return "0";
  if (a >= 100) return fmt("%.0f", v);
  if (a >= 1e-3) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", 2 - static_cast<int>(std::floor(std::log10(a))), v);
    return buf;
  }
  return fmt("%.2e", v);
}

std::string err(double v) { return std::isfinite(v) ? fmt("%.1e", v) : (std::isnan(v) ? "nan" : "inf"); }

std::string speedup(double v) {
  if (!std::isfinite(v) || v <= 0) return "-";
  return fmt(v >= 10 ? "%.0fx" : v >= 1 ? "%.1fx" : "%.2fx", v);
}

// Small percentages keep a decimal so that a 0.4% bar does not read as nothing.
std::string pct(double v) {
  if (!std::isfinite(v)) return "-";
  return fmt(std::fabs(v) < 10 ? "%.1f%%" : "%.0f%%", v);
}

// --- table -------------------------------------------------------------------

struct Column {
  std::string_view head;
  size_t width;
  bool left = false;
};

// Only names are cut (to keep the columns aligned); a number wider than its
// column pushes the rest of the row right rather than lose digits.
void cell(std::string& line, std::string s, const Column& c, bool cut = false) {
  if (cut && s.size() > c.width) s = s.substr(0, c.width - 1) + "~";
  const std::string pad(c.width - std::min(c.width, s.size()), ' ');
  if (!line.empty()) line += "  ";
  line += c.left ? s + pad : pad + s;
}

}  // namespace

void print_table(std::ostream& out, const RunReport& r) {
  size_t name_width = 4;
  for (const WorkloadResult& w : r.workloads) name_width = std::max(name_width, w.name.size());
  const std::vector<Column> cols = {
      {"id", 3, true}, {"name", std::min<size_t>(name_width, 12), true}, {"eager ms", 8}, {"lazy ms", 8},
      {"speedup", 7},  {"first ms", 8}, {"GB/s", 7}, {"% bw", 6}, {"bw GB/s", 7}, {"kern", 4}, {"steps", 5},
      {"hit/miss", 8}, {"comp ms", 7}, {"abs err", 7}, {"rel err", 7}, {"status", 8, true},
  };

  out << "lz-bench  device " << r.device << "  dtype " << r.dtype << "  threads " << r.threads << "  repetitions "
      << r.repetitions << (r.quick ? " (quick)" : "") << "  start-up copy " << sig3(r.startup_copy_gbps)
      << " GB/s  triad " << sig3(r.startup_triad_gbps) << " GB/s\n\n";

  std::string head;
  for (const Column& c : cols) cell(head, std::string(c.head), c);
  while (head.back() == ' ') head.pop_back();
  out << head << '\n' << std::string(head.size(), '-') << '\n';

  for (const WorkloadResult& w : r.workloads) {
    const std::vector<std::string> values = {
        w.id, w.name, sig3(w.eager_ms), sig3(w.lazy_ms), speedup(w.speedup), sig3(w.first_ms), sig3(w.gbps),
        pct(w.pct_of_bandwidth) + (w.bandwidth_bound ? "" : "*"), sig3(w.bandwidth_gbps), std::to_string(w.kernels),
        std::to_string(w.eager_steps), std::to_string(w.cache_hits) + "/" + std::to_string(w.cache_misses),
        sig3(w.compile_ms), err(w.max_abs_err), err(w.max_rel_err), w.ok ? "ok" : "MISMATCH",
    };
    std::string line;
    for (size_t i = 0; i < cols.size(); ++i) cell(line, values[i], cols[i], i == 1);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out << line << '\n';
  }

  bool any_latency = false;
  for (const WorkloadResult& w : r.workloads) {
    if (!w.ns_per_traced_op && !w.cache_hit_overhead_ns) continue;
    if (!any_latency) out << '\n';
    any_latency = true;
    out << w.id << ' ' << w.name << ':';
    if (w.ns_per_traced_op) out << "  " << sig3(*w.ns_per_traced_op) << " ns per traced op";
    if (w.cache_hit_overhead_ns) out << "  " << sig3(*w.cache_hit_overhead_ns) << " ns cache-hit overhead per run";
    out << '\n';
  }
  for (const WorkloadResult& w : r.workloads) {
    if (!w.profiled_ms || !w.matmul_ms || !w.steps_ms) continue;
    const double total = *w.profiled_ms;
    out << w.id << ' ' << w.name << ": a profiled lazy step of " << sig3(total) << " ms: matrix products "
        << sig3(*w.matmul_ms) << " ms (" << pct(100 * *w.matmul_ms / total) << "), other steps "
        << sig3(*w.steps_ms - *w.matmul_ms) << " ms (" << pct(100 * (*w.steps_ms - *w.matmul_ms) / total)
        << "), tracing and lookup " << sig3(total - *w.steps_ms) << " ms\n";
    if (w.top_other_steps_ms.empty()) continue;
    out << w.id << ' ' << w.name << ": costliest other steps:";
    for (size_t i = 0; i < w.top_other_steps_ms.size(); ++i) {
      out << (i == 0 ? " " : ", ") << w.top_other_steps_ms[i].first << ' ' << sig3(w.top_other_steps_ms[i].second)
          << " ms";
    }
    out << '\n';
  }

  out << "\n% bw: bytes that must move / lazy time, over a STREAM copy measured right next to the workload (bw GB/s).\n"
         "*: not bandwidth-bound (bandwidth_bound == false: matmul, latency); its % bw is shown but is not a target.\n"
         "kern, steps: fused kernels and eager steps per steady-state lazy run; hit/miss: executable cache.\n";
  size_t bad = 0;
  for (const WorkloadResult& w : r.workloads) bad += w.ok ? 0 : 1;
  if (bad == 0) {
    out << "all " << r.workloads.size() << " workloads match eager within tolerance\n";
  } else {
    out << bad << " of " << r.workloads.size() << " workloads MISMATCH eager\n";
  }
}

// --- JSON ----------------------------------------------------------------------

namespace {

// Just enough of a streaming JSON writer: it tracks commas and indentation so
// that the callers only say what goes where.
class JsonWriter {
 public:
  explicit JsonWriter(std::ostream& out) : out_(out) {}

  void begin_object() { open('{'); }
  void end_object() { close('}'); }
  void begin_array() { open('['); }
  void end_array() { close(']'); }

  void key(std::string_view k) {
    separate();
    string(k);
    out_ << ": ";
    after_key_ = true;
  }

  void value(std::string_view s) {
    separate();
    string(s);
  }
  void value(bool b) { raw(b ? "true" : "false"); }
  void value(int64_t v) { raw(std::to_string(v)); }
  void value(int v) { raw(std::to_string(v)); }
  void value(double v) {
    if (!std::isfinite(v)) return raw("null");  // JSON has no NaN or infinity
    if (v == std::trunc(v) && std::fabs(v) < 1e15) return value(static_cast<int64_t>(v));  // bytes: 128000000
    char buf[32];
    const auto res = std::to_chars(buf, buf + sizeof buf, v);  // shortest text that reads back exactly
    raw(std::string_view(buf, res.ptr - buf));
  }
  void value(const std::optional<double>& v) { v ? value(*v) : raw("null"); }

  template <typename T>
  void field(std::string_view k, const T& v) {
    key(k);
    value(v);
  }

 private:
  void raw(std::string_view text) {
    separate();
    out_ << text;
  }
  void open(char c) {
    separate();
    out_ << c;
    first_.push_back(true);
  }
  void close(char c) {
    const bool empty = first_.back();
    first_.pop_back();
    if (!empty) newline();
    out_ << c;
    if (first_.empty()) out_ << '\n';
  }
  // Before a key or a value: the comma and line break, except right after a key.
  void separate() {
    if (after_key_) {
      after_key_ = false;
      return;
    }
    if (first_.empty()) return;
    if (!first_.back()) out_ << ',';
    first_.back() = false;
    newline();
  }
  void newline() { out_ << '\n' << std::string(2 * first_.size(), ' '); }
  void string(std::string_view s) {
    out_ << '"';
    for (const char ch : s) {
      const auto c = static_cast<unsigned char>(ch);
      switch (c) {
        case '"': out_ << "\\\""; break;
        case '\\': out_ << "\\\\"; break;
        case '\n': out_ << "\\n"; break;
        case '\r': out_ << "\\r"; break;
        case '\t': out_ << "\\t"; break;
        default:
          if (c < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            out_ << buf;
          } else {
            out_ << ch;  // UTF-8 passes through unchanged
          }
      }
    }
    out_ << '"';
  }

  std::ostream& out_;
  std::vector<bool> first_;  // per open container: nothing written in it yet
  bool after_key_ = false;
};

}  // namespace

void write_json(std::ostream& out, const RunReport& r) {
  JsonWriter j(out);
  j.begin_object();
  j.field("device", r.device);
  j.field("dtype", r.dtype);
  j.field("threads", r.threads);
  j.field("repetitions", r.repetitions);
  j.field("quick", r.quick);
  j.field("bandwidth_gbps", r.startup_copy_gbps);
  j.field("startup_triad_gbps", r.startup_triad_gbps);
  j.field("all_ok", r.all_ok());
  j.key("workloads");
  j.begin_array();
  for (const WorkloadResult& w : r.workloads) {
    j.begin_object();
    j.field("id", w.id);
    j.field("name", w.name);
    j.field("sizes", w.sizes);
    j.field("bandwidth_bound", w.bandwidth_bound);
    j.field("eager_ms", w.eager_ms);
    j.field("lazy_ms", w.lazy_ms);
    j.field("first_ms", w.first_ms);
    j.field("first_while_compiling", w.first_while_compiling);
    j.field("speedup", w.speedup);
    j.field("bytes", w.bytes);
    j.field("bandwidth_gbps", w.bandwidth_gbps);
    j.field("gbps", w.gbps);
    j.field("pct_of_bandwidth", w.pct_of_bandwidth);
    j.field("eager_gbps", w.eager_gbps);
    j.field("eager_pct_of_bandwidth", w.eager_pct_of_bandwidth);
    j.field("kernels", w.kernels);
    j.field("eager_steps", w.eager_steps);
    j.field("cache_hits", w.cache_hits);
    j.field("cache_misses", w.cache_misses);
    j.field("compile_ms", w.compile_ms);
    j.field("max_abs_err", w.max_abs_err);
    j.field("max_rel_err", w.max_rel_err);
    j.field("atol", w.atol);
    j.field("rtol", w.rtol);
    j.field("ok", w.ok);
    j.field("ns_per_traced_op", w.ns_per_traced_op);
    j.field("cache_hit_overhead_ns", w.cache_hit_overhead_ns);
    j.field("profiled_ms", w.profiled_ms);
    j.field("matmul_ms", w.matmul_ms);
    j.field("steps_ms", w.steps_ms);
    j.key("top_other_steps_ms");
    j.begin_object();
    for (const auto& [op, ms] : w.top_other_steps_ms) j.field(op, ms);
    j.end_object();
    j.end_object();
  }
  j.end_array();
  j.end_object();
}

// --- SVG -----------------------------------------------------------------------

namespace {

std::string xml(std::string_view s) {
  std::string e;
  for (const char c : s) {
    switch (c) {
      case '&': e += "&amp;"; break;
      case '<': e += "&lt;"; break;
      case '>': e += "&gt;"; break;
      case '"': e += "&quot;"; break;
      default: e += c;
    }
  }
  return e;
}

// Pixel coordinates with one decimal: enough for a chart, short in the file.
std::string px(double v) { return fmt("%.1f", v); }

constexpr const char* kEagerColour = "#e8853d";
constexpr const char* kLazyColour = "#3b73b9";

}  // namespace

void write_svg(std::ostream& out, const RunReport& r) {
  // Layout (pixels): labels left of the plot, bar captions right of it.
  size_t label_chars = 20;  // room for the "(not bandwidth-bound)" note at least
  double largest = 0;
  for (const WorkloadResult& w : r.workloads) {
    label_chars = std::max(label_chars, w.id.size() + 1 + w.name.size());
    for (const double v : {w.pct_of_bandwidth, w.eager_pct_of_bandwidth}) {
      if (std::isfinite(v)) largest = std::max(largest, v);
    }
  }
  const double left = 24 + 7.5 * static_cast<double>(std::min<size_t>(label_chars, 48));
  const double plot_w = 560, right = 150, top = 100, bar_h = 15, bar_gap = 3, group_h = 2 * bar_h + bar_gap + 20;
  const double plot_h = group_h * static_cast<double>(r.workloads.size()) + 10;
  const double width = left + plot_w + right, height = top + plot_h + 80;
  const double x_max = std::max(100.0, std::ceil(largest / 25) * 25);
  const auto x_of = [&](double p) { return left + plot_w * std::clamp(p, 0.0, x_max) / x_max; };

  out << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << px(width) << "\" height=\"" << px(height)
      << "\" viewBox=\"0 0 " << px(width) << ' ' << px(height)
      << "\" font-family=\"sans-serif\" font-size=\"12\" fill=\"#222\">\n";
  // Hatched fills for the bars of workloads whose % of bandwidth is not a target.
  out << "<defs>\n";
  for (const auto& [id, colour] : {std::pair{"hatch-eager", kEagerColour}, std::pair{"hatch-lazy", kLazyColour}}) {
    out << "  <pattern id=\"" << id << "\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\""
        << " patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"" << colour
        << "\" fill-opacity=\"0.25\"/><rect width=\"3\" height=\"6\" fill=\"" << colour << "\"/></pattern>\n";
  }
  out << "</defs>\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";

  out << "<text x=\"16\" y=\"24\" font-size=\"15\" font-weight=\"bold\">lz-bench: % of measured copy "
      << "bandwidth (" << xml(r.device) << ", " << xml(r.dtype) << ", " << r.threads
      << (r.threads == 1 ? " thread" : " threads") << (r.quick ? ", quick" : "") << ")</text>\n";
  out << "<text x=\"16\" y=\"44\" fill=\"#555\">bar length: bytes that must move / time, over a STREAM copy "
      << "measured right next to the workload</text>\n";
  out << "<text x=\"16\" y=\"60\" fill=\"#555\">" << r.repetitions << " repetitions; start-up copy "
      << xml(sig3(r.startup_copy_gbps)) << " GB/s, triad " << xml(sig3(r.startup_triad_gbps)) << " GB/s</text>\n";

  // Grid and x axis: a tick every 25%.
  const double axis_y = top + plot_h;
  out << "<g stroke=\"#ddd\">\n";
  for (double t = 0; t <= x_max + 1e-9; t += 25) {
    out << "  <line x1=\"" << px(x_of(t)) << "\" y1=\"" << px(top) << "\" x2=\"" << px(x_of(t)) << "\" y2=\""
        << px(axis_y) << "\"/>\n";
  }
  out << "</g>\n<g text-anchor=\"middle\">\n";
  for (double t = 0; t <= x_max + 1e-9; t += 25) {
    out << "  <line x1=\"" << px(x_of(t)) << "\" y1=\"" << px(axis_y) << "\" x2=\"" << px(x_of(t)) << "\" y2=\""
        << px(axis_y + 5) << "\" stroke=\"#444\"/><text x=\"" << px(x_of(t)) << "\" y=\"" << px(axis_y + 18) << "\">"
        << fmt("%.0f", t) << "%</text>\n";
  }
  out << "</g>\n<line x1=\"" << px(left) << "\" y1=\"" << px(axis_y) << "\" x2=\"" << px(left + plot_w) << "\" y2=\""
      << px(axis_y) << "\" stroke=\"#444\"/>\n";
  out << "<text x=\"" << px(left + plot_w / 2) << "\" y=\"" << px(axis_y + 36)
      << "\" text-anchor=\"middle\">% of the copy bandwidth measured next to each workload</text>\n";

  for (size_t i = 0; i < r.workloads.size(); ++i) {
    const WorkloadResult& w = r.workloads[i];
    const double y0 = top + 10 + group_h * static_cast<double>(i);
    const double mid = y0 + bar_h + bar_gap / 2;
    out << "<g class=\"workload\">\n  <title>" << xml(w.id + " " + w.name + ": " + w.sizes) << "</title>\n";
    out << "  <text x=\"" << px(left - 10) << "\" y=\"" << px(mid + (w.bandwidth_bound && w.ok ? 4 : -2))
        << "\" text-anchor=\"end\" font-size=\"13\">" << xml(w.id + " " + w.name) << "</text>\n";
    std::string note = w.bandwidth_bound ? "" : "(not bandwidth-bound)";
    if (!w.ok) note += note.empty() ? "MISMATCH" : " MISMATCH";
    if (!note.empty()) {
      out << "  <text x=\"" << px(left - 10) << "\" y=\"" << px(mid + 12) << "\" text-anchor=\"end\" font-size=\"11\""
          << " fill=\"" << (w.ok ? "#777" : "#c00") << "\">" << note << "</text>\n";
    }
    const struct {
      const char* kind;
      const char* colour;
      double ms, percent;
    } bars[] = {{"eager", kEagerColour, w.eager_ms, w.eager_pct_of_bandwidth},
                {"lazy", kLazyColour, w.lazy_ms, w.pct_of_bandwidth}};
    for (size_t b = 0; b < 2; ++b) {
      const double y = y0 + static_cast<double>(b) * (bar_h + bar_gap);
      const double x1 = x_of(std::isfinite(bars[b].percent) ? bars[b].percent : 0);
      const std::string fill =
          w.bandwidth_bound ? std::string(bars[b].colour) : std::string("url(#hatch-") + bars[b].kind + ")";
      out << "  <rect class=\"bar " << bars[b].kind << "\" x=\"" << px(left) << "\" y=\"" << px(y) << "\" width=\""
          << px(x1 - left) << "\" height=\"" << px(bar_h) << "\" fill=\"" << fill << "\"/>\n";
      out << "  <text x=\"" << px(x1 + 5) << "\" y=\"" << px(y + bar_h - 3.5) << "\" font-size=\"11\" fill=\"#333\">"
          << xml(sig3(bars[b].ms)) << " ms, " << xml(pct(bars[b].percent)) << "</text>\n";
    }
    out << "</g>\n";
  }

  // The 100% line last so that it stays visible over the bars.
  out << "<line x1=\"" << px(x_of(100)) << "\" y1=\"" << px(top - 8) << "\" x2=\"" << px(x_of(100)) << "\" y2=\""
      << px(axis_y) << "\" stroke=\"#111\" stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n";
  out << "<text x=\"" << px(x_of(100)) << "\" y=\"" << px(top - 12)
      << "\" text-anchor=\"middle\" font-size=\"11\">measured copy bandwidth</text>\n";

  // Legend under the axis title.
  const double ly = axis_y + 58;
  double lx = left;
  for (const auto& [label, fill] : {std::pair{"eager", kEagerColour}, std::pair{"lazy", kLazyColour},
                                    std::pair{"not bandwidth-bound (% is not a target)", "url(#hatch-lazy)"}}) {
    out << "<rect x=\"" << px(lx) << "\" y=\"" << px(ly - 10) << "\" width=\"12\" height=\"12\" fill=\"" << fill
        << "\"/><text x=\"" << px(lx + 17) << "\" y=\"" << px(ly) << "\">" << xml(label) << "</text>\n";
    lx += 17 + 7.0 * static_cast<double>(std::string_view(label).size()) + 22;
  }
  out << "</svg>\n";
}

}  // namespace lz::bench_runner
