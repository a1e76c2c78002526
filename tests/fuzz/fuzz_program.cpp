#include "tests/fuzz/fuzz_program.h"

#include <charconv>
#include <cmath>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "tests/op_table/tensor_access.h"

namespace lzf {

namespace {

struct DtypeCode {
  lz::ScalarType type;
  std::string_view code;
};
constexpr DtypeCode kCodes[] = {{lz::kBool, "bool"},    {lz::kUInt8, "u8"},     {lz::kInt8, "i8"},
                                {lz::kInt16, "i16"},    {lz::kInt32, "i32"},
                                {lz::kInt64, "i64"},    {lz::kFloat16, "f16"},  {lz::kBFloat16, "bf16"},
                                {lz::kFloat32, "f32"},  {lz::kFloat64, "f64"}};

constexpr std::string_view kLayouts[] = {"contiguous", "transposed", "strided", "expanded", "offset"};

// splitmix64: input values depend only on the seed, on every platform.
uint64_t mix(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::vector<double> input_values(lz::ScalarType t, int64_t n, uint32_t seed, bool special) {
  static constexpr double kSpecial[] = {0.0, -0.0, INFINITY, -INFINITY, NAN};
  uint64_t state = seed;
  std::vector<double> v(static_cast<size_t>(n));
  for (double& x : v) {
    const int64_t r = static_cast<int64_t>(mix(state) % 33);  // 0..32
    if (special && lzt::is_float(t) && mix(state) % 8 == 0) {
      x = kSpecial[mix(state) % std::size(kSpecial)];
    } else if (t == lz::kBool) {
      x = static_cast<double>(r & 1);
    } else if (t == lz::kUInt8) {
      x = static_cast<double>(r % 21);
    } else if (lzt::is_int(t)) {
      x = static_cast<double>(r - 16);
    } else {
      x = static_cast<double>(r - 16) / 4.0;  // exact in every float dtype
    }
  }
  return v;
}

[[noreturn]] void bad_line(size_t line, std::string_view text, const std::string& why) {
  LZ_FAIL(ValueError, "parse_program: line ", line, " \"", text, "\": ", why);
}

std::vector<std::string_view> split_words(std::string_view s) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && s[i] == ' ') ++i;
    const size_t start = i;
    while (i < s.size() && s[i] != ' ') ++i;
    if (i > start) words.push_back(s.substr(start, i - start));
  }
  return words;
}

int64_t parse_int(std::string_view s, size_t line, std::string_view text) {
  int64_t v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) bad_line(line, text, "\"" + std::string(s) + "\" is not an integer");
  return v;
}

std::vector<int64_t> parse_int_list(std::string_view s, size_t line, std::string_view text) {
  if (s.size() < 2 || s.front() != '[' || s.back() != ']') bad_line(line, text, "a list is written [a,b,...]");
  s = s.substr(1, s.size() - 2);
  std::vector<int64_t> out;
  while (!s.empty()) {
    const size_t comma = s.find(',');
    out.push_back(parse_int(s.substr(0, comma), line, text));
    if (comma == std::string_view::npos) break;
    s.remove_prefix(comma + 1);
  }
  return out;
}

int parse_value_ref(std::string_view s, size_t defined, size_t line, std::string_view text) {
  if (s.size() < 2 || s[0] != '%') bad_line(line, text, "\"" + std::string(s) + "\" is not a value (%n)");
  const int64_t v = parse_int(s.substr(1), line, text);
  if (v < 0 || static_cast<size_t>(v) >= defined) {
    bad_line(line, text, "%" + std::to_string(v) + " is used before it is defined");
  }
  return static_cast<int>(v);
}

std::string format_value(double v, bool is_int) {
  std::ostringstream os;
  os.precision(17);
  if (is_int) {
    os << static_cast<int64_t>(v);
  } else {
    os << v;
    if (std::isfinite(v) && v == std::floor(v) && os.str().find_first_of(".e") == std::string::npos) os << ".0";
  }
  return os.str();
}

}  // namespace

std::string_view dtype_code(lz::ScalarType t) {
  for (const DtypeCode& c : kCodes) {
    if (c.type == t) return c.code;
  }
  return "?";
}

std::optional<lz::ScalarType> dtype_from_code(std::string_view code) {
  for (const DtypeCode& c : kCodes) {
    if (c.code == code) return c.type;
  }
  return std::nullopt;
}

std::string to_text(const Step& s, size_t index) {
  std::ostringstream os;
  if (s.kind == Step::Kind::Sync || s.kind == Step::Kind::Drop) {
    os << (s.kind == Step::Kind::Sync ? "sync %" : "drop %") << s.args.at(0);
    return os.str();
  }
  os << "%" << index << " = ";
  if (s.kind == Step::Kind::Input) {
 os << "input " << dtype_code(s.dtype) << "[";
    for (size_t d = 0; d < s.sizes.size(); ++d) os << (d ? "," : "") << s.sizes[d];
    os << "] " << kLayouts[static_cast<int>(s.layout)]
       << " seed=" << s.seed << (s.lazy ? " lazy" : " eager") << (s.special ? " special" : "");
    return os.str();
  }
  os << s.op;
  for (int a : s.args) os << " %" << a;
  if (!s.ints.empty()) {
    os << " ints=[";
    for (size_t i = 0; i < s.ints.size(); ++i) os << (i ? "," : "") << s.ints[i];
    os << "]";
  }
  if (s.value != 0 || s.value_is_int) os << " value=" << format_value(s.value, s.value_is_int);
  if (s.cast != lz::kFloat32) os << " cast=" << dtype_code(s.cast);
  return os.str();
}

std::string to_text(const Program& p) {
  std::string out;
  for (size_t i = 0; i < p.steps.size(); ++i) out += to_text(p.steps[i], i) + "\n";
  return out;
}

