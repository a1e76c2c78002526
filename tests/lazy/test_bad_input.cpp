// Bad input at the public entry points: each call below must raise the
// named lz::Error subclass with a message naming the operator and what is
// wrong, eagerly and (with the tensors lazy) when the call is recorded,
// with the same message. The inputs tried are the table itself. Faults
// around the executable (a kernel that fails to compile) fall back and are
// counted. More error inputs live with each operator in the operator table
// (tests/op_table, run eagerly, lazily and on CUDA); the kernel cache's
// corrupt entries and unwritable directories are in
// tests/core/test_object_file_cache.cpp and test_cubin_cache.cpp.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <limits>
#include <typeinfo>

#include "lazy_test_util.h"
#include "tests/float_constants.h"

namespace {

using namespace lazy_test;

using lzt::kNaN;
using lzt::kInf;
constexpr int64_t kHuge = int64_t{1} << 40;

// The tensor as the call sees it: eager, or the same values lazy.
struct Mode {
  bool lazy;
  Tensor operator()(const Tensor& t) const { return lazy ? t.to_lazy() : t; }
};

struct BadCall {
  const char* what;
  std::function<void(const Mode&)> call;
  const char* message;  // part of the message, both modes
};

// Runs the call in both modes: the exception's type and message must be
// the same, the type E, the message containing `message`.
template <class E>
void check_rejected(const BadCall& c) {
  INFO(c.what);
  std::string messages[2];
  for (bool lazy : {false, true}) {
    try {
      c.call(Mode{lazy});
      FAIL_CHECK((lazy ? "lazy" : "eager") << ": no exception");
    } catch (const E& e) {
      messages[lazy] = e.what();
      CHECK_THAT(messages[lazy], Catch::Contains(c.message));
    } catch (const std::exception& e) {
      FAIL_CHECK((lazy ? "lazy" : "eager") << ": wrong exception type " << typeid(e).name() << ": " << e.what());
    }
  }
  CHECK(messages[0] == messages[1]);
}

template <class E>
void check_all(const std::vector<BadCall>& calls) {
  fresh_start();
  for (const BadCall& c : calls) check_rejected<E>(c);
  lz::sync_all();  // nothing bad was recorded
}

TEST_CASE("bad input: shapes that do not fit", "[lazy][bad_input]") {
  check_all<lz::ShapeError>({
      {"add [3] + [4]", [](const Mode& m) { lz::add(m(lz::ones({3})), m(lz::ones({4}))); }, "[add]"},
      {"mm [2,3] x [4,5]", [](const Mode& m) { lz::mm(m(lz::ones({2, 3})), m(lz::ones({4, 5}))); }, "[mm]"},
      {"reshape 6 elements to [4]", [](const Mode& m) { lz::reshape(m(lz::ones({6})), {4}); }, "[4]"},
      {"cat [2,3] and [2,4] along 0", [](const Mode& m) { lz::cat({m(lz::ones({2, 3})), m(lz::ones({2, 4}))}, 0); },
       "[cat]"},
      {"add_ whose result [2,3] does not fit self [3]",
       [](const Mode& m) { m(lz::ones({3})).add_(m(lz::ones({2, 3}))); }, "doesn't match the broadcast shape"},
      {"expand [3] to [2]", [](const Mode& m) { m(lz::ones({3})).expand({2}); }, "[expand]"},
      {"reshape to [-1, -1]", [](const Mode& m) { lz::reshape(m(lz::ones({4})), {-1, -1}); },
       "only one dimension can be -1"},
      {"where with a [4] condition over [3]",
       [](const Mode& m) { lz::where(m(lz::ones({4}, lz::kBool)), m(lz::ones({3})), m(lz::ones({3}))); }, "[where]"},
  });
}

TEST_CASE("bad input: dtypes an operator does not take", "[lazy][bad_input]") {
  check_all<lz::TypeError>({
      {"bitwise_and of float32", [](const Mode& m) { m(lz::ones({2})).bitwise_and(m(lz::ones({2}))); }, "[bitwise_and"},
      {"add_ of a float into an int64 self",
       [](const Mode& m) { m(lz::ones({2}, lz::kInt64)).add_(m(lz::ones({2}))); }, "int64"},
      {"masked_fill with a float mask",
       [](const Mode& m) { lz::masked_fill(m(lz::ones({2})), m(lz::ones({2})), 1); }, "bool mask"},
      {"softmax of int64", [](const Mode& m) { lz::softmax(m(lz::ones({2}, lz::kInt64)), 0); }, "[softmax"},
  });
}

TEST_CASE("bad input: dims and indices out of range", "[lazy][bad_input]") {
  check_all<lz::IndexError>({
      {"sum over dim 2 of a 2-D tensor", [](const Mode& m) { lz::sum(m(lz::ones({2, 3})), {2}); }, "[sum"},
      {"transpose(0, 5) of a 2-D tensor", [](const Mode& m) { lz::transpose(m(lz::ones({2, 3})), 0, 5); }, "[transpose]"},
      {"softmax over dim -3 of a 2-D tensor", [](const Mode& m) { lz::softmax(m(lz::ones({2, 3})), -3); }, "[softmax"},
      {"select index 10 of a dim of 3", [](const Mode& m) { lz::select(m(lz::ones({3})), 0, 10); }, "[select]"},
      {"unsqueeze(4) of a 2-D tensor", [](const Mode& m) { lz::unsqueeze(m(lz::ones({2, 3})), 4); }, "[unsqueeze]"},
      {"argmax over dim 1 of a 1-D tensor", [](const Mode& m) { lz::argmax(m(lz::ones({3})), 1); }, "[argmax]"},
  });
}

TEST_CASE("bad input: writes into an expanded view", "[lazy][bad_input]") {
  check_all<lz::ValueError>({
      {"add_ on ones([3]).expand([2,3])", [](const Mode& m) { m(lz::ones({3})).expand({2, 3}).add_(1); },
       "more than one element of the written-to tensor"},
      {"mul_ on a stride-0 column", [](const Mode& m) { m(lz::ones({2, 1})).expand({2, 4}).mul_(2); },
       "refers to a single memory location"},
  });
}

TEST_CASE("bad input: sizes whose element count overflows or is negative", "[lazy][bad_input]") {
  fresh_start();
  // Factories take no tensor, so only the eager calls; expand and reshape also lazily.
  CHECK_THROWS_WITH(lz::empty({kHuge, kHuge, kHuge}), Catch::Contains("[empty] size: [1099511627776, 1099511627776, "
                                                                     "1099511627776] has more elements than fit in int64"));
  CHECK_THROWS_AS(lz::empty({kHuge, kHuge, kHuge}), lz::ValueError);
  CHECK_THROWS_AS(lz::zeros({2, -1}), lz::ValueError);
  CHECK_THROWS_WITH(lz::zeros({2, -1}), Catch::Contains("negative dimension -1"));
  check_all<lz::ValueError>({
      {"expand to 2^40 x 2^40 x 2^40", [](const Mode& m) { m(lz::ones({1})).expand({kHuge, kHuge, kHuge}); },
       "[expand] size: [1099511627776, 1099511627776, 1099511627776] has more elements than fit in int64"},
      {"repeat by 2^40 twice", [](const Mode& m) { lz::repeat(m(lz::ones({2})), {kHuge, kHuge}); },
       "[repeat] size: [1099511627776, 2199023255552] has more elements than fit in int64"},
  });
}

TEST_CASE("bad input: NaN and infinite numbers where a finite one is needed", "[lazy][bad_input]") {
  fresh_start();
  // Tried: arange to inf and from NaN, full/fill_ of NaN and inf into integers, dropout p = NaN and 1.5.
  CHECK_THROWS_AS(lz::arange(0, kInf), lz::ValueError);
  CHECK_THROWS_WITH(lz::arange(0, kInf), Catch::Contains("[arange]") && Catch::Contains("finite"));
  CHECK_THROWS_AS(lz::arange(kNaN, 3), lz::ValueError);
  CHECK_THROWS_AS(lz::full({2}, kNaN, lz::TensorOptions(lz::kInt32)), lz::ValueError);
  CHECK_THROWS_WITH(lz::full({2}, kInf, lz::TensorOptions(lz::kInt64)), Catch::Contains("[full]"));
  check_all<lz::ValueError>({
      {"fill_ of NaN into int32", [](const Mode& m) { m(lz::zeros({2}, lz::kInt32)).fill_(kNaN); }, "[fill_] value: nan"},
      {"fill_ of -inf into uint8", [](const Mode& m) { m(lz::zeros({2}, lz::kUInt8)).fill_(-kInf); }, "[fill_] value:"},
      {"masked_fill of inf into int64",
       [](const Mode& m) { lz::masked_fill(m(lz::zeros({2}, lz::kInt64)), m(lz::ones({2}, lz::kBool)), kInf); },
       "[masked_fill] value:"},
      {"dropout with p = NaN", [](const Mode& m) { lz::dropout(m(lz::ones({2})), kNaN, true); }, "[dropout"},
      {"dropout with p = 1.5", [](const Mode& m) { lz::dropout(m(lz::ones({2})), 1.5, true); }, "[dropout"},
  });
}

TEST_CASE("bad input: a CUDA tensor where there is no CUDA", "[lazy][bad_input]") {
  if (lz::cuda::is_available()) {
    WARN("skipped: a CUDA device is present (test_cuda_emulated checks mismatched devices)");
    return;
  }
  CHECK_THROWS_AS(lz::ones({2}, lz::TensorOptions().device(lz::Device(lz::DeviceType::CUDA, 0))), lz::DeviceError);
  CHECK_THROWS_WITH(lz::ones({2}).to(lz::Device(lz::DeviceType::CUDA, 0)), Catch::Contains("CUDA unavailable"));
  CHECK_THROWS_WITH(lz::ones({2}).to_lazy().to(lz::Device(lz::DeviceType::CUDA, 0)),
                    Catch::Contains("CUDA unavailable"));
}

// Code generator failures LZ_JIT_FAULT injected, as the metrics count them.
uint64_t injected_compile_failures(const lzl::LazyMetrics& m) {
  uint64_t injected = 0;
  for (const auto& [reason, n] : m.codegen_failures) {
    if (reason.find("LZ_JIT_FAULT") != std::string::npos) injected += n;
  }
  return injected;
}

TEST_CASE("faults: a kernel that fails to compile runs as eager steps, counted", "[lazy][bad_input]") {
  fresh_start();
  SettingsGuard guard;
  lzl::Settings s = lzl::settings();
  s.jit_fault = "exp";
  s.jit_threshold = 1;
  lzl::set_settings(s);
  const Tensor x = lz::arange(0, 100000, lz::TensorOptions(lz::kFloat32)) * 1e-5;
  const Tensor lazy = lz::exp(x.to_lazy() * 2) + 1;
  check_same(lazy, lz::exp(x * 2) + 1);
  const lzl::LazyMetrics m = lzl::metrics();
  CHECK(injected_compile_failures(m) == 1);
  CHECK(m.eager_steps_total >= 2);  // mul, exp and add ran their eager kernels
  // Without the fault the same graph compiles again (the setting is part of the cache's state).
  s.jit_fault.clear();
  lzl::set_settings(s);
  lzl::reset_metrics();
  check_same(lz::exp(x.to_lazy() * 2) + 1, lz::exp(x * 2) + 1);
  CHECK(lzl::metrics().codegen_failures.empty());
  CHECK(lzl::metrics().eager_steps_total == 0);
}

TEST_CASE("faults: a failed kernel's eager steps take the views it read as index arithmetic", "[lazy][bad_input]") {
  // The slices and the transpose were folded into the kernel's loads; as
  // eager steps they are tensors again (a cat of unequal parts declined by
  // the CUDA generator did this: "value used before it is computed").
  fresh_start();
  SettingsGuard guard;
  lzl::Settings s = lzl::settings();
  s.jit_fault = "cat";
  s.jit_threshold = 1;
  lzl::set_settings(s);
  const Tensor x = lz::randn({6, 10});
  auto program = [](const Tensor& v) {
    return lz::cat({v.slice(1, 0, 7) * 2, v.slice(1, 7, 10).t().t().exp()}, 1) + 1;
  };
  check_same(program(x.to_lazy()), program(x));
  CHECK(injected_compile_failures(lzl::metrics()) == 1);
  CHECK(lzl::metrics().eager_steps_total >= 3);
}

}  // namespace
