#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/function_schema.h"
#include "core/schema_parser.h"

using namespace lz;
using Catch::Matchers::Contains;
using Tag = IValue::Tag;

namespace {

SchemaType type_of(BaseType base, bool is_list = false, int64_t list_size = -1, bool optional = false,
                   bool element_optional = false) {
  SchemaType t;
  t.base = base;
  t.is_list = is_list;
  t.list_size = list_size;
  t.optional = optional;
  t.element_optional = element_optional;
  return t;
}

const Argument& arg(const FunctionSchema& s, size_t i) {
  REQUIRE(i < s.arguments().size());
  return s.arguments()[i];
}

std::vector<int64_t> ints(const IValue& v) {
  return std::vector<int64_t>(v.to_int_list().begin(), v.to_int_list().end());
}

// The error must say where: "column N" and a caret under the offending
// character of the echoed schema.
void check_schema_error(const std::string& text, size_t expected_column, const std::string& what) {
  INFO("schema: " << text);
  try {
    parse_schema(text);
    FAIL("expected a SchemaError");
  } catch (const SchemaError& e) {
    const std::string msg = e.what();
    INFO("message: " << msg);
    CHECK_THAT(msg, Contains("[parse_schema]"));
    CHECK_THAT(msg, Contains(what));
    CHECK_THAT(msg, Contains("column " + std::to_string(expected_column)));
    // The last two lines are the echoed schema and the caret line.
    const size_t caret_nl = msg.rfind('\n');
    REQUIRE(caret_nl != std::string::npos);
    const size_t echo_nl = msg.rfind('\n', caret_nl - 1);
    REQUIRE(echo_nl != std::string::npos);
    const std::string echo = msg.substr(echo_nl + 1, caret_nl - echo_nl - 1);
    const std::string caret = msg.substr(caret_nl + 1);
    CHECK_THAT(echo, Contains(text));
    const size_t caret_pos = caret.find('^');
    REQUIRE(caret_pos != std::string::npos);
    CHECK(caret.find_first_not_of(' ') == caret_pos);
    CHECK(caret_pos == echo.size() - text.size() + expected_column - 1);
  }
}

}  // namespace

TEST_CASE("schema: add.Tensor", "[core]") {
  const std::string text = "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor";
  const FunctionSchema s = parse_schema(text);
  CHECK(s.name() == "add");
  CHECK(s.overload_name() == "Tensor");
  CHECK(s.full_name() == "add.Tensor");
  REQUIRE(s.arguments().size() == 3);
  CHECK(arg(s, 0).name == "self");
  CHECK(arg(s, 0).type == type_of(BaseType::Tensor));
  CHECK_FALSE(arg(s, 0).alias.has_value());
  CHECK_FALSE(arg(s, 0).kwarg_only);
  CHECK_FALSE(arg(s, 0).default_value.has_value());
  CHECK(arg(s, 1).name == "other");
  CHECK_FALSE(arg(s, 1).kwarg_only);
  CHECK(arg(s, 2).name == "alpha");
  CHECK(arg(s, 2).type == type_of(BaseType::Scalar));
  CHECK(arg(s, 2).kwarg_only);
  REQUIRE(arg(s, 2).default_value.has_value());
  CHECK(arg(s, 2).default_value->tag() == Tag::Int);
  CHECK(arg(s, 2).default_value->to_int() == 1);
  REQUIRE(s.returns().size() == 1);
  CHECK(s.returns()[0].type == type_of(BaseType::Tensor));
  CHECK(s.returns()[0].name.empty());
  CHECK_FALSE(s.returns()[0].alias.has_value());
  CHECK_FALSE(s.is_mutable());
  CHECK_FALSE(s.is_inplace());
  CHECK_FALSE(s.is_out());
  CHECK(s.num_out_arguments() == 0);
  CHECK(s.argument_index("other") == 1u);
  CHECK(s.argument_index("alpha") == 2u);
  CHECK_FALSE(s.argument_index("beta").has_value());
  CHECK(s.str() == text);
  std::ostringstream os;
  os << s;
  CHECK(os.str() == text);
}

