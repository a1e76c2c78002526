// Boxed <-> unboxed calls in both directions, over every argument type of
// the boxed calling convention, and signature checks against the schema.
#include <catch2/catch.hpp>

#include <sstream>

#include "tests/dispatcher/dispatch_test_util.h"

using namespace lz;
using lz::testing::call_log;

namespace {

constexpr const char* kEverythingSchema =
    "test::everything(Tensor self, Tensor? maybe, Tensor[] list, Scalar s, int i, float f, "
    "bool b, int[] ints, int[2] pair, ScalarType dtype, Device device, Layout layout, "
    "MemoryFormat fmt, str name, Generator? gen, int? opt_int, ScalarType? opt_dtype, "
    "Tensor?[] holes) -> (Tensor, Tensor)";

using EverythingSig = std::tuple<Tensor, Tensor>(
    const Tensor&, const std::optional<Tensor>&, TensorList, const Scalar&, int64_t, double, bool,
    IntArrayRef, IntArrayRef, ScalarType, Device, Layout, MemoryFormat, std::string_view,
    std::optional<Generator>, std::optional<int64_t>, std::optional<ScalarType>,
    const std::vector<std::optional<Tensor>>&);

// Renders the arguments so both calling directions can be compared as text.
std::tuple<Tensor, Tensor> everything_kernel(
    const Tensor& self, const std::optional<Tensor>& maybe, TensorList list, const Scalar& s,
    int64_t i, double f, bool b, IntArrayRef ints, IntArrayRef pair, ScalarType dtype,
    Device device, Layout layout, MemoryFormat fmt, std::string_view name,
    std::optional<Generator> gen, std::optional<int64_t> opt_int,
    std::optional<ScalarType> opt_dtype, const std::vector<std::optional<Tensor>>& holes) {
  std::ostringstream os;
  os << shape_str(self.sizes()) << " maybe=" << (maybe ? shape_str(maybe->sizes()) : "None")
     << " list=" << list.size() << " s=" << s << " i=" << i << " f=" << f << " b=" << b
     << " ints=" << shape_str(ints) << " pair=" << shape_str(pair) << " dtype=" << dtype
     << " device=" << device << " layout=" << layout << " fmt=" << fmt << " name=" << name
     << " gen=" << (gen ? std::to_string(gen->seed()) : "None")
     << " opt_int=" << (opt_int ? std::to_string(*opt_int) : "None")
     << " opt_dtype=" << (opt_dtype ? std::string(to_string(*opt_dtype)) : "None")
     << " holes=" << holes.size() << (holes.size() > 1 && !holes[1] ? "(1 None)" : "");
  call_log().add(os.str());
  return {self, list.empty() ? self : list[0]};
}

const std::string kExpected =
    "[2, 3] maybe=None list=2 s=2.5 i=-7 f=0.25 b=1 ints=[1, 2, 3] pair=[4, 5] dtype=int32 "
    "device=cuda:1 layout=strided fmt=contiguous_format name=tanh gen=42 opt_int=9 "
    "opt_dtype=None holes=2(1 None)";

Stack everything_stack(const Tensor& a, const Tensor& b) {
  Stack stack;
  stack.emplace_back(a);
  stack.emplace_back(std::nullopt);
  stack.emplace_back(std::vector<Tensor>{b, a});
  stack.emplace_back(Scalar(2.5));
  stack.emplace_back(int64_t{-7});
  stack.emplace_back(0.25);
  stack.emplace_back(true);
  stack.emplace_back(std::vector<int64_t>{1, 2, 3});
  stack.emplace_back(std::vector<int64_t>{4, 5});
  stack.emplace_back(kInt32);
  stack.emplace_back(Device("cuda:1"));
  stack.emplace_back(Layout::Strided);
  stack.emplace_back(MemoryFormat::Contiguous);
  stack.emplace_back("tanh");
  stack.emplace_back(make_generator(42));
  stack.emplace_back(int64_t{9});
  stack.emplace_back(std::nullopt);
  stack.emplace_back(std::vector<std::optional<Tensor>>{a, std::nullopt});
  return stack;
}

}  // namespace

