// Force-included (-include) into every file of a fuzz build with Clang < 15
// (cmake/Sanitizers.cmake): libFuzzer comes with Clang, and Debian 12's
// Clang 14 cannot compile std::source_location, which Lazuli uses (its
// target_clones loops are off in that build: cmake/Sanitizers.cmake). Never
// seen by GCC.
#pragma once

// Clang 14 lacks __builtin_source_location, so libstdc++ 12's
// <source_location> declares nothing and core/tensor.h does not compile.
// Lazuli only stores and prints locations (file, line, function), which
// Clang 14's older builtins give.
#include <source_location>
#if defined(__clang__) && !__has_builtin(__builtin_source_location)
#include <cstdint>
namespace std {
struct source_location {
  static consteval source_location current(const char* file = __builtin_FILE(),
                                           const char* function = __builtin_FUNCTION(),
                                           uint_least32_t line = __builtin_LINE(),
                                           uint_least32_t column = __builtin_COLUMN()) noexcept {
    source_location s;
    s.file_ = file;
    s.function_ = function;
    s.line_ = line;
    s.column_ = column;
    return s;
  }
  constexpr source_location() noexcept = default;
  constexpr uint_least32_t line() const noexcept { return line_; }
  constexpr uint_least32_t column() const noexcept { return column_; }
  constexpr const char* file_name() const noexcept { return file_; }
  constexpr const char* function_name() const noexcept { return function_; }

 private:
  const char* file_ = "";
  const char* function_ = "";
  uint_least32_t line_ = 0;
  uint_least32_t column_ = 0;
};
}  // namespace std
#endif
