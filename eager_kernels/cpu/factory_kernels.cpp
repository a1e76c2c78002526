#include "eager_kernels/cpu/factory_kernels.h"

#include <cmath>
#include <numbers>

#include "core/parallel.h"
#include "core/philox.h"
#include "eager_kernels/cpu/copy_kernels.h"
#include "eager_kernels/cpu/dispatch_types.h"
#include "eager_kernels/cpu/philox_blocks.h"
#include "eager_kernels/cpu/tensor_iterator.h"

namespace lz::cpu {

namespace {

// A uniform double in [0, 1) from two 32-bit words (53 random bits).
double unit_double(uint32_t hi, uint32_t lo) {
  const uint64_t bits = (static_cast<uint64_t>(hi) << 21) ^ (lo >> 11);
  return static_cast<double>(bits & ((uint64_t{1} << 53) - 1)) * (1.0 / 9007199254740992.0);
}

// The largest value of T below 1, so rounding a uniform sample never gives 1.
template <class T>
float largest_below_one() {
  if constexpr (std::is_same_v<T, Half>) return 1.0f - 1.0f / 2048.0f;
  if constexpr (std::is_same_v<T, BFloat16>) return 1.0f - 1.0f / 256.0f;
  return 1.0f - 1.0f / 16777216.0f;
}

// Fills contiguous `out` from the generator: `per_block` samples per Philox
// block, sample(block, lane) computing one value.
template <class T, class Sample>
void fill_random(const Tensor& out, std::optional<Generator> generator, int per_block, Sample sample) {
  const int64_t n = out.numel();
  Generator gen = generator ? *generator : default_generator();
  const uint64_t blocks = static_cast<uint64_t>((n + per_block - 1) / per_block);
  // Every call takes its slot, even an empty one (see core/generator.h).
  const GeneratorImpl::Range range = gen.impl()->reserve(blocks);
  if (n == 0) return;
  T* data = out.data_ptr<T>();
  for_each_philox_batch(range, static_cast<int64_t>(blocks), [&](int64_t b, int64_t count, const uint32_t* words) {
    for (int64_t j = 0; j < count; ++j) {
      const uint32_t* w = words + 4 * j;
      const PhiloxBlock block = {w[0], w[1], w[2], w[3]};
      const int64_t i = (b + j) * per_block;
      for (int lane = 0; lane < per_block && i + lane < n; ++lane) data[i + lane] = sample(block, lane);
    }
  });
}

}  // namespace

void empty_impl(const Tensor&, IntArrayRef, std::optional<ScalarType>, std::optional<Layout>,
                std::optional<Device>, std::optional<bool>, std::optional<MemoryFormat>) {}

void zeros_impl(const Tensor& out, IntArrayRef, std::optional<ScalarType>, std::optional<Layout>,
                std::optional<Device>, std::optional<bool>) {
  fill_values(out, 0);
}

void ones_impl(const Tensor& out, IntArrayRef, std::optional<ScalarType>, std::optional<Layout>,
               std::optional<Device>, std::optional<bool>) {
  fill_values(out, 1);
}

void full_impl(const Tensor& out, IntArrayRef, const Scalar& fill_value, std::optional<ScalarType>,
               std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  fill_values(out, fill_value);
}

void arange_impl(const Tensor& out, const Scalar& start, const Scalar& end, const Scalar& step,
                 std::optional<ScalarType>, std::optional<Layout>, std::optional<Device>,
                 std::optional<bool>) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* data = out.data_ptr<T>();
    const int64_t n = out.numel();
    if constexpr (std::is_integral_v<T> && !std::is_same_v<T, bool>) {
      if (start.is_integral(true) && step.is_integral(true)) {
        const int64_t s = start.to_long(), st = step.to_long();
        for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(s + i * st);
        return;
      }
    }
    const double s = start.to_double(), st = step.to_double();
    for (int64_t i = 0; i < n; ++i) data[i] = static_cast<T>(s + static_cast<double>(i) * st);
  });
}

void linspace_impl(const Tensor& out, const Scalar& start, const Scalar& end, int64_t steps,
                   std::optional<ScalarType>, std::optional<Layout>, std::optional<Device>,
                   std::optional<bool>) {
  if (steps == 0) return;
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      // Integral results step in double; float types in their compute type.
      using C = std::conditional_t<std::is_integral_v<T>, double, opmath_t<T>>;
      // The bounds are first converted to T, as in PyTorch (0.5 -> 0 for integers).
      C s, e;
      if constexpr (std::is_integral_v<T>) {
        s = static_cast<C>(start.to<T>());
        e = static_cast<C>(end.to<T>());
      } else {
        s = static_cast<C>(start.to_double());
        e = static_cast<C>(end.to_double());
      }
      T* data = out.data_ptr<T>();
      const int64_t stride = out.dim() == 1 ? out.strides()[0] : 1;
      if (steps == 1) {
        data[0] = static_cast<T>(s);
        return;
      }
      const C step = (e - s) / static_cast<C>(steps - 1);
      const int64_t halfway = steps / 2;
      parallel_for(0, steps, TensorIterator::kGrainSize, [&](int64_t b, int64_t en) {
        for (int64_t i = b; i < en; ++i) {
          const C v = i < halfway ? s + step * static_cast<C>(i)
                                  : e - step * static_cast<C>(steps - i - 1);
          data[i * stride] = static_cast<T>(v);
        }
      });
    }
  });
}

