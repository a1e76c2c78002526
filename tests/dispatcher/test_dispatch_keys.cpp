// Key sets, priority order, thread-local include/exclude, fallthrough masks
// and redispatch.
#include <catch2/catch.hpp>

#include <thread>

#include "tests/dispatcher/dispatch_test_util.h"

using namespace lz;
using lz::testing::call_log;
using lz::testing::with_keys;

namespace {

Tensor kernel_cpu(const Tensor& self) {
  call_log().add("CPU");
  return self;
}
Tensor kernel_test_backend(const Tensor& self) {
  call_log().add("TestingOnlyBackend");
  return self;
}

// A boxed mode kernel that logs and hands the call to the keys below it.
void mode_fallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  call_log().add("mode:" + op.name());
  op.redispatch_boxed(ks & DispatchKeySet::below(DispatchKey::TestingOnlyMode), stack);
}

// The same, with the plain (op, stack) signature: it excludes its own key
// and calls back into the dispatcher.
void mode_fallback_plain(const OperatorHandle& op, Stack* stack) {
  call_log().add("plain-mode:" + op.name());
  ExcludeDispatchKeyGuard guard(DispatchKey::TestingOnlyMode);
  op.call_boxed(stack);
}

struct TestOp {
  Library lib{"dispatch_keys_test"};
  OperatorHandle op = lib.def("test::ident(Tensor self) -> Tensor")
                          .kernel(DispatchKey::CPU, &kernel_cpu)
                          .kernel(DispatchKey::TestingOnlyBackend, &kernel_test_backend)
                          .handle();
  TypedOperatorHandle<Tensor(const Tensor&)> typed = op.typed<Tensor(const Tensor&)>();
  TestOp() { call_log().calls.clear(); }
};

}  // namespace

TEST_CASE("DispatchKeySet is an ordered bit set", "[dispatcher]") {
  DispatchKeySet ks{DispatchKey::CPU, DispatchKey::Lazy};
  CHECK(ks.has(DispatchKey::CPU));
  CHECK(ks.has(DispatchKey::Lazy));
  CHECK_FALSE(ks.has(DispatchKey::CUDA));
  CHECK(ks.highest() == DispatchKey::Lazy);
  CHECK(ks.remove(DispatchKey::Lazy).highest() == DispatchKey::CPU);
  CHECK(DispatchKeySet().highest() == DispatchKey::Undefined);
  CHECK(DispatchKeySet(DispatchKey::Undefined).empty());
  // Priority order: Autograd > Lazy > BackendSelect > backends.
  CHECK(DispatchKeySet{DispatchKey::Autograd, DispatchKey::Lazy}.highest() == DispatchKey::Autograd);
  CHECK(DispatchKeySet{DispatchKey::BackendSelect, DispatchKey::Lazy}.highest() == DispatchKey::Lazy);
  CHECK(DispatchKeySet{DispatchKey::BackendSelect, DispatchKey::CUDA}.highest() ==
        DispatchKey::BackendSelect);
  CHECK(DispatchKeySet{DispatchKey::CUDA, DispatchKey::CPU}.highest() == DispatchKey::CUDA);
  const DispatchKeySet below_lazy = DispatchKeySet::below(DispatchKey::Lazy);
  CHECK(below_lazy.has(DispatchKey::CPU));
  CHECK(below_lazy.has(DispatchKey::BackendSelect));
  CHECK_FALSE(below_lazy.has(DispatchKey::Lazy));
  CHECK_FALSE(below_lazy.has(DispatchKey::Autograd));
  CHECK((ks | DispatchKeySet(DispatchKey::CUDA)).has(DispatchKey::CUDA));
  CHECK((ks & DispatchKeySet(DispatchKey::CPU)) == DispatchKeySet(DispatchKey::CPU));
  CHECK((ks - DispatchKeySet(DispatchKey::CPU)) == DispatchKeySet(DispatchKey::Lazy));
  std::ostringstream os;
  os << ks;
  CHECK(os.str() == "{Lazy, CPU}");
}