TEST_CASE("schema: add_.Tensor is in-place", "[core]") {
  const std::string text = "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)";
  const FunctionSchema s = parse_schema(text);
  CHECK(s.name() == "add_");
  REQUIRE(arg(s, 0).alias.has_value());
  CHECK(arg(s, 0).alias->set == "a");
  CHECK(arg(s, 0).alias->is_write);
  CHECK(arg(s, 0).is_write());
  CHECK_FALSE(arg(s, 0).is_out());
  CHECK_FALSE(arg(s, 1).alias.has_value());
  REQUIRE(s.returns()[0].alias.has_value());
  CHECK(s.returns()[0].alias->set == "a");
  CHECK(s.returns()[0].alias->is_write);
  CHECK(s.is_mutable());
  CHECK(s.is_inplace());
  CHECK_FALSE(s.is_out());
  CHECK(s.str() == text);
}

TEST_CASE("schema: add.out has an out= argument", "[core]") {
  const std::string text =
      "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)";
  const FunctionSchema s = parse_schema(text);
  REQUIRE(s.arguments().size() == 4);
  CHECK(arg(s, 3).name == "out");
  CHECK(arg(s, 3).kwarg_only);
  CHECK(arg(s, 3).is_write());
  CHECK(arg(s, 3).is_out());
  CHECK_FALSE(arg(s, 3).default_value.has_value());
  CHECK_FALSE(arg(s, 2).is_out());
  CHECK(s.is_mutable());
  CHECK(s.is_out());
  CHECK_FALSE(s.is_inplace());
  CHECK(s.num_out_arguments() == 1);
  CHECK(s.str() == text);
}

TEST_CASE("schema: max.dim has named returns", "[core]") {
  const std::string text = "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)";
  const FunctionSchema s = parse_schema(text);
  CHECK(arg(s, 1).type == type_of(BaseType::Int));
  CHECK(arg(s, 2).type == type_of(BaseType::Bool));
  REQUIRE(arg(s, 2).default_value.has_value());
  CHECK(arg(s, 2).default_value->tag() == Tag::Bool);
  CHECK(arg(s, 2).default_value->to_bool() == false);
  REQUIRE(s.returns().size() == 2);
  CHECK(s.returns()[0].name == "values");
  CHECK(s.returns()[1].name == "indices");
  CHECK(s.returns()[1].type == type_of(BaseType::Tensor));
  CHECK(s.str() == text);
}

TEST_CASE("schema: sum.dim_IntList has optional lists and kwarg-only dtype", "[core]") {
  const std::string text =
      "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor";
  const FunctionSchema s = parse_schema(text);
  CHECK(s.overload_name() == "dim_IntList");
  CHECK(arg(s, 1).type == type_of(BaseType::Int, true, 1, true, false));
  CHECK(arg(s, 1).type.str() == "int[1]?");
  CHECK_FALSE(arg(s, 1).default_value.has_value());
  CHECK_FALSE(arg(s, 2).kwarg_only);
  CHECK(arg(s, 3).kwarg_only);
  CHECK(arg(s, 3).type == type_of(BaseType::ScalarType, false, -1, true));
  REQUIRE(arg(s, 3).default_value.has_value());
  CHECK(arg(s, 3).default_value->is_none());
  CHECK(s.str() == text);
}