void eye_m_impl(const Tensor& out, int64_t n, int64_t m, std::optional<ScalarType>,
                std::optional<Layout>, std::optional<Device>, std::optional<bool>) {
  fill_values(out, 0);
  const int64_t diag = std::min(n, m);
  if (diag == 0) return;
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T one = Scalar(1).to<T>();
    T* data = out.data_ptr<T>();
    const int64_t step = out.strides()[0] + out.strides()[1];
    for (int64_t i = 0; i < diag; ++i) data[i * step] = one;
  });
}

void eye_impl(const Tensor& out, int64_t n, std::optional<ScalarType> dtype,
              std::optional<Layout> layout, std::optional<Device> device,
              std::optional<bool> pin_memory) {
  eye_m_impl(out, n, n, dtype, layout, device, pin_memory);
}

void randn_impl(const Tensor& out, IntArrayRef, std::optional<Generator> generator,
                std::optional<ScalarType>, std::optional<Layout>, std::optional<Device>,
                std::optional<bool>) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, double>) {
      // One Box-Muller pair per block: two 53-bit uniforms.
      fill_random<T>(out, generator, 2, [](const PhiloxBlock& b, int lane) {
        const double u1 = 1.0 - unit_double(b[0], b[1]);  // (0, 1]: log is finite
        const double u2 = unit_double(b[2], b[3]);
        const double r = std::sqrt(-2.0 * std::log(u1));
        const double theta = 2.0 * std::numbers::pi * u2;
        return lane == 0 ? r * std::cos(theta) : r * std::sin(theta);
      });
    } else if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      // Two Box-Muller pairs per block: lanes (0, 1) and (2, 3).
      fill_random<T>(out, generator, 4, [](const PhiloxBlock& b, int lane) {
        const int pair = lane & ~1;
        const float u1 = 1.0f - uint32_to_unit_float(b[pair]);
        const float u2 = uint32_to_unit_float(b[pair + 1]);
        const float r = std::sqrt(-2.0f * std::log(u1));
        const float theta = 2.0f * std::numbers::pi_v<float> * u2;
        return static_cast<T>((lane & 1) == 0 ? r * std::cos(theta) : r * std::sin(theta));
      });
    }
  });
}

void rand_impl(const Tensor& out, IntArrayRef, std::optional<Generator> generator,
               std::optional<ScalarType>, std::optional<Layout>, std::optional<Device>,
               std::optional<bool>) {
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (std::is_same_v<T, double>) {
      fill_random<T>(out, generator, 2, [](const PhiloxBlock& b, int lane) {
        return unit_double(b[2 * lane], b[2 * lane + 1]);
      });
    } else if constexpr (std::is_floating_point_v<T> || is_reduced_float_v<T>) {
      fill_random<T>(out, generator, 4, [](const PhiloxBlock& b, int lane) {
        return static_cast<T>(std::min(uint32_to_unit_float(b[lane]), largest_below_one<T>()));
      });
    }
  });
}

void randint_impl(const Tensor& out, int64_t low, int64_t high, IntArrayRef, std::optional<Generator> generator,
                  std::optional<ScalarType>, std::optional<Layout>, std::optional<Device>,
                  std::optional<bool>) {
  const uint64_t range = static_cast<uint64_t>(high) - static_cast<uint64_t>(low);  // meta: low < high
  visit_dtype(out.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    // Wrapping addition: low + offset lies in [low, high) whatever their signs.
    const auto value = [low](uint64_t offset) {
      const int64_t v = static_cast<int64_t>(static_cast<uint64_t>(low) + offset);
      // Exact: the meta function bounds low and high by what T holds.
      if constexpr (is_reduced_float_v<T>) return static_cast<T>(static_cast<float>(v));
      else return static_cast<T>(v);
    };
    if (range <= (uint64_t{1} << 32)) {
      fill_random<T>(out, generator, 4, [&](const PhiloxBlock& b, int lane) { return value(b[lane] % range); });
    } else {
      fill_random<T>(out, generator, 2, [&](const PhiloxBlock& b, int lane) {
        const uint64_t word = (static_cast<uint64_t>(b[2 * lane]) << 32) | b[2 * lane + 1];
        return value(word % range);
      });
    }
  });
}

}  // namespace lz::cpu
