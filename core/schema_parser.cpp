#include "core/schema_parser.h"

#include <cctype>
#include <charconv>
#include <cmath>
#include <limits>

#include "absl/container/flat_hash_set.h"
#include "core/error.h"

namespace lz {

namespace {

// Fixed-size list types are dims and pairs (int[2] stride); 1024 is plenty.
constexpr int64_t kMaxFixedListSize = 1024;

// A recursive-descent parser over the schema text. Every error reports the
// column and echoes the schema with a caret, because schemas are written by
// hand in registration files and a bare "parse error" wastes a rebuild.
class SchemaParser {
 public:
  explicit SchemaParser(std::string_view text) : text_(text) {}

  FunctionSchema parse() {
    skip_space();
    std::string name = parse_op_name();
    std::string overload;
    if (consume('.')) overload = parse_identifier("overload name");
    expect('(');
    std::vector<Argument> args = parse_arguments();
    expect('-');
    expect('>');
    std::vector<Return> returns = parse_returns();
    skip_space();
    if (pos_ != text_.size()) fail("unexpected text after the returns");
    return FunctionSchema(std::move(name), std::move(overload), std::move(args),
                          std::move(returns));
  }

 private:
  [[noreturn]] void fail(std::string_view what) const { fail_at(pos_, what); }
  [[noreturn]] void fail_at(size_t pos, std::string_view what) const {
    LZ_FAIL(SchemaError, "[parse_schema] ", what, " at column ", pos + 1, ":\n  ", text_, "\n  ",
            std::string(pos, ' '), "^");
  }

  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  char peek() {
    skip_space();
    return pos_ < text_.size() ? text_[pos_] : '\0';
  }
  bool consume(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  void expect(char c) {
    if (!consume(c)) {
      const char got = peek();
      fail(got == '\0' ? std::string("expected '") + c + "' but the schema ended"
                       : std::string("expected '") + c + "' but found '" + got + "'");
    }
  }

  static bool is_ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
  static bool is_ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

  std::string parse_identifier(std::string_view what) {
    skip_space();
    if (pos_ >= text_.size() || !is_ident_start(text_[pos_])) fail(std::string("expected ") + std::string(what));
    const size_t start = pos_;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
    return std::string(text_.substr(start, pos_ - start));
  }

  // name or namespace::name
  std::string parse_op_name() {
    std::string name = parse_identifier("operator name");
    if (text_.substr(pos_, 2) == "::") {
      pos_ += 2;
      name += "::" + parse_identifier("operator name after '::'");
    }
    return name;
  }

  BaseType parse_base_type() {
    skip_space();
    const size_t start = pos_;
    const std::string word = parse_identifier("a type");
    static const std::pair<std::string_view, BaseType> kTypes[] = {
        {"Tensor", BaseType::Tensor},       {"Scalar", BaseType::Scalar},
        {"int", BaseType::Int},             {"SymInt", BaseType::Int},
        {"float", BaseType::Float},         {"bool", BaseType::Bool},
        {"str", BaseType::Str},             {"ScalarType", BaseType::ScalarType},
        {"Device", BaseType::Device},       {"Layout", BaseType::Layout},
        {"MemoryFormat", BaseType::MemoryFormat}, {"Generator", BaseType::Generator},
    };
    for (const auto& [spelling, type] : kTypes) {
      if (word == spelling) return type;
    }
    fail_at(start, "unknown type '" + word + "'");
  }

  // Tensor(a!)?[]?  ->  type + alias
  std::pair<SchemaType, std::optional<AliasInfo>> parse_type() {
    SchemaType type;
    const size_t start = pos_;
    type.base = parse_base_type();
    std::optional<AliasInfo> alias;
    if (consume('(')) {
      if (type.base != BaseType::Tensor) fail_at(start, "alias annotations are only allowed on Tensor");
      AliasInfo info;
      if (consume('*')) {
        info.set = "*";
      } else {
        info.set = parse_identifier("an alias set name");
      }
      info.is_write = consume('!');
      expect(')');
      alias = std::move(info);
    }
    if (consume('?')) type.optional = true;
    if (consume('[')) {
      type.element_optional = type.optional;
      type.optional = false;
      type.is_list = true;
      skip_space();
      if (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
        const size_t size_pos = pos_;
        type.list_size = parse_integer_literal();
        // A default of int[N] is N copies: a huge N would allocate them all.
        if (type.list_size > kMaxFixedListSize) {
          fail_at(size_pos, "fixed list size " + std::to_string(type.list_size) + " is larger than " +
                                std::to_string(kMaxFixedListSize));
        }
      }
      expect(']');
      if (consume('?')) type.optional = true;
    }
    return {type, alias};
  }

  int64_t parse_integer_literal() {
    skip_space();
    int64_t value = 0;
    auto [end, ec] = std::from_chars(text_.data() + pos_, text_.data() + text_.size(), value);
    if (ec != std::errc()) fail("expected an integer");
    pos_ = static_cast<size_t>(end - text_.data());
    return value;
  }

  // A number token: int or float (with '.', exponent, inf or nan).
  IValue parse_number() {
    skip_space();
    const size_t start = pos_;
    bool negative = false;
    if (text_[pos_] == '-') {
      negative = true;
      ++pos_;
    }
    if (text_.substr(pos_, 3) == "inf") {
      pos_ += 3;
      return IValue(negative ? -std::numeric_limits<double>::infinity()
                             : std::numeric_limits<double>::infinity());
    }
    size_t end = pos_;
    bool is_float = false;
    while (end < text_.size()) {
      const char c = text_[end];
      if (std::isdigit(static_cast<unsigned char>(c))) {
        ++end;
      } else if (c == '.' || c == 'e' || c == 'E') {
        is_float = true;
        ++end;
        if ((c == 'e' || c == 'E') && end < text_.size() && (text_[end] == '-' || text_[end] == '+')) ++end;
      } else {
        break;
      }
    }
    if (end == pos_) fail_at(start, "expected a number");
    const std::string token(text_.substr(start, end - start));
    pos_ = end;
    if (is_float) {
      // strtod accepts "1." and "1e-5"; from_chars would too, but strtod also
      // reports a partial parse, which we turn into an error.
      char* parse_end = nullptr;
      const double d = std::strtod(token.c_str(), &parse_end);
      if (parse_end != token.c_str() + token.size()) fail_at(start, "malformed number '" + token + "'");
      return IValue(d);
    }
    int64_t value = 0;
    auto [p, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
    if (ec != std::errc() || p != token.data() + token.size()) {
      fail_at(start, "integer '" + token + "' does not fit in int64");
    }
    return IValue(value);
  }

  std::string parse_string_literal() {
    const char quote = text_[pos_];
    const size_t start = pos_++;
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != quote) out += text_[pos_++];
    if (pos_ >= text_.size()) fail_at(start, "unterminated string");
    ++pos_;
    return out;
  }

  // Parses a default value and checks it against the argument's type.
  IValue parse_default(const SchemaType& type) {
    skip_space();
    const size_t start = pos_;
    const char c = peek();
    if (c == '[') {
      if (!type.is_list) fail_default_type(start, type, "[...]");
      ++pos_;
      std::vector<int64_t> ints;
      std::vector<double> doubles;
      std::vector<bool> bools;
      if (!consume(']')) {
        do {
          IValue item = parse_scalar_default();
          if (type.base == BaseType::Int && item.is_int()) {
            ints.push_back(item.to_int());
          } else if (type.base == BaseType::Float && (item.is_double() || item.is_int())) {
            doubles.push_back(item.to_double());
          } else if (type.base == BaseType::Bool && item.is_bool()) {
            bools.push_back(item.to_bool());
          } else {
            fail_default_type(start, type, "element " + item.repr());
          }
        } while (consume(','));
        expect(']');
      }
      const size_t n = std::max({ints.size(), doubles.size(), bools.size()});
      if (type.list_size >= 0 && n != 0 && static_cast<int64_t>(n) != type.list_size) {
        fail_at(start, "default list has " + std::to_string(n) + " elements but the type is '" +
                           type.str() + "'");
      }
      if (type.base == BaseType::Int) return IValue(std::move(ints));
      if (type.base == BaseType::Float) return IValue(std::move(doubles));
      if (type.base == BaseType::Bool) return IValue(std::move(bools));
      fail_default_type(start, type, "[...]");
    }
    IValue value = parse_scalar_default();
    if (value.is_none()) {
      if (!type.optional) fail_default_type(start, type, "None (the type is not optional)");
      return value;
    }
    if (type.is_list) {
      // int[2] stride=1 means [1, 1]; PyTorch repeats a single value for
      // every fixed-size list type (float[2] x=0.5, bool[3] m=True), not only int.
      if (type.list_size >= 0) {
        const size_t n = static_cast<size_t>(type.list_size);
        if (type.base == BaseType::Int && value.is_int()) {
          return IValue(std::vector<int64_t>(n, value.to_int()));
        }
        if (type.base == BaseType::Float && (value.is_double() || value.is_int())) {
          return IValue(std::vector<double>(n, value.to_double()));
        }
        if (type.base == BaseType::Bool && value.is_bool()) {
          return IValue(std::vector<bool>(n, value.to_bool()));
        }
      }
      fail_default_type(start, type, value.repr());
    }
    switch (type.base) {
      case BaseType::Int:
        if (!value.is_int()) fail_default_type(start, type, value.repr());
        return value;
      case BaseType::Float:
        if (!value.is_int() && !value.is_double()) fail_default_type(start, type, value.repr());
        return IValue(value.to_double());
      case BaseType::Scalar:
        if (!value.is_scalar()) fail_default_type(start, type, value.repr());
        return value;
      case BaseType::Bool:
        if (!value.is_bool()) fail_default_type(start, type, value.repr());
        return value;
      case BaseType::Str:
        if (!value.is_string()) fail_default_type(start, type, value.repr());
        return value;
      case BaseType::MemoryFormat:
      case BaseType::Layout:
      case BaseType::ScalarType:
      case BaseType::Device:
        if (value.tag() == IValue::Tag::String) {
          return parse_enum_word(type.base, std::string(value.to_string_view()), start);
        }
        fail_default_type(start, type, value.repr());
      case BaseType::Tensor:
      case BaseType::Generator:
        fail_default_type(start, type, value.repr());
    }
    fail_default_type(start, type, value.repr());
  }

  [[noreturn]] void fail_default_type(size_t pos, const SchemaType& type, std::string_view got) const {
    fail_at(pos, "default value " + std::string(got) + " does not match type '" + type.str() + "'");
  }

  // None, True, False, a number, a quoted string, or a bare word (kept as a
  // string and resolved against the argument type by the caller).
  IValue parse_scalar_default() {
    const char c = peek();
    if (c == '\'' || c == '"') return IValue(parse_string_literal());
    if (c == '-' || std::isdigit(static_cast<unsigned char>(c))) return parse_number();
    const size_t start = pos_;
    const std::string word = parse_identifier("a default value");
    if (word == "None") return IValue();
    if (word == "True") return IValue(true);
    if (word == "False") return IValue(false);
    if (word == "inf") return IValue(std::numeric_limits<double>::infinity());
    if (word == "nan") return IValue(std::numeric_limits<double>::quiet_NaN());
    (void)start;
    return IValue(word);
  }

  IValue parse_enum_word(BaseType base, const std::string& word, size_t start) {
    if (base == BaseType::MemoryFormat) {
      if (word == "contiguous_format") return IValue(MemoryFormat::Contiguous);
      if (word == "preserve_format") return IValue(MemoryFormat::Preserve);
    } else if (base == BaseType::Layout) {
      if (word == "strided") return IValue(Layout::Strided);
    } else if (base == BaseType::Device) {
      if (word == "cpu") return IValue(Device(DeviceType::CPU));
      if (word == "cuda") return IValue(Device(DeviceType::CUDA));
    } else if (base == BaseType::ScalarType) {
      for (int i = 0; i < kNumScalarTypes; ++i) {
        const auto t = static_cast<ScalarType>(i);
        if (to_string(t) == word) return IValue(t);
      }
      static const std::pair<std::string_view, ScalarType> kAliases[] = {
          {"long", kLong}, {"int", kInt}, {"float", kFloat}, {"double", kDouble},
          {"half", kHalf}, {"uint8", kByte}, {"char", kChar}, {"short", kShort}};
      for (const auto& [alias, t] : kAliases) {
        if (alias == word) return IValue(t);
      }
    }
    fail_at(start, "unknown " + std::string(to_string(base)) + " value '" + word + "'");
  }

  std::vector<Argument> parse_arguments() {
    std::vector<Argument> args;
    absl::flat_hash_set<std::string> names;
    bool kwarg_only = false;
    bool seen_default = false;
    if (consume(')')) return args;
    do {
      skip_space();
      if (consume('*')) {
        if (kwarg_only) fail_at(pos_ - 1, "'*' appears twice");
        kwarg_only = true;
        continue;
      }
      Argument arg;
      const size_t arg_start = pos_;
      std::tie(arg.type, arg.alias) = parse_type();
      arg.name = parse_identifier("an argument name");
      if (!names.insert(arg.name).second) fail_at(arg_start, "duplicate argument name '" + arg.name + "'");
      arg.kwarg_only = kwarg_only;
      if (consume('=')) {
        arg.default_value = parse_default(arg.type);
        seen_default = true;
      } else if (seen_default && !kwarg_only) {
        fail_at(arg_start, "positional argument '" + arg.name +
                               "' without a default follows one with a default");
      }
      args.push_back(std::move(arg));
    } while (consume(','));
    expect(')');
    return args;
  }

  Return parse_return() {
    Return ret;
    std::tie(ret.type, ret.alias) = parse_type();
    skip_space();
    if (pos_ < text_.size() && is_ident_start(text_[pos_])) ret.name = parse_identifier("a return name");
    return ret;
  }

  std::vector<Return> parse_returns() {
    std::vector<Return> returns;
    if (consume('(')) {
      if (consume(')')) return returns;
      do {
        returns.push_back(parse_return());
      } while (consume(','));
      expect(')');
      return returns;
    }
    returns.push_back(parse_return());
    return returns;
  }

  std::string_view text_;
  size_t pos_ = 0;
};

}  // namespace

FunctionSchema parse_schema(std::string_view text) { return SchemaParser(text).parse(); }

}  // namespace lz
