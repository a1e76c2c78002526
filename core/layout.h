// Layout and memory-format tags carried by factory and copy operators.
#pragma once

#include <cstdint>
#include <ostream>

namespace lz {

// Only dense strided tensors exist; the tag keeps libtorch's signatures.
enum class Layout : int8_t { Strided };
inline constexpr Layout kStrided = Layout::Strided;

// Contiguous: row-major. Preserve: keep the input's dense stride order.
enum class MemoryFormat : int8_t { Contiguous, Preserve };

inline std::ostream& operator<<(std::ostream& os, Layout) { return os << "strided"; }
inline std::ostream& operator<<(std::ostream& os, MemoryFormat m) {
  return os << (m == MemoryFormat::Contiguous ? "contiguous_format" : "preserve_format");
}

}  // namespace lz
