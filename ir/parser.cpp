#include "ir/parser.h"

#include <optional>

#include "core/ivalue.h"
#include "core/layout.h"
#include "ir/graph_text_lexer.h"
#include "ir/verifier.h"

namespace lz::ir {
namespace {

using namespace text;

// Builds one node's Args from the schema: operands are collected in
// argument order; runtime scalars and generators resolve against the pools.
class ArgBuilder {
 public:
  ArgBuilder(Graph& g, const OperatorInfo& op, LineLexer& lx) : g_(g), op_(op), lx_(lx) {}

  std::vector<ValueId> operands;

  Arg from_text(const Argument& a, const RawValue& v) {
    if (!v.is_list && is_none(v.atom)) {
      if (!a.type.optional) mismatch(a, v);
      return Arg{};
    }
    const std::optional<ArgKind> kind = expected_arg_kind(a.type);
    if (!kind) unsupported(a);
    if (*kind == ArgKind::TensorList || *kind == ArgKind::OptTensorList || *kind == ArgKind::IntList ||
        *kind == ArgKind::DoubleList || *kind == ArgKind::BoolList) {
      if (!v.is_list) mismatch(a, v);
      return list_arg(a, *kind, v);
    }
    if (v.is_list) mismatch(a, v);
    const Token& t = v.atom;
    Arg r;
    r.kind = *kind;
    switch (*kind) {
      case ArgKind::Tensor:
        if (t.kind != Tok::ValueRef) mismatch(a, v);
        r.index = add_operand(t.id);
        return r;
      case ArgKind::Scalar:
        if (t.kind == Tok::ScalarRef) {
          if (t.id >= g_.num_scalars()) lx_.fail("scalar $", t.id, " is not in the scalars block");
          r.index = t.id;
          r.i = static_cast<int64_t>(g_.scalar(t.id).kind());
          return r;
        }
        if (const auto s = to_scalar(t)) return g_.scalar_arg(*s);
        mismatch(a, v);
      case ArgKind::Generator:
        if (t.kind != Tok::GenRef) mismatch(a, v);
        r.index = generator(t.id);
        return r;
      case ArgKind::Int: r.i = int_of(a, t, v); return r;
      case ArgKind::Double: r.d = double_of(a, t, v); return r;
      case ArgKind::Bool: r.i = bool_of(a, t, v); return r;
      case ArgKind::String:
        if (t.kind != Tok::String) mismatch(a, v);
        return g_.string_arg(t.decoded);
      case ArgKind::ScalarType: {
        const auto dtype = t.kind == Tok::Word ? to_dtype(t.text) : std::nullopt;
        if (!dtype) mismatch(a, v);
        r.i = static_cast<int64_t>(*dtype);
        return r;
      }
      case ArgKind::Device: {
        const auto device = t.kind == Tok::Word ? to_device(t.text) : std::nullopt;
        if (!device) mismatch(a, v);
        r.i = static_cast<int64_t>(device->type());
        r.index = static_cast<uint32_t>(device->index());
        return r;
      }
      case ArgKind::Layout:
        if (t.text != "strided") mismatch(a, v);
        r.i = static_cast<int64_t>(Layout::Strided);
        return r;
      case ArgKind::MemoryFormat:
        if (t.text == "contiguous_format") {
          r.i = static_cast<int64_t>(MemoryFormat::Contiguous);
        } else if (t.text == "preserve_format") {
          r.i = static_cast<int64_t>(MemoryFormat::Preserve);
        } else {
          mismatch(a, v);
        }
        return r;
      default: unsupported(a);
    }
  }

