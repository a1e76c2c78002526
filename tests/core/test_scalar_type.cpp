#include <catch2/catch.hpp>

#include <limits>
#include <map>
#include <sstream>
#include <utility>

#include "core/error.h"
#include "core/scalar_type.h"

using namespace lz;

namespace {

constexpr ScalarType kAll[] = {kBool,  kUInt8,   kInt8,     kInt16,   kInt32,
                               kInt64, kFloat16, kBFloat16, kFloat32, kFloat64};

// torch.promote_types for every unordered pair of the 10 dtypes, written out
// from PyTorch's table (c10/core/ScalarType.cpp, _promoteTypesLookup).
ScalarType expected_promotion(ScalarType a, ScalarType b) {
  using P = std::pair<ScalarType, ScalarType>;
  static const std::map<P, ScalarType> kTable = {
      {{kBool, kBool}, kBool},           {{kBool, kUInt8}, kUInt8},
      {{kBool, kInt32}, kInt32},         {{kBool, kInt64}, kInt64},
      {{kBool, kFloat16}, kFloat16},     {{kBool, kBFloat16}, kBFloat16},
      {{kBool, kFloat32}, kFloat32},     {{kBool, kFloat64}, kFloat64},
      {{kUInt8, kUInt8}, kUInt8},        {{kUInt8, kInt32}, kInt32},
      {{kUInt8, kInt64}, kInt64},        {{kUInt8, kFloat16}, kFloat16},
      {{kUInt8, kBFloat16}, kBFloat16},  {{kUInt8, kFloat32}, kFloat32},
      {{kUInt8, kFloat64}, kFloat64},    {{kInt32, kInt32}, kInt32},
      {{kInt32, kInt64}, kInt64},        {{kInt32, kFloat16}, kFloat16},
      {{kInt32, kBFloat16}, kBFloat16},  {{kInt32, kFloat32}, kFloat32},
      {{kInt32, kFloat64}, kFloat64},    {{kInt64, kInt64}, kInt64},
      {{kInt64, kFloat16}, kFloat16},    {{kInt64, kBFloat16}, kBFloat16},
      {{kInt64, kFloat32}, kFloat32},    {{kInt64, kFloat64}, kFloat64},
      {{kFloat16, kFloat16}, kFloat16},  {{kFloat16, kBFloat16}, kFloat32},
      {{kFloat16, kFloat32}, kFloat32},  {{kFloat16, kFloat64}, kFloat64},
      {{kBFloat16, kBFloat16}, kBFloat16}, {{kBFloat16, kFloat32}, kFloat32},
      {{kBFloat16, kFloat64}, kFloat64}, {{kFloat32, kFloat32}, kFloat32},
      {{kFloat32, kFloat64}, kFloat64},  {{kFloat64, kFloat64}, kFloat64},
      {{kBool, kInt8}, kInt8},           {{kBool, kInt16}, kInt16},
      {{kUInt8, kInt8}, kInt16},         {{kUInt8, kInt16}, kInt16},
      {{kInt8, kInt8}, kInt8},           {{kInt8, kInt16}, kInt16},
      {{kInt8, kInt32}, kInt32},         {{kInt8, kInt64}, kInt64},
      {{kInt8, kFloat16}, kFloat16},     {{kInt8, kBFloat16}, kBFloat16},
      {{kInt8, kFloat32}, kFloat32},     {{kInt8, kFloat64}, kFloat64},
      {{kInt16, kInt16}, kInt16},        {{kInt16, kInt32}, kInt32},
      {{kInt16, kInt64}, kInt64},        {{kInt16, kFloat16}, kFloat16},
      {{kInt16, kBFloat16}, kBFloat16},  {{kInt16, kFloat32}, kFloat32},
      {{kInt16, kFloat64}, kFloat64},
  };
  auto it = kTable.find({a, b});
  if (it == kTable.end()) it = kTable.find({b, a});
  REQUIRE(it != kTable.end());
  return it->second;
}

}  // namespace

TEST_CASE("promote_types follows PyTorch's lattice", "[core]") {
  CHECK(promote_types(kBool, kUInt8) == kUInt8);
  CHECK(promote_types(kUInt8, kInt32) == kInt32);
  CHECK(promote_types(kInt64, kFloat16) == kFloat16);
  CHECK(promote_types(kFloat16, kBFloat16) == kFloat32);
  CHECK(promote_types(kFloat32, kFloat64) == kFloat64);
}

TEST_CASE("promote_types matches the full PyTorch table and is symmetric", "[core]") {
  for (ScalarType a : kAll) {
    for (ScalarType b : kAll) {
      INFO(a << " + " << b);
      CHECK(promote_types(a, b) == expected_promotion(a, b));
      CHECK(promote_types(a, b) == promote_types(b, a));
    }
  }
}

TEST_CASE("promote_types is idempotent, associative and an upper bound", "[core]") {
  for (ScalarType a : kAll) {
    CHECK(promote_types(a, a) == a);
    for (ScalarType b : kAll) {
      const ScalarType ab = promote_types(a, b);
      // Both operands can be cast to the result without changing category.
      CHECK(can_cast(a, ab));
      CHECK(can_cast(b, ab));
      for (ScalarType c : kAll) {
        INFO(a << ", " << b << ", " << c);
        CHECK(promote_types(ab, c) == promote_types(a, promote_types(b, c)));
      }
    }
  }
}

