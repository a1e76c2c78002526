#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "core/ivalue.h"

using namespace lz;
using Catch::Matchers::Contains;
using Tag = IValue::Tag;

TEST_CASE("IValue: None", "[core]") {
  const IValue none;
  CHECK(none.tag() == Tag::None);
  CHECK(none.is_none());
  CHECK(IValue(std::nullopt).is_none());
  CHECK(none.repr() == "None");
  CHECK(none.tag_name() == "None");
}

TEST_CASE("IValue: every tag round-trips", "[core]") {
  SECTION("Tensor") {
    Tensor t = lz::zeros({2, 3});
    const IValue v(t);
    CHECK(v.tag() == Tag::Tensor);
    CHECK(v.is_tensor());
    CHECK(v.to_tensor().is_same(t));
    CHECK(v.repr() == "Tensor[2, 3] float32");
    IValue moved(t);
    Tensor out = std::move(moved).to_tensor();
    CHECK(out.is_same(t));
    CHECK(IValue(Tensor()).repr() == "Tensor(undefined)");
  }
  SECTION("double") {
    const IValue v(2.5);
    CHECK(v.tag() == Tag::Double);
    CHECK(v.is_double());
    CHECK(v.is_scalar());
    CHECK(v.to_double() == 2.5);
    CHECK(v.repr() == "2.5");
    CHECK(IValue(3.0).repr() == "3.");
    CHECK(IValue(1.5f).is_double());
  }
  SECTION("int") {
    const IValue v(int64_t{-7});
    CHECK(v.tag() == Tag::Int);
    CHECK(v.to_int() == -7);
    CHECK(v.to_double() == -7.0);  // ints widen to float
    CHECK(v.repr() == "-7");
    CHECK(IValue(3).is_int());
    CHECK(IValue(uint8_t{3}).is_int());
    CHECK(IValue(size_t{5}).to_int() == 5);
  }
  SECTION("bool") {
    const IValue v(true);
    CHECK(v.tag() == Tag::Bool);
    CHECK(v.to_bool());
    CHECK(v.repr() == "True");
    CHECK(IValue(false).repr() == "False");
    CHECK(v.is_scalar());
  }
  SECTION("string") {
    const IValue a("none"), b(std::string("tanh")), c(std::string_view("x"));
    CHECK(a.tag() == Tag::String);
    CHECK(a.is_string());
    CHECK(a.to_string_view() == "none");
    CHECK(b.to_string_view() == "tanh");
    CHECK(c.to_string_view() == "x");
    CHECK(a.repr() == "'none'");
  }
  SECTION("int list") {
    const IValue v(std::vector<int64_t>{1, -2, 3});
    CHECK(v.tag() == Tag::IntList);
    CHECK(v.is_int_list());
    CHECK(std::vector<int64_t>(v.to_int_list().begin(), v.to_int_list().end()) ==
          std::vector<int64_t>{1, -2, 3});
    CHECK(v.repr() == "[1, -2, 3]");
    const int64_t raw[] = {4, 5};
    const IValue from_span{IntArrayRef(raw)};
    CHECK(from_span.is_int_list());
    CHECK(from_span.to_int_list().size() == 2);
    CHECK(from_span.to_int_list()[1] == 5);
    CHECK(IValue(std::vector<int64_t>{}).repr() == "[]");
  }
  SECTION("double list") {
    const IValue v(std::vector<double>{1.0, 0.5});
    CHECK(v.tag() == Tag::DoubleList);
    CHECK(v.to_double_list() == std::vector<double>{1.0, 0.5});
    CHECK(v.repr() == "[1., 0.5]");
  }
  SECTION("bool list") {
    const IValue v(std::vector<bool>{true, false});
    CHECK(v.tag() == Tag::BoolList);
    CHECK(v.to_bool_list() == std::vector<bool>{true, false});
    CHECK(v.repr() == "[True, False]");
  }
  SECTION("tensor list") {
    Tensor a = lz::zeros({2}), b = lz::ones({3}, kInt32);
    const IValue v(std::vector<Tensor>{a, b});
    CHECK(v.tag() == Tag::TensorList);
    CHECK(v.is_tensor_list());
    REQUIRE(v.to_tensor_list().size() == 2);
    CHECK(v.to_tensor_list()[0].is_same(a));
    CHECK(v.to_tensor_list()[1].is_same(b));
    CHECK(v.repr() == "[Tensor[2] float32, Tensor[3] int32]");
    const std::vector<Tensor> vec = {a};
    const IValue from_span{TensorList(vec)};
    CHECK(from_span.is_tensor_list());
    CHECK(from_span.to_tensor_list()[0].is_same(a));
  }
  SECTION("optional tensor list") {
    Tensor a = lz::zeros({2});
    const IValue v(std::vector<std::optional<Tensor>>{a, std::nullopt});
    CHECK(v.tag() == Tag::OptionalTensorList);
    const auto& list = v.to_optional_tensor_list();
    REQUIRE(list.size() == 2);
    CHECK(list[0]->is_same(a));
    CHECK_FALSE(list[1].has_value());
    CHECK(v.repr() == "[Tensor[2] float32, None]");
  }
  SECTION("ScalarType") {
    const IValue v(kBFloat16);
    CHECK(v.tag() == Tag::ScalarType);
    CHECK(v.to_scalar_type() == kBFloat16);
    CHECK(v.repr() == "bfloat16");
  }
  SECTION("Device") {
    const IValue v(Device("cuda:1"));
    CHECK(v.tag() == Tag::Device);
    CHECK(v.to_device() == Device("cuda:1"));
    CHECK(v.repr() == "cuda:1");
  }
  SECTION("Layout") {
    const IValue v(kStrided);
    CHECK(v.tag() == Tag::Layout);
    CHECK(v.to_layout() == Layout::Strided);
    CHECK(v.repr() == "strided");
  }
  SECTION("MemoryFormat") {
    const IValue v(MemoryFormat::Preserve);
    CHECK(v.tag() == Tag::MemoryFormat);
    CHECK(v.to_memory_format() == MemoryFormat::Preserve);
    CHECK(v.repr() == "preserve_format");
    CHECK(IValue(MemoryFormat::Contiguous).repr() == "contiguous_format");
  }
  SECTION("Generator") {
    Generator g = make_generator(1234);
    const IValue v(g);
    CHECK(v.tag() == Tag::Generator);
    CHECK(v.to_generator() == g);
    CHECK(v.repr() == "Generator(seed=1234)");
  }
}