  // An argument left out of the text: its schema default.
  Arg from_default(const Argument& a, const IValue& d) {
    if (d.is_none()) return Arg{};
    const std::optional<ArgKind> kind = expected_arg_kind(a.type);
    if (!kind) unsupported(a);
    Arg r;
    r.kind = *kind;
    switch (*kind) {
      case ArgKind::Scalar: return g_.scalar_arg(d.to_scalar());
      case ArgKind::Int: r.i = d.to_int(); return r;
      case ArgKind::Double: r.d = d.to_double(); return r;
      case ArgKind::Bool: r.i = d.to_bool() ? 1 : 0; return r;
      case ArgKind::String: return g_.string_arg(d.to_string_view());
      case ArgKind::IntList: return g_.int_list_arg(d.to_int_list());
      case ArgKind::DoubleList: return g_.double_list_arg(d.to_double_list());
      case ArgKind::BoolList: {
        const std::vector<int64_t> ints(d.to_bool_list().begin(), d.to_bool_list().end());
        return g_.int_list_arg(ints, ArgKind::BoolList);
      }
      case ArgKind::ScalarType: r.i = static_cast<int64_t>(d.to_scalar_type()); return r;
      case ArgKind::Device:
        r.i = static_cast<int64_t>(d.to_device().type());
        r.index = static_cast<uint32_t>(d.to_device().index());
        return r;
      case ArgKind::Layout: r.i = static_cast<int64_t>(d.to_layout()); return r;
      case ArgKind::MemoryFormat: r.i = static_cast<int64_t>(d.to_memory_format()); return r;
      default: lx_.fail("argument '", a.name, "' of ", op_.name, " cannot take its default ", d.repr());
    }
  }

  uint32_t generator(uint32_t index) const {
    if (index >= g_.num_generators()) lx_.fail("generator $g", index, " is not in the generators line");
    return index;
  }

 private:
  [[noreturn]] void mismatch(const Argument& a, const RawValue& v) const {
    lx_.fail("argument '", a.name, "' of ", op_.name, " expects ", a.type.str(), ", got '", v.text, "'");
  }
  [[noreturn]] void unsupported(const Argument& a) const {
    lx_.fail("argument '", a.name, "' of ", op_.name, " has type ", a.type.str(), ", which a graph cannot hold");
  }

  uint32_t add_operand(ValueId id) {
    if (id >= g_.num_values()) lx_.fail("%", id, " is used before it is defined");
    operands.push_back(id);
    return static_cast<uint32_t>(operands.size() - 1);
  }

  int64_t int_of(const Argument& a, const Token& t, const RawValue& v) const {
    const auto i = t.kind == Tok::Number ? to_int(t.text) : std::nullopt;
    if (!i) mismatch(a, v);
    return *i;
  }
  double double_of(const Argument& a, const Token& t, const RawValue& v) const {
    const auto d = t.kind == Tok::Number || t.kind == Tok::Word ? to_double(t.text) : std::nullopt;
    if (!d) mismatch(a, v);
    return *d;
  }
  int64_t bool_of(const Argument& a, const Token& t, const RawValue& v) const {
    if (t.kind != Tok::Word || (t.text != "true" && t.text != "false")) mismatch(a, v);
    return t.text == "true" ? 1 : 0;
  }

  Arg list_arg(const Argument& a, ArgKind kind, const RawValue& v) {
    std::vector<int64_t> ints;
    std::vector<double> doubles;
    const auto first_operand = static_cast<uint32_t>(operands.size());
    for (const Token& t : v.items) {
      const RawValue item{t, {}, false, t.text};
      switch (kind) {
        case ArgKind::TensorList:
          if (t.kind != Tok::ValueRef) mismatch(a, item);
          add_operand(t.id);
          break;
        case ArgKind::OptTensorList:
          if (is_none(t)) {
            ints.push_back(-1);
          } else if (t.kind == Tok::ValueRef) {
            ints.push_back(add_operand(t.id));
          } else {
            mismatch(a, item);
          }
          break;
        case ArgKind::IntList: ints.push_back(int_of(a, t, item)); break;
        case ArgKind::BoolList: ints.push_back(bool_of(a, t, item)); break;
        default: doubles.push_back(double_of(a, t, item)); break;
      }
    }
    if (kind == ArgKind::TensorList) {
      Arg r;
      r.kind = kind;
      r.index = first_operand;
      r.count = static_cast<uint32_t>(v.items.size());
      return r;
    }
    if (kind == ArgKind::DoubleList) return g_.double_list_arg(doubles);
    return g_.int_list_arg(ints, kind);
  }