TEST_CASE("promote_types rejects Undefined", "[core]") {
  CHECK_THROWS_AS(promote_types(ScalarType::Undefined, kFloat32), TypeError);
  CHECK_THROWS_AS(promote_types(kInt32, ScalarType::Undefined), TypeError);
  CHECK_THROWS_AS(can_cast(ScalarType::Undefined, kFloat32), TypeError);
}

TEST_CASE("can_cast follows torch.can_cast", "[core]") {
  auto category = [](ScalarType t) { return t == kBool ? 0 : is_floating_point(t) ? 2 : 1; };
  for (ScalarType from : kAll) {
    for (ScalarType to : kAll) {
      INFO(from << " -> " << to);
      // Same or higher category is allowed, whatever the width (torch.can_cast(float64, float16) is True).
      CHECK(can_cast(from, to) == (category(from) <= category(to)));
    }
  }
  CHECK_FALSE(can_cast(kFloat32, kInt64));
  CHECK_FALSE(can_cast(kFloat16, kUInt8));
  CHECK_FALSE(can_cast(kInt32, kBool));
  CHECK_FALSE(can_cast(kFloat64, kBool));
  CHECK(can_cast(kBool, kUInt8));
  CHECK(can_cast(kInt64, kUInt8));
  CHECK(can_cast(kInt64, kBFloat16));
  CHECK(can_cast(kFloat64, kFloat16));
}

TEST_CASE("element_size, names and categories of every dtype", "[core]") {
  struct Row {
    ScalarType t;
    size_t size;
    const char* name;
    bool floating;
    bool integral;
  };
  const Row rows[] = {
      {kBool, 1, "bool", false, false},         {kUInt8, 1, "uint8", false, true},
      {kInt8, 1, "int8", false, true},          {kInt16, 2, "int16", false, true},
      {kInt32, 4, "int32", false, true},        {kInt64, 8, "int64", false, true},
      {kFloat16, 2, "float16", true, false},    {kBFloat16, 2, "bfloat16", true, false},
      {kFloat32, 4, "float32", true, false},    {kFloat64, 8, "float64", true, false},
  };
  for (const Row& r : rows) {
    INFO(r.name);
    CHECK(element_size(r.t) == r.size);
    CHECK(to_string(r.t) == r.name);
    std::ostringstream os;
    os << r.t;
    CHECK(os.str() == r.name);
    CHECK(is_floating_point(r.t) == r.floating);
    CHECK(is_integral(r.t, false) == r.integral);
    CHECK(is_integral(r.t, true) == (r.integral || r.t == kBool));
  }
  CHECK(to_string(ScalarType::Undefined) == "undefined");
  CHECK_THROWS_AS(element_size(ScalarType::Undefined), TypeError);
  CHECK_FALSE(is_floating_point(ScalarType::Undefined));
}

TEST_CASE("integral_range gives each integral dtype's values", "[core]") {
  CHECK(integral_range(kBool).min == 0);
  CHECK(integral_range(kBool).max == 1);
  CHECK(integral_range(kUInt8).max == 255);
  CHECK(integral_range(kInt8).min == -128);
  CHECK(integral_range(kInt16).max == 32767);
  CHECK(integral_range(kInt64).min == std::numeric_limits<int64_t>::min());
  CHECK_THROWS_WITH(integral_range(kFloat32), "integral_range: float32 is not an integral dtype");
}

TEST_CASE("libtorch constant spellings and C++ type mapping agree", "[core]") {
  CHECK(kByte == kUInt8);
  CHECK(kInt == kInt32);
  CHECK(kChar == kInt8);
  CHECK(kShort == kInt16);
  CHECK(kLong == kInt64);
  CHECK(kHalf == kFloat16);
  CHECK(kFloat == kFloat32);
  CHECK(kDouble == kFloat64);
  STATIC_REQUIRE(scalar_type_of<bool> == kBool);
  STATIC_REQUIRE(scalar_type_of<uint8_t> == kUInt8);
  STATIC_REQUIRE(scalar_type_of<int8_t> == kInt8);
  STATIC_REQUIRE(scalar_type_of<int16_t> == kInt16);
  STATIC_REQUIRE(scalar_type_of<int32_t> == kInt32);
  STATIC_REQUIRE(scalar_type_of<int64_t> == kInt64);
  STATIC_REQUIRE(scalar_type_of<Half> == kFloat16);
  STATIC_REQUIRE(scalar_type_of<BFloat16> == kBFloat16);
  STATIC_REQUIRE(scalar_type_of<float> == kFloat32);
  STATIC_REQUIRE(scalar_type_of<double> == kFloat64);
  CHECK(kNumScalarTypes == 10);
  CHECK(default_float_dtype() == kFloat32);
}

TEST_CASE("always_fits: every value of one dtype is one of another's", "[core]") {
  CHECK(always_fits(kInt8, kInt16));
  CHECK(always_fits(kUInt8, kInt16));
  CHECK(always_fits(kBool, kUInt8));
  CHECK(always_fits(kInt64, kFloat32));  // in range, rounded
  CHECK(always_fits(kFloat16, kFloat32));
  CHECK(always_fits(kFloat32, kFloat64));
  CHECK_FALSE(always_fits(kInt16, kUInt8));
  CHECK_FALSE(always_fits(kInt8, kUInt8));
  CHECK_FALSE(always_fits(kFloat16, kInt64));
  CHECK_FALSE(always_fits(kFloat32, kFloat16));
  CHECK_FALSE(always_fits(kFloat32, kBFloat16));  // bfloat16's largest finite value is below float's
  CHECK_FALSE(always_fits(kInt32, kFloat16));
}