TEST_CASE("IValue: tag names follow the schema spellings", "[core]") {
  CHECK(IValue(1.0).tag_name() == "float");
  CHECK(IValue(1).tag_name() == "int");
  CHECK(IValue(true).tag_name() == "bool");
  CHECK(IValue("s").tag_name() == "str");
  CHECK(IValue(std::vector<int64_t>{}).tag_name() == "int[]");
  CHECK(IValue(std::vector<double>{}).tag_name() == "float[]");
  CHECK(IValue(std::vector<bool>{}).tag_name() == "bool[]");
  CHECK(IValue(std::vector<Tensor>{}).tag_name() == "Tensor[]");
  CHECK(IValue(std::vector<std::optional<Tensor>>{}).tag_name() == "Tensor?[]");
  CHECK(IValue(kInt32).tag_name() == "ScalarType");
  CHECK(IValue(Device("cpu")).tag_name() == "Device");
  CHECK(IValue(kStrided).tag_name() == "Layout");
  CHECK(IValue(MemoryFormat::Contiguous).tag_name() == "MemoryFormat");
  CHECK(IValue(make_generator(1)).tag_name() == "Generator");
  CHECK(IValue(lz::zeros({1})).tag_name() == "Tensor");
}

TEST_CASE("IValue: Scalars box as the number they hold", "[core]") {
  const IValue i(Scalar(3));
  CHECK(i.is_int());
  CHECK(i.to_int() == 3);
  const IValue d(Scalar(2.5));
  CHECK(d.is_double());
  CHECK(d.to_double() == 2.5);
  const IValue b(Scalar(true));
  CHECK(b.is_bool());
  CHECK(b.to_bool());
  // And back.
  CHECK(i.to_scalar().kind() == Scalar::Kind::Int);
  CHECK(i.to_scalar().to_long() == 3);
  CHECK(d.to_scalar().kind() == Scalar::Kind::Double);
  CHECK(d.to_scalar().to_double() == 2.5);
  CHECK(b.to_scalar().kind() == Scalar::Kind::Bool);
  CHECK_THROWS_AS(IValue("x").to_scalar(), TypeError);
  CHECK_THROWS_WITH(IValue().to_scalar(), Contains("Scalar") && Contains("None"));
}