TEST_CASE("eager tensors carry their backend key", "[dispatcher]") {
  Tensor t = zeros({2});
  CHECK(t.key_set() == DispatchKeySet(DispatchKey::CPU));
  CHECK(backend_key(DeviceType::CUDA) == DispatchKey::CUDA);
}

TEST_CASE("the highest key of the arguments' union wins", "[dispatcher]") {
  TestOp t;
  const Tensor cpu = ones({2});
  const Tensor other = with_keys(cpu, DispatchKey::TestingOnlyBackend);
  t.typed.call(cpu);
  t.typed.call(other);
  t.typed.call(with_keys(cpu, {DispatchKey::CPU, DispatchKey::TestingOnlyBackend}));
  CHECK(call_log().calls ==
        std::vector<std::string>{"CPU", "TestingOnlyBackend", "TestingOnlyBackend"});
  CHECK(t.op.dispatch_key_for(DispatchKey::CPU) == DispatchKey::CPU);
}

TEST_CASE("thread-local include and exclude sets change the key set", "[dispatcher]") {
  TestOp t;
  const Tensor cpu = ones({2});
  {
    IncludeDispatchKeyGuard include(DispatchKey::TestingOnlyBackend);
    t.typed.call(cpu);
    {
      ExcludeDispatchKeyGuard exclude(DispatchKey::TestingOnlyBackend);
      t.typed.call(cpu);  // exclude beats include
    }
    t.typed.call(cpu);  // guard restored the previous state
  }
  t.typed.call(cpu);
  CHECK(call_log().calls ==
        std::vector<std::string>{"TestingOnlyBackend", "CPU", "TestingOnlyBackend", "CPU"});
  CHECK(tls_local_dispatch_key_set().included.empty());
  CHECK(tls_local_dispatch_key_set().excluded.empty());

  SECTION("the state is per thread") {
    IncludeDispatchKeyGuard include(DispatchKey::TestingOnlyBackend);
    bool other_thread_clean = false;
    std::thread([&] { other_thread_clean = tls_local_dispatch_key_set().included.empty(); }).join();
    CHECK(other_thread_clean);
  }
}

TEST_CASE("excluding every key of a call reports that nothing can run", "[dispatcher]") {
  TestOp t;
  const Tensor x = ones({1});
  ExcludeDispatchKeyGuard exclude(DispatchKey::CPU);
  REQUIRE_THROWS_AS(t.typed.call(x), NotImplementedError);
  REQUIRE_THROWS_WITH(t.typed.call(x), Catch::Contains("[test::ident] no dispatch key to run"));
}

TEST_CASE("a missing kernel names the operator, the key and the keys that do exist",
          "[dispatcher]") {
  TestOp t;
  // Real operators have no TestingOnlyBackend kernel (and no fallback there).
  const Tensor testing_keyed = with_keys(ones({1}), DispatchKey::TestingOnlyBackend);
  REQUIRE_THROWS_AS(lz::neg(testing_keyed), NotImplementedError);
  REQUIRE_THROWS_WITH(lz::neg(testing_keyed),
                      Catch::Contains("[neg] has no kernel for dispatch key TestingOnlyBackend") &&
                          Catch::Contains("kernels exist for: {") && Catch::Contains("CPU}"));
  // The CUDA key's fallback serves every operator, but only for tensors on
  // a CUDA device: a CUDA-keyed tensor in CPU memory is refused, not a crash.
  const Tensor cuda_keyed = with_keys(ones({1}), DispatchKey::CUDA);
  REQUIRE_THROWS_AS(t.typed.call(cuda_keyed), NotImplementedError);
  REQUIRE_THROWS_WITH(t.typed.call(cuda_keyed), Catch::Contains("[test::ident] has no kernel for dispatch key CUDA"));
  REQUIRE_THROWS_WITH(lz::neg(cuda_keyed), Catch::Contains("[neg] has no kernel for dispatch key CUDA"));
}

