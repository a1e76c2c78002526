#include "eager_kernels/meta/factory_meta.h"

#include <cmath>
#include <limits>
#include <utility>

#include "core/error.h"
#include "eager_kernels/meta/meta_utils.h"

namespace lz::meta {

namespace {

TensorMeta factory(std::string_view op, IntArrayRef size, ScalarType dtype,
                   std::optional<Layout> layout, std::optional<Device> device,
                   std::optional<bool> pin_memory) {
  checked_numel(size, op);
  LZ_CHECK(!layout || *layout == Layout::Strided, ValueError, "[", op,
           "] layout: only strided tensors are supported");
  LZ_CHECK(!pin_memory.value_or(false), NotImplementedError, "[", op,
           "] pin_memory: pinned host memory arrives with the CUDA runtime");
  return TensorMeta{SizeVec(size.begin(), size.end()), dtype, device.value_or(Device(DeviceType::CPU))};
}

}  // namespace

TensorMeta empty(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory,
                 std::optional<MemoryFormat>) {
  return factory("empty", size, dtype.value_or(default_float_dtype()), layout, device, pin_memory);
}

TensorMeta zeros(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                 std::optional<Device> device, std::optional<bool> pin_memory) {
  return factory("zeros", size, dtype.value_or(default_float_dtype()), layout, device, pin_memory);
}

TensorMeta ones(IntArrayRef size, std::optional<ScalarType> dtype, std::optional<Layout> layout,
                std::optional<Device> device, std::optional<bool> pin_memory) {
  return factory("ones", size, dtype.value_or(default_float_dtype()), layout, device, pin_memory);
}

TensorMeta full(IntArrayRef size, const Scalar& fill_value, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device,
                std::optional<bool> pin_memory) {
  ScalarType t = fill_value.is_floating_point() ? default_float_dtype() : fill_value.type();
  check_value_fits("full", dtype.value_or(t), fill_value);
  return factory("full", size, dtype.value_or(t), layout, device, pin_memory);
}

int64_t arange_length(const Scalar& start, const Scalar& end, const Scalar& step) {
  const double s = start.to_double(), e = end.to_double(), st = step.to_double();
  LZ_CHECK(std::isfinite(s) && std::isfinite(e), ValueError, "[arange] unsupported range: ", start,
           " -> ", end, " (bounds must be finite)");
  LZ_CHECK(st != 0, ValueError, "[arange] step: must be nonzero");
  LZ_CHECK((st > 0 && e >= s) || (st < 0 && e <= s), ValueError,
           "[arange] upper bound and lower bound inconsistent with step sign (start ", start,
           ", end ", end, ", step ", step, ")");
  if (start.is_integral(true) && end.is_integral(true) && step.is_integral(true)) {
    const int64_t si = start.to_long(), ei = end.to_long(), sti = step.to_long();
    // In 128 bits: the distance between two int64 bounds can exceed int64.
    const __int128 span = static_cast<__int128>(ei) - si;
    const __int128 n = sti > 0 ? (span + sti - 1) / sti : (-span - sti - 1) / -static_cast<__int128>(sti);
    LZ_CHECK(n <= std::numeric_limits<int64_t>::max(), ValueError, "[arange] ", start, " -> ", end,
             " with step ", step, " has more elements than fit in int64");
    return static_cast<int64_t>(n);
  }
  const double n = std::ceil((e - s) / st);
  LZ_CHECK(n < static_cast<double>(std::numeric_limits<int64_t>::max()), ValueError,
           "[arange] size: ", start, " -> ", end, " in steps of ", step, " gives ", n,
           " elements, more than fit in int64");
  return static_cast<int64_t>(n);
}

TensorMeta arange(const Scalar& start, const Scalar& end, const Scalar& step,
                  std::optional<ScalarType> dtype, std::optional<Layout> layout,
                  std::optional<Device> device, std::optional<bool> pin_memory) {
  const bool any_float = start.is_floating_point() || end.is_floating_point() || step.is_floating_point();
  const ScalarType t = dtype.value_or(any_float ? default_float_dtype() : ScalarType::Long);
  const int64_t n = arange_length(start, end, step);
  return factory("arange", {n}, t, layout, device, pin_memory);
}

namespace {

TensorMeta random(std::string_view op, IntArrayRef size, std::optional<ScalarType> dtype,
                  std::optional<Layout> layout, std::optional<Device> device,
                  std::optional<bool> pin_memory) {
  const ScalarType t = dtype.value_or(default_float_dtype());
  LZ_CHECK(is_floating_point(t), TypeError, "[", op, "] dtype: random sampling needs a floating dtype, got ", t);
  return factory(op, size, t, layout, device, pin_memory);
}

}  // namespace

TensorMeta randn(IntArrayRef size, std::optional<Generator>, std::optional<ScalarType> dtype,
                 std::optional<Layout> layout, std::optional<Device> device,
                 std::optional<bool> pin_memory) {
  return random("randn", size, dtype, layout, device, pin_memory);
}

TensorMeta rand(IntArrayRef size, std::optional<Generator>, std::optional<ScalarType> dtype,
                std::optional<Layout> layout, std::optional<Device> device,
                std::optional<bool> pin_memory) {
  return random("rand", size, dtype, layout, device, pin_memory);
}

TensorMeta randint(int64_t low, int64_t high, IntArrayRef size, std::optional<Generator>,
                   std::optional<ScalarType> dtype, std::optional<Layout> layout,
                   std::optional<Device> device, std::optional<bool> pin_memory) {
  const ScalarType t = dtype.value_or(kLong);
  LZ_CHECK(low < high, ValueError, "[randint] low, high: expected low < high, got low=", low, " high=", high);
  // The integers the dtype holds exactly: its range, or +-2^digits for floats.
  const auto [lowest, highest] = [&]() -> std::pair<int64_t, int64_t> {
    if (is_integral(t, /*include_bool=*/true)) {
      const IntegralRange r = integral_range(t);
      return {r.min, r.max};
    }
    switch (t) {
      case kHalf: return {-(int64_t{1} << 11), int64_t{1} << 11};
      case kBFloat16: return {-(int64_t{1} << 8), int64_t{1} << 8};
      case kFloat: return {-(int64_t{1} << 24), int64_t{1} << 24};
      case kDouble: return {-(int64_t{1} << 53), int64_t{1} << 53};
      default: return {std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max()};
    }
  }();
  LZ_CHECK(low >= lowest && high - 1 <= highest, ValueError, "[randint] low, high: [", low, ", ", high,
           ") does not fit dtype ", t, " (it holds the integers in [", lowest, ", ", highest, "] exactly)");
  return factory("randint", size, t, layout, device, pin_memory);
}

TensorMeta linspace(const Scalar& start, const Scalar& end, int64_t steps,
                    std::optional<ScalarType> dtype, std::optional<Layout> layout,
                    std::optional<Device> device, std::optional<bool> pin_memory) {
  LZ_CHECK(steps >= 0, ValueError, "[linspace] steps: number of steps must be non-negative, got ",
           steps);
  const ScalarType t = dtype.value_or(default_float_dtype());
  LZ_CHECK(t != ScalarType::Bool, TypeError, "[linspace] dtype: ", t, " is not supported");
  return factory("linspace", {steps}, t, layout, device, pin_memory);
}

TensorMeta eye_m(int64_t n, int64_t m, std::optional<ScalarType> dtype,
                 std::optional<Layout> layout, std::optional<Device> device,
                 std::optional<bool> pin_memory) {
  LZ_CHECK(n >= 0, ValueError, "[eye] n: must be greater or equal to 0, got ", n);
  LZ_CHECK(m >= 0, ValueError, "[eye] m: must be greater or equal to 0, got ", m);
  return factory("eye", {n, m}, dtype.value_or(default_float_dtype()), layout, device, pin_memory);
}

TensorMeta eye(int64_t n, std::optional<ScalarType> dtype, std::optional<Layout> layout,
               std::optional<Device> device, std::optional<bool> pin_memory) {
  LZ_CHECK(n >= 0, ValueError, "[eye] n: must be greater or equal to 0, got ", n);
  return eye_m(n, n, dtype, layout, device, pin_memory);
}

}  // namespace lz::meta
