#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

#include "core/half.h"

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LZ_TEST_HAVE_F16C_PATH 1
#endif

using namespace lz;

namespace {

// A slow reference for IEEE-style 16-bit formats, written from the format
// definitions with double arithmetic (every float and every 16-bit value is
// exact in double): scale to the quantum of the binade, round with
// nearbyint (ties to even in the default rounding mode), then encode.
struct Format16 {
  int mant_bits;  // explicit mantissa bits
  int exp_bits;
  int bias;
  int min_exp() const { return 1 - bias; }           // smallest normal exponent
  int max_exp() const { return (1 << exp_bits) - 2 - bias; }
  uint16_t inf_bits() const { return static_cast<uint16_t>(((1 << exp_bits) - 1) << mant_bits); }
};
constexpr Format16 kHalfFormat{10, 5, 15};
constexpr Format16 kBf16Format{7, 8, 127};

uint16_t ref_encode(float value, const Format16& fmt) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  if (std::isnan(value)) return static_cast<uint16_t>(sign | fmt.inf_bits() | 1);  // any NaN
  if (std::isinf(value)) return static_cast<uint16_t>(sign | fmt.inf_bits());
  const double a = std::fabs(static_cast<double>(value));
  if (a == 0) return sign;
  int E = 0;
  std::frexp(a, &E);
  int e = std::max(E - 1, fmt.min_exp());
  const double quantum = std::ldexp(1.0, e - fmt.mant_bits);
  double q = std::nearbyint(a / quantum);
  const double implicit = std::ldexp(1.0, fmt.mant_bits);
  if (q >= 2 * implicit) {  // rounding carried into the next binade
    q /= 2;
    ++e;
  }
  if (q < implicit) return static_cast<uint16_t>(sign | static_cast<uint16_t>(q));  // subnormal
  if (e > fmt.max_exp()) return static_cast<uint16_t>(sign | fmt.inf_bits());
  const uint32_t bits = (static_cast<uint32_t>(e + fmt.bias) << fmt.mant_bits) |
                        static_cast<uint32_t>(q - implicit);
  return static_cast<uint16_t>(sign | bits);
}

double ref_decode(uint16_t bits, const Format16& fmt) {
  const bool neg = bits & 0x8000;
  const int exp = (bits >> fmt.mant_bits) & ((1 << fmt.exp_bits) - 1);
  const int mant = bits & ((1 << fmt.mant_bits) - 1);
  double v;
  if (exp == (1 << fmt.exp_bits) - 1) {
    v = mant ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  } else if (exp == 0) {
    v = std::ldexp(static_cast<double>(mant), fmt.min_exp() - fmt.mant_bits);
  } else {
    v = std::ldexp(static_cast<double>(mant + (1 << fmt.mant_bits)), exp - fmt.bias - fmt.mant_bits);
  }
  return neg ? -v : v;
}

bool is_nan_bits(uint16_t bits, const Format16& fmt) {
  return (bits & 0x7fff) > fmt.inf_bits();
}

// Checks the library's float -> 16-bit result against the reference: NaN
// maps to a NaN of the same sign, everything else bit for bit.
bool matches_reference(float f, uint16_t got, const Format16& fmt) {
  const uint16_t want = ref_encode(f, fmt);
  if (std::isnan(f)) return is_nan_bits(got, fmt) && (got & 0x8000) == (want & 0x8000);
  return got == want;
}

// Floats probing every binade: low mantissa bits around the half rounding
// boundary (bit 12 is the half-ulp of a normal half) and random ones.
std::vector<float> probe_floats() {
  std::vector<float> out;
  std::mt19937 rng(1234);
  const uint32_t lows[] = {0x0, 0x1, 0xfff, 0x1000, 0x1001, 0x1fff, 0x7fff, 0x8000, 0x8001, 0xffff};
  for (uint32_t hi = 0; hi < (1u << 16); ++hi) {
    for (uint32_t lo : lows) out.push_back(std::bit_cast<float>((hi << 16) | lo));
    out.push_back(std::bit_cast<float>((hi << 16) | static_cast<uint32_t>(rng() & 0xffff)));
  }
  return out;
}