TEST_CASE("schema: conv2d expands fixed-size int list defaults", "[core]") {
  const std::string text =
      "conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0) -> Tensor";
  const FunctionSchema s = parse_schema(text);
  CHECK(s.name() == "conv2d");
  CHECK(s.overload_name().empty());
  CHECK(s.full_name() == "conv2d");
  CHECK(arg(s, 2).type == type_of(BaseType::Tensor, false, -1, true));
  CHECK(arg(s, 2).default_value->is_none());
  CHECK(arg(s, 3).type == type_of(BaseType::Int, true, 2));
  REQUIRE(arg(s, 3).default_value.has_value());
  CHECK(arg(s, 3).default_value->tag() == Tag::IntList);
  CHECK(ints(*arg(s, 3).default_value) == std::vector<int64_t>{1, 1});
  CHECK(ints(*arg(s, 4).default_value) == std::vector<int64_t>{0, 0});
  // The canonical text spells the expanded list.
  CHECK(s.str() ==
        "conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=[1, 1], int[2] padding=[0, 0]) -> Tensor");
  CHECK(ints(*parse_schema("f(int[3] k=[1, 2, 3]) -> ()").arguments()[0].default_value) ==
        std::vector<int64_t>{1, 2, 3});
  // PyTorch repeats a single default for every fixed-size list type.
  const FunctionSchema rep = parse_schema("f(float[2] scale=0.5, bool[3] mask=True, float[2] s2=1, int[1]? d=None) -> ()");
  CHECK(arg(rep, 0).default_value->to_double_list() == std::vector<double>{0.5, 0.5});
  CHECK(arg(rep, 1).default_value->to_bool_list() == std::vector<bool>{true, true, true});
  CHECK(arg(rep, 2).default_value->to_double_list() == std::vector<double>{1.0, 1.0});
  CHECK(arg(rep, 3).default_value->is_none());
  CHECK(rep.str() == "f(float[2] scale=[0.5, 0.5], bool[3] mask=[True, True, True], float[2] s2=[1., 1.], int[1]? d=None) -> ()");
  // Without a fixed size a single value is not a list.
  CHECK_THROWS_AS(parse_schema("f(int[] k=1) -> ()"), SchemaError);
  CHECK_THROWS_AS(parse_schema("f(bool[2] m=1) -> ()"), SchemaError);
}

TEST_CASE("schema: tensor lists with and without optional elements", "[core]") {
  const FunctionSchema index = parse_schema("index.Tensor(Tensor self, Tensor?[] indices) -> Tensor");
  CHECK(arg(index, 1).type == type_of(BaseType::Tensor, true, -1, false, true));
  CHECK(arg(index, 1).type.str() == "Tensor?[]");
  const FunctionSchema cat = parse_schema("cat(Tensor[] tensors, int dim=0) -> Tensor");
  CHECK(arg(cat, 0).type == type_of(BaseType::Tensor, true));
  CHECK(arg(cat, 0).type.is_tensor_like());
  CHECK(arg(cat, 1).default_value->to_int() == 0);
  CHECK(cat.str() == "cat(Tensor[] tensors, int dim=0) -> Tensor");
  const FunctionSchema both = parse_schema("f(Tensor?[]? a, Tensor[]? b) -> Tensor[]");
  CHECK(arg(both, 0).type == type_of(BaseType::Tensor, true, -1, true, true));
  CHECK(arg(both, 0).type.str() == "Tensor?[]?");
  CHECK(arg(both, 1).type == type_of(BaseType::Tensor, true, -1, true, false));
  CHECK(both.returns()[0].type == type_of(BaseType::Tensor, true));
}

