// lz-bench's reports (tools/lz_bench/report.h) on a hand-made RunReport: the
// table's rows and header, the JSON's keys, escaping and nulls (checked by a
// small validator), and the SVG's bars, escaping and 100% line.
#include <catch2/catch.hpp>

#include <cctype>
#include <cmath>
#include <limits>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "tools/lz_bench/report.h"

using namespace lz::bench_runner;

namespace {

RunReport make_report() {
  RunReport r;
  r.device = "cpu";
  r.dtype = "f32";
  r.threads = 4;
  r.repetitions = 7;
  r.startup_copy_gbps = 12.34;
  r.startup_triad_gbps = 13.5;

  WorkloadResult w1;
  w1.id = "W1";
  w1.name = "gelu_tanh";
  w1.sizes = "x: 16M elements";
  w1.eager_ms = 12.3456, w1.lazy_ms = 2.2, w1.first_ms = 45.6, w1.speedup = 5.61;
  w1.bytes = 134217728;
  w1.bandwidth_gbps = 69.8, w1.gbps = 78.2, w1.pct_of_bandwidth = 112;
  w1.eager_gbps = 10.9, w1.eager_pct_of_bandwidth = 15.6;
  w1.kernels = 1, w1.eager_steps = 0, w1.cache_hits = 12, w1.cache_misses = 1, w1.compile_ms = 33.3;
  w1.max_abs_err = 1.2e-7, w1.max_rel_err = 3.4e-6, w1.atol = 1e-5, w1.rtol = 1e-4;

  // Wrong result, a NaN error and a name that needs escaping everywhere.
  WorkloadResult w6 = w1;
  w6.id = "W6";
  w6.name = R"(mm "big" <tile> & bias)";
  w6.sizes = "x: [512,1024]\tW: [1024,4096]";
  w6.ok = false;
  w6.max_abs_err = 0.5;
  w6.max_rel_err = std::numeric_limits<double>::quiet_NaN();
  w6.eager_pct_of_bandwidth = 40, w6.pct_of_bandwidth = 60;
  w6.profiled_ms = 2.2;  // the training workloads' profile
  w6.matmul_ms = 1.1;
  w6.steps_ms = 1.65;
  w6.top_other_steps_ms = {{"fused kernels", 0.4}, {"scatter", 0.15}};

  // Latency workload: not bandwidth-bound, with the W8 extras.
  WorkloadResult w8 = w1;
  w8.id = "W8";
  w8.name = "small_chain";
  w8.bandwidth_bound = false;
  w8.eager_pct_of_bandwidth = 0.5, w8.pct_of_bandwidth = 3.2;
  w8.ns_per_traced_op = 123.4;
  w8.cache_hit_overhead_ns = 4567;
  w8.bytes = 128e6;  // whole numbers stay whole, not 1.28e+08

  r.workloads = {w1, w6, w8};
  return r;
}

template <typename F>
std::string render(F f, const RunReport& r) {
  std::ostringstream out;
  f(out, r);
  return out.str();
}

size_t count(const std::string& s, std::string_view what) {
  size_t n = 0;
  for (size_t pos = s.find(what); pos != std::string::npos; pos = s.find(what, pos + 1)) ++n;
  return n;
}

// "\"key\": ", built piecewise: GCC 12 -Wrestrict false positive on "\"" + ...
std::string json_key(std::string_view key) {
  std::string k = "\"";
  k += key;
  k += "\": ";
  return k;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::string line_starting(const std::string& s, std::string_view prefix) {
  for (const std::string& line : lines(s)) {
    if (line.rfind(prefix, 0) == 0) return line;
  }
  return "";
}

// A strict recursive-descent check of RFC 8259 syntax: enough to know that a
// JSON parser will accept the file, without a JSON library.
class JsonValidator {
 public:
  explicit JsonValidator(std::string_view s) : s_(s) {}
  bool valid() { return value() && (ws(), i_ == s_.size()); }

 private:
  void ws() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool eat(char c) {
    ws();
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  bool literal(std::string_view w) {
    if (s_.substr(i_, w.size()) != w) return false;
    i_ += w.size();
    return true;
  }
  bool string() {
    if (!eat('"')) return false;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (static_cast<unsigned char>(s_[i_]) < 0x20) return false;  // raw control characters are not allowed
      if (s_[i_] == '\\') {
        if (++i_ >= s_.size() || std::string_view("\"\\/bfnrtu").find(s_[i_]) == std::string_view::npos) return false;
      }
      ++i_;
    }
    return eat('"');
  }
  bool number() {
    const size_t start = i_;
    if (i_ < s_.size() && s_[i_] == '-') ++i_;
    const auto digits = [&] {
      const size_t d = i_;
      while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) ++i_;
      return i_ > d;
    };
    if (!digits()) return false;
    if (i_ < s_.size() && s_[i_] == '.' && (++i_, !digits())) return false;
    if (i_ < s_.size() && (s_[i_] == 'e' || s_[i_] == 'E')) {
      ++i_;
      if (i_ < s_.size() && (s_[i_] == '+' || s_[i_] == '-')) ++i_;
      if (!digits()) return false;
    }
    return i_ > start;
  }
  bool value() {
    ws();
    if (i_ >= s_.size()) return false;
    switch (s_[i_]) {
      case '{': return container('}', true);
      case '[': return container(']', false);
      case '"': return string();
      case 't': return literal("true");
      case 'f': return literal("false");
      case 'n': return literal("null");
      default: return number();
    }
  }
  bool container(char close, bool object) {
    ++i_;
    if (eat(close)) return true;
    do {
      if (object && !(string() && eat(':'))) return false;
      if (!value()) return false;
    } while (eat(','));
    return eat(close);
  }

  std::string_view s_;
  size_t i_ = 0;
};

// The width="..." of every bar rect, in document order.
std::vector<double> bar_widths(const std::string& svg) {
  std::vector<double> widths;
  for (size_t pos = svg.find("class=\"bar "); pos != std::string::npos; pos = svg.find("class=\"bar ", pos + 1)) {
    const size_t w = svg.find("width=\"", pos) + 7;
    widths.push_back(std::stod(svg.substr(w, svg.find('"', w) - w)));
  }
  return widths;
}

}  // namespace

