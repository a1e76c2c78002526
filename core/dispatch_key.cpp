#include "core/dispatch_key.h"

#include "core/dispatch_key_set.h"

namespace lz {

std::string_view to_string(DispatchKey k) {
  switch (k) {
    case DispatchKey::Undefined: return "Undefined";
    case DispatchKey::CPU: return "CPU";
    case DispatchKey::CUDA: return "CUDA";
    case DispatchKey::TestingOnlyBackend: return "TestingOnlyBackend";
    case DispatchKey::BackendSelect: return "BackendSelect";
    case DispatchKey::Lazy: return "Lazy";
    case DispatchKey::Autograd: return "Autograd";
    case DispatchKey::TestingOnlyMode: return "TestingOnlyMode";
    case DispatchKey::NumKeys: break;
  }
  return "InvalidDispatchKey";
}

std::ostream& operator<<(std::ostream& os, DispatchKey k) { return os << to_string(k); }

DispatchKey backend_key(DeviceType type) {
  return type == DeviceType::CUDA ? DispatchKey::CUDA : DispatchKey::CPU;
}

}  // namespace lz

namespace lz {

std::ostream& operator<<(std::ostream& os, DispatchKeySet ks) {
  os << "{";
  bool first = true;
  for (int i = kNumDispatchKeys - 1; i > 0; --i) {
    const auto k = static_cast<DispatchKey>(i);
    if (!ks.has(k)) continue;
    os << (first ? "" : ", ") << k;
    first = false;
  }
  return os << "}";
}

}  // namespace lz