TEST_CASE("schema: string, float and enum defaults", "[core]") {
  const FunctionSchema gelu = parse_schema("gelu(Tensor self, *, str approximate='none') -> Tensor");
  CHECK(arg(gelu, 1).type == type_of(BaseType::Str));
  CHECK(arg(gelu, 1).kwarg_only);
  CHECK(arg(gelu, 1).default_value->tag() == Tag::String);
  CHECK(arg(gelu, 1).default_value->to_string_view() == "none");
  CHECK(gelu.str() == "gelu(Tensor self, *, str approximate='none') -> Tensor");

  const std::string ln =
      "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, "
      "float eps=1e-05, bool cudnn_enable=True) -> Tensor";
  const FunctionSchema s = parse_schema(ln);
  CHECK(arg(s, 1).type == type_of(BaseType::Int, true));
  CHECK(arg(s, 4).type == type_of(BaseType::Float));
  CHECK(arg(s, 4).default_value->tag() == Tag::Double);
  CHECK(arg(s, 4).default_value->to_double() == 1e-05);
  CHECK(arg(s, 5).default_value->to_bool() == true);
  CHECK(s.str() == ln);

  const FunctionSchema contig =
      parse_schema("contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)");
  REQUIRE(arg(contig, 0).alias.has_value());
  CHECK(arg(contig, 0).alias->set == "a");
  CHECK_FALSE(arg(contig, 0).alias->is_write);
  CHECK_FALSE(arg(contig, 0).is_write());
  CHECK_FALSE(contig.is_mutable());
  CHECK_FALSE(contig.is_inplace());
  CHECK(arg(contig, 1).default_value->tag() == Tag::MemoryFormat);
  CHECK(arg(contig, 1).default_value->to_memory_format() == MemoryFormat::Contiguous);
  CHECK(contig.returns()[0].alias->set == "a");
  CHECK(contig.str() ==
        "contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)");

  // A whole float default is still a float; an int literal for a float widens.
  const FunctionSchema f = parse_schema("f(float a=1, float b=-2.5, float c=inf, float d=-inf, float e=nan) -> ()");
  CHECK(arg(f, 0).default_value->tag() == Tag::Double);
  CHECK(arg(f, 0).default_value->to_double() == 1.0);
  CHECK(arg(f, 1).default_value->to_double() == -2.5);
  CHECK(std::isinf(arg(f, 2).default_value->to_double()));
  CHECK(arg(f, 3).default_value->to_double() < 0);
  CHECK(std::isnan(arg(f, 4).default_value->to_double()));

  const FunctionSchema e = parse_schema(
      "g(ScalarType dtype=float32, ScalarType t2=long, Layout layout=strided, Device device=cpu, "
      "MemoryFormat m=preserve_format, Scalar s=2.5, int n=-3) -> ()");
  CHECK(arg(e, 0).default_value->to_scalar_type() == kFloat32);
  CHECK(arg(e, 1).default_value->to_scalar_type() == kInt64);
  CHECK(arg(e, 2).default_value->to_layout() == Layout::Strided);
  CHECK(arg(e, 3).default_value->to_device() == Device("cpu"));
  CHECK(arg(e, 4).default_value->to_memory_format() == MemoryFormat::Preserve);
  CHECK(arg(e, 5).default_value->tag() == Tag::Double);
  CHECK(arg(e, 6).default_value->to_int() == -3);
}

TEST_CASE("schema: randn with a SymInt list and optional kwargs", "[core]") {
  const FunctionSchema s = parse_schema(
      "randn(SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, "
      "Device? device=None, bool? pin_memory=None) -> Tensor");
  REQUIRE(s.arguments().size() == 6);
  CHECK(arg(s, 0).type == type_of(BaseType::Int, true));  // SymInt is int here
  CHECK_FALSE(arg(s, 0).kwarg_only);
  const BaseType bases[] = {BaseType::Generator, BaseType::ScalarType, BaseType::Layout,
                            BaseType::Device, BaseType::Bool};
  for (size_t i = 1; i < 6; ++i) {
    INFO(arg(s, i).name);
    CHECK(arg(s, i).kwarg_only);
    CHECK(arg(s, i).type == type_of(bases[i - 1], false, -1, true));
    REQUIRE(arg(s, i).default_value.has_value());
    CHECK(arg(s, i).default_value->is_none());
  }
  CHECK(s.str() ==
        "randn(int[] size, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, "
        "Device? device=None, bool? pin_memory=None) -> Tensor");
}