TEST_CASE("a boxed call site reaches an unboxed kernel", "[dispatcher]") {
  call_log().calls.clear();
  Library lib("boxing_unboxed_kernel");
  OperatorHandle op = lib.def(kEverythingSchema).kernel(DispatchKey::CPU, &everything_kernel).handle();
  const Tensor a = zeros({2, 3}), b = ones({4});
  Stack stack = everything_stack(a, b);
  op.call_boxed(&stack);
  REQUIRE(call_log().calls.size() == 1);
  CHECK(call_log().calls[0] == kExpected);
  REQUIRE(stack.size() == 2);  // arguments replaced by the two returns
  CHECK(stack[0].to_tensor().is_same(a));
  CHECK(stack[1].to_tensor().is_same(b));
}

TEST_CASE("an unboxed call site reaches a boxed kernel", "[dispatcher]") {
  call_log().calls.clear();
  Library lib("boxing_boxed_kernel");
  // The boxed kernel unboxes the stack through the kernel above, so the
  // rendering proves every value crossed the boxing intact.
  OperatorHandle op =
      lib.def(kEverythingSchema)
          .boxed_kernel(DispatchKey::CPU,
                        KernelFunction::from_boxed_functor(
                            [](const OperatorHandle& h, DispatchKeySet ks, Stack* stack) {
                              CHECK(h.schema().arguments().size() == 18);
                              CHECK(stack->size() == 18);
                              KernelFunction::from_unboxed(&everything_kernel).call_boxed(h, ks, stack);
                            }))
          .handle();
  const Tensor a = zeros({2, 3}), b = ones({4});
  auto typed = op.typed<EverythingSig>();
  const std::vector<Tensor> list{b, a};
  auto [r0, r1] = typed.call(a, std::nullopt, list, 2.5, -7, 0.25, true, {1, 2, 3}, {4, 5}, kInt32,
                             Device("cuda:1"), Layout::Strided, MemoryFormat::Contiguous, "tanh",
                             make_generator(42), 9, std::nullopt,
                             std::vector<std::optional<Tensor>>{a, std::nullopt});
  REQUIRE(call_log().calls.size() == 1);
  CHECK(call_log().calls[0] == kExpected);
  CHECK(r0.is_same(a));
  CHECK(r1.is_same(b));
}

TEST_CASE("an unboxed call reaches an unboxed kernel of the same signature directly",
          "[dispatcher]") {
  call_log().calls.clear();
  Library lib("boxing_direct");
  OperatorHandle op = lib.def(kEverythingSchema).kernel(DispatchKey::CPU, &everything_kernel).handle();
  CHECK(op.dump_dispatch_table().find("CPU: kernel [unboxed]") != std::string::npos);
  const Tensor a = zeros({2, 3}), b = ones({4});
  const std::vector<Tensor> list{b, a};
  auto [r0, r1] = op.typed<EverythingSig>().call(
      a, std::nullopt, list, 2.5, -7, 0.25, true, {1, 2, 3}, {4, 5}, kInt32, Device("cuda:1"),
      Layout::Strided, MemoryFormat::Contiguous, "tanh", make_generator(42), 9, std::nullopt,
      std::vector<std::optional<Tensor>>{a, std::nullopt});
  CHECK(call_log().calls.at(0) == kExpected);
  CHECK(r1.is_same(b));
}

TEST_CASE("boxed calls of real operators replace arguments by returns", "[dispatcher]") {
  OperatorHandle add = Dispatcher::singleton().find_or_throw("add.Tensor");
  Stack stack{IValue(tensor({1.0, 2.0})), IValue(tensor({10.0, 20.0})), IValue(Scalar(2))};
  add.call_boxed(&stack);
  REQUIRE(stack.size() == 1);
  CHECK(equal(stack[0].to_tensor(), tensor({21.0, 42.0})));

  OperatorHandle item = Dispatcher::singleton().find_or_throw("item");
  Stack one{IValue(tensor({3.5}))};
  item.call_boxed(&one);
  REQUIRE(one.size() == 1);
  CHECK(one[0].to_scalar().to_double() == 3.5);
}

