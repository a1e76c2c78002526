// Element-wise inner loops over a TensorIterator:
//   cpu_kernel<float, float, float>(iter, [](float a, float b) { return a + b; });
// The first template argument is the output's element type, the rest the
// inputs'. An operator compiles one loop per dtype: the plain indexed loop
// over contiguous operands, cloned for AVX-512, AVX2 and baseline x86-64
// (picked at load time) so that the compiler vectorises it for the best ISA
// the CPU has; large outputs are written with non-temporal stores. Other
// layouts reuse that loop through L1 blocks (blocked_rows): numbers and
// columns broadcast along a row, narrow strides, rows too short for a call
// each, float16/bfloat16 operands of a float loop. Only a stride across
// cache lines (a transpose) reads element by element (strided_rows). The
// walk over the outer dims is TensorIterator's, compiled once.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdlib>
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

// Contiguous rows shorter than this go through blocks across rows
// (blocked_rows) rather than one loop call each.
inline constexpr int64_t kRowLoopMin = 64;

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

// Whether an operand of a loop over T, stored as `stored`, goes through a
// float block: float16/bfloat16 data in a float loop.
template <class T>
inline bool widens(ScalarType stored) {
  return std::is_same_v<T, float> && is_reduced_float(stored);
}

template <class T>
void gather_block(const char* src, int64_t stride, int64_t n, T* dst) {
  for (int64_t i = 0; i < n; ++i) dst[i] = load<T>(src, stride, i);
}

template <class T>
void scatter_block(const T* src, char* dst, int64_t stride, int64_t n) {
  for (int64_t i = 0; i < n; ++i) *reinterpret_cast<T*>(dst + i * stride) = src[i];
}

// Calls piece(r, k, offset, length) for each row piece of elements
// [e, e + m) of a region of rows of n elements: row r from element k, at
// `offset` in the block.
template <class Piece>
inline void for_row_pieces(int64_t e, int64_t m, int64_t n, const Piece& piece) {
  int64_t r = e / n, k = e % n;
  for (int64_t offset = 0; offset < m; ++r, k = 0) {
    const int64_t length = std::min(n - k, m - offset);
    piece(r, k, offset, length);
    offset += length;
  }
}

// One input of a blocked region (rows of n elements, `inner` bytes apart
// along a row and `outer` between rows): read in place when the region is
// one contiguous array of In; else each block is gathered (strided),
// converted (float16/bfloat16 data of a float loop) or filled (a number
// broadcast along a row: x * 2, x - column) into `buffer`. A number for the
// whole region is filled once, and so is one for a row longer than a block.
template <class In>
class BlockInput {
 public:
  BlockInput(ScalarType stored, const char* src, int64_t inner, int64_t outer, int64_t n, int64_t rows,
             In* buffer)
      : stored_(stored), src_(src), inner_(inner), outer_(outer), n_(n), buffer_(buffer),
        widen_(widens<In>(stored)),
        flat_(!widen_ && inner == static_cast<int64_t>(sizeof(In)) && (rows == 1 || outer == n * inner)) {}

  // Elements [e, e + m) of the region, m at most a block.
  const In* at(int64_t e, int64_t m) {
    if (flat_) return reinterpret_cast<const In*>(src_ + e * inner_);
    for_row_pieces(e, m, n_, [&](int64_t r, int64_t k, int64_t offset, int64_t length) {
      const char* src = src_ + r * outer_ + k * inner_;
      In* dst = buffer_ + offset;
      if (inner_ == 0) {
        // Filled already when the block is all of it again.
        if (offset == 0 && length == m && src == filled_src_ && m <= filled_) return;
        filled_src_ = offset == 0 && length == m ? src : nullptr;
        filled_ = m;
        if (widen_) {
          widen_to_float(stored_, src, 0, reinterpret_cast<float*>(dst), 1);
          std::fill_n(dst + 1, length - 1, dst[0]);
        } else {
          std::fill_n(dst, length, load<In>(src, 0, 0));
        }
      } else if (widen_) {
        widen_to_float(stored_, src, inner_, reinterpret_cast<float*>(dst), length);
      } else {
        gather_block(src, inner_, length, dst);
      }
    });
    return buffer_;
  }

