#include <catch2/catch.hpp>

#include "core/scalar_type.h"

using namespace lz;

TEST_CASE("promote_types follows PyTorch's lattice", "[core]") {
  CHECK(promote_types(kBool, kUInt8) == kUInt8);
  CHECK(promote_types(kUInt8, kInt32) == kInt32);
  CHECK(promote_types(kInt64, kFloat16) == kFloat16);
  CHECK(promote_types(kFloat16, kBFloat16) == kFloat32);
  CHECK(promote_types(kFloat32, kFloat64) == kFloat64);
}
