// Catch2's implementation (the session, reporters, matchers), compiled once for
// every test binary, and lzt::run_catch, which needs the session. No main()
// here: tests/catch_main.cpp has the common one, test_cuda_real its own
// (tests/cuda_device/cuda_real_main.cpp).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <cstdlib>

#include "catch_run.h"

namespace lzt {

int run_catch(int argc, char** argv) {
  // Kernels compile at the launch that asks for them (metrics and timings
  // as the tests expect); tests of background compiles say so in their
  // settings. LZ_JIT_ASYNC=1 runs a whole binary with background compiles.
  setenv("LZ_JIT_ASYNC", "0", /*overwrite=*/0);
  Catch::Session session;
  if (const int rc = session.applyCommandLine(argc, argv); rc != 0) return rc;
  Catch::ConfigData& config = session.configData();
  config.warnings = static_cast<Catch::WarnAbout::What>(config.warnings | Catch::WarnAbout::NoAssertions);
  return session.run();
}

}  // namespace lzt
