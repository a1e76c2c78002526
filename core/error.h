// Errors: user errors (bad shapes, dtypes, dims, schemas) throw a typed
// exception whose message names the operator, the argument and the offending
// shapes/dtypes; internal bugs go through LZ_INTERNAL_ASSERT.
//
//   LZ_CHECK(a.dim() == 2, ShapeError, "[mm] self: expected 2-D, got ", a.sizes());
//   LZ_INTERNAL_ASSERT(ptr != nullptr, "storage without data");
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace lz {

// Base of every exception Lazuli throws (the RuntimeError of PyTorch).
class Error : public std::runtime_error {
 public:
  explicit Error(const std::string& msg) : std::runtime_error(msg) {}
};

// Shapes that do not broadcast, sizes that do not match, bad reshapes.
class ShapeError : public Error {
 public:
  using Error::Error;
};
// A dtype an operator does not support, or a result that cannot be cast.
class TypeError : public Error {
 public:
  using Error::Error;
};
// A dim or an index out of range.
class IndexError : public Error {
 public:
  using Error::Error;
};
// An argument value that is not allowed (negative size, NaN where finite needed).
class ValueError : public Error {
 public:
  using Error::Error;
};
// No kernel for this operator on this dispatch key / device.
class NotImplementedError : public Error {
 public:
  using Error::Error;
};
// Mismatched devices, or a device that is not available.
class DeviceError : public Error {
 public:
  using Error::Error;
};
// A function schema that does not parse, or a kernel that does not match its schema.
class SchemaError : public Error {
 public:
  using Error::Error;
};
// The allocator could not get memory from the system.
class OutOfMemoryError : public Error {
 public:
  using Error::Error;
};
// A bug in Lazuli itself: an invariant did not hold.
class InternalError : public Error {
 public:
  using Error::Error;
};

namespace detail {

template <class... Parts>
std::string str_cat(const Parts&... parts) {
  std::ostringstream os;
  (os << ... << parts);
  return os.str();
}

[[noreturn]] void throw_internal(const char* file, int line, const char* cond,
                                 const std::string& msg);

}  // namespace detail
}  // namespace lz

// User error: throws `lz::Kind` with the streamed message when `cond` is false.
#define LZ_CHECK(cond, Kind, ...)                             \
  do {                                                        \
    if (!(cond)) [[unlikely]] {                               \
      throw ::lz::Kind(::lz::detail::str_cat(__VA_ARGS__));   \
    }                                                         \
  } while (0)

// Unconditional user error.
#define LZ_FAIL(Kind, ...) throw ::lz::Kind(::lz::detail::str_cat(__VA_ARGS__))

// Internal invariant: a failure is a bug in Lazuli, reported with file and line.
#define LZ_INTERNAL_ASSERT(cond, ...)                                        \
  do {                                                                       \
    if (!(cond)) [[unlikely]] {                                              \
      ::lz::detail::throw_internal(__FILE__, __LINE__, #cond,                \
                                   ::lz::detail::str_cat(__VA_ARGS__));   \
    }                                                                        \
  } while (0)
