// TensorOptions: the dtype, device, layout and memory format a factory
// function should produce. Converts implicitly from a ScalarType or a Device,
// so `lz::zeros({2, 3}, lz::kFloat32)` reads like libtorch.
#pragma once

#include <optional>

#include "core/device.h"
#include "core/layout.h"
#include "core/scalar_type.h"

namespace lz {

class TensorOptions {
 public:
  TensorOptions() = default;
  TensorOptions(ScalarType dtype) : dtype_(dtype) {}
  TensorOptions(Device device) : device_(device) {}
  TensorOptions(DeviceType type) : device_(Device(type)) {}
  TensorOptions(Layout layout) : layout_(layout) {}

  [[nodiscard]] TensorOptions dtype(std::optional<ScalarType> dtype) const {
    TensorOptions o = *this;
    o.dtype_ = dtype;
    return o;
  }
  [[nodiscard]] TensorOptions device(std::optional<Device> device) const {
    TensorOptions o = *this;
    o.device_ = device;
    return o;
  }
  [[nodiscard]] TensorOptions layout(std::optional<Layout> layout) const {
    TensorOptions o = *this;
    o.layout_ = layout;
    return o;
  }
  [[nodiscard]] TensorOptions memory_format(std::optional<MemoryFormat> format) const {
    TensorOptions o = *this;
    o.memory_format_ = format;
    return o;
  }

  // Unset fields stay unset: the operator fills in its own default.
  std::optional<ScalarType> dtype_opt() const { return dtype_; }
  std::optional<Device> device_opt() const { return device_; }
  std::optional<Layout> layout_opt() const { return layout_; }
  std::optional<MemoryFormat> memory_format_opt() const { return memory_format_; }

  ScalarType dtype() const { return dtype_.value_or(ScalarType::Float); }
  Device device() const { return device_.value_or(Device(DeviceType::CPU)); }

 private:
  std::optional<ScalarType> dtype_;
  std::optional<Device> device_;
  std::optional<Layout> layout_;
  std::optional<MemoryFormat> memory_format_;
};

// libtorch's free-function spellings: lz::dtype(lz::kInt64).device(lz::kCPU).
inline TensorOptions dtype(ScalarType t) { return TensorOptions().dtype(t); }
inline TensorOptions device(Device d) { return TensorOptions().device(d); }

}  // namespace lz