TEST_CASE("print_table: header, one row per workload, status, W8 figures and legend") {
  const std::string t = render(print_table, make_report());
  CHECK(t.find("device cpu") != std::string::npos);
  CHECK(t.find("dtype f32") != std::string::npos);
  CHECK(t.find("threads 4") != std::string::npos);
  CHECK(t.find("repetitions 7") != std::string::npos);
  CHECK(t.find("copy 12.3 GB/s") != std::string::npos);
  CHECK(t.find("triad 13.5 GB/s") != std::string::npos);

  const std::string w1 = line_starting(t, "W1 ");
  REQUIRE(!w1.empty());
  CHECK(w1.find("gelu_tanh") != std::string::npos);
  CHECK(w1.find(" 12.3 ") != std::string::npos);  // eager ms, 3 significant digits
  CHECK(w1.find(" 2.20 ") != std::string::npos);  // lazy ms
  CHECK(w1.find(" 5.6x ") != std::string::npos);
  CHECK(w1.find(" 112% ") != std::string::npos);
  CHECK(w1.find(" 69.8 ") != std::string::npos);  // adjacent bandwidth
  CHECK(w1.find(" 12/1 ") != std::string::npos);
  CHECK(w1.find("1.2e-07") != std::string::npos);
  CHECK(w1.find("3.4e-06") != std::string::npos);
  CHECK(w1.substr(w1.size() - 2) == "ok");

  const std::string w6 = line_starting(t, "W6 ");
  REQUIRE(!w6.empty());
  CHECK(w6.find("MISMATCH") != std::string::npos);
  CHECK(w6.find("5.0e-01") != std::string::npos);
  CHECK(w6.find(" nan ") != std::string::npos);

  const std::string w8 = line_starting(t, "W8 ");
  REQUIRE(!w8.empty());
  CHECK(w8.find(" 3.2%* ") != std::string::npos);  // % shown, marked as no target
  CHECK(w8.find("MISMATCH") == std::string::npos);
  const std::string latency = line_starting(t, "W8 small_chain:");
  CHECK(latency.find("123 ns per traced op") != std::string::npos);
  CHECK(latency.find("4567 ns cache-hit overhead") != std::string::npos);
  CHECK(count(t, "ns per traced op") == 1);
  const std::string profile = line_starting(t, "W6 mm");
  CHECK(profile.find("a profiled lazy step of 2.20 ms: matrix products 1.10 ms (50%), other steps 0.550 ms "
                     "(25%), tracing and lookup 0.550 ms") != std::string::npos);
  CHECK(line_starting(t, "W6 mm \"big\" <tile> & bias: costliest").find(
            "costliest other steps: fused kernels 0.400 ms, scatter 0.150 ms") != std::string::npos);
  CHECK(count(t, "costliest other steps") == 1);
  CHECK(count(t, "matrix products") == 1);

  CHECK(t.find("not a target") != std::string::npos);
  CHECK(t.find("1 of 3 workloads MISMATCH") != std::string::npos);
  for (const std::string& line : lines(t)) CHECK(line.size() <= 150);
}

