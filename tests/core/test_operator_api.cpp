// The generated public API (scripts/gen_operator_api.py) against the
// registered kernels: a public call reaches every unboxed kernel directly,
// which needs the kernel's C++ type to be exactly the call's. A kernel
// written with other types (std::optional<Scalar> by value where the API
// passes const std::optional<Scalar>&) still runs, but boxed: slower, and
// silently so without this test.
#include <catch2/catch.hpp>

#include <lazuli/lazuli.h>

#include "core/dispatcher.h"
#include "core/operator_api.h"
#include "core/operator_entry.h"

namespace {

TEST_CASE("operator api: one call signature per declared operator, in declaration order", "[core]") {
  const std::span<const lz::ApiCallSignature> signatures = lz::api_call_signatures();
  REQUIRE(signatures.size() == lz::kNumOpIds);
  for (size_t k = 0; k < signatures.size(); ++k) {
    INFO(lz::op_name(static_cast<lz::OpId>(k)));
    CHECK(signatures[k].op == static_cast<lz::OpId>(k));
    CHECK(signatures[k].tag != nullptr);
  }
}

TEST_CASE("operator api: every unboxed kernel has the C++ type the public API calls it with", "[core]") {
  size_t unboxed = 0;
  for (const lz::ApiCallSignature& s : lz::api_call_signatures()) {
    const lz::OperatorEntry& entry = lz::Dispatcher::singleton().find(s.op).entry();
    for (size_t k = 0; k < lz::kNumDispatchKeys; ++k) {
      const lz::KernelFunction& kernel = entry.dispatch_table[k];
      if (!kernel.has_unboxed()) continue;
      ++unboxed;
      INFO(entry.name << " for " << static_cast<lz::DispatchKey>(k) << ": the API calls "
                      << s.signature);
      CHECK(kernel.unboxed_signature() == s.tag);
    }
  }
  // The check above is not vacuous: the CPU kernels are unboxed.
  CHECK(unboxed >= 200);
}

}  // namespace
