// Dispatch keys, in priority order: a call goes to the kernel of the highest
// key in its key set. Backends sit at the bottom, modes (Lazy, Autograd) above.
#pragma once

#include <cstdint>
#include <ostream>
#include <string_view>

#include "core/device.h"

namespace lz {

enum class DispatchKey : uint8_t {
  Undefined = 0,
  // Backends: kernels that compute on a device's memory.
  CPU,
  CUDA,
  TestingOnlyBackend,  // a third backend, only for dispatcher tests
  // Picks the backend of a factory function from its device argument.
  BackendSelect,
  // Records the call into the lazy graph instead of running it.
  Lazy,
  // Reserved for autograd, which will sit above Lazy.
  Autograd,
  TestingOnlyMode,  // highest priority, only for dispatcher tests
  NumKeys,
};

inline constexpr int kNumDispatchKeys = static_cast<int>(DispatchKey::NumKeys);
static_assert(kNumDispatchKeys <= 64, "DispatchKeySet is a 64-bit set");

std::string_view to_string(DispatchKey k);
std::ostream& operator<<(std::ostream& os, DispatchKey k);

// CPU -> DispatchKey::CPU, CUDA -> DispatchKey::CUDA.
DispatchKey backend_key(DeviceType type);

}  // namespace lz
