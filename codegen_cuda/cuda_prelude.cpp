#include "codegen_cuda/cuda_prelude.h"

namespace lz::codegen_cuda {

// The helpers every generated kernel may call. They restate the kernel IR's
// scalar semantics (codegen_interp/scalar_semantics.h, core/half.h) in the
// subset of CUDA C++ that NVRTC and the host compiler (under the emulator
// header) both accept: no CUDA headers, bit casts through the __*_as_*
// intrinsics, integers computed in 64 bits and wrapped to their dtype.
std::string_view cuda_prelude() {
  return R"LZ(// ---- Lazuli kernel prelude ----
#define LZ_D __device__ __forceinline__
typedef long long lz_i64;
typedef unsigned long long lz_u64;

// Four consecutive elements, aligned so that one vector instruction moves
// them (the vectorized path of dense pointwise kernels).
template <class T> struct alignas(4 * sizeof(T)) lz_vec { T x[4]; };

LZ_D double lz_inf() { return __longlong_as_double(0x7ff0000000000000LL); }
LZ_D double lz_nan() { return __longlong_as_double(0x7ff8000000000000LL); }

// Integers: two's complement wrap (eager computes in int64, narrows on store).
LZ_D lz_i64 lz_add_i(lz_i64 a, lz_i64 b) { return (lz_i64)((lz_u64)a + (lz_u64)b); }
LZ_D lz_i64 lz_sub_i(lz_i64 a, lz_i64 b) { return (lz_i64)((lz_u64)a - (lz_u64)b); }
LZ_D lz_i64 lz_mul_i(lz_i64 a, lz_i64 b) { return (lz_i64)((lz_u64)a * (lz_u64)b); }
LZ_D lz_i64 lz_wrap_u8(lz_i64 x) { return (lz_i64)(unsigned char)(lz_u64)x; }
LZ_D lz_i64 lz_wrap_i8(lz_i64 x) { return (lz_i64)(signed char)(unsigned char)(lz_u64)x; }
LZ_D lz_i64 lz_wrap_i16(lz_i64 x) { return (lz_i64)(short)(unsigned short)(lz_u64)x; }
LZ_D lz_i64 lz_wrap_i32(lz_i64 x) { return (lz_i64)(int)(unsigned)(lz_u64)x; }
// Division by zero is 0 in the kernel IR; b == -1 negates (no INT64_MIN trap).
LZ_D lz_i64 lz_div_trunc_i(lz_i64 a, lz_i64 b) {
  if (b == 0) return 0;
  return b == -1 ? lz_sub_i(0, a) : a / b;
}
LZ_D lz_i64 lz_div_floor_i(lz_i64 a, lz_i64 b) {
  if (b == 0) return 0;
  if (b == -1) return lz_sub_i(0, a);
  const lz_i64 q = a / b, r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? q - 1 : q;
}
LZ_D lz_i64 lz_fmod_i(lz_i64 a, lz_i64 b) { return (b == 0 || b == -1) ? 0 : a % b; }
LZ_D lz_i64 lz_rem_i(lz_i64 a, lz_i64 b) {
  if (b == 0 || b == -1) return 0;
  const lz_i64 r = a % b;
  return (r != 0 && ((r < 0) != (b < 0))) ? r + b : r;
}
LZ_D lz_i64 lz_pow_i(lz_i64 a, lz_i64 b) {
  if (b < 0) return a == 1 ? 1 : a == -1 ? ((b & 1) ? -1 : 1) : 0;
  lz_u64 result = 1, base = (lz_u64)a;
  for (lz_u64 e = (lz_u64)b; e != 0; e >>= 1) {
    if (e & 1) result *= base;
    base *= base;
  }
  return (lz_i64)result;
}
LZ_D lz_i64 lz_max_i(lz_i64 a, lz_i64 b) { return a > b ? a : b; }
LZ_D lz_i64 lz_min_i(lz_i64 a, lz_i64 b) { return a < b ? a : b; }
LZ_D lz_i64 lz_abs_i(lz_i64 a) { return a < 0 ? lz_sub_i(0, a) : a; }
LZ_D lz_i64 lz_sign_i(lz_i64 a) { return (a > 0) - (a < 0); }

// float -> integer as eager's static_cast on x86-64: NaN and out-of-range
// values give the "integer indefinite" INT32_MIN / INT64_MIN (a GPU's own
// conversion would saturate instead).
LZ_D lz_i64 lz_f2i_i64(double v) {
  if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return (lz_i64)(-9223372036854775807LL - 1);
  return (lz_i64)v;
}
LZ_D lz_i64 lz_f2i_i32(double v) {
  if (!(v > -2147483649.0 && v < 2147483648.0)) return -2147483647LL - 1;
  return (lz_i64)v;
}

// Floats: NaN-propagating max/min, sign(NaN) = 0, Python's floor division
// and remainder (the result takes the divisor's sign).
#define LZ_FLOAT_HELPERS(T, S, FMOD, FLOOR, COPYSIGN)                                   \
  LZ_D T lz_max_##S(T a, T b) { return (a != a || b != b) ? a + b : (a > b ? a : b); } \
  LZ_D T lz_min_##S(T a, T b) { return (a != a || b != b) ? a + b : (a < b ? a : b); } \
  LZ_D T lz_sign_##S(T x) { return (T)(x > 0 ? 1 : 0) - (T)(x < 0 ? 1 : 0); }           \
  LZ_D bool lz_isinf_##S(T x) { return x == (T)lz_inf() || x == -(T)lz_inf(); }          \
  LZ_D T lz_rem_##S(T a, T b) {                                                          \
    T mod = FMOD(a, b);                                                                  \
    if (mod != 0 && ((b < 0) != (mod < 0))) mod += b;                                    \
    return mod;                                                                          \
  }                                                                                      \
  LZ_D T lz_floordiv_##S(T a, T b) {                                                     \
    if (b == 0) return a / b;                                                            \
    const T mod = FMOD(a, b);                                                            \
    T div = (a - mod) / b;                                                               \
    if (mod != 0 && ((b < 0) != (mod < 0))) div -= (T)1;                                 \
    if (div == 0) return COPYSIGN((T)0, a / b);                                          \
    T fl = FLOOR(div);                                                                   \
    if (div - fl > (T)0.5) fl += (T)1;                                                   \
    return fl;                                                                           \
  }
