// Runs Catch2 with the options every Lazuli test binary has: a test case (or
// one GENERATE run of it) that checks nothing fails, since it could not have
// failed either (-w NoAssertions). Set here rather than on each command line
// because Catch2 2.13 takes -w only once, and CTest's name-filtered runs
// already pass `-w NoTests` (a filter that matches nothing fails).
// Include after <catch2/catch.hpp> in the one file that defines main().
#pragma once

namespace lzt {

inline int run_catch(int argc, char** argv) {
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
  Catch::ConfigData& config = session.configData();
  config.warnings = static_cast<Catch::WarnAbout::What>(config.warnings | Catch::WarnAbout::NoAssertions);
  return session.run();
}

}  // namespace lzt