TEST_CASE("write_json: valid, every key, escaped strings, nulls") {
  const std::string j = render(write_json, make_report());
  CHECK(JsonValidator(j).valid());
  for (const char* key : {"device", "dtype", "threads", "repetitions", "quick", "startup_triad_gbps", "all_ok",
                          "workloads"}) {
    CHECK(count(j, json_key(key)) == 1);
  }
  CHECK(count(j, "\"bandwidth_gbps\": ") == 4);  // top level and each workload
  CHECK(j.find("\"bandwidth_gbps\": 12.34,") != std::string::npos);
  for (const char* key : {"id", "name", "sizes", "eager_ms", "lazy_ms", "first_ms", "speedup", "gbps",
                          "pct_of_bandwidth", "eager_gbps", "eager_pct_of_bandwidth", "bytes", "kernels",
                          "eager_steps", "cache_hits", "cache_misses", "compile_ms", "max_abs_err", "max_rel_err",
                          "atol", "rtol", "ok", "bandwidth_bound", "ns_per_traced_op", "cache_hit_overhead_ns",
                          "profiled_ms", "matmul_ms", "steps_ms", "top_other_steps_ms"}) {
    INFO(key);
    CHECK(count(j, json_key(key)) == 3);
  }
  CHECK(j.find("\"all_ok\": false") != std::string::npos);
  CHECK(j.find(R"("name": "mm \"big\" <tile> & bias")") != std::string::npos);
  CHECK(j.find(R"("sizes": "x: [512,1024]\tW: [1024,4096]")") != std::string::npos);
  CHECK(j.find("\"max_rel_err\": null") != std::string::npos);
  CHECK(count(j, "\"ns_per_traced_op\": null") == 2);
  CHECK(j.find("\"ns_per_traced_op\": 123.4") != std::string::npos);
  CHECK(j.find("\"cache_hit_overhead_ns\": 4567") != std::string::npos);
  CHECK(j.find("\"matmul_ms\": 1.1,") != std::string::npos);
  CHECK(count(j, "\"steps_ms\": null") == 2);
  CHECK(count(j, "\"top_other_steps_ms\": {}") == 2);
  CHECK(j.find("\"fused kernels\": 0.4,") != std::string::npos);
  CHECK(j.find("\"scatter\": 0.15") != std::string::npos);
  CHECK(j.find("\"bytes\": 134217728,") != std::string::npos);
  CHECK(j.find("\"bytes\": 128000000,") != std::string::npos);
  CHECK(j.find("\"cache_hits\": 12,") != std::string::npos);
  CHECK(j.find("\"max_abs_err\": 1.2e-07") != std::string::npos);

  const std::string empty = render(write_json, RunReport{});
  CHECK(JsonValidator(empty).valid());
  CHECK(empty.find("\"workloads\": []") != std::string::npos);
  CHECK(empty.find("\"all_ok\": true") != std::string::npos);
}

TEST_CASE("the JSON validator used here rejects broken JSON") {
  CHECK_FALSE(JsonValidator(R"({"a": 1,})").valid());
  CHECK_FALSE(JsonValidator(R"({"a": nan})").valid());
  CHECK_FALSE(JsonValidator(R"({"a": "x"y"})").valid());
  CHECK_FALSE(JsonValidator(R"([1, 2)").valid());
  CHECK(JsonValidator(R"({"a": [1.5e-07, -2, null, "\"q\""]})").valid());
}

TEST_CASE("write_svg: one bar per time, % lengths, escaping, 100% line") {
  const std::string s = render(write_svg, make_report());
  CHECK(s.rfind("<svg", 0) == 0);
  CHECK(s.substr(s.size() - 7) == "</svg>\n");
  CHECK(count(s, "class=\"bar eager\"") == 3);
  CHECK(count(s, "class=\"bar lazy\"") == 3);

  // Lengths proportional to the percentages (eager, lazy per workload).
  const std::vector<double> w = bar_widths(s);
  REQUIRE(w.size() == 6);
  CHECK(w[1] / w[0] == Approx(112 / 15.6).epsilon(0.01));
  CHECK(w[3] / w[2] == Approx(60.0 / 40).epsilon(0.01));
  CHECK(w[1] > w[3]);

  // Axis up to 125% (largest value 112, rounded up to 25), ticks every 25%.
  for (const char* tick : {">0%<", ">25%<", ">50%<", ">75%<", ">100%<", ">125%<"}) {
    CHECK(s.find(tick) != std::string::npos);
  }
  CHECK(s.find(">150%<") == std::string::npos);
  CHECK(s.find("stroke-dasharray") != std::string::npos);
  CHECK(s.find("measured copy bandwidth</text>") != std::string::npos);

  CHECK(s.find("W6 mm &quot;big&quot; &lt;tile&gt; &amp; bias") != std::string::npos);
  CHECK(s.find("<tile>") == std::string::npos);
  for (size_t pos = s.find('&'); pos != std::string::npos; pos = s.find('&', pos + 1)) {
    const std::string_view rest = std::string_view(s).substr(pos);
    CHECK((rest.starts_with("&amp;") || rest.starts_with("&lt;") || rest.starts_with("&gt;") ||
           rest.starts_with("&quot;")));
  }

  CHECK(s.find(">W1 gelu_tanh<") != std::string::npos);
  CHECK(s.find("2.20 ms, 112%") != std::string::npos);
  CHECK(s.find("12.3 ms, 16%") != std::string::npos);
  CHECK(count(s, "(not bandwidth-bound)") == 1);
  CHECK(count(s, "fill=\"url(#hatch-lazy)\"") == 2);  // the W8 lazy bar and the legend swatch
  CHECK(s.find("MISMATCH") != std::string::npos);
  CHECK(s.find("font-family=\"sans-serif\"") != std::string::npos);
  CHECK(s.find("cpu, f32, 4 threads") != std::string::npos);

  const std::string empty = render(write_svg, RunReport{});
  CHECK(empty.rfind("<svg", 0) == 0);
  CHECK(count(empty, "class=\"bar ") == 0);
}
