// The tokens of one line of a graph's text form (ir/printer.h), and the
// literals they spell. Private to ir/parser.cpp; errors name the line.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/device.h"
#include "core/error.h"
#include "core/scalar.h"

namespace lz::ir::text {

template <class... Parts>
[[noreturn]] void fail_line(int line, const Parts&... parts) {
  throw ValueError(detail::str_cat("parse_graph: line ", line, ": ", parts...));
}

enum class Tok {
  End,        // nothing left on the line
  ValueRef,   // %3
  ScalarRef,  // $0
  GenRef,     // $g0
  Number,     // 12, -0.5, 1e-05, -inf
  Word,       // add.Tensor, f32, cuda:0, true, None, ns::op
  String,     // "..." with escapes
  Punct,      // one of ( ) [ ] { } , = : @
};

struct Token {
  Tok kind = Tok::End;
  std::string_view text;  // as written
  uint32_t id = 0;        // the number of %N, $N, $gN
  std::string decoded;    // a string literal's contents
};

class LineLexer {
 public:
  LineLexer(std::string_view text, int line) : text_(text), line_(line) { advance(); }

  const Token& peek() const { return tok_; }
  Token next();
  bool at(Tok kind, std::string_view text = {}) const {
    return tok_.kind == kind && (text.empty() || tok_.text == text);
  }
  // Consumes `punct` if it is next.
  bool accept(char punct);
  void expect(char punct, std::string_view context);
  Token expect_kind(Tok kind, std::string_view what);
  void expect_end();

  template <class... Parts>
  [[noreturn]] void fail(const Parts&... parts) const {
    fail_line(line_, parts...);
  }
  // "'foo'" or "the end of the line", for messages.
  static std::string describe(const Token& t);

 private:
  void advance();
  uint32_t read_id(size_t begin, std::string_view prefix);
  void lex_string();
  char at_pos(size_t i) const { return i < text_.size() ? text_[i] : '\0'; }

  std::string_view text_;
  int line_;
  size_t pos_ = 0;
  Token tok_;
};

// One argument as written: an atom, or a flat list of atoms.
struct RawValue {
  Token atom;
  std::vector<Token> items;
  bool is_list = false;
  std::string_view text;  // for messages
};
RawValue parse_value(LineLexer& lx);

// Literals; nullopt when the text does not spell one.
std::optional<int64_t> to_int(std::string_view s);
std::optional<double> to_double(std::string_view s);  // also inf, -inf, nan
std::optional<ScalarType> to_dtype(std::string_view s);  // short names (dtype_short_name)
std::optional<Device> to_device(std::string_view s);      // cpu, cuda, cuda:N
// int, double or bool by spelling: "2", "2.0", "1e-05", "inf", "true".
std::optional<Scalar> to_scalar(const Token& t);
bool is_none(const Token& t);

}  // namespace lz::ir::text
