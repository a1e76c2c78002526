// Where a tensor's memory lives: the CPU or a CUDA device. Laziness is not a
// device: a lazy tensor keeps its real device and carries the Lazy dispatch key.
#pragma once

#include <cstdint>
#include <functional>
#include <ostream>
#include <string>
#include <string_view>

namespace lz {

enum class DeviceType : int8_t { CPU, CUDA };
inline constexpr int kNumDeviceTypes = 2;

inline constexpr DeviceType kCPU = DeviceType::CPU;
inline constexpr DeviceType kCUDA = DeviceType::CUDA;

class Device {
 public:
  // CPU has index 0 (there is one); CUDA devices are numbered from 0.
  Device(DeviceType type, int index = 0);
  // Parses "cpu", "cuda", "cuda:1"; throws ValueError on anything else.
  Device(std::string_view spec);
  Device(const char* spec) : Device(std::string_view(spec)) {}

  DeviceType type() const { return type_; }
  int index() const { return index_; }
  bool is_cpu() const { return type_ == DeviceType::CPU; }
  bool is_cuda() const { return type_ == DeviceType::CUDA; }

  std::string str() const;  // "cpu", "cuda:0"

  friend bool operator==(Device a, Device b) { return a.type_ == b.type_ && a.index_ == b.index_; }
  friend bool operator!=(Device a, Device b) { return !(a == b); }

 private:
  DeviceType type_;
  int16_t index_;
};

std::string_view to_string(DeviceType t);
std::ostream& operator<<(std::ostream& os, DeviceType t);
std::ostream& operator<<(std::ostream& os, Device d);

}  // namespace lz

template <>
struct std::hash<lz::Device> {
  size_t operator()(lz::Device d) const noexcept {
    return static_cast<size_t>(d.type()) * 65599u + static_cast<size_t>(d.index());
  }
};
