// 16-bit floating point storage types. Both are stored as 16 bits and convert
// to float for arithmetic (kernels compute in float32 and round back), like
// c10::Half and c10::BFloat16. Conversions round to nearest even.
#pragma once

#include <bit>
#include <cstdint>
#include <ostream>

namespace lz {

namespace detail {

constexpr uint16_t float_to_half_bits(float value) {
  uint32_t f = std::bit_cast<uint32_t>(value);
  const uint32_t sign = f & 0x80000000u;
  f ^= sign;
  uint16_t out;
  if (f >= (143u << 23)) {                     // >= 2^16: inf, or NaN kept quiet
    out = f > (255u << 23) ? 0x7e00 : 0x7c00;
  } else if (f < (113u << 23)) {               // below 2^-14: half subnormal or zero
    // Adding 0.5 aligns the half subnormal unit (2^-24) with float's last
    // mantissa bit, so the FPU does the round-to-nearest-even for us.
    constexpr uint32_t magic_bits = 126u << 23;
    float sum = std::bit_cast<float>(f) + std::bit_cast<float>(magic_bits);
    out = static_cast<uint16_t>(std::bit_cast<uint32_t>(sum) - magic_bits);
  } else {
    const uint32_t mant_odd = (f >> 13) & 1u;
    f += (static_cast<uint32_t>(15 - 127) << 23) + 0xfffu + mant_odd;  // rebias + round
    out = static_cast<uint16_t>(f >> 13);
  }
  return static_cast<uint16_t>(out | (sign >> 16));
}

constexpr float half_bits_to_float(uint16_t h) {
  const uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  const uint32_t exp = (h >> 10) & 0x1fu;
  const uint32_t mant = h & 0x3ffu;
  if (exp == 0) {
    // Zero or subnormal: mant * 2^-24, exact in float.
    const float magnitude = static_cast<float>(mant) * (1.0f / 16777216.0f);
    return sign ? -magnitude : magnitude;
  }
  if (exp == 31) return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp + 112u) << 23) | (mant << 13));
}

constexpr uint16_t float_to_bfloat16_bits(float value) {
  const uint32_t u = std::bit_cast<uint32_t>(value);
  if ((u & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((u >> 16) | 0x40u);  // quiet NaN
  const uint32_t rounded = u + 0x7fffu + ((u >> 16) & 1u);
  return static_cast<uint16_t>(rounded >> 16);
}

constexpr float bfloat16_bits_to_float(uint16_t b) {
  return std::bit_cast<float>(static_cast<uint32_t>(b) << 16);
}

}  // namespace detail

struct Half {
  uint16_t bits = 0;

  Half() = default;
  constexpr Half(float v) : bits(detail::float_to_half_bits(v)) {}
  static constexpr Half from_bits(uint16_t b) {
    Half h;
    h.bits = b;
    return h;
  }
  constexpr operator float() const { return detail::half_bits_to_float(bits); }
};

struct BFloat16 {
  uint16_t bits = 0;

  BFloat16() = default;
  constexpr BFloat16(float v) : bits(detail::float_to_bfloat16_bits(v)) {}
  static constexpr BFloat16 from_bits(uint16_t b) {
    BFloat16 h;
    h.bits = b;
    return h;
  }
  constexpr operator float() const { return detail::bfloat16_bits_to_float(bits); }
};

inline std::ostream& operator<<(std::ostream& os, Half h) { return os << static_cast<float>(h); }
inline std::ostream& operator<<(std::ostream& os, BFloat16 h) {
  return os << static_cast<float>(h);
}

}  // namespace lz
