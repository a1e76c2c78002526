#include "bandwidth.h"

#include <immintrin.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <new>

#include <lazuli/lazuli.h>

namespace lz::bench_runner {
namespace {

// Work is split in blocks of kBlock floats, so every thread's part of an
// aligned array starts on a 64-byte boundary.
constexpr int64_t kBlock = int64_t{1} << 16;

// f(lo, hi) over the float ranges of whole blocks (the last one may be
// shorter), in parallel; each thread fences its non-temporal stores.
template <class F>
void for_blocks(int64_t n, F&& f) {
  lz::parallel_for(0, (n + kBlock - 1) / kBlock, 1, [&](int64_t b0, int64_t b1) {
    f(b0 * kBlock, std::min(n, b1 * kBlock));
    _mm_sfence();
  });
}

// Streaming copies: plain stores up to dst's first `align`-byte boundary
// and after its last whole vector, non-temporal stores in between (the
// source may be unaligned).
template <size_t kAlign>
int64_t head_floats(const float* dst, int64_t n) {
  const size_t misalign = reinterpret_cast<uintptr_t>(dst) & (kAlign - 1);
  return misalign == 0 ? 0 : std::min<int64_t>(n, static_cast<int64_t>((kAlign - misalign) / sizeof(float)));
}
__attribute__((target("avx512f"))) void copy_avx512(float* a, const float* b, int64_t n) {
  int64_t i = head_floats<64>(a, n);
  std::copy(b, b + i, a);
  for (; i + 16 <= n; i += 16) _mm512_stream_ps(a + i, _mm512_loadu_ps(b + i));
  std::copy(b + i, b + n, a + i);
}
__attribute__((target("avx2"))) void copy_avx2(float* a, const float* b, int64_t n) {
  int64_t i = head_floats<32>(a, n);
  std::copy(b, b + i, a);
  for (; i + 8 <= n; i += 8) _mm256_stream_ps(a + i, _mm256_loadu_ps(b + i));
  std::copy(b + i, b + n, a + i);
}
void copy_sse(float* a, const float* b, int64_t n) {
  int64_t i = head_floats<16>(a, n);
  std::copy(b, b + i, a);
  for (; i + 4 <= n; i += 4) _mm_stream_ps(a + i, _mm_loadu_ps(b + i));
  std::copy(b + i, b + n, a + i);
}

using CopyFn = void (*)(float*, const float*, int64_t);
CopyFn pick_copy() {
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx512f")) return &copy_avx512;
  if (__builtin_cpu_supports("avx2")) return &copy_avx2;
  return &copy_sse;
}

// The triad runs on the probe's own arrays (64-byte aligned, whole blocks).
__attribute__((target("avx512f"))) void triad_avx512(float* a, const float* b, const float* c, float s, int64_t n) {
  const __m512 vs = _mm512_set1_ps(s);
  for (int64_t i = 0; i < n; i += 16) {
    _mm512_stream_ps(a + i, _mm512_fmadd_ps(vs, _mm512_load_ps(c + i), _mm512_load_ps(b + i)));
  }
}
void triad_sse(float* a, const float* b, const float* c, float s, int64_t n) {
  const __m128 vs = _mm_set1_ps(s);
  for (int64_t i = 0; i < n; i += 4) _mm_stream_ps(a + i, _mm_add_ps(_mm_load_ps(b + i), _mm_mul_ps(vs, _mm_load_ps(c + i))));
}

bool has_avx512() {
  static const bool has = __builtin_cpu_supports("avx512f");
  return has;
}

float* aligned_floats(int64_t n) {
  void* p = std::aligned_alloc(64, static_cast<size_t>(n) * sizeof(float));
  if (p == nullptr) throw std::bad_alloc();
  return static_cast<float*>(p);
}

template <class F>
double timed_gbps(double bytes, F&& pass) {
  const auto t0 = std::chrono::steady_clock::now();
  pass();
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  return bytes / s / 1e9;
}

}  // namespace

void stream_copy(float* dst, const float* src, int64_t n) {
  static const CopyFn copy = pick_copy();
  for_blocks(n, [&](int64_t lo, int64_t hi) { copy(dst + lo, src + lo, hi - lo); });
}

struct BandwidthProbe::Arrays {
  int64_t n;
  float *a, *b, *c;
  explicit Arrays(int64_t elements) : n((elements + kBlock - 1) / kBlock * kBlock) {
    a = aligned_floats(n);
    b = aligned_floats(n);
    c = aligned_floats(n);
    // Touch every page (and give the triad finite inputs).
    for_blocks(n, [&](int64_t lo, int64_t hi) {
      for (int64_t i = lo; i < hi; ++i) a[i] = 0.0f, b[i] = 1.0f, c[i] = 2.0f;
    });
  }
  ~Arrays() {
    std::free(a);
    std::free(b);
    std::free(c);
  }
};

struct BandwidthProbe::DeviceArrays {
  Device device;
  Tensor a, b, c;
  DeviceArrays(int64_t n, Device d)
      : device(d),
        a(lz::zeros({n}, TensorOptions().device(d))),
        b(lz::ones({n}, TensorOptions().device(d))),
        c(lz::full({n}, 2.0, TensorOptions().device(d))) {}
  template <class F>
  double timed(double bytes_per_element, F&& pass) {
    cuda::synchronize(device.index());
    return timed_gbps(bytes_per_element * static_cast<double>(a.numel()), [&] {
      pass();
      cuda::synchronize(device.index());
    });
  }
};

BandwidthProbe::BandwidthProbe(int64_t elements, Device device) {
  if (device.is_cuda()) {
    device_arrays_ = std::make_unique<DeviceArrays>(elements, device);
  } else {
    arrays_ = std::make_unique<Arrays>(elements);
  }
}
BandwidthProbe::~BandwidthProbe() = default;

double BandwidthProbe::copy_gbps() {
  if (device_arrays_) {
    DeviceArrays& d = *device_arrays_;
    return d.timed(2.0 * 4.0, [&] { d.a.copy_(d.b); });
  }
  Arrays& x = *arrays_;
  return timed_gbps(2.0 * 4.0 * static_cast<double>(x.n), [&] { stream_copy(x.a, x.b, x.n); });
}

double BandwidthProbe::triad_gbps() {
  if (device_arrays_) {
    DeviceArrays& d = *device_arrays_;
    return d.timed(3.0 * 4.0, [&] { lz::add_out(d.a, d.b, d.c, 3.0); });
  }
  Arrays& x = *arrays_;
  return timed_gbps(3.0 * 4.0 * static_cast<double>(x.n), [&] {
    for_blocks(x.n, [&](int64_t lo, int64_t hi) {
      has_avx512() ? triad_avx512(x.a + lo, x.b + lo, x.c + lo, 3.0f, hi - lo)
                   : triad_sse(x.a + lo, x.b + lo, x.c + lo, 3.0f, hi - lo);
    });
  });
}

}  // namespace lz::bench_runner
