#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <random>
#include <sstream>
#include <string>

#include "core/error.h"
#include "core/scalar.h"

using namespace lz;
using Catch::Matchers::Contains;

TEST_CASE("Scalar keeps its kind and its dtype", "[core]") {
  CHECK(Scalar(true).kind() == Scalar::Kind::Bool);
  CHECK(Scalar(true).type() == kBool);
  CHECK(Scalar(3).kind() == Scalar::Kind::Int);
  CHECK(Scalar(int64_t{3}).type() == kInt64);
  CHECK(Scalar(uint8_t{3}).type() == kInt64);
  CHECK(Scalar(2.5).kind() == Scalar::Kind::Double);
  CHECK(Scalar(2.5f).type() == kFloat64);
  CHECK(Scalar(Half(1.5f)).kind() == Scalar::Kind::Double);
  CHECK(Scalar(BFloat16(1.5f)).to_double() == 1.5);
  CHECK(Scalar().kind() == Scalar::Kind::Int);
  CHECK(Scalar().to_long() == 0);

  CHECK(Scalar(true).is_bool());
  CHECK(Scalar(true).is_integral(true));
  CHECK_FALSE(Scalar(true).is_integral(false));
  CHECK(Scalar(1).is_integral(false));
  CHECK_FALSE(Scalar(1).is_floating_point());
  CHECK(Scalar(1.0).is_floating_point());
  CHECK_FALSE(Scalar(1.0).is_integral(true));
}

TEST_CASE("Scalar conversions", "[core]") {
  CHECK(Scalar(2.7).to<int64_t>() == 2);
  CHECK(Scalar(-2.7).to<int64_t>() == -2);
  CHECK(Scalar(2.7).to_long() == 2);
  CHECK(Scalar(7).to_double() == 7.0);
  CHECK(Scalar(true).to_double() == 1.0);
  CHECK(Scalar(0.0).to_bool() == false);
  CHECK(Scalar(-0.5).to_bool() == true);
  CHECK(Scalar(2).to<bool>() == true);
  CHECK(Scalar(255).to<uint8_t>() == 255);
  CHECK(Scalar(0).to<uint8_t>() == 0);
  CHECK(Scalar(2.5).to<float>() == 2.5f);
  CHECK(Scalar(0.1).to<double>() == 0.1);
  CHECK(Scalar(1.0 / 3).to<Half>().bits == Half(1.0f / 3).bits);
  CHECK(Scalar(3).to<BFloat16>().bits == BFloat16(3.0f).bits);
  CHECK(Scalar(int64_t{1} << 40).to<int64_t>() == (int64_t{1} << 40));
  CHECK(Scalar(std::numeric_limits<int64_t>::min()).to<int64_t>() == std::numeric_limits<int64_t>::min());
  CHECK(Scalar(2147483647).to<int32_t>() == 2147483647);
  CHECK(Scalar(-2147483648.0).to<int32_t>() == std::numeric_limits<int32_t>::min());
  // -2^63 is exactly representable and fits.
  CHECK(Scalar(-std::ldexp(1.0, 63)).to<int64_t>() == std::numeric_limits<int64_t>::min());
}

TEST_CASE("Scalar::to range-checks integral targets", "[core]") {
  CHECK_THROWS_AS(Scalar(300).to<uint8_t>(), ValueError);
  CHECK_THROWS_WITH(Scalar(300).to<uint8_t>(), Contains("300") && Contains("uint8"));
  CHECK_THROWS_AS(Scalar(-1).to<uint8_t>(), ValueError);
  CHECK_THROWS_AS(Scalar(256.0).to<uint8_t>(), ValueError);
  CHECK_THROWS_AS(Scalar(-1.0).to<uint8_t>(), ValueError);
  CHECK_THROWS_AS(Scalar(int64_t{1} << 31).to<int32_t>(), ValueError);
  CHECK_THROWS_AS(Scalar(-(int64_t{1} << 31) - 1).to<int32_t>(), ValueError);
  CHECK_THROWS_AS(Scalar(3e9).to<int32_t>(), ValueError);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  CHECK_THROWS_AS(Scalar(nan).to<int64_t>(), ValueError);
  CHECK_THROWS_AS(Scalar(nan).to_long(), ValueError);
  CHECK_THROWS_AS(Scalar(inf).to<int64_t>(), ValueError);
  CHECK_THROWS_AS(Scalar(-inf).to<int32_t>(), ValueError);
  CHECK_THROWS_AS(Scalar(1e19).to<int64_t>(), ValueError);
  // 2^63 is one past int64's maximum (and is what that maximum rounds to as a double).
  CHECK_THROWS_AS(Scalar(std::ldexp(1.0, 63)).to<int64_t>(), ValueError);
  CHECK_THROWS_AS(Scalar(std::ldexp(1.0, 63)).to_long(), ValueError);
}