#ifdef LZ_TEST_HAVE_F16C_PATH
__attribute__((target("f16c"))) uint16_t f16c_float_to_half(float f) {
  return static_cast<uint16_t>(_cvtss_sh(f, _MM_FROUND_TO_NEAREST_INT));
}
__attribute__((target("f16c"))) float f16c_half_to_float(uint16_t h) { return _cvtsh_ss(h); }
bool cpu_has_f16c() { return __builtin_cpu_supports("f16c"); }
#endif

}  // namespace

TEST_CASE("reference converter sanity (so the comparisons below mean something)", "[core]") {
  CHECK(ref_encode(1.0f, kHalfFormat) == 0x3c00);
  CHECK(ref_encode(65504.0f, kHalfFormat) == 0x7bff);
  CHECK(ref_encode(std::ldexp(1.0f, -24), kHalfFormat) == 0x0001);
  CHECK(ref_decode(0x3555, kHalfFormat) == 0.333251953125);
  CHECK(ref_encode(1.0f, kBf16Format) == 0x3f80);
  CHECK(ref_decode(0xc000, kBf16Format) == -2.0);
}

TEST_CASE("Half: every bit pattern decodes exactly and round-trips", "[core]") {
  int mismatches = 0, roundtrip_failures = 0;
  for (uint32_t b = 0; b < 65536; ++b) {
    const uint16_t h = static_cast<uint16_t>(b);
    const float f = Half::from_bits(h);
    const double want = ref_decode(h, kHalfFormat);
    if (std::isnan(want)) {
      if (!std::isnan(f) || std::signbit(f) != bool(h & 0x8000)) ++mismatches;
      // NaN stays NaN (payload and quietness may change).
      if (!is_nan_bits(Half(f).bits, kHalfFormat)) ++roundtrip_failures;
    } else {
      if (static_cast<double>(f) != want || std::signbit(f) != std::signbit(want)) ++mismatches;
      if (Half(f).bits != h) ++roundtrip_failures;
    }
  }
  CHECK(mismatches == 0);
  CHECK(roundtrip_failures == 0);
}

TEST_CASE("Half: float -> half rounds to nearest even at every boundary", "[core]") {
  // Exact midpoints between every pair of adjacent finite halves (the ties),
  // and the floats just below and above them.
  int failures = 0;
  for (uint32_t b = 0; b < 0x7bff; ++b) {
    const double lo = ref_decode(static_cast<uint16_t>(b), kHalfFormat);
    const double hi = ref_decode(static_cast<uint16_t>(b + 1), kHalfFormat);
    const float mid = static_cast<float>((lo + hi) / 2);  // exact: needs 12 bits
    REQUIRE(static_cast<double>(mid) == (lo + hi) / 2);
    const uint16_t even = (b % 2 == 0) ? static_cast<uint16_t>(b) : static_cast<uint16_t>(b + 1);
    for (float sign : {1.0f, -1.0f}) {
      const uint16_t s = sign < 0 ? 0x8000 : 0;
      if (Half(sign * mid).bits != (even | s)) ++failures;
      if (Half(sign * std::nextafter(mid, 0.0f)).bits != (b | s)) ++failures;
      if (Half(sign * std::nextafter(mid, 1e9f)).bits != ((b + 1) | s)) ++failures;
    }
  }
  CHECK(failures == 0);
}

TEST_CASE("Half: float -> half matches the reference over every binade", "[core]") {
  int failures = 0;
  float first_bad = 0;
  for (float f : probe_floats()) {
    if (!matches_reference(f, Half(f).bits, kHalfFormat)) {
      if (failures++ == 0) first_bad = f;
    }
  }
  INFO("first mismatch at " << first_bad);
  CHECK(failures == 0);
}

