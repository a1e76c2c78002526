// main() of every Catch2 test binary but test_cuda_real (its own main adds
// the skip without a GPU). Catch2's implementation is tests/catch_session.cpp.
#include <catch2/catch.hpp>

#include "catch_run.h"

int main(int argc, char** argv) { return lzt::run_catch(argc, argv); }

// In every binary: its test cases run under -w NoAssertions.
TEST_CASE("this binary fails a test case that checks nothing", "[catch]") {
  CHECK(Catch::getCurrentContext().getConfig()->warnAboutMissingAssertions());
}