 private:
  ScalarType stored_;
  const char* src_;
  int64_t inner_, outer_, n_;
  In* buffer_;
  bool widen_, flat_;
  const char* filled_src_ = nullptr;  // the number `buffer_` holds `filled_` copies of
  int64_t filled_ = 0;
};

// Rows the contiguous loop cannot read in place: an input broadcast along
// them, strided, or stored as float16/bfloat16 for a float loop; an output
// strided or stored as float16/bfloat16; rows too short to be worth a loop
// call each. The region (rows of n elements, TensorIterator::for_each_rows)
// is cut into L1-sized blocks across rows; each block's operands go through
// L1 buffers and the operator's one contiguous loop, so none of these
// layouts compiles a loop per operator of its own, and a strided exp runs
// vectorised. `streaming`: a large contiguous output is written from L1
// with non-temporal stores, as the contiguous rows are.
template <class Out, class... In, class F, size_t... I>
void blocked_rows(const ScalarType* dtypes, bool streaming, char** data, const int64_t* strides, int64_t n,
                  int64_t rows, const F& f, std::index_sequence<I...>) {
  constexpr int64_t kOps = TensorIterator::kMaxOperands;
  constexpr int64_t kBlock = kStreamingBlockBytes / std::max({sizeof(Out), sizeof(In)...});
  const int64_t total = n * rows;
  std::tuple<std::array<In, kBlock>...> buffers;  // uninitialised: filled as needed
  std::tuple<BlockInput<In>...> inputs(BlockInput<In>(dtypes[I + 1], data[I + 1], strides[I + 1],
                                                      strides[kOps + I + 1], n, rows, std::get<I>(buffers).data())...);
  alignas(64) Out out_buffer[kBlock];
  // out_buffer rounded to float16/bfloat16, for a streamed 16-bit output.
  [[maybe_unused]] alignas(64) uint16_t narrowed[std::is_same_v<Out, float> ? kBlock : 1];
  const bool widen_out = widens<Out>(dtypes[0]);
  const int64_t out_item = widen_out ? 2 : static_cast<int64_t>(sizeof(Out));
  const int64_t inner = strides[0], outer = strides[kOps];
  const bool flat_out = inner == out_item && (rows == 1 || outer == n * inner);
  const bool stream = streaming && flat_out && total * out_item >= kStreamingBlockBytes;
  const bool direct_out = !widen_out && flat_out && !stream;
  for (int64_t e = 0; e < total; e += kBlock) {
    const int64_t m = std::min(kBlock, total - e);
    Out* out = direct_out ? reinterpret_cast<Out*>(data[0] + e * out_item) : out_buffer;
    contiguous_row_any(out, m, f, std::get<I>(inputs).at(e, m)...);
    if (direct_out) continue;
    if (stream) {
      const void* stored = out_buffer;
      if constexpr (std::is_same_v<Out, float>) {
        if (widen_out) {
          narrow_from_float(dtypes[0], out_buffer, reinterpret_cast<char*>(narrowed), 2, m);
          stored = narrowed;
        }
      }
      streaming_copy(data[0] + e * out_item, stored, static_cast<size_t>(m * out_item));
      continue;
    }
    for_row_pieces(e, m, n, [&](int64_t r, int64_t k, int64_t offset, int64_t length) {
      char* dst = data[0] + r * outer + k * inner;
      if constexpr (std::is_same_v<Out, float>) {
        if (widen_out) return narrow_from_float(dtypes[0], out_buffer + offset, dst, inner, length);
      }
      scatter_block(out_buffer + offset, dst, inner, length);
    });
  }
  // Streaming stores are weakly ordered: fence them on the thread that made them.
  if (stream) streaming_store_fence();
}

