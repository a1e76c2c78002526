// Element-wise inner loops over a TensorIterator:
//   cpu_kernel<float, float, float>(iter, [](float a, float b) { return a + b; });
// The first template argument is the output's element type, the rest the
// inputs'. Rows where every operand is contiguous get a plain indexed loop
// the compiler vectorises; a broadcast (stride-0) input in an otherwise
// contiguous row is read once per row; anything else takes the strided loop.
#pragma once

#include <cstdint>
#include <tuple>
#include <utility>

#include "eager_kernels/cpu/tensor_iterator.h"

namespace lz::cpu {

namespace detail {

template <class T>
inline T load(const char* base, int64_t stride, int64_t i) {
  return *reinterpret_cast<const T*>(base + i * stride);
}

template <class Out, class... In, class F, size_t... I>
inline void elementwise_row(char** data, const int64_t* strides, int64_t n, const F& f,
                            std::index_sequence<I...>) {
  constexpr size_t kInputs = sizeof...(In);
  Out* out = reinterpret_cast<Out*>(data[0]);
  const bool out_contiguous = strides[0] == static_cast<int64_t>(sizeof(Out));
  if (out_contiguous && ((strides[I + 1] == static_cast<int64_t>(sizeof(In))) && ...)) {
    const std::tuple<const In*...> in{reinterpret_cast<const In*>(data[I + 1])...};
    for (int64_t i = 0; i < n; ++i) out[i] = f(std::get<I>(in)[i]...);
    return;
  }
  if constexpr (kInputs == 1) {
    using A = std::tuple_element_t<0, std::tuple<In...>>;
    if (out_contiguous && strides[1] == 0) {
      const Out value = f(*reinterpret_cast<const A*>(data[1]));
      for (int64_t i = 0; i < n; ++i) out[i] = value;
      return;
    }
  } else if constexpr (kInputs == 2) {
    using A = std::tuple_element_t<0, std::tuple<In...>>;
    using B = std::tuple_element_t<1, std::tuple<In...>>;
    if (out_contiguous && strides[1] == 0 && strides[2] == static_cast<int64_t>(sizeof(B))) {
      const A a = *reinterpret_cast<const A*>(data[1]);
      const B* b = reinterpret_cast<const B*>(data[2]);
      for (int64_t i = 0; i < n; ++i) out[i] = f(a, b[i]);
      return;
    }
    if (out_contiguous && strides[2] == 0 && strides[1] == static_cast<int64_t>(sizeof(A))) {
      const A* a = reinterpret_cast<const A*>(data[1]);
      const B b = *reinterpret_cast<const B*>(data[2]);
      for (int64_t i = 0; i < n; ++i) out[i] = f(a[i], b);
      return;
    }
  }
  for (int64_t i = 0; i < n; ++i) {
    *reinterpret_cast<Out*>(data[0] + i * strides[0]) =
        f(load<In>(data[I + 1], strides[I + 1], i)...);
  }
}

}  // namespace detail

template <class Out, class... In, class F>
void cpu_kernel(const TensorIterator& iter, const F& f) {
  LZ_INTERNAL_ASSERT(iter.noperands() == 1 + static_cast<int>(sizeof...(In)),
                     "cpu_kernel: operand count does not match the kernel");
  iter.for_each([&](char** data, const int64_t* strides, int64_t n) {
    detail::elementwise_row<Out, In...>(data, strides, n, f, std::index_sequence_for<In...>());
  });
}

}  // namespace lz::cpu
