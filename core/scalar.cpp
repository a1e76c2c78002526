#include "core/scalar.h"

#include <charconv>
#include <cmath>
#include <limits>
#include <sstream>

#include "core/error.h"

namespace lz {

ScalarType Scalar::type() const {
  switch (kind_) {
    case Kind::Bool: return ScalarType::Bool;
    case Kind::Int: return ScalarType::Long;
    case Kind::Double: break;
  }
  return ScalarType::Double;
}

int64_t Scalar::to_long() const { return to<int64_t>(); }

Scalar Scalar::operator-() const {
  LZ_CHECK(kind_ != Kind::Bool, TypeError, "[neg] Scalar: negation of a bool scalar is not supported");
  if (kind_ == Kind::Double) return Scalar(-d_);
  return Scalar(-i_);
}

std::string Scalar::str() const {
  std::ostringstream os;
  switch (kind_) {
    case Kind::Bool: os << (i_ ? "True" : "False"); break;
    case Kind::Int: os << i_; break;
    case Kind::Double: {
      if (std::isnan(d_)) return "nan";
      if (std::isinf(d_)) return d_ > 0 ? "inf" : "-inf";
      // Shortest text that reads back to the same double; "1." keeps a whole
      // number distinct from an integer, like Python's repr.
      char buf[64];
      auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), d_);
      std::string text(buf, end);
      if (text.find_first_of(".e") == std::string::npos) text += ".";
      return text;
    }
  }
  return os.str();
}

std::ostream& operator<<(std::ostream& os, const Scalar& s) { return os << s.str(); }

namespace detail {
void throw_scalar_overflow(const Scalar& s, ScalarType target) {
  LZ_FAIL(ValueError, "Scalar: value ", s, " cannot be converted to ", target, " without overflow");
}
}  // namespace detail

}  // namespace lz