// Rows with an input read across cache lines (a transposed operand: each
// element from another line): one element at a time, so that the misses
// overlap the arithmetic. Gathering a block first and then computing it ran
// exp of a transposed [4096, 4096] 1.7x slower.
inline constexpr int64_t kWideStride = 64;

template <class Out, class... In, class F, size_t... I>
void strided_rows(char** data, const int64_t* strides, int64_t n, int64_t rows, const F& f,
                  std::index_sequence<I...>) {
  constexpr int kOps = TensorIterator::kMaxOperands;
  // Local copies, which the stores cannot alias.
  const int64_t out_step = strides[0];
  const std::array<int64_t, sizeof...(In)> steps = {strides[I + 1]...};
  for (int64_t r = 0; r < rows; ++r) {
    char* out = data[0] + r * strides[kOps];
    const std::array<const char*, sizeof...(In)> in = {data[I + 1] + r * strides[kOps + I + 1]...};
    for (int64_t i = 0; i < n; ++i) {
      *reinterpret_cast<Out*>(out + i * out_step) = f(load<In>(in[I], steps[I], i)...);
    }
  }
}

template <class Out, class... In, class F, size_t... I>
void cpu_kernel_impl(const TensorIterator& iter, const F& f, std::index_sequence<I...> seq) {
  LZ_INTERNAL_ASSERT(iter.noperands() == 1 + static_cast<int>(sizeof...(In)),
                     "cpu_kernel: operand count does not match the kernel");
  constexpr int kOps = TensorIterator::kMaxOperands;
  const std::array<ScalarType, 1 + sizeof...(In)> dtypes = {iter.dtype(0), iter.dtype(static_cast<int>(I) + 1)...};
  const bool widened = widens<Out>(dtypes[0]) || (widens<In>(dtypes[I + 1]) || ...);
  const bool streaming = iter.output_nbytes() >= kStreamingStoreBytes;
  iter.for_each_rows([&](char** data, const int64_t* strides, int64_t n, int64_t rows) {
    const bool out_contiguous = strides[0] == static_cast<int64_t>(sizeof(Out));
    // Rows of contiguous operands, long enough for a loop call each.
    if (!widened && out_contiguous && ((strides[I + 1] == static_cast<int64_t>(sizeof(In))) && ...) &&
        (rows == 1 || n >= kRowLoopMin)) {
      for (int64_t r = 0; r < rows; ++r) {
        contiguous_row_maybe_streaming(streaming, reinterpret_cast<Out*>(data[0] + r * strides[kOps]), n, f,
                                       reinterpret_cast<const In*>(data[I + 1] + r * strides[kOps + I + 1])...);
      }
      return;
    }
    if constexpr (sizeof...(In) == 1) {
      using A = std::tuple_element_t<0, std::tuple<In...>>;
      if (!widened && out_contiguous && strides[1] == 0) {  // one value per row, computed once
        for (int64_t r = 0; r < rows; ++r) {
          std::fill_n(reinterpret_cast<Out*>(data[0] + r * strides[kOps]), n,
                      f(*reinterpret_cast<const A*>(data[1] + r * strides[kOps + 1])));
        }
        return;
      }
    }
    if (!widened && ((std::abs(strides[I + 1]) >= kWideStride) || ...)) {
      strided_rows<Out, In...>(data, strides, n, rows, f, seq);
      return;
    }
    blocked_rows<Out, In...>(dtypes.data(), streaming, data, strides, n, rows, f, seq);
  });
}

}  // namespace detail

template <class Out, class... In, class F>
void cpu_kernel(const TensorIterator& iter, const F& f) {
  detail::cpu_kernel_impl<Out, In...>(iter, f, std::index_sequence_for<In...>());
}

}  // namespace lz::cpu