TEST_CASE("Scalar::to range-checks finite values for floating targets", "[core]") {
  // As in PyTorch: a finite value beyond the type's range is an error, while
  // inf and NaN convert as they are.
  CHECK_THROWS_AS(Scalar(1e300).to<float>(), ValueError);
  CHECK_THROWS_WITH(Scalar(70000.0).to<Half>(), Catch::Contains("cannot be converted to float16"));
  CHECK_THROWS_AS(Scalar(-65520.0).to<Half>(), ValueError);
  CHECK(static_cast<float>(Scalar(65504.0).to<Half>()) == 65504.0f);
  CHECK_THROWS_AS(Scalar(1e39).to<BFloat16>(), ValueError);
  CHECK(static_cast<float>(Scalar(3.0e38).to<BFloat16>()) > 2.9e38f);
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(std::isinf(Scalar(inf).to<float>()));
  CHECK(std::isinf(static_cast<float>(Scalar(-inf).to<Half>())));
  CHECK(std::isnan(static_cast<float>(Scalar(std::nan("")).to<BFloat16>())));
  CHECK(Scalar(1e300).to<double>() == 1e300);
}

TEST_CASE("Scalar::str is Python-like and round-trips", "[core]") {
  CHECK(Scalar(true).str() == "True");
  CHECK(Scalar(false).str() == "False");
  CHECK(Scalar(42).str() == "42");
  CHECK(Scalar(-7).str() == "-7");
  CHECK(Scalar(1.0).str() == "1.");
  CHECK(Scalar(-2.0).str() == "-2.");
  CHECK(Scalar(100.0).str() == "100.");
  CHECK(Scalar(0.0).str() == "0.");
  CHECK(Scalar(-0.0).str() == "-0.");
  CHECK(Scalar(2.5).str() == "2.5");
  CHECK(Scalar(0.1).str() == "0.1");
  CHECK(Scalar(1e-05).str() == "1e-05");
  CHECK(Scalar(1e100).str() == "1e+100");
  CHECK(Scalar(std::numeric_limits<double>::quiet_NaN()).str() == "nan");
  CHECK(Scalar(std::numeric_limits<double>::infinity()).str() == "inf");
  CHECK(Scalar(-std::numeric_limits<double>::infinity()).str() == "-inf");
  std::ostringstream os;
  os << Scalar(0.25) << " " << Scalar(3);
  CHECK(os.str() == "0.25 3");
  // Shortest text that reads back exactly: random doubles round-trip, and
  // 0.1 + 0.2 needs all 17 digits.
  CHECK(Scalar(0.1 + 0.2).str() == "0.30000000000000004");
  std::mt19937_64 rng(99);
  std::uniform_real_distribution<double> dist(-1e6, 1e6);
  for (int i = 0; i < 1000; ++i) {
    const double d = i % 2 ? dist(rng) : std::ldexp(dist(rng), static_cast<int>(rng() % 200) - 100);
    const std::string s = Scalar(d).str();
    INFO(s);
    CHECK(std::strtod(s.c_str(), nullptr) == d);
    CHECK(s.find_first_of(".e") != std::string::npos);  // never looks like an integer
  }
}

TEST_CASE("Scalar negation", "[core]") {
  CHECK((-Scalar(3)).to_long() == -3);
  CHECK((-Scalar(3)).kind() == Scalar::Kind::Int);
  CHECK((-Scalar(2.5)).to_double() == -2.5);
  CHECK((-Scalar(2.5)).kind() == Scalar::Kind::Double);
  CHECK_THROWS_AS(-Scalar(true), TypeError);
  CHECK_THROWS_WITH(-Scalar(false), Contains("bool"));
}