  Graph& g_;
  const OperatorInfo& op_;
  LineLexer& lx_;
};

TensorMeta parse_type(LineLexer& lx) {
  TensorMeta type;
  const Token dtype = lx.expect_kind(Tok::Word, "a dtype (b8, u8, i32, i64, f16, bf16, f32, f64)");
  const auto t = to_dtype(dtype.text);
  if (!t) lx.fail("unknown dtype '", dtype.text, "' (expected b8, u8, i32, i64, f16, bf16, f32 or f64)");
  type.dtype = *t;
  lx.expect('[', "after the dtype");
  if (!lx.accept(']')) {
    do {
      const Token size = lx.expect_kind(Tok::Number, "a size");
      const auto s = to_int(size.text);
      if (!s || *s < 0) lx.fail("expected a size >= 0, got '", size.text, "'");
      type.sizes.push_back(*s);
    } while (lx.accept(','));
    lx.expect(']', "closing the sizes");
  }
  if (lx.accept('@')) {
    const Token device = lx.expect_kind(Tok::Word, "a device (cuda:N)");
    const auto d = to_device(device.text);
    if (!d) lx.fail("unknown device '", device.text, "' (expected cpu, cuda or cuda:N)");
    type.device = *d;
  }
  return type;
}

void check_result_count(LineLexer& lx, const OperatorInfo& op, size_t count) {
  const auto& returns = op.schema.returns();
  for (const Return& r : returns) {
    if (!r.type.is_tensor_like() || r.type.optional) {
      lx.fail(op.name, " returns ", r.type.str(), ", which cannot be a graph value");
    }
  }
  const bool any_count = returns.size() == 1 && returns[0].type.is_list;
  if (!any_count && count != returns.size()) {
    lx.fail(op.name, " returns ", returns.size(), " values, but the line names ", count);
  }
}

void parse_operator(LineLexer& lx, Graph& g, const Token& name, std::span<const TensorMeta> types) {
  const OperatorInfo* found = find_operator_info(name.text);
  if (!found) lx.fail("unknown operator '", name.text, "'");
  const OperatorInfo& op = *found;
  check_result_count(lx, op, types.size());
  const auto& schema_args = op.schema.arguments();

  // Bind the written arguments: Tensors by position, the rest by name.
  std::vector<std::optional<RawValue>> bound(schema_args.size());
  size_t next_tensor = 0;
  lx.expect('(', "after the operator name");
  if (!lx.accept(')')) {
    do {
      RawValue v = parse_value(lx);
      if (!v.is_list && v.atom.kind == Tok::Word && lx.accept('=')) {
        const std::string_view arg_name = v.atom.text;
        const auto index = op.schema.argument_index(arg_name);
        if (!index) {
          std::string names;
          for (const Argument& a : schema_args) names += (names.empty() ? "" : ", ") + a.name;
          lx.fail(op.name, " has no argument '", arg_name, "' (its arguments: ", names, ")");
        }
        if (schema_args[*index].type.is_tensor_like()) {
          lx.fail("argument '", arg_name, "' of ", op.name, " is a Tensor: write it positionally");
        }
        if (bound[*index]) lx.fail("argument '", arg_name, "' is given twice");
        bound[*index] = parse_value(lx);
      } else {
        while (next_tensor < schema_args.size() && !schema_args[next_tensor].type.is_tensor_like()) ++next_tensor;
        if (next_tensor == schema_args.size()) lx.fail("too many Tensor arguments for ", op.name);
        bound[next_tensor++] = std::move(v);
      }
    } while (lx.accept(','));
    lx.expect(')', "or ',' after an argument");
  }

  ArgBuilder builder(g, op, lx);
  uint32_t implicit_generator = kNone;
  if (lx.accept('{')) {
    if (!lx.at(Tok::Word, "generator")) lx.fail("expected 'generator' after '{', got ", LineLexer::describe(lx.peek()));
    lx.next();
    lx.expect('=', "after 'generator'");
    implicit_generator = builder.generator(lx.expect_kind(Tok::GenRef, "a generator ($gN)").id);
    lx.expect('}', "after the generator");
  }
  lx.expect_end();

  std::vector<Arg> args;
  args.reserve(schema_args.size());
  for (size_t i = 0; i < schema_args.size(); ++i) {
    const Argument& a = schema_args[i];
    if (bound[i]) {
      args.push_back(builder.from_text(a, *bound[i]));
    } else if (a.default_value) {
      args.push_back(builder.from_default(a, *a.default_value));
    } else {
      lx.fail("missing argument '", a.name, "' of ", op.name, " (it has no default)");
    }
  }
  g.add_node(op, args, builder.operands, types, implicit_generator);
}

void parse_node_line(LineLexer& lx, Graph& g) {
  std::vector<TensorMeta> types;
  if (lx.accept('(')) {
    lx.expect(')', "for a node without results");
  } else {
    do {
      const Token id = lx.expect_kind(Tok::ValueRef, "a result (%N)");
      const ValueId expected = static_cast<ValueId>(g.num_values() + types.size());
      if (id.id != expected) {
        lx.fail("result %", id.id, " should be %", expected, " (values are numbered in order of definition)");
      }
      lx.expect(':', "after the result id");
      types.push_back(parse_type(lx));
    } while (lx.accept(','));
  }
  lx.expect('=', "after the results");
  const Token name = lx.expect_kind(Tok::Word, "'input' or an operator name");
  if (name.text == "input" && lx.at(Tok::Number)) {
    const auto index = to_int(lx.next().text);
    if (types.size() != 1) lx.fail("an input has exactly one result");
    if (!index || *index != static_cast<int64_t>(g.num_inputs())) {
      lx.fail("expected input ", g.num_inputs(), " (inputs are numbered in order)");
    }
    bool wrapped_number = false;
    if (lx.accept('{')) {
      if (!lx.at(Tok::Word, "wrapped_number")) {
        lx.fail("expected 'wrapped_number' after '{', got ", LineLexer::describe(lx.peek()));
      }
      lx.next();
      lx.expect('}', "after 'wrapped_number'");
      wrapped_number = true;
    }
    lx.expect_end();
    g.add_input(types[0], wrapped_number);
    return;
  }
  parse_operator(lx, g, name, types);
}

// ---- Blocks ----------------------------------------------------------------------

struct Line {
  std::string_view text;
  int number;
};

std::vector<Line> split_lines(std::string_view text) {
  std::vector<Line> lines;
  int number = 1;
  for (size_t start = 0; start <= text.size(); ++number) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    lines.push_back({text.substr(start, end - start), number});
    start = end + 1;
  }
  return lines;
}

bool is_blank(std::string_view s) { return s.find_first_not_of(" \t\r") == std::string_view::npos; }
bool is_close(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\r");
  return b != std::string_view::npos && s[b] == '}' && is_blank(s.substr(b + 1));
}

class BlockReader {
 public:
  explicit BlockReader(std::string_view text) : lines_(split_lines(text)) { skip_blank(); }

