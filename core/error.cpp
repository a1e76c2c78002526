#include "core/error.h"

namespace lz::detail {

void throw_internal(const char* file, int line, const char* cond, const std::string& msg) {
  throw InternalError(str_cat("internal error (a bug in Lazuli, please report it): ", cond,
                              " failed at ", file, ":", line, msg.empty() ? "" : ": ", msg));
}

}  // namespace lz::detail
