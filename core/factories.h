// Factory functions: new tensors from sizes and options, from values, or
// shaped like another tensor. `options` converts from a dtype or a device:
//   lz::zeros({2, 3}, lz::kFloat32)   lz::arange(10, lz::kInt32)
#pragma once

#include <functional>
#include <initializer_list>
#include <optional>
#include <vector>

#include "core/generator.h"
#include "core/tensor.h"

namespace lz {

Tensor empty(IntArrayRef size, const TensorOptions& options = {});
Tensor zeros(IntArrayRef size, const TensorOptions& options = {});
Tensor ones(IntArrayRef size, const TensorOptions& options = {});
// dtype defaults to the fill value's: bool, int64 or float32.
Tensor full(IntArrayRef size, const Scalar& fill_value, const TensorOptions& options = {});

// [0, end), [start, end) with step; int64 unless an argument is floating.
Tensor arange(const Scalar& end, const TensorOptions& options = {});
Tensor arange(const Scalar& start, const Scalar& end, const TensorOptions& options = {});
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step,
              const TensorOptions& options = {});

// `steps` values evenly spaced from start to end inclusive (float32 unless
// options name a dtype; integral dtypes truncate).
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps,
                const TensorOptions& options = {});

// The n x n (or n x m) identity matrix.
Tensor eye(int64_t n, const TensorOptions& options = {});
Tensor eye(int64_t n, int64_t m, const TensorOptions& options = {});

// Standard normal and uniform [0, 1) samples (float32 by default), from the
// default generator or the one given.
Tensor randn(IntArrayRef size, const TensorOptions& options = {});
Tensor randn(IntArrayRef size, std::optional<Generator> generator,
             const TensorOptions& options = {});
Tensor rand(IntArrayRef size, const TensorOptions& options = {});
Tensor rand(IntArrayRef size, std::optional<Generator> generator,
            const TensorOptions& options = {});
// Integers drawn uniformly from [low, high) (int64 by default; any integer
// or floating dtype that holds low and high - 1).
Tensor randint(int64_t high, IntArrayRef size, const TensorOptions& options = {});
Tensor randint(int64_t low, int64_t high, IntArrayRef size, const TensorOptions& options = {});
Tensor randint(int64_t low, int64_t high, IntArrayRef size, std::optional<Generator> generator,
               const TensorOptions& options = {});

// Shaped like self; dtype and device default to self's.
Tensor empty_like(const Tensor& self, const TensorOptions& options = {});
Tensor zeros_like(const Tensor& self, const TensorOptions& options = {});
Tensor ones_like(const Tensor& self, const TensorOptions& options = {});
Tensor full_like(const Tensor& self, const Scalar& fill_value, const TensorOptions& options = {});
Tensor randn_like(const Tensor& self, const TensorOptions& options = {});
Tensor rand_like(const Tensor& self, const TensorOptions& options = {});
// Integers in [0, high) / [low, high), in self's dtype unless options name one.
Tensor randint_like(const Tensor& self, int64_t high, const TensorOptions& options = {});
Tensor randint_like(const Tensor& self, int64_t low, int64_t high, const TensorOptions& options = {});

// A 0-dim tensor holding `value` (dtype from options, else from the value).
Tensor scalar_tensor(const Scalar& value, const TensorOptions& options = {});

// Tensors from C++ values, like torch::tensor. Integers give int64 and
// floating values float32 (as in Python) unless options name a dtype.
//   lz::tensor({1.0, 2.0})   lz::tensor({{1, 2}, {3, 4}}, lz::kInt32)
// One value: a 0-dim tensor, lz::tensor(3.0) float32 and lz::tensor(3) int64.
template <class T>
  requires(std::is_arithmetic_v<T>)
Tensor tensor(T value, const TensorOptions& options = {});
template <class T>
Tensor tensor(std::initializer_list<T> values, const TensorOptions& options = {});
// A 1-D tensor of the vector's values.
template <class T>
Tensor tensor(const std::vector<T>& values, const TensorOptions& options = {});
template <class T>
Tensor tensor(std::initializer_list<std::initializer_list<T>> values,
              const TensorOptions& options = {});
template <class T>
Tensor tensor(std::initializer_list<std::initializer_list<std::initializer_list<T>>> values,
              const TensorOptions& options = {});
// A tensor of `sizes` from row-major values (values.size() must match); the
// dtype defaults to T's own (std::vector<double> gives float64).
template <class T>
Tensor from_vector(const std::vector<T>& values, IntArrayRef sizes, const TensorOptions& options = {});

// Wraps memory owned by the caller (no copy). `deleter` runs when the last
// tensor using it dies; without one the caller keeps the memory alive.
Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& options = {});
Tensor from_blob(void* data, IntArrayRef sizes, std::function<void(void*)> deleter,
                 const TensorOptions& options = {});