  bool done() const { return pos_ == lines_.size(); }
  const Line& current() const { return lines_[pos_]; }
  int last_line() const { return lines_.back().number; }
  void advance() {
    ++pos_;
    skip_blank();
  }
  // Lines up to the next "}" line, which is consumed; error if there is none.
  std::vector<Line> body(std::string_view block) {
    std::vector<Line> out;
    for (; pos_ < lines_.size() && !is_close(lines_[pos_].text); ++pos_) {
      if (!is_blank(lines_[pos_].text)) out.push_back(lines_[pos_]);
    }
    if (pos_ == lines_.size()) fail_line(last_line(), "expected '}' closing the ", block, " block");
    advance();
    return out;
  }

 private:
  void skip_blank() {
    while (pos_ < lines_.size() && is_blank(lines_[pos_].text)) ++pos_;
  }
  std::vector<Line> lines_;
  size_t pos_ = 0;
};

void parse_scalar_line(const Line& line, Graph& g) {
  LineLexer lx(line.text, line.number);
  const Token ref = lx.expect_kind(Tok::ScalarRef, "a scalar ($N)");
  if (ref.id != g.num_scalars()) {
    lx.fail("expected $", g.num_scalars(), " (scalars are listed in order), got $", ref.id);
  }
  lx.expect('=', "after the scalar id");
  const Token value = lx.next();
  lx.expect(':', "after the scalar's value");
  const Token kind = lx.expect_kind(Tok::Word, "a scalar kind (bool, int or double)");
  lx.expect_end();
  const std::optional<Scalar> s = to_scalar(value);
  std::optional<Scalar> typed;
  if (kind.text == "bool") {
    if (s && s->is_bool()) typed = s;
  } else if (kind.text == "int") {
    if (s && s->is_integral(false)) typed = s;
  } else if (kind.text == "double") {
    const bool literal = value.kind == Tok::Number || value.kind == Tok::Word;
    if (const auto d = literal ? to_double(value.text) : std::nullopt) typed = Scalar(*d);
  } else {
    lx.fail("expected a scalar kind (bool, int or double), got '", kind.text, "'");
  }
  if (!typed) lx.fail("expected a value of kind ", kind.text, ", got ", LineLexer::describe(value));
  g.scalar_arg(*typed);
}

void parse_generators_line(const Line& line, Graph& g) {
  LineLexer lx(line.text, line.number);
  lx.next();  // "generators"
  lx.expect('{', "after 'generators'");
  uint32_t count = 0;
  if (!lx.accept('}')) {
    do {
      const Token ref = lx.expect_kind(Tok::GenRef, "a generator ($gN)");
      if (ref.id != count) lx.fail("expected $g", count, " (generators are listed in order), got $g", ref.id);
      ++count;
    } while (lx.accept(','));
    lx.expect('}', "closing the generators");
  }
  lx.expect_end();
  while (g.num_generators() < count) g.add_generator();
}

bool starts_with_word(const Line& line, std::string_view word) {
  LineLexer lx(line.text, line.number);
  return lx.at(Tok::Word, word);
}

}  // namespace

