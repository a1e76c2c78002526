// Warnings (libtorch's TORCH_WARN): behaviour that is allowed but probably
// not what the caller meant, such as an out= tensor of the wrong size being
// resized. Each goes to the installed handler; the default one writes
// "[lazuli] Warning: <message>" to stderr.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>

#include "core/error.h"

namespace lz {

using WarningHandler = std::function<void(std::string_view message)>;

// Installs `handler` (nullptr: the default) and returns the one it replaces.
WarningHandler set_warning_handler(WarningHandler handler);

// Installs a handler for its lifetime (tests collect warnings with it).
class WarningHandlerGuard {
 public:
  explicit WarningHandlerGuard(WarningHandler handler) : previous_(set_warning_handler(std::move(handler))) {}
  ~WarningHandlerGuard() { set_warning_handler(std::move(previous_)); }
  WarningHandlerGuard(const WarningHandlerGuard&) = delete;
  WarningHandlerGuard& operator=(const WarningHandlerGuard&) = delete;

 private:
  WarningHandler previous_;
};

void warn_message(std::string_view message);

template <class... Parts>
void warn(const Parts&... parts) {
  warn_message(detail::str_cat(parts...));
}

}  // namespace lz