namespace detail {
// Copies `count` values of C++ type `source` (given as a dtype) into a new
// CPU tensor of `sizes`, converted to options' dtype or the default for source.
Tensor tensor_from_values(const void* values, ScalarType source, IntArrayRef sizes,
                          const TensorOptions& options);
template <class T>
constexpr ScalarType source_dtype() {
  if constexpr (std::is_same_v<T, bool>) {
    return ScalarType::Bool;
  } else if constexpr (std::is_integral_v<T>) {
    return ScalarType::Long;
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return ScalarType::Double;
  } else {
    return scalar_type_of<T>;
  }
}
// The source values as int64 / double / bool / the 16-bit type itself.
template <class T>
auto widen(T v) {
  if constexpr (std::is_same_v<T, bool>) {
    return v;
  } else if constexpr (std::is_integral_v<T>) {
    return static_cast<int64_t>(v);
  } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    return static_cast<double>(v);
  } else {
    return v;
  }
}
// How a value is held while building the tensor (std::vector<bool> is packed,
// so bools are held as bytes).
template <class T>
using stored_t = std::conditional_t<std::is_same_v<T, bool>, uint8_t, decltype(widen(T{}))>;
// Floating literals give float32 tensors unless options name a dtype.
template <class T>
TensorOptions default_options_for(const TensorOptions& options) {
  if (options.dtype_opt()) return options;
  if constexpr (std::is_floating_point_v<T>) return options.dtype(ScalarType::Float);
  return options;
}
}  // namespace detail

template <class T>
Tensor tensor(std::initializer_list<T> values, const TensorOptions& options) {
  std::vector<detail::stored_t<T>> flat;
  for (const T& v : values) flat.push_back(detail::widen(v));
  return detail::tensor_from_values(flat.data(), detail::source_dtype<T>(),
                                    {static_cast<int64_t>(values.size())},
                                    detail::default_options_for<T>(options));
}

template <class T>
  requires(std::is_arithmetic_v<T>)
Tensor tensor(T value, const TensorOptions& options) {
  const detail::stored_t<T> stored = detail::widen(value);
  return detail::tensor_from_values(&stored, detail::source_dtype<T>(), {},
                                    detail::default_options_for<T>(options));
}

template <class T>
Tensor tensor(const std::vector<T>& values, const TensorOptions& options) {
  std::vector<detail::stored_t<T>> flat;
  flat.reserve(values.size());
  for (const T& v : values) flat.push_back(detail::widen(v));
  return detail::tensor_from_values(flat.data(), detail::source_dtype<T>(),
                                    {static_cast<int64_t>(values.size())},
                                    detail::default_options_for<T>(options));
}

template <class T>
Tensor tensor(std::initializer_list<std::initializer_list<T>> values, const TensorOptions& options) {
  std::vector<detail::stored_t<T>> flat;
  const int64_t cols = values.size() ? static_cast<int64_t>(values.begin()->size()) : 0;
  for (const auto& row : values) {
    LZ_CHECK(static_cast<int64_t>(row.size()) == cols, ShapeError,
             "[tensor] values: rows have different lengths (", cols, " and ", row.size(), ")");
    for (const T& v : row) flat.push_back(detail::widen(v));
  }
  return detail::tensor_from_values(flat.data(), detail::source_dtype<T>(),
                                    {static_cast<int64_t>(values.size()), cols},
                                    detail::default_options_for<T>(options));
}

template <class T>
Tensor tensor(std::initializer_list<std::initializer_list<std::initializer_list<T>>> values,
              const TensorOptions& options) {
  std::vector<detail::stored_t<T>> flat;
  const int64_t rows = values.size() ? static_cast<int64_t>(values.begin()->size()) : 0;
  const int64_t cols =
      rows ? static_cast<int64_t>(values.begin()->begin()->size()) : 0;
  for (const auto& plane : values) {
    LZ_CHECK(static_cast<int64_t>(plane.size()) == rows, ShapeError,
             "[tensor] values: planes have different numbers of rows");
    for (const auto& row : plane) {
      LZ_CHECK(static_cast<int64_t>(row.size()) == cols, ShapeError,
               "[tensor] values: rows have different lengths");
      for (const T& v : row) flat.push_back(detail::widen(v));
    }
  }
  return detail::tensor_from_values(flat.data(), detail::source_dtype<T>(),
                                    {static_cast<int64_t>(values.size()), rows, cols},
                                    detail::default_options_for<T>(options));
}

template <class T>
Tensor from_vector(const std::vector<T>& values, IntArrayRef sizes, const TensorOptions& options) {
  LZ_CHECK(checked_numel(sizes, "from_vector") == static_cast<int64_t>(values.size()), ShapeError,
           "[from_vector] sizes ", shape_str(sizes), " hold ", checked_numel(sizes, "from_vector"),
           " elements but ", values.size(), " values were given");
  if constexpr (std::is_same_v<T, bool>) {
    // std::vector<bool> is packed: unpack it first.
    std::vector<uint8_t> bytes(values.begin(), values.end());
    return detail::tensor_from_values(bytes.data(), ScalarType::Bool, sizes,
                                      options.dtype_opt() ? options : options.dtype(kBool));
  } else {
    return detail::tensor_from_values(values.data(), scalar_type_of<T>, sizes,
                                      options.dtype_opt() ? options : options.dtype(scalar_type_of<T>));
  }
}

}  // namespace lz