ParsedGraph parse_graph(std::string_view text) {
  ParsedGraph result;
  Graph& g = result.graph;
  BlockReader reader(text);
  if (reader.done()) fail_line(reader.last_line(), "expected 'graph {', got an empty text");
  {
    LineLexer lx(reader.current().text, reader.current().number);
    if (!lx.at(Tok::Word, "graph")) lx.fail("expected 'graph {', got ", LineLexer::describe(lx.peek()));
    lx.next();
    lx.expect('{', "after 'graph'");
    lx.expect_end();
  }
  reader.advance();
  const std::vector<Line> body = reader.body("graph");

  // The pools first: node lines refer to $k and $gk by index.
  if (!reader.done() && starts_with_word(reader.current(), "scalars")) {
    LineLexer lx(reader.current().text, reader.current().number);
    lx.next();
    lx.expect('{', "after 'scalars'");
    lx.expect_end();
    reader.advance();
    for (const Line& line : reader.body("scalars")) parse_scalar_line(line, g);
  }
  if (!reader.done() && starts_with_word(reader.current(), "generators")) {
    parse_generators_line(reader.current(), g);
    reader.advance();
  }
  if (!reader.done()) {
    fail_line(reader.current().number, "expected 'scalars {', 'generators { ... }' or the end of the text, got '",
              reader.current().text, "'");
  }

  bool returned = false;
  for (const Line& line : body) {
    LineLexer lx(line.text, line.number);
    if (returned) lx.fail("nothing may follow the return line");
    if (lx.at(Tok::Word, "return")) {
      lx.next();
      if (!lx.at(Tok::End)) {
        do {
          const Token v = lx.expect_kind(Tok::ValueRef, "a value (%N)");
          if (v.id >= g.num_values()) lx.fail("return of %", v.id, ", which is not defined");
          result.outputs.push_back(v.id);
        } while (lx.accept(','));
      }
      lx.expect_end();
      returned = true;
      continue;
    }
    parse_node_line(lx, g);
  }
  return result;
}

}  // namespace lz::ir
