#include <catch2/catch.hpp>
TEST_CASE("placeholder", "[dispatcher]") { CHECK(1 + 1 == 2); }
