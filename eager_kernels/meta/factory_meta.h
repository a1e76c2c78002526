// Meta functions of the factory operators: sizes, dtype and device from the
// arguments (dtype defaults: float32; arange and full infer it from values).
#pragma once

#include <optional>

#include "core/generator.h"
#include "core/tensor.h"
#include "core/tensor_meta.h"

namespace lz::meta {

TensorMeta empty(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat> memory_format);
TensorMeta zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory);
TensorMeta ones(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory);
TensorMeta full(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device,
                std::optional<bool> pin_memory);
TensorMeta arange(const Scalar& start, const Scalar& end, const Scalar& step,
                  std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory);
// randn / rand: floating dtypes only.
TensorMeta randn(IntArrayRef size, std::optional<Generator> generator,
                 std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory);
TensorMeta rand(IntArrayRef size, std::optional<Generator> generator,
                std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory);
// randint: int64 unless dtype says otherwise; low < high, and the dtype
// holds every integer in [low, high) exactly.
TensorMeta randint(int64_t low, int64_t high, IntArrayRef size, std::optional<Generator> generator,
                   std::optional<ScalarType> dtype, std::optional<Layout> layout,
                   std::optional<Device> device, std::optional<bool> pin_memory);

// linspace: float32 unless dtype says otherwise; bool is rejected.
TensorMeta linspace(const Scalar& start, const Scalar& end, int64_t steps,
                    std::optional<ScalarType> dtype, std::optional<Layout> layout,
                    std::optional<Device> device, std::optional<bool> pin_memory);
// eye(n) is eye(n, n): ones on the main diagonal.
TensorMeta eye(int64_t n, std::optional<ScalarType> dtype, std::optional<Layout> layout,
               std::optional<Device> device, std::optional<bool> pin_memory);
TensorMeta eye_m(int64_t n, int64_t m, std::optional<ScalarType> dtype,
                 std::optional<Layout> layout, std::optional<Device> device,
                 std::optional<bool> pin_memory);

// Number of elements arange(start, end, step) produces; ValueError for a
// zero step, a step pointing away from end, or non-finite bounds.
int64_t arange_length(const Scalar& start, const Scalar& end, const Scalar& step);

}  // namespace lz::meta