TEST_CASE("IValue: optional<T> boxes the value or None", "[core]") {
  CHECK(IValue(std::optional<int64_t>(5)).to_int() == 5);
  CHECK(IValue(std::optional<int64_t>()).is_none());
  CHECK(IValue(std::optional<ScalarType>(kFloat16)).to_scalar_type() == kFloat16);
  CHECK(IValue(std::optional<ScalarType>()).is_none());
  CHECK(IValue(std::optional<double>(0.5)).to_double() == 0.5);
  CHECK(IValue(std::optional<bool>(false)).is_bool());
  Tensor t = lz::zeros({1});
  CHECK(IValue(std::optional<Tensor>(t)).to_tensor().is_same(t));
  CHECK(IValue(std::optional<Tensor>()).is_none());
  CHECK(IValue(std::optional<Device>(Device("cuda:2"))).to_device() == Device("cuda:2"));
  CHECK(IValue(std::optional<Generator>()).is_none());
}

TEST_CASE("IValue: a wrong accessor throws TypeError naming both tags", "[core]") {
  CHECK_THROWS_AS(IValue(1).to_tensor(), TypeError);
  CHECK_THROWS_WITH(IValue(1).to_tensor(), Contains("expected Tensor") && Contains("got int"));
  CHECK_THROWS_WITH(IValue("abc").to_int(), Contains("expected int") && Contains("got str") &&
                                                 Contains("'abc'"));
  CHECK_THROWS_WITH(IValue(2.5).to_int(), Contains("int") && Contains("float"));
  CHECK_THROWS_WITH(IValue(true).to_double(), Contains("expected float") && Contains("got bool"));
  CHECK_THROWS_WITH(IValue(1).to_bool(), Contains("expected bool") && Contains("got int"));
  CHECK_THROWS_WITH(IValue().to_int_list(), Contains("expected int[]") && Contains("got None"));
  CHECK_THROWS_WITH(IValue(std::vector<int64_t>{1}).to_double_list(),
                    Contains("float[]") && Contains("int[]"));
  CHECK_THROWS_WITH(IValue(1).to_bool_list(), Contains("bool[]"));
  CHECK_THROWS_WITH(IValue(1).to_tensor_list(), Contains("expected Tensor[]"));
  CHECK_THROWS_WITH(IValue(std::vector<Tensor>{}).to_optional_tensor_list(),
                    Contains("expected Tensor?[]") && Contains("got Tensor[]"));
  CHECK_THROWS_WITH(IValue(kInt32).to_device(), Contains("expected Device") && Contains("got ScalarType"));
  CHECK_THROWS_WITH(IValue(Device("cpu")).to_scalar_type(), Contains("expected ScalarType"));
  CHECK_THROWS_WITH(IValue(kStrided).to_memory_format(), Contains("expected MemoryFormat") && Contains("got Layout"));
  CHECK_THROWS_WITH(IValue(MemoryFormat::Preserve).to_layout(), Contains("expected Layout"));
  CHECK_THROWS_WITH(IValue(1).to_generator(), Contains("expected Generator"));
  CHECK_THROWS_WITH(IValue(1).to_string_view(), Contains("expected str"));
  Tensor t = lz::zeros({1});
  CHECK_THROWS_AS(std::move(IValue(1)).to_tensor(), TypeError);
}

TEST_CASE("IValue: a Stack holds mixed values and streams", "[core]") {
  Stack stack;
  stack.emplace_back(lz::zeros({2}));
  stack.emplace_back(1.5);
  stack.emplace_back(std::nullopt);
  CHECK(stack[0].is_tensor());
  CHECK(stack[1].to_double() == 1.5);
  CHECK(stack[2].is_none());
  std::ostringstream os;
  for (const IValue& v : stack) os << v << ";";
  CHECK(os.str() == "Tensor[2] float32;1.5;None;");
}

TEST_CASE("IValue: only boxable optionals convert", "[core]") {
  STATIC_REQUIRE(std::is_constructible_v<IValue, std::optional<int64_t>>);
  STATIC_REQUIRE(std::is_constructible_v<IValue, std::optional<Tensor>>);
  STATIC_REQUIRE_FALSE(std::is_constructible_v<IValue, std::optional<std::vector<std::string>>>);
  STATIC_REQUIRE_FALSE(std::is_convertible_v<std::optional<Stack>, IValue>);
}
