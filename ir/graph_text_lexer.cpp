#include "ir/graph_text_lexer.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "ir/printer.h"

namespace lz::ir::text {
namespace {

bool is_word_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.';
}

}  // namespace

Token LineLexer::next() {
  Token t = std::move(tok_);
  advance();
  return t;
}

bool LineLexer::accept(char punct) {
  if (!at(Tok::Punct, std::string_view(&punct, 1))) return false;
  advance();
  return true;
}

void LineLexer::expect(char punct, std::string_view context) {
  if (!accept(punct)) fail("expected '", punct, "' ", context, ", got ", describe(tok_));
}

Token LineLexer::expect_kind(Tok kind, std::string_view what) {
  if (tok_.kind != kind) fail("expected ", what, ", got ", describe(tok_));
  return next();
}

void LineLexer::expect_end() {
  if (tok_.kind != Tok::End) fail("expected the end of the line, got ", describe(tok_));
}

std::string LineLexer::describe(const Token& t) {
  return t.kind == Tok::End ? "the end of the line" : "'" + std::string(t.text) + "'";
}

uint32_t LineLexer::read_id(size_t begin, std::string_view prefix) {
  size_t end = begin;
  while (std::isdigit(static_cast<unsigned char>(at_pos(end)))) ++end;
  uint32_t id = 0;
  const auto result = std::from_chars(text_.data() + begin, text_.data() + end, id);
  if (end == begin || result.ec != std::errc()) fail("expected a number (below 2^32) after '", prefix, "'");
  pos_ = end;
  return id;
}

void LineLexer::advance() {
  while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r')) ++pos_;
  tok_ = Token();
  const size_t start = pos_;
  if (pos_ >= text_.size()) return;
  const char c = text_[pos_];
  const char c1 = at_pos(pos_ + 1);
  if (c == '%') {
    tok_.kind = Tok::ValueRef;
    tok_.id = read_id(pos_ + 1, "%");
  } else if (c == '$' && c1 == 'g') {
    tok_.kind = Tok::GenRef;
    tok_.id = read_id(pos_ + 2, "$g");
  } else if (c == '$') {
    tok_.kind = Tok::ScalarRef;
    tok_.id = read_id(pos_ + 1, "$");
  } else if (c == '"') {
    tok_.kind = Tok::String;
    lex_string();
  } else if (std::isdigit(static_cast<unsigned char>(c)) || ((c == '-' || c == '+') && is_word_char(c1))) {
    // Numbers take letters too (inf, nan, 1e-05); from_chars judges them later.
    tok_.kind = Tok::Number;
    ++pos_;
    const auto exponent_sign = [&] {
      const char p = text_[pos_ - 1];
      return (at_pos(pos_) == '-' || at_pos(pos_) == '+') && (p == 'e' || p == 'E');
    };
    while (is_word_char(at_pos(pos_)) || exponent_sign()) ++pos_;
  } else if (std::isalpha(static_cast<unsigned char>(c)) || c == '_') {
    tok_.kind = Tok::Word;
    // ':' belongs to a word when a word character or ':' follows: "cuda:0", "ns::op".
    const auto inner_colon = [&] {
      return at_pos(pos_) == ':' && (is_word_char(at_pos(pos_ + 1)) || at_pos(pos_ + 1) == ':');
    };
    while (is_word_char(at_pos(pos_)) || inner_colon()) ++pos_;
  } else if (std::string_view("()[]{},=:@").find(c) != std::string_view::npos) {
    tok_.kind = Tok::Punct;
    ++pos_;
  } else {
    fail("unexpected character '", c, "'");
  }
  tok_.text = text_.substr(start, pos_ - start);
}

void LineLexer::lex_string() {
  ++pos_;
  for (;;) {
    if (pos_ >= text_.size()) fail("unterminated string literal");
    const char c = text_[pos_++];
    if (c == '"') return;
    if (c != '\\') {
      tok_.decoded += c;
      continue;
    }
    const char e = at_pos(pos_++);
    switch (e) {
      case '\\': tok_.decoded += '\\'; break;
      case '"': tok_.decoded += '"'; break;
      case 'n': tok_.decoded += '\n'; break;
      case 't': tok_.decoded += '\t'; break;
      case 'r': tok_.decoded += '\r'; break;
      case 'x': {
        unsigned v = 0;
        const char* begin = text_.data() + std::min(pos_, text_.size());
        const char* end = text_.data() + std::min(pos_ + 2, text_.size());
        const auto result = std::from_chars(begin, end, v, 16);
        if (result.ec != std::errc() || result.ptr != begin + 2) fail("expected two hex digits after \\x");
        tok_.decoded += static_cast<char>(v);
        pos_ += 2;
        break;
      }
      default: fail("unknown escape in a string literal (expected \\\\ \\\" \\n \\t \\r or \\xHH)");
    }
  }
}

RawValue parse_value(LineLexer& lx) {
  RawValue v;
  const auto atom = [&](std::string_view what) {
    if (lx.at(Tok::Punct) || lx.at(Tok::End)) lx.fail("expected ", what, ", got ", LineLexer::describe(lx.peek()));
    return lx.next();
  };
  if (!lx.accept('[')) {
    v.atom = atom("a value");
    v.text = v.atom.text;
    return v;
  }
  v.is_list = true;
  v.text = "[...]";
  if (lx.accept(']')) return v;
  do {
    v.items.push_back(atom("a list element"));
  } while (lx.accept(','));
  lx.expect(']', "closing the list");
  return v;
}

std::optional<int64_t> to_int(std::string_view s) {
  if (s.starts_with('+')) s.remove_prefix(1);
  int64_t v = 0;
  const auto result = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || result.ec != std::errc() || result.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> to_double(std::string_view s) {
  if (s.starts_with('+')) s.remove_prefix(1);
  double v = 0;
  const auto result = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || result.ec != std::errc() || result.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<ScalarType> to_dtype(std::string_view s) {
  for (int i = 0; i < kNumScalarTypes; ++i) {
    if (dtype_short_name(static_cast<ScalarType>(i)) == s) return static_cast<ScalarType>(i);
  }
  return std::nullopt;
}

std::optional<Device> to_device(std::string_view s) {
  if (s == "cpu") return Device(DeviceType::CPU);
  if (s == "cuda") return Device(DeviceType::CUDA);
  if (!s.starts_with("cuda:") || s.size() == 5 || !std::isdigit(static_cast<unsigned char>(s[5]))) {
    return std::nullopt;
  }
  const std::optional<int64_t> index = to_int(s.substr(5));
  if (!index || *index >= 1024) return std::nullopt;
  return Device(DeviceType::CUDA, static_cast<int>(*index));
}

std::optional<Scalar> to_scalar(const Token& t) {
  if (t.kind == Tok::Word && (t.text == "true" || t.text == "false")) return Scalar(t.text == "true");
  if (t.kind != Tok::Number && t.kind != Tok::Word) return std::nullopt;
  if (const auto i = to_int(t.text)) return Scalar(*i);
  if (const auto d = to_double(t.text)) return Scalar(*d);
  return std::nullopt;
}

bool is_none(const Token& t) { return t.kind == Tok::Word && t.text == "None"; }

}  // namespace lz::ir::text