TEST_CASE("schema: no returns, namespaces, wildcard alias", "[core]") {
  const FunctionSchema s = parse_schema("_foreach_zero_(Tensor(a!)[] self) -> ()");
  CHECK(s.returns().empty());
  CHECK(arg(s, 0).type == type_of(BaseType::Tensor, true));
  CHECK(arg(s, 0).is_write());
  CHECK(s.is_mutable());
  CHECK_FALSE(s.is_inplace());  // nothing is returned
  CHECK(s.str() == "_foreach_zero_(Tensor(a!)[] self) -> ()");

  const FunctionSchema empty = parse_schema("sync() -> ()");
  CHECK(empty.arguments().empty());
  CHECK(empty.returns().empty());
  CHECK(empty.str() == "sync() -> ()");

  const FunctionSchema ns = parse_schema("aten::neg(Tensor self) -> Tensor");
  CHECK(ns.name() == "aten::neg");
  CHECK(ns.overload_name().empty());

  const FunctionSchema wild = parse_schema("alias(Tensor(*) self) -> Tensor(*)");
  CHECK(arg(wild, 0).alias->set == "*");
  CHECK(wild.str() == "alias(Tensor(*) self) -> Tensor(*)");

  // Whitespace is not significant.
  const FunctionSchema spaced = parse_schema("  mul . Tensor ( Tensor  self ,Tensor other )->Tensor  ");
  CHECK(spaced.full_name() == "mul.Tensor");
  CHECK(spaced.str() == "mul.Tensor(Tensor self, Tensor other) -> Tensor");

  // A single named return is parenthesised on output and parses back the same.
  const FunctionSchema named = parse_schema("h(Tensor x) -> Tensor out");
  CHECK(named.returns()[0].name == "out");
  CHECK(named.str() == "h(Tensor x) -> (Tensor out)");
}

TEST_CASE("schema: str() round-trips", "[core]") {
  const char* schemas[] = {
      "add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor",
      "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)",
      "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)",
      "max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)",
      "max.dim_max(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) max, Tensor(b!) max_values) -> (Tensor(a!) values, Tensor(b!) indices)",
      "sum.dim_IntList(Tensor self, int[1]? dim, bool keepdim=False, *, ScalarType? dtype=None) -> Tensor",
      "conv2d(Tensor input, Tensor weight, Tensor? bias=None, int[2] stride=1, int[2] padding=0) -> Tensor",
      "index.Tensor(Tensor self, Tensor?[] indices) -> Tensor",
      "cat(Tensor[] tensors, int dim=0) -> Tensor",
      "gelu(Tensor self, *, str approximate='none') -> Tensor",
      "layer_norm(Tensor input, int[] normalized_shape, Tensor? weight=None, Tensor? bias=None, float eps=1e-05, bool cudnn_enable=True) -> Tensor",
      "contiguous(Tensor(a) self, *, MemoryFormat memory_format=contiguous_format) -> Tensor(a)",
      "randn(SymInt[] size, *, Generator? generator=None, ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None) -> Tensor",
      "f(float a=1, float b=0.1, float c=-inf, float[] d=[1, 2.5], bool[] e=[True, False], int[] g=[]) -> ()",
      "g(ScalarType t=float16, Scalar s=True, Scalar u=-0.5, Device d=cpu) -> (Tensor, Tensor)",
  };
  for (const char* text : schemas) {
    INFO(text);
    const std::string canonical = parse_schema(text).str();
    const FunctionSchema again = parse_schema(canonical);
    CHECK(again.str() == canonical);
    const FunctionSchema first = parse_schema(text);
    REQUIRE(again.arguments().size() == first.arguments().size());
    for (size_t i = 0; i < first.arguments().size(); ++i) {
      const Argument& a = first.arguments()[i];
      const Argument& b = again.arguments()[i];
      CHECK(a.name == b.name);
      CHECK(a.type == b.type);
      CHECK(a.alias == b.alias);
      CHECK(a.kwarg_only == b.kwarg_only);
      CHECK(a.default_value.has_value() == b.default_value.has_value());
      if (a.default_value) {
        CHECK(a.default_value->tag() == b.default_value->tag());
        CHECK(a.default_value->repr() == b.default_value->repr());
      }
    }
    REQUIRE(again.returns().size() == first.returns().size());
    for (size_t i = 0; i < first.returns().size(); ++i) {
      CHECK(again.returns()[i].type == first.returns()[i].type);
      CHECK(again.returns()[i].alias == first.returns()[i].alias);
      CHECK(again.returns()[i].name == first.returns()[i].name);
    }
  }
}

