// Row primitives of the neural-network kernels (softmax, normalisations),
// written with GCC vector types of 64 bytes (16 floats or 8 doubles) that
// each ISA clone of the caller lowers to its registers (one zmm, two ymm or
// four xmm). Every element goes through the same vector code, a row's tail
// included (it is padded), so an element's result does not depend on its
// position, the row's alignment or the thread that computed it: the loops
// cannot be split into vector and scalar parts whose floating-point
// contraction (FMA) differs. float32 exp has no libm call; sums keep lane
// accumulators per block and add the blocks in double.
#pragma once

#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <new>
#include <type_traits>

#include "eager_kernels/cpu/dispatch_types.h"

// Functions and lambdas that take or return vectors are always inlined into
// the ISA clone that calls them: an out-of-line call would pass the vector
// under a different ABI (zmm registers in the AVX-512 clone, memory in the
// default code the helper was compiled as).
// (-Wpsabi warns about that ABI difference; with everything inlined it
// cannot arise, so the warning is off for the files including this header.)
#pragma GCC diagnostic ignored "-Wpsabi"
#define LZ_NN_INLINE inline __attribute__((always_inline))
#define LZ_NN_LAMBDA __attribute__((always_inline))

namespace lz::cpu::nn {

typedef float vfloat __attribute__((vector_size(64)));
typedef int32_t vint32 __attribute__((vector_size(64)));
typedef double vdouble __attribute__((vector_size(64)));
typedef int64_t vint64 __attribute__((vector_size(64)));

// The vector of C (float or double) and the integer vector of its lanes' size.
template <class C>
using Vec = std::conditional_t<std::is_same_v<C, float>, vfloat, vdouble>;
template <class C>
using IVec = std::conditional_t<std::is_same_v<C, float>, vint32, vint64>;
template <class C>
inline constexpr int64_t kWidth = 64 / sizeof(C);
// The integer type of a lane of IVec<C>.
template <class C>
using Lane = std::conditional_t<std::is_same_v<C, float>, int32_t, int64_t>;

template <class C>
LZ_NN_INLINE Vec<C> splat(C x) {
  return Vec<C>{} + x;
}

template <class C>
LZ_NN_INLINE Vec<C> load(const C* p) {
  Vec<C> v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <class C>
LZ_NN_INLINE void store(C* p, Vec<C> v) {
  std::memcpy(p, &v, sizeof v);
}

// The first k (< kWidth) lanes from p (converted from T), the others `pad`.
template <class C, class T>
LZ_NN_INLINE Vec<C> load_n(const T* p, int64_t k, C pad) {
  if constexpr (std::is_same_v<T, C>) {
    if (k == kWidth<C>) return load(p);
  }
  alignas(64) C tmp[kWidth<C>];
  for (int64_t j = 0; j < kWidth<C>; ++j) tmp[j] = j < k ? static_cast<C>(static_cast<opmath_t<T>>(p[j])) : pad;
  return load(tmp);
}

// Stores the first k lanes of v to p (converted to T).
template <class T, class C>
LZ_NN_INLINE void store_n(T* p, Vec<C> v, int64_t k) {
  if constexpr (std::is_same_v<T, C>) {
    if (k == kWidth<C>) return store(p, v);
  }
  alignas(64) C tmp[kWidth<C>];
  store(tmp, v);
  for (int64_t j = 0; j < k; ++j) p[j] = static_cast<T>(tmp[j]);
}

template <class C>
LZ_NN_INLINE Vec<C> vmax(Vec<C> a, Vec<C> b) {
  return a > b ? a : b;
}

// exp of 16 floats without libm (Cephes expf): x = n ln2 + r with
// |r| <= ln2/2 (Cody-Waite split of ln2), a degree-6 polynomial for e^r, and
// 2^n applied as two exact power-of-two factors built in the exponent bits
// (so results near overflow and in the denormal range come out right).
// Selects handle overflow (+inf), underflow (0) and NaN (propagates).
// Measured max error: 1 ulp (tests/eager/test_nn.cpp).
LZ_NN_INLINE vfloat exp(vfloat x) {
  const vfloat hi = splat(88.72283935546875f);   // above: +inf
  const vfloat lo = splat(-103.972084045410f);   // below: 0 (under half the smallest denormal)
  vfloat xc = x < lo ? lo : x;
  xc = xc > hi ? hi : xc;
  // n = round(x / ln2), read from the low mantissa bits of a shifted sum.
  const vfloat shift = splat(12582912.0f);  // 1.5 * 2^23
  const vfloat shifted = xc * 1.44269504088896341f + shift;
  const vfloat fn = shifted - shift;
  const vint32 n = std::bit_cast<vint32>(shifted) - std::bit_cast<vint32>(shift);
  vfloat r = xc - fn * 0.693359375f;
  r = r - fn * -2.12194440e-4f;
  vfloat p = splat(1.9875691500e-4f);
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  const vfloat y = p * r * r + r + 1.0f;
  // n is in [-150, 128]: 2^n = 2^n1 * 2^n2 with both halves normal.
  const vint32 n1 = n >> 1, n2 = n - n1;
  const vint32 e1 = (n1 + 127) << 23, e2 = (n2 + 127) << 23;
  vfloat result = y * std::bit_cast<vfloat>(e1) * std::bit_cast<vfloat>(e2);
  result = x < lo ? splat(0.0f) : result;
  result = x > hi ? splat(std::numeric_limits<float>::infinity()) : result;
  return result;
}

// float64: libm per lane (accuracy first; float64 softmax is not the fast path).
LZ_NN_INLINE vdouble exp(vdouble x) {
  for (int j = 0; j < 8; ++j) x[j] = std::exp(x[j]);
  return x;
}

// The float32 exp of the kernels for one value (the vector code, lane 0).
LZ_NN_INLINE float exp_f32(float x) { return exp(splat(x))[0]; }

inline constexpr int64_t kSumBlock = 1024;

// max over n >= 1 values (NaN may be dropped: callers get NaN from the later
// arithmetic on the NaN element anyway).
template <class C>
LZ_NN_INLINE C row_max(const C* x, int64_t n) {
  constexpr int64_t W = kWidth<C>;
  Vec<C> m = splat(-std::numeric_limits<C>::infinity());
  int64_t i = 0;
  for (; i + W <= n; i += W) m = vmax<C>(load(x + i), m);
  if (i < n) m = vmax<C>(load_n<C>(x + i, n - i, -std::numeric_limits<C>::infinity()), m);
  C r = m[0];
  for (int64_t j = 1; j < W; ++j) r = m[j] > r ? m[j] : r;
  return r;
}

template <class C>
LZ_NN_INLINE IVec<C> lane_index() {
  IVec<C> idx;
  for (int64_t j = 0; j < kWidth<C>; ++j) idx[j] = static_cast<Lane<C>>(j);
  return idx;
}

// Sum of f(v) over the n values of x (f maps a vector to a vector): vector
// lanes within blocks of kSumBlock, padded tail lanes zeroed after f, the
// lanes of a block added in order, the blocks in double.
template <class C, class F>
LZ_NN_INLINE double row_sum(const C* x, int64_t n, F f) {
  constexpr int64_t W = kWidth<C>;
  double total = 0;
  for (int64_t b = 0; b < n; b += kSumBlock) {
    const int64_t e = b + kSumBlock < n ? b + kSumBlock : n;
    Vec<C> acc = splat(C(0));
    int64_t i = b;
    for (; i + W <= e; i += W) acc += f(load(x + i));
    if (i < e) {
      const Vec<C> t = f(load_n<C>(x + i, e - i, C(0)));
      acc += lane_index<C>() < static_cast<Lane<C>>(e - i) ? t : splat(C(0));
    }
    C block = 0;
    for (int64_t j = 0; j < W; ++j) block += acc[j];
    total += static_cast<double>(block);
  }
  return total;
}

// dst[i] = f(vector of src) for n values, the tail padded: dst and src may
// be the same row.
template <class T, class C, class F>
LZ_NN_INLINE void row_map(T* dst, const C* src, int64_t n, F f) {
  constexpr int64_t W = kWidth<C>;
  int64_t i = 0;
  for (; i + W <= n; i += W) store_n<T, C>(dst + i, f(load(src + i), i), W);
  if (i < n) store_n<T, C>(dst + i, f(load_n<C>(src + i, n - i, C(0)), i), n - i);
}

// row_map(dst, src, n, f) into a C row that also returns the row_sum of what
// it wrote (same blocks and order, so the same value), in one pass.
template <class C, class F>
LZ_NN_INLINE double row_map_sum(C* dst, const C* src, int64_t n, F f) {
  constexpr int64_t W = kWidth<C>;
  static_assert(kSumBlock % W == 0, "blocks hold whole vectors");
  double total = 0;
  for (int64_t b = 0; b < n; b += kSumBlock) {
    const int64_t e = b + kSumBlock < n ? b + kSumBlock : n;
    Vec<C> acc = splat(C(0));
    int64_t i = b;
    for (; i + W <= e; i += W) {
      const Vec<C> v = f(load(src + i), i);
      store(dst + i, v);
      acc += v;
    }
    if (i < e) {
      const Vec<C> v = f(load_n<C>(src + i, e - i, C(0)), i);
      store_n<C, C>(dst + i, v, e - i);
      acc += lane_index<C>() < static_cast<Lane<C>>(e - i) ? v : splat(C(0));
    }
    C block = 0;
    for (int64_t j = 0; j < W; ++j) block += acc[j];
    total += static_cast<double>(block);
  }
  return total;
}

// Row kernels read a row from memory once and then work on it in cache; a
// loop over the cached row calls this with its element index so that the
// next row (nullptr: none) is fetched meanwhile, one cache line per vector,
// instead of memory idling while the row computes (softmax 43% -> 65% of
// the adjacent copy in bench_eager).
template <class T>
LZ_NN_INLINE void prefetch_next_row(const T* next, int64_t i) {
  if (next != nullptr) __builtin_prefetch(next + i);
}

// A scratch row of n values at a 64-byte aligned address.
template <class C>
class RowBuffer {
 public:
  explicit RowBuffer(int64_t n)
      : data_(n > 0 ? static_cast<C*>(::operator new[](static_cast<size_t>(n) * sizeof(C),
                                                        std::align_val_t(64)))
                    : nullptr) {}
  ~RowBuffer() {
    if (data_ != nullptr) ::operator delete[](data_, std::align_val_t(64));
  }
  RowBuffer(const RowBuffer&) = delete;
  RowBuffer& operator=(const RowBuffer&) = delete;
  C* data() const { return data_; }

 private:
  C* data_;
};

// dst[i] = static_cast<To>(src[i]) (16-bit floats through float).
template <class To, class From>
LZ_NN_INLINE void convert_row(To* dst, const From* src, int64_t n) {
  for (int64_t i = 0; i < n; ++i) dst[i] = static_cast<To>(static_cast<opmath_t<From>>(src[i]));
}

// The row `in` as values of the computation type C: `in` itself when T is
// C, else converted into `buf` (n values).
template <class C, class T>
LZ_NN_INLINE const C* compute_row(const T* in, int64_t n, C* buf) {
  if constexpr (std::is_same_v<T, C>) {
    return in;
  } else {
    convert_row(buf, in, n);
    return buf;
  }
}

}  // namespace lz::cpu::nn