TEST_CASE("a backend fallback serves every operator without its own kernel", "[dispatcher]") {
  TestOp t;
  Library lib("mode");
  lib.fallback(DispatchKey::TestingOnlyMode, KernelFunction::from_boxed(&mode_fallback));
  const Tensor x = ones({2});
  {
    IncludeDispatchKeyGuard include(DispatchKey::TestingOnlyMode);
    t.typed.call(x);
    const Tensor y = lz::neg(x);  // a real operator goes through the same fallback
    CHECK(y.sizes() == x.sizes());
  }
  REQUIRE(call_log().calls.size() >= 3);
  CHECK(call_log().calls[0] == "mode:test::ident");
  CHECK(call_log().calls[1] == "CPU");
  CHECK(call_log().calls[2] == "mode:neg");
}

TEST_CASE("a boxed fallback with the plain signature re-enters below itself", "[dispatcher]") {
  TestOp t;
  Library lib("plain_mode");
  lib.fallback(DispatchKey::TestingOnlyMode, KernelFunction::from_boxed(&mode_fallback_plain));
  const Tensor x = ones({1});
  IncludeDispatchKeyGuard include(DispatchKey::TestingOnlyMode);
  t.typed.call(x);
  CHECK(call_log().calls == std::vector<std::string>{"plain-mode:test::ident", "CPU"});
}

TEST_CASE("fallthrough kernels are skipped through the mask, never called", "[dispatcher]") {
  TestOp t;
  Library lib("fallthrough");
  lib.fallback(DispatchKey::TestingOnlyMode, KernelFunction::from_boxed(&mode_fallback));
  // This operator opts out of the mode with a fallthrough; others still see it.
  lib.impl_kernel("test::ident", DispatchKey::TestingOnlyMode, KernelFunction::fallthrough());
  CHECK_FALSE(t.op.dispatch_mask().has(DispatchKey::TestingOnlyMode));
  CHECK(t.op.dispatch_mask().has(DispatchKey::CPU));
  CHECK_FALSE(t.op.has_kernel(DispatchKey::TestingOnlyMode));

  const Tensor x = ones({1});
  IncludeDispatchKeyGuard include(DispatchKey::TestingOnlyMode);
  CHECK(t.op.dispatch_key_for(DispatchKey::CPU) == DispatchKey::CPU);
  t.typed.call(x);
  CHECK(call_log().calls == std::vector<std::string>{"CPU"});
  lz::neg(x);
  CHECK(call_log().calls.back() == "mode:neg");
}

TEST_CASE("BackendSelect passes through, the Autograd fallback passes on calls without history", "[dispatcher]") {
  TestOp t;
  // The autograd layer's boxed fallback serves every operator at its key.
  CHECK(t.op.dispatch_mask().has(DispatchKey::Autograd));
  CHECK_FALSE(t.op.dispatch_mask().has(DispatchKey::BackendSelect));
  t.typed.call(with_keys(ones({1}), {DispatchKey::Autograd, DispatchKey::CPU}));
  CHECK(call_log().calls == std::vector<std::string>{"CPU"});
}

TEST_CASE("typed redispatch continues below the current key", "[dispatcher]") {
  TestOp t;
  const Tensor both = with_keys(ones({1}), {DispatchKey::CPU, DispatchKey::TestingOnlyBackend});
  t.typed.redispatch(DispatchKeySet::below(DispatchKey::TestingOnlyBackend) & both.key_set(), both);
  CHECK(call_log().calls == std::vector<std::string>{"CPU"});
}

TEST_CASE("undefined tensor arguments are a ValueError naming the argument", "[dispatcher]") {
  TestOp t;
  const Tensor undefined;
  REQUIRE_THROWS_AS(t.typed.call(undefined), ValueError);
  REQUIRE_THROWS_WITH(t.typed.call(undefined), Catch::Contains("[test::ident] self: expected a defined tensor"));
  REQUIRE_THROWS_WITH(lz::neg(undefined), Catch::Contains("[neg] self: expected a defined tensor"));
  Stack stack{IValue(undefined)};
  REQUIRE_THROWS_AS(t.op.call_boxed(&stack), ValueError);
}
