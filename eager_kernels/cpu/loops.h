// Element-wise inner loops over a TensorIterator:
//   cpu_kernel<float, float, float>(iter, [](float a, float b) { return a + b; });
// The first template argument is the output's element type, the rest the
// inputs'. Rows where every operand is contiguous run a plain indexed loop
// compiled for AVX-512, AVX2 and baseline x86-64 (picked at load time), so the
// compiler vectorises it for the best ISA the CPU has; large outputs are
// written with non-temporal stores. A broadcast (stride-0) input in an
// otherwise contiguous row is read once per row; anything else takes the
// strided loop. Operands stored as float16 or bfloat16 where the loop's type
// is float are converted in blocks around the float loop (widened_rows).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>
#include <type_traits>
#include <utility>

#include "eager_kernels/cpu/float16_blocks.h"
#include "eager_kernels/cpu/streaming_store.h"
#include "eager_kernels/cpu/tensor_iterator.h"

namespace lz::cpu {

// Clones of a hot loop for each ISA level, chosen once at load time. Off
// (one function for the baseline ISA) where CMake's LZ_CPU_CLONES is: on
// other architectures, in TSan builds, for Clang 14 (cmake/Sanitizers.cmake).
#if defined(LZ_NO_CPU_CLONES)
#define LZ_CPU_CLONES
#else
#define LZ_CPU_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#endif

namespace detail {

template <class T>
inline T load(const char* base, int64_t stride, int64_t i) {
  return *reinterpret_cast<const T*>(base + i * stride);
}

template <class Out, class F, class... In>
LZ_CPU_CLONES void contiguous_row(Out* out, int64_t n, const F& f, const In*... in) {
  for (int64_t i = 0; i < n; ++i) out[i] = f(in[i]...);
}

// contiguous_row, prefetching the inputs `ahead` bytes further on: one cache
// line per line of output, spread through the computation. For unary kernels
// with real arithmetic (exp: 64% -> 73-78% of the adjacent copy) the hardware
// prefetcher alone leaves memory idle while a block computes; a burst of
// prefetches per block instead measured slower than none.
template <class Out, class F, class... In>
LZ_CPU_CLONES void contiguous_row_prefetch(Out* out, int64_t n, int64_t ahead, const F& f, const In*... in) {
  constexpr int64_t kLine = 64 / sizeof(Out);
  int64_t i = 0;
  for (; i + kLine <= n; i += kLine) {
    (__builtin_prefetch(reinterpret_cast<const char*>(in + i) + ahead), ...);
    for (int64_t k = 0; k < kLine; ++k) out[i + k] = f(in[i + k]...);
  }
  for (; i < n; ++i) out[i] = f(in[i]...);
}

// Bytes of output computed into the L1 buffer per streamed block.
inline constexpr int64_t kStreamingBlockBytes = 4096;

// Rows with one input of the output's element size (unary kernels, and a
// binary one with an operand bound by value) take the prefetching loop at
// every length, so each operator and dtype compiles one loop, not two. With
// several inputs (or a bool one) the fixed line-sized inner loop stops
// vectorising (where: 88% -> 15%), and those kernels are memory-bound already.
// Prefetches past the end of an input are harmless: they never fault.
template <class Out, class... In>
inline constexpr bool kPrefetchingRow = sizeof...(In) == 1 && ((sizeof(In) == sizeof(Out)) && ...);

template <class Out, class F, class... In>
inline void contiguous_row_any(Out* out, int64_t n, const F& f, const In*... in) {
  if constexpr (kPrefetchingRow<Out, In...>) {
    contiguous_row_prefetch(out, n, kStreamingBlockBytes, f, in...);
  } else {
    contiguous_row(out, n, f, in...);
  }
}

// The same, through an L1-sized buffer flushed with non-temporal stores:
// the output's cache lines are never read, saving a third of the traffic of
// a large binary op.
template <class Out, class F, class... In>
void contiguous_row_streaming(Out* out, int64_t n, const F& f, const In*... in) {
  constexpr int64_t kBlock = kStreamingBlockBytes / sizeof(Out);
  alignas(64) Out buffer[kBlock];
  for (int64_t i = 0; i < n; i += kBlock) {
    const int64_t m = std::min(kBlock, n - i);
    contiguous_row_any(buffer, m, f, (in + i)...);
    streaming_copy(out + i, buffer, static_cast<size_t>(m) * sizeof(Out));
  }
  // Streaming stores are weakly ordered: fence them on the thread that made
  // them, before the pool reports the chunk done.
  streaming_store_fence();
}

// A contiguous row, through the streaming buffer for large outputs.
template <class Out, class F, class... In>
inline void contiguous_row_maybe_streaming(bool streaming, Out* out, int64_t n, const F& f, const In*... in) {
  if (streaming) {
    contiguous_row_streaming(out, n, f, in...);
  } else {
    contiguous_row_any(out, n, f, in...);
  }
}

// A row of several inputs, each contiguous or one number broadcast along it
// (stride 0): every number fills an L1 block once, which the contiguous
// loop reads as a row, so broadcasting compiles no loop instance of its own
// (x * 2, x - column, addcmul(x, 2, y) run the operator's one loop).
template <class Out, class... In, class F, size_t... I>
void broadcast_row(bool streaming, Out* out, int64_t n, const F& f, char** data, const int64_t* strides,
                   std::index_sequence<I...>) {
  constexpr int64_t kBlock = kStreamingBlockBytes / sizeof(Out);
  std::tuple<std::array<In, kBlock>...> filled;  // uninitialised: only the broadcast ones are filled
  alignas(64) Out buffer[kBlock];
  const bool broadcast[] = {(strides[I + 1] == 0)...};
  const auto fill = [&](auto& block, bool is_broadcast, const auto* value) {
    if (is_broadcast) std::fill_n(block.data(), std::min(kBlock, n), *value);
  };
  (fill(std::get<I>(filled), broadcast[I], reinterpret_cast<const In*>(data[I + 1])), ...);
  for (int64_t i = 0; i < n; i += kBlock) {
    const int64_t m = std::min(kBlock, n - i);
    Out* dst = streaming ? buffer : out + i;
    contiguous_row(dst, m, f,
                   (broadcast[I] ? std::get<I>(filled).data() : reinterpret_cast<const In*>(data[I + 1]) + i)...);
    if (streaming) streaming_copy(out + i, buffer, static_cast<size_t>(m) * sizeof(Out));
  }
  if (streaming) streaming_store_fence();
}

template <class Out, class... In, class F, size_t... I>
inline void elementwise_row(char** data, const int64_t* strides, int64_t n, const F& f,
                            bool streaming, std::index_sequence<I...>) {
  constexpr size_t kInputs = sizeof...(In);
  Out* out = reinterpret_cast<Out*>(data[0]);
  const bool out_contiguous = strides[0] == static_cast<int64_t>(sizeof(Out));
  if (out_contiguous && ((strides[I + 1] == static_cast<int64_t>(sizeof(In))) && ...)) {
    contiguous_row_maybe_streaming(streaming, out, n, f, reinterpret_cast<const In*>(data[I + 1])...);
    return;
  }
  if constexpr (kInputs == 1) {
    using A = std::tuple_element_t<0, std::tuple<In...>>;
    if (out_contiguous && strides[1] == 0) {
      const Out value = f(*reinterpret_cast<const A*>(data[1]));
      for (int64_t i = 0; i < n; ++i) out[i] = value;
      return;
    }
  } else if constexpr (kInputs >= 2) {
    // Operands broadcast along the row (a [n, 1] operand, or a wrapped C++
    // number or 0-dim tensor, which the callers pass as a stride-0 operand
    // rather than binding it themselves) beside contiguous ones. Streamed
    // only when the row fills a streaming block (a whole tensor against a
    // number): short broadcast rows would pay a store fence each.
    if (out_contiguous &&
        ((strides[I + 1] == 0 || strides[I + 1] == static_cast<int64_t>(sizeof(In))) && ...)) {
      const bool stream_row = streaming && n * static_cast<int64_t>(sizeof(Out)) >= kStreamingBlockBytes;
      broadcast_row<Out, In...>(stream_row, out, n, f, data, strides, std::index_sequence<I...>());
      return;
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<Out*>(data[0] + i * strides[0]) =
        f(load<In>(data[I + 1], strides[I + 1], i)...);
  }
}

// Whether an operand of a loop over T, stored as `stored`, goes through a
// float block: float16/bfloat16 data in a float loop.
template <class T>
inline bool widens(ScalarType stored) {
  return std::is_same_v<T, float> && is_reduced_float(stored);
}

template <class Out, class... In, size_t... I>
bool any_widened(const TensorIterator& iter, std::index_sequence<I...>) {
  return widens<Out>(iter.dtype(0)) || (widens<In>(iter.dtype(static_cast<int>(I) + 1)) || ...);
}

// n elements of an input row as a contiguous In array: itself when it is
// one already, else converted or gathered into `buffer`.
template <class In>
const In* input_block(ScalarType stored, const char* src, int64_t stride, int64_t n, In* buffer) {
  if (widens<In>(stored)) {
    float* widened = reinterpret_cast<float*>(buffer);
    if (stride == 0) {  // a broadcast number (x * 1.5)
      widen_to_float(stored, src, 0, widened, 1);
      std::fill_n(widened + 1, n - 1, widened[0]);
    } else {
      widen_to_float(stored, src, stride, widened, n);
    }
    return buffer;
  }
  if (stride == static_cast<int64_t>(sizeof(In))) return reinterpret_cast<const In*>(src);
  if (stride == 0) {  // a broadcast number (x * 1.5)
    std::fill_n(buffer, n, load<In>(src, 0, 0));
    return buffer;
  }
  for (int64_t i = 0; i < n; ++i) buffer[i] = load<In>(src, stride, i);
  return buffer;
}

template <class Out>
void store_block(ScalarType stored, const Out* src, char* dst, int64_t stride, int64_t n) {
  if (widens<Out>(stored)) {
    narrow_from_float(stored, reinterpret_cast<const float*>(src), dst, stride, n);
    return;
  }
  for (int64_t i = 0; i < n; ++i) *reinterpret_cast<Out*>(dst + i * stride) = src[i];
}

// cpu_kernel's rows when a float operand is stored as float16/bfloat16:
// each block of a row is converted to float in an L1 buffer and computed by
// the contiguous loop of the float instance (the same function a float
// tensor runs), then rounded back. The 16-bit types thus add no loop
// instances of their own, only these conversions. A large contiguous
// output is written from L1 with streaming stores, as the float loop does.
template <class Out, class... In, class F, size_t... I>
void widened_rows(const TensorIterator& iter, const F& f, std::index_sequence<I...>) {
  constexpr int64_t kBlock = kStreamingBlockBytes / sizeof(float);
  constexpr size_t kInputBytes = std::max({size_t{1}, sizeof(In)...}) * kBlock;
  const ScalarType out_dtype = iter.dtype(0);
  const int64_t out_item = widens<Out>(out_dtype) ? 2 : static_cast<int64_t>(sizeof(Out));
  const bool streaming = iter.output_nbytes() >= kStreamingStoreBytes;
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    alignas(64) Out out_buffer[kBlock];
    alignas(64) unsigned char stored_buffer[kBlock * sizeof(Out)];
    [[maybe_unused]] alignas(64) unsigned char input_buffers[std::max(sizeof...(In), size_t{1})][kInputBytes];
    const bool contiguous_out = strides[0] == out_item;
    const bool direct_out = !widens<Out>(out_dtype) && contiguous_out && !streaming;
    for (int64_t i = 0; i < n; i += kBlock) {
      const int64_t m = std::min(kBlock, n - i);
      char* dst = data[0] + i * strides[0];
      Out* out = direct_out ? reinterpret_cast<Out*>(dst) : out_buffer;
      contiguous_row_any(out, m, f,
                         input_block<In>(iter.dtype(static_cast<int>(I) + 1), data[I + 1] + i * strides[I + 1],
                                         strides[I + 1], m, reinterpret_cast<In*>(input_buffers[I]))...);
      if (direct_out) continue;
      if (streaming && contiguous_out) {
        store_block(out_dtype, out_buffer, reinterpret_cast<char*>(stored_buffer), out_item, m);
        streaming_copy(dst, stored_buffer, static_cast<size_t>(m * out_item));
      } else {
        store_block(out_dtype, out_buffer, dst, strides[0], m);
      }
    }
    if (streaming && contiguous_out) streaming_store_fence();
  });
}

template <class Out, class... In, class F>
void cpu_kernel_impl(const TensorIterator& iter, const F& f) {
  LZ_INTERNAL_ASSERT(iter.noperands() == 1 + static_cast<int>(sizeof...(In)),
                     "cpu_kernel: operand count does not match the kernel");
  if constexpr (std::is_same_v<Out, float> || (std::is_same_v<In, float> || ...)) {
    if (any_widened<Out, In...>(iter, std::index_sequence_for<In...>())) {
      widened_rows<Out, In...>(iter, f, std::index_sequence_for<In...>());
      return;
    }
  }
  const bool streaming = iter.output_nbytes() >= kStreamingStoreBytes;
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    detail::elementwise_row<Out, In...>(data, strides, n, f, streaming, std::index_sequence_for<In...>());
  });
}

}  // namespace detail

template <class Out, class... In, class F>
void cpu_kernel(const TensorIterator& iter, const F& f) {
  detail::cpu_kernel_impl<Out, In...>(iter, f);
}

}  // namespace lz::cpu
