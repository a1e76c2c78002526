// Runs Catch2 with the options every Lazuli test binary has: a test case (or
// one GENERATE run of it) that checks nothing fails, since it could not have
// failed either (-w NoAssertions). Set here rather than on each command line
// because Catch2 2.13 takes -w only once, and CTest's name-filtered runs
// already pass `-w NoTests` (a filter that matches nothing fails).
// Defined in tests/catch_session.cpp, with Catch2's implementation.
#pragma once

namespace lzt {

int run_catch(int argc, char** argv);

}  // namespace lzt
