#include "core/warning.h"

#include <iostream>
#include <mutex>

namespace lz {

namespace {

std::mutex& handler_mutex() {
  static std::mutex m;
  return m;
}

WarningHandler& current_handler() {
  static WarningHandler h;
  return h;
}

}  // namespace

WarningHandler set_warning_handler(WarningHandler handler) {
  std::lock_guard<std::mutex> lock(handler_mutex());
  WarningHandler previous = std::move(current_handler());
  current_handler() = std::move(handler);
  return previous;
}

void warn_message(std::string_view message) {
  std::lock_guard<std::mutex> lock(handler_mutex());
  if (current_handler()) {
    current_handler()(message);
  } else {
    std::cerr << "[lazuli] Warning: " << message << '\n';
  }
}

}  // namespace lz
