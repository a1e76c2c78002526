#include "core/device.h"

#include <charconv>

#include "core/error.h"

namespace lz {

Device::Device(DeviceType type, int index) : type_(type), index_(static_cast<int16_t>(index)) {
  LZ_CHECK(index >= 0 && index < 1024, ValueError, "Device: index must be in [0, 1024), got ",
           index);
  LZ_CHECK(type != DeviceType::CPU || index == 0, ValueError,
           "Device: the CPU device has index 0, got cpu:", index);
}

Device::Device(std::string_view spec) : type_(DeviceType::CPU), index_(0) {
  std::string_view kind = spec;
  int index = 0;
  if (const size_t colon = spec.find(':'); colon != std::string_view::npos) {
    kind = spec.substr(0, colon);
    std::string_view digits = spec.substr(colon + 1);
    auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), index);
    LZ_CHECK(ec == std::errc() && end == digits.data() + digits.size() && !digits.empty(),
             ValueError, "Device: bad device string '", spec,
             "' (expected 'cpu', 'cuda' or 'cuda:N')");
  }
  if (kind == "cpu") {
    type_ = DeviceType::CPU;
  } else if (kind == "cuda") {
    type_ = DeviceType::CUDA;
  } else {
    LZ_FAIL(ValueError, "Device: bad device string '", spec,
            "' (expected 'cpu', 'cuda' or 'cuda:N')");
  }
  // Checked here as well as in Device(type, index) so the message names the string.
  LZ_CHECK(index >= 0 && index < 1024, ValueError, "Device: bad device string '", spec,
           "' (the index must be in [0, 1024))");
  *this = Device(type_, index);
}

std::string Device::str() const {
  if (type_ == DeviceType::CPU) return "cpu";
  return std::string(to_string(type_)) + ":" + std::to_string(index_);
}

std::string_view to_string(DeviceType t) { return t == DeviceType::CPU ? "cpu" : "cuda"; }
std::ostream& operator<<(std::ostream& os, DeviceType t) { return os << to_string(t); }
std::ostream& operator<<(std::ostream& os, Device d) { return os << d.str(); }

}  // namespace lz