TEST_CASE("Half: special values", "[core]") {
  CHECK(Half(0.0f).bits == 0x0000);
  CHECK(Half(-0.0f).bits == 0x8000);
  CHECK(std::signbit(static_cast<float>(Half::from_bits(0x8000))));
  CHECK(Half(1.0f).bits == 0x3c00);
  CHECK(Half(-2.0f).bits == 0xc000);
  // Largest finite half is 65504; 65520 is the tie with 2^16 and rounds (to even) to inf.
  CHECK(Half(65504.0f).bits == 0x7bff);
  CHECK(Half(65519.0f).bits == 0x7bff);
  CHECK(Half(std::nextafter(65520.0f, 0.0f)).bits == 0x7bff);
  CHECK(Half(65520.0f).bits == 0x7c00);
  CHECK(Half(-65520.0f).bits == 0xfc00);
  CHECK(Half(1e10f).bits == 0x7c00);
  CHECK(Half(std::numeric_limits<float>::max()).bits == 0x7c00);
  CHECK(Half(std::numeric_limits<float>::infinity()).bits == 0x7c00);
  CHECK(Half(-std::numeric_limits<float>::infinity()).bits == 0xfc00);
  CHECK(std::isinf(static_cast<float>(Half::from_bits(0x7c00))));
  // NaN, both signs, stays NaN.
  const uint16_t qnan = Half(std::numeric_limits<float>::quiet_NaN()).bits;
  CHECK(is_nan_bits(qnan, kHalfFormat));
  CHECK_FALSE(qnan & 0x8000);
  const uint16_t neg_nan = Half(-std::numeric_limits<float>::quiet_NaN()).bits;
  CHECK(is_nan_bits(neg_nan, kHalfFormat));
  CHECK(neg_nan & 0x8000);
  // A float NaN whose payload lives only in the low 13 bits must not become inf.
  CHECK(is_nan_bits(Half(std::bit_cast<float>(0x7f800001u)).bits, kHalfFormat));
  CHECK(std::isnan(static_cast<float>(Half::from_bits(0x7e00))));
  CHECK(std::isnan(static_cast<float>(Half::from_bits(0x7c01))));
  // Subnormals: 2^-24 is the smallest; 2^-25 ties to 0 (even); 3 * 2^-25 ties to 2 * 2^-24.
  CHECK(Half(std::ldexp(1.0f, -24)).bits == 0x0001);
  CHECK(Half(std::ldexp(1.0f, -25)).bits == 0x0000);
  CHECK(Half(std::ldexp(1.5f, -25)).bits == 0x0001);
  CHECK(Half(std::ldexp(3.0f, -25)).bits == 0x0002);
  CHECK(Half(-std::ldexp(1.0f, -26)).bits == 0x8000);  // underflows to -0
  CHECK(Half(std::ldexp(1023.0f, -24)).bits == 0x03ff);   // largest subnormal
  CHECK(Half(std::ldexp(1023.5f, -24)).bits == 0x0400);   // tie carries into the smallest normal
  CHECK(Half(std::ldexp(1.0f, -14)).bits == 0x0400);
  CHECK(static_cast<float>(Half::from_bits(0x0001)) == std::ldexp(1.0f, -24));
  CHECK(static_cast<float>(Half::from_bits(0x03ff)) == std::ldexp(1023.0f, -24));
  // Normal ties: 1 + 2^-11 is halfway between 1 (even) and 1 + 2^-10.
  CHECK(Half(1.0f + std::ldexp(1.0f, -11)).bits == 0x3c00);
  CHECK(Half(1.0f + 3 * std::ldexp(1.0f, -11)).bits == 0x3c02);
  CHECK(Half(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)).bits == 0x3c01);
  CHECK(static_cast<float>(Half(0.1f)) == 0.0999755859375f);
  STATIC_REQUIRE(Half(1.0f).bits == 0x3c00);
  STATIC_REQUIRE(static_cast<float>(Half::from_bits(0x4000)) == 2.0f);
}

TEST_CASE("Half agrees with the F16C hardware conversion", "[core]") {
#ifdef LZ_TEST_HAVE_F16C_PATH
  if (!cpu_has_f16c()) {
    WARN("CPU has no F16C: hardware comparison not run");
    return;
  }
  int decode_failures = 0;
  for (uint32_t b = 0; b < 65536; ++b) {
    const uint16_t h = static_cast<uint16_t>(b);
    const float hw = f16c_half_to_float(h);
    const float sw = Half::from_bits(h);
    if (std::isnan(hw) ? !std::isnan(sw) : std::bit_cast<uint32_t>(hw) != std::bit_cast<uint32_t>(sw)) {
      ++decode_failures;
    }
  }
  CHECK(decode_failures == 0);
  // Every 251st float bit pattern (17 million values across all binades) plus the probes.
  int encode_failures = 0;
  uint32_t first_bad = 0;
  uint64_t checked = 0;
  auto check_one = [&](uint32_t bits) {
    ++checked;
    const float f = std::bit_cast<float>(bits);
    const uint16_t hw = f16c_float_to_half(f);
    const uint16_t sw = Half(f).bits;
    const bool ok = std::isnan(f) ? is_nan_bits(sw, kHalfFormat) && (sw & 0x8000) == (hw & 0x8000)
                                  : sw == hw;
    if (!ok && encode_failures++ == 0) first_bad = bits;
  };
  for (uint64_t bits = 0; bits <= 0xffffffffull; bits += 251) check_one(static_cast<uint32_t>(bits));
  for (float f : probe_floats()) check_one(std::bit_cast<uint32_t>(f));
  INFO("first mismatch at float bits 0x" << std::hex << first_bad);
  CHECK(encode_failures == 0);
  CHECK(checked > 17000000);
#else
  WARN("not an x86 build: F16C comparison not run");
#endif
}

