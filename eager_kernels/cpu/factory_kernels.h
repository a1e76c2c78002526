// CPU impls of the factory operators (structured: `out` is allocated from
// the meta). Random numbers come from the generator's Philox stream, one
// block of four 32-bit words per four float32 samples, so the result depends
// only on the seed and the order of calls.
#pragma once

#include <optional>

#include "core/generator.h"
#include "core/tensor.h"

namespace lz::cpu {

void empty_impl(const Tensor& out, IntArrayRef size, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device,
                std::optional<bool> pin_memory, std::optional<MemoryFormat> memory_format);
void zeros_impl(const Tensor& out, IntArrayRef size, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device,
                std::optional<bool> pin_memory);
void ones_impl(const Tensor& out, IntArrayRef size, std::optional<ScalarType> dtype,
               std::optional<Layout> layout, std::optional<Device> device,
               std::optional<bool> pin_memory);
void full_impl(const Tensor& out, IntArrayRef size, const Scalar& fill_value,
               std::optional<ScalarType> dtype, std::optional<Layout> layout,
               std::optional<Device> device, std::optional<bool> pin_memory);
void arange_impl(const Tensor& out, const Scalar& start, const Scalar& end, const Scalar& step,
                 std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory);
void randn_impl(const Tensor& out, IntArrayRef size, std::optional<Generator> generator,
                std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory);
void rand_impl(const Tensor& out, IntArrayRef size, std::optional<Generator> generator,
               std::optional<ScalarType> dtype, std::optional<Layout> layout,
               std::optional<Device> device, std::optional<bool> pin_memory);
// low + (a random word mod (high - low)): one 32-bit word per sample when the
// range fits in 32 bits, two otherwise (the bias is below 2^-32 either way).
void randint_impl(const Tensor& out, int64_t low, int64_t high, IntArrayRef size,
                  std::optional<Generator> generator, std::optional<ScalarType> dtype,
                  std::optional<Layout> layout, std::optional<Device> device,
                  std::optional<bool> pin_memory);

// start + i * step for the first half, end - (steps - 1 - i) * step for the
// second (so both ends are exact), as PyTorch; integral dtypes compute in
// double and truncate.
void linspace_impl(const Tensor& out, const Scalar& start, const Scalar& end, int64_t steps,
                   std::optional<ScalarType> dtype, std::optional<Layout> layout,
                   std::optional<Device> device, std::optional<bool> pin_memory);
void eye_impl(const Tensor& out, int64_t n, std::optional<ScalarType> dtype,
              std::optional<Layout> layout, std::optional<Device> device,
              std::optional<bool> pin_memory);
void eye_m_impl(const Tensor& out, int64_t n, int64_t m, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device,
                std::optional<bool> pin_memory);

}  // namespace lz::cpu