LZ_FLOAT_HELPERS(float, f, fmodf, floorf, copysignf)
LZ_FLOAT_HELPERS(double, d, fmod, floor, copysign)

// 16-bit floats are stored as bits and computed in float; conversions round
// to nearest even (core/half.h).
LZ_D float lz_half_to_float(unsigned short h) {
  const unsigned sign = (unsigned)(h & 0x8000u) << 16;
  const unsigned e = (h >> 10) & 0x1fu, mant = h & 0x3ffu;
  if (e == 0) {
    const float magnitude = (float)mant * (1.0f / 16777216.0f);
    return sign ? -magnitude : magnitude;
  }
  if (e == 31) return __uint_as_float(sign | 0x7f800000u | (mant << 13));
  return __uint_as_float(sign | ((e + 112u) << 23) | (mant << 13));
}
LZ_D unsigned short lz_float_to_half(float value) {
  unsigned f = __float_as_uint(value);
  const unsigned sign = f & 0x80000000u;
  f ^= sign;
  unsigned short out;
  if (f >= (143u << 23)) {
    out = f > (255u << 23) ? 0x7e00 : 0x7c00;
  } else if (f < (113u << 23)) {
    const unsigned magic = 126u << 23;
    const float sum = __uint_as_float(f) + __uint_as_float(magic);
    out = (unsigned short)(__float_as_uint(sum) - magic);
  } else {
    const unsigned mant_odd = (f >> 13) & 1u;
    f += ((unsigned)(15 - 127) << 23) + 0xfffu + mant_odd;
    out = (unsigned short)(f >> 13);
  }
  return (unsigned short)(out | (sign >> 16));
}
LZ_D float lz_bf16_to_float(unsigned short b) { return __uint_as_float((unsigned)b << 16); }
LZ_D unsigned short lz_float_to_bf16(float value) {
  const unsigned u = __float_as_uint(value);
  if ((u & 0x7fffffffu) > 0x7f800000u) return (unsigned short)((u >> 16) | 0x40u);
  return (unsigned short)((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);
}
LZ_D float lz_round_half(float x) { return lz_half_to_float(lz_float_to_half(x)); }
LZ_D float lz_round_bf16(float x) { return lz_bf16_to_float(lz_float_to_bf16(x)); }

// Block-wide reduction (blockDim.x a multiple of 32): a shuffle tree within
// each warp, then thread 0 combines the warps in order, so the result does
// not depend on timing. Every thread gets the result; `slots` (32 values in
// shared memory) may be reused once this returns.
enum { LZ_SUM = 0, LZ_PROD = 1, LZ_MAX = 2, LZ_MIN = 3, LZ_ALL = 4, LZ_ANY = 5 };
template <int OP> LZ_D double lz_combine(double a, double b) {
  return OP == LZ_SUM ? a + b : OP == LZ_PROD ? a * b : OP == LZ_MAX ? lz_max_d(a, b) : lz_min_d(a, b);
}
template <int OP> LZ_D lz_i64 lz_combine(lz_i64 a, lz_i64 b) {
  return OP == LZ_SUM ? lz_add_i(a, b) : OP == LZ_PROD ? lz_mul_i(a, b) : OP == LZ_MAX ? lz_max_i(a, b)
       : OP == LZ_MIN ? lz_min_i(a, b) : OP == LZ_ALL ? (lz_i64)(a != 0 && b != 0) : (lz_i64)(a != 0 || b != 0);
}
template <int OP, class T> LZ_D T lz_block_reduce(T v, T* slots) {
  const unsigned lane = threadIdx.x & 31u, warp = threadIdx.x >> 5;
  for (int d = 16; d > 0; d >>= 1) v = lz_combine<OP>(v, __shfl_down_sync(0xffffffffu, v, d));
  if (lane == 0) slots[warp] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    T r = slots[0];
    for (unsigned w = 1; w < blockDim.x / 32u; ++w) r = lz_combine<OP>(r, slots[w]);
    slots[0] = r;
  }
  __syncthreads();
  const T r = slots[0];
  __syncthreads();
  return r;
}
// ---- end of prelude ----
)LZ";
}

}  // namespace lz::codegen_cuda