Program parse_program(std::string_view text) {
  Program p;
  size_t line_no = 0;
  while (!text.empty()) {
    const size_t nl = text.find('\n');
    std::string_view line = text.substr(0, nl);
    text.remove_prefix(nl == std::string_view::npos ? text.size() : nl + 1);
    ++line_no;
    if (const size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    std::vector<std::string_view> w = split_words(line);
    if (w.empty()) continue;
    Step s;
    if (w[0] == "sync" || w[0] == "drop") {
      if (w.size() != 2) bad_line(line_no, line, std::string(w[0]) + " takes one value");
      s.kind = w[0] == "sync" ? Step::Kind::Sync : Step::Kind::Drop;
      s.args.push_back(parse_value_ref(w[1], p.steps.size(), line_no, line));
      if (!p.defines_value(static_cast<size_t>(s.args[0]))) bad_line(line_no, line, "that step defines no value");
      p.steps.push_back(std::move(s));
      continue;
    }
    if (w.size() < 3 || w[1] != "=") bad_line(line_no, line, "expected \"%n = <op> ...\" or \"sync %n\"");
    const std::string defined = absl::StrCat("%", p.steps.size());
    if (w[0] != defined) {
      bad_line(line_no, line, "this step defines " + defined);
    }
    if (w[2] == "input") {
      s.kind = Step::Kind::Input;
      if (w.size() != 7 && !(w.size() == 8 && w[7] == "special")) {
        bad_line(line_no, line, "input takes <dtype>[sizes] <layout> seed=<n> lazy|eager [special]");
      }
      s.special = w.size() == 8;
      const size_t bracket = w[3].find('[');
      if (bracket == std::string_view::npos) bad_line(line_no, line, "input sizes are written f32[2,3]");
      const std::optional<lz::ScalarType> dt = dtype_from_code(w[3].substr(0, bracket));
      if (!dt) bad_line(line_no, line, "unknown dtype \"" + std::string(w[3].substr(0, bracket)) + "\"");
      s.dtype = *dt;
      const std::vector<int64_t> sizes = parse_int_list(w[3].substr(bracket), line_no, line);
      for (int64_t d : sizes) {
        if (d < 0 || d > (int64_t{1} << 24)) bad_line(line_no, line, "size " + std::to_string(d) + " out of range");
      }
      s.sizes.assign(sizes.begin(), sizes.end());
      bool found = false;
      for (size_t l = 0; l < std::size(kLayouts); ++l) {
        if (w[4] == kLayouts[l]) {
          s.layout = static_cast<Layout>(l);
          found = true;
        }
      }
      if (!found) bad_line(line_no, line, "unknown layout \"" + std::string(w[4]) + "\"");
      if (w[5].substr(0, 5) != "seed=") bad_line(line_no, line, "expected seed=<n>");
      s.seed = static_cast<uint32_t>(parse_int(w[5].substr(5), line_no, line));
      if (w[6] != "lazy" && w[6] != "eager") bad_line(line_no, line, "expected lazy or eager");
      s.lazy = w[6] == "lazy";
      p.steps.push_back(std::move(s));
      continue;
    }
    s.op = std::string(w[2]);
    for (size_t i = 3; i < w.size(); ++i) {
      if (w[i][0] == '%') {
        s.args.push_back(parse_value_ref(w[i], p.steps.size(), line_no, line));
        if (!p.defines_value(static_cast<size_t>(s.args.back()))) bad_line(line_no, line, "a sync or drop defines no value");
      } else if (w[i].substr(0, 5) == "ints=") {
        s.ints = parse_int_list(w[i].substr(5), line_no, line);
      } else if (w[i].substr(0, 6) == "value=") {
        const std::string v(w[i].substr(6));
        s.value_is_int = v.find_first_of(".eEni") == std::string::npos;  // "2" vs "2.0", "inf", "nan"
        try {
          s.value = std::stod(v);
        } catch (const std::exception&) {
          bad_line(line_no, line, "\"" + v + "\" is not a number");
        }
      } else if (w[i].substr(0, 5) == "cast=") {
        const std::optional<lz::ScalarType> dt = dtype_from_code(w[i].substr(5));
        if (!dt) bad_line(line_no, line, "unknown dtype \"" + std::string(w[i].substr(5)) + "\"");
        s.cast = *dt;
      } else {
        bad_line(line_no, line, "unexpected \"" + std::string(w[i]) + "\"");
      }
    }
    p.steps.push_back(std::move(s));
  }
  return p;
}

lz::Tensor make_input(const Step& in) {
  const lz::SizeVec& sizes = in.sizes;
  const int64_t rank = static_cast<int64_t>(sizes.size());
  lz::SizeVec alloc = sizes;
  Layout layout = in.layout;
  if ((layout == Layout::Transposed && rank < 2) || (layout != Layout::Contiguous && rank < 1)) {
    layout = Layout::Contiguous;
  }
  if (layout == Layout::Transposed) std::swap(alloc[rank - 1], alloc[rank - 2]);
  if (layout == Layout::Strided) alloc[rank - 1] *= 2;
  if (layout == Layout::Expanded) alloc[0] = 1;
  if (layout == Layout::Offset) alloc[0] += 1;
  const lz::Tensor base = lzt::make_tensor(input_values(in.dtype, lzt::numel_of(alloc), in.seed, in.special), alloc, in.dtype);
  switch (layout) {
    case Layout::Contiguous: return base;
    case Layout::Transposed: return base.transpose(-1, -2);
    case Layout::Strided: return base.slice(-1, 0, std::nullopt, 2);
    case Layout::Expanded: return base.expand(sizes);
    case Layout::Offset: return base.narrow(0, 1, sizes[0]);
  }
  return base;
}

}  // namespace lzf