TEST_CASE("a kernel whose C++ signature disagrees with its schema is rejected", "[dispatcher]") {
  Library lib("boxing_mismatch");
  auto builder = lib.def("test::scaled(Tensor self, Scalar s) -> Tensor");
  Tensor (*wrong)(const Tensor&, int64_t) = [](const Tensor& t, int64_t) { return t; };
  REQUIRE_THROWS_AS(builder.kernel(DispatchKey::CPU, wrong), SchemaError);
  REQUIRE_THROWS_WITH(builder.kernel(DispatchKey::CPU, wrong),
                      Catch::Contains("argument 1 ('s') is 'int' in C++ but 'Scalar' in the schema"));
  Tensor (*too_few)(const Tensor&) = [](const Tensor& t) { return t; };
  REQUIRE_THROWS_WITH(builder.kernel(DispatchKey::CPU, too_few),
                      Catch::Contains("takes 1 arguments but the schema has 2"));
  std::tuple<Tensor, Tensor> (*two_returns)(const Tensor&, const Scalar&) =
      [](const Tensor& t, const Scalar&) { return std::make_tuple(t, t); };
  REQUIRE_THROWS_WITH(builder.kernel(DispatchKey::CPU, two_returns),
                      Catch::Contains("returns 2 values but the schema has 1"));
}

TEST_CASE("a call site whose signature disagrees with the schema is rejected", "[dispatcher]") {
  OperatorHandle add = Dispatcher::singleton().find_or_throw("add.Tensor");
  REQUIRE_THROWS_AS((add.typed<Tensor(const Tensor&, const Tensor&)>()), SchemaError);
  REQUIRE_THROWS_WITH((add.typed<Tensor(const Tensor&, const Tensor&, double)>()),
                      Catch::Contains("call site argument 2 ('alpha') is 'float' in C++ but 'Scalar'"));
  REQUIRE_NOTHROW(add.typed<Tensor(const Tensor&, const Tensor&, const Scalar&)>());
}

TEST_CASE("a boxed call with too few arguments is an error, not a crash", "[dispatcher]") {
  OperatorHandle add = Dispatcher::singleton().find_or_throw("add.Tensor");
  Stack stack{IValue(tensor({1.0}))};
  REQUIRE_THROWS_AS(add.call_boxed(&stack), ValueError);
  Stack wrong_type{IValue(tensor({1.0})), IValue(int64_t{3}), IValue(Scalar(1))};
  REQUIRE_THROWS_AS(add.call_boxed(&wrong_type), TypeError);
}

TEST_CASE("typed calls to boxed kernels nest and survive exceptions (per-thread reused stacks)", "[dispatcher]") {
  Library lib("boxing_nested");
  // test::outer(x) calls test::inner(x) from inside its boxed kernel, which
  // throws for a negative x; each keeps its own arguments.
  OperatorHandle inner =
      lib.def("test::inner(Tensor self, int depth) -> Tensor")
          .boxed_kernel(DispatchKey::CPU, KernelFunction::from_boxed_functor(
                                              [](const OperatorHandle&, DispatchKeySet, Stack* stack) {
                                                const int64_t depth = stack->back().to_int();
                                                const Tensor x = (*stack)[stack->size() - 2].to_tensor();
                                                LZ_CHECK(x.item<float>() >= 0, ValueError, "negative");
                                                stack->resize(stack->size() - 2);
                                                stack->emplace_back(x + static_cast<double>(depth));
                                              }))
          .handle();
  OperatorHandle outer =
      lib.def("test::outer(Tensor self) -> Tensor")
          .boxed_kernel(DispatchKey::CPU,
                        KernelFunction::from_boxed_functor([inner](const OperatorHandle&, DispatchKeySet, Stack* stack) {
                          const Tensor x = stack->back().to_tensor();
                          const auto typed = inner.typed<Tensor(const Tensor&, int64_t)>();
                          const Tensor y = typed.call(typed.call(x, 1), 10);
                          CHECK(stack->size() == 1);  // the nested calls used stacks of their own
                          stack->back() = IValue(y);
                        }))
          .handle();
  const auto call = outer.typed<Tensor(const Tensor&)>();
  CHECK(call.call(scalar_tensor(Scalar(1.0))).item<float>() == 12.0f);
  CHECK_THROWS_AS(call.call(scalar_tensor(Scalar(-5.0))), ValueError);
  // The stacks left by the throw are reused cleanly.
  CHECK(call.call(scalar_tensor(Scalar(2.0))).item<float>() == 13.0f);
}