TEST_CASE("schema errors carry the column and a caret", "[core]") {
  //                  1234567890123456789012345678901234567890
  check_schema_error("f(Tensor a -> Tensor", 12, "expected ')'");
  check_schema_error("f(Tensor a", 11, "expected ')'");
  check_schema_error("f(Tensr a) -> Tensor", 3, "unknown type 'Tensr'");
  check_schema_error("f(Tensor a, int a) -> Tensor", 13, "duplicate argument name 'a'");
  check_schema_error("f(int x=1.5) -> ()", 9, "does not match type 'int'");
  check_schema_error("f(Tensor x=None) -> ()", 12, "not optional");
  check_schema_error("f(int x=None) -> ()", 9, "not optional");
  check_schema_error("f(bool b=1) -> ()", 10, "does not match type 'bool'");
  check_schema_error("f(str s=1) -> ()", 9, "does not match type 'str'");
  check_schema_error("f(int[] x=[1.5]) -> ()", 11, "does not match");
  check_schema_error("f(int[2] x=[1, 2, 3]) -> ()", 12, "3 elements");
  check_schema_error("f(int x=[1]) -> ()", 9, "does not match type 'int'");
  check_schema_error("f(Tensor a, int b=1, int c) -> ()", 22, "positional argument 'c' without a default");
  check_schema_error("f(*, Tensor a, *, Tensor b) -> ()", 16, "'*' appears twice");
  check_schema_error("f(Tensor a) -> Tensor b c", 25, "unexpected text after the returns");
  check_schema_error("f(int(a) x) -> ()", 3, "alias annotations are only allowed on Tensor");
  check_schema_error("", 1, "expected operator name");
  check_schema_error("f(Tensor a) Tensor", 13, "expected '-'");
  check_schema_error("f(Tensor a) ->", 15, "a type");
  check_schema_error("f(Tensor a", 11, "schema ended");
  check_schema_error("f(MemoryFormat m=sideways) -> ()", 18, "unknown MemoryFormat value 'sideways'");
  check_schema_error("f(ScalarType t=float128) -> ()", 16, "unknown ScalarType value");
  check_schema_error("f(int x=99999999999999999999) -> ()", 9, "does not fit in int64");
  check_schema_error("f(float x=1.2.3) -> ()", 11, "malformed number");
  check_schema_error("f(str s='abc) -> ()", 9, "unterminated string");
  check_schema_error("f(Generator g=1) -> ()", 15, "does not match type 'Generator'");
  check_schema_error("f(Tensor(a!) x) -> Tensor(a", 28, "expected ')'");
}

TEST_CASE("schema: kwarg-only arguments may follow defaults without one", "[core]") {
  const FunctionSchema s = parse_schema("f(Tensor a, int b=1, *, Tensor(a!) out) -> Tensor(a!)");
  CHECK(arg(s, 2).kwarg_only);
  CHECK(s.is_out());
}

// Found by tests/libfuzzer/fuzz_parse_schema: "Andn(SymInt[20004080408] scaleO=6 ..."
// made the default 20004080408 copies of 6 (160 GB) and died in operator new.
TEST_CASE("schema: a huge fixed list size is a SchemaError, not an allocation", "[core]") {
  check_schema_error("f(SymInt[20004080408] x=6) -> ()", 10, "fixed list size 20004080408 is larger than 1024");
  check_schema_error("f(int[1025] x) -> ()", 7, "larger than 1024");
  const FunctionSchema s = parse_schema("f(bool[1024] m=True) -> ()");
  CHECK(arg(s, 0).default_value->to_bool_list().size() == 1024);
}