TEST_CASE("BFloat16: every bit pattern decodes exactly and round-trips", "[core]") {
  int mismatches = 0, roundtrip_failures = 0;
  for (uint32_t b = 0; b < 65536; ++b) {
    const uint16_t h = static_cast<uint16_t>(b);
    const float f = BFloat16::from_bits(h);
    const double want = ref_decode(h, kBf16Format);
    if (std::isnan(want)) {
      if (!std::isnan(f)) ++mismatches;
      const uint16_t back = BFloat16(f).bits;
      if (!is_nan_bits(back, kBf16Format) || (back & 0x8000) != (h & 0x8000)) ++roundtrip_failures;
    } else {
      if (static_cast<double>(f) != want || std::signbit(f) != std::signbit(want)) ++mismatches;
      if (BFloat16(f).bits != h) ++roundtrip_failures;
    }
  }
  CHECK(mismatches == 0);
  CHECK(roundtrip_failures == 0);
}

TEST_CASE("BFloat16: float -> bfloat16 rounds to nearest even", "[core]") {
  int failures = 0;
  float first_bad = 0;
  for (float f : probe_floats()) {
    if (!matches_reference(f, BFloat16(f).bits, kBf16Format) && failures++ == 0) first_bad = f;
  }
  INFO("first mismatch at " << first_bad);
  CHECK(failures == 0);
  // Ties: 1 + 2^-8 is halfway between 1 (even) and 1 + 2^-7.
  CHECK(BFloat16(1.0f + std::ldexp(1.0f, -8)).bits == 0x3f80);
  CHECK(BFloat16(1.0f + 3 * std::ldexp(1.0f, -8)).bits == 0x3f82);
  CHECK(BFloat16(std::nextafter(1.0f + std::ldexp(1.0f, -8), 2.0f)).bits == 0x3f81);
  CHECK(BFloat16(-1.0f - std::ldexp(1.0f, -8)).bits == 0xbf80);
  // Overflow: the largest finite bfloat16 is 0x7f7f; the tie above it rounds to inf.
  CHECK(BFloat16(std::bit_cast<float>(0x7f7f7fffu)).bits == 0x7f7f);
  CHECK(BFloat16(std::bit_cast<float>(0x7f7f8000u)).bits == 0x7f80);
  CHECK(BFloat16(std::numeric_limits<float>::max()).bits == 0x7f80);
  CHECK(BFloat16(-std::numeric_limits<float>::infinity()).bits == 0xff80);
  CHECK(BFloat16(0.0f).bits == 0x0000);
  CHECK(BFloat16(-0.0f).bits == 0x8000);
  // NaNs whose payload is only in the dropped low bits must stay NaN.
  CHECK(is_nan_bits(BFloat16(std::bit_cast<float>(0x7f800001u)).bits, kBf16Format));
  CHECK(is_nan_bits(BFloat16(std::bit_cast<float>(0xff800001u)).bits, kBf16Format));
  CHECK(BFloat16(std::bit_cast<float>(0xff800001u)).bits & 0x8000);
  // Float subnormals map onto bfloat16 subnormals.
  CHECK(BFloat16(std::bit_cast<float>(0x00010000u)).bits == 0x0001);
  CHECK(BFloat16(std::bit_cast<float>(0x00008000u)).bits == 0x0000);  // tie to even 0
  CHECK(BFloat16(std::bit_cast<float>(0x00018000u)).bits == 0x0002);  // tie to even 2
  STATIC_REQUIRE(BFloat16(1.0f).bits == 0x3f80);
}

TEST_CASE("Half and BFloat16 print as their float value", "[core]") {
  std::ostringstream os;
  os << Half(1.5f) << " " << BFloat16(-2.0f);
  CHECK(os.str() == "1.5 -2");
}
