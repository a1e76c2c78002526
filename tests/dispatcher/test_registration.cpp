// Declarative registration: derived in-place/out= variants, generated
// wrappers, explicit overrides, structured kernels, composites, BackendSelect,
// meta functions and schema access from boxed fallbacks.
#include <catch2/catch.hpp>

#include "core/cuda/runtime.h"
#include "core/schema_parser.h"
#include "core/warning.h"
#include "tests/dispatcher/dispatch_test_util.h"

using namespace lz;
using lz::testing::call_log;

namespace {

// A functional-only kernel: in-place and out= get generated wrappers.
Tensor scale_cpu(const Tensor& self, const Scalar& factor) {
  call_log().add("scale");
  return lz::mul(self, factor);
}
Tensor scale_inplace_explicit(const Tensor& self, const Scalar& factor) {
  call_log().add("scale_ explicit");
  Tensor s = self;
  return s.mul_(factor);
}

// A structured operator: meta + impl.
TensorMeta twice_meta(const Tensor& self) {
  LZ_CHECK(self.dim() <= 2, ShapeError, "[test::twice] self: at most 2-D, got ", self.dim(), "-D");
  return TensorMeta{SizeVec(self.sizes().begin(), self.sizes().end()), self.dtype(), self.device()};
}
void twice_impl(const Tensor& out, const Tensor& self) {
  call_log().add("twice impl");
  Tensor o = out;
  o.copy_(lz::add(self, self));
}

Tensor fake_cuda_factory(IntArrayRef size, std::optional<Device> device) {
  call_log().add("CUDA factory on " + device->str());
  return zeros(size);
}
Tensor cpu_factory(IntArrayRef size, std::optional<Device> device) {
  call_log().add("CPU factory");
  return zeros(size);
}

Tensor composite_double(const Tensor& self) { return lz::add(self, self); }
Tensor composite_triple(const Tensor& self) { return lz::add(lz::add(self, self), self); }

void recording_fallback(const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
  call_log().add("fallback:" + op.name());
  op.redispatch_boxed(ks & DispatchKeySet::below(DispatchKey::TestingOnlyMode), stack);
}

}  // namespace

TEST_CASE("derived schemas follow PyTorch's naming", "[dispatcher]") {
  const FunctionSchema add = parse_schema("add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor");
  CHECK(make_inplace_schema(add).str() ==
        "add_.Tensor(Tensor(a!) self, Tensor other, *, Scalar alpha=1) -> Tensor(a!)");
  CHECK(make_out_schema(add).str() ==
        "add.out(Tensor self, Tensor other, *, Scalar alpha=1, Tensor(a!) out) -> Tensor(a!)");
  const FunctionSchema neg = parse_schema("neg(Tensor self) -> Tensor");
  CHECK(make_out_schema(neg).str() == "neg.out(Tensor self, *, Tensor(a!) out) -> Tensor(a!)");
  const FunctionSchema max = parse_schema("max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  CHECK(make_out_schema(max).str() ==
        "max.dim_out(Tensor self, int dim, bool keepdim=False, *, Tensor(a!) values, "
        "Tensor(b!) indices) -> (Tensor(a!) values, Tensor(b!) indices)");
  REQUIRE_THROWS_AS(make_inplace_schema(max), SchemaError);
  REQUIRE_THROWS_AS(make_inplace_schema(parse_schema("f(int x) -> Tensor")), SchemaError);

  // The real operators were registered with these derived names.
  for (const char* name : {"add_.Tensor", "add.out", "neg_", "neg.out", "sum.dim_IntList_out"}) {
    INFO(name);
    CHECK(Dispatcher::singleton().find(name).has_value());
  }
  const OperatorHandle add_ = Dispatcher::singleton().find_or_throw("add_.Tensor");
  CHECK(add_.has_tag(Tag::Inplace));
  CHECK(add_.has_tag(Tag::Pointwise));
  CHECK(add_.functional_variant()->name() == "add.Tensor");
  CHECK(Dispatcher::singleton().find_or_throw("add.Tensor").out_variant()->name() == "add.out");
}

TEST_CASE("a functional kernel gets generated in-place and out= wrappers", "[dispatcher]") {
  call_log().calls.clear();
  Library lib("generated");
  const OperatorHandle scale =
      lib.def("test::scale(Tensor self, Scalar factor) -> Tensor", Variants::InplaceAndOut)
          .tags(Tag::Pointwise)
          .kernel(DispatchKey::CPU, &scale_cpu)
          .handle();
  CHECK(scale.inplace_variant()->name() == "test::scale_");
  OperatorHandle scale_ = Dispatcher::singleton().find_or_throw("test::scale_");
  OperatorHandle scale_out = Dispatcher::singleton().find_or_throw("test::scale.out");
  CHECK(scale_.schema().str() == "test::scale_(Tensor(a!) self, Scalar factor) -> Tensor(a!)");
  CHECK(scale_out.schema().str() ==
        "test::scale.out(Tensor self, Scalar factor, *, Tensor(a!) out) -> Tensor(a!)");
  CHECK(scale_out.dump_dispatch_table().find("CPU: generated kernel") != std::string::npos);

  Tensor x = tensor({1.0, 2.0});
  const uint64_t version = x._version();
  Tensor returned = scale_.typed<Tensor(const Tensor&, const Scalar&)>().call(x, 3);
  CHECK(returned.is_same(x));
  CHECK(equal(x, tensor({3.0, 6.0})));
  CHECK(x._version() > version);

  Tensor out = empty({0});
  scale_out.typed<Tensor(const Tensor&, const Scalar&, const Tensor&)>().call(tensor({1.0, -1.0}), 2, out);
  CHECK(equal(out, tensor({2.0, -2.0})));
  CHECK(call_log().calls == std::vector<std::string>{"scale", "scale"});

  SECTION("generated wrappers check like structured ones") {
    Tensor ints = tensor({1, 2});
    REQUIRE_THROWS_WITH(scale_.typed<Tensor(const Tensor&, const Scalar&)>().call(ints, 0.5),
                        Catch::Contains("[test::scale_]") && Catch::Contains("can't be cast"));
    // A wrongly sized out is resized, with a warning naming the operator.
    std::vector<std::string> warnings;
    const WarningHandlerGuard capture([&](std::string_view m) { warnings.emplace_back(m); });
    Tensor wrong = zeros({3});
    scale_out.typed<Tensor(const Tensor&, const Scalar&, const Tensor&)>().call(tensor({1.0}), 2, wrong);
    CHECK(equal(wrong, tensor({2.0})));
    REQUIRE(warnings.size() == 1);
    CHECK_THAT(warnings[0], Catch::Contains("[test::scale") && Catch::Contains("was resized"));
  }
}

TEST_CASE("an explicit kernel beats the generated one, in either order", "[dispatcher]") {
  call_log().calls.clear();
  Library lib("explicit");
  lib.def("test::scale(Tensor self, Scalar factor) -> Tensor", Variants::InplaceAndOut)
      .kernel(DispatchKey::CPU, &scale_cpu);
  auto scale_ = Dispatcher::singleton().find_typed<Tensor(const Tensor&, const Scalar&)>("test::scale_");
  Tensor x = tensor({1.0});
  {
    Library overrides("explicit_override");
    overrides.impl("test::scale_", DispatchKey::CPU, &scale_inplace_explicit);
    scale_.call(x, 2);
    CHECK(call_log().calls == std::vector<std::string>{"scale_ explicit"});
  }
  // Dropping the explicit kernel brings the generated one back.
  scale_.call(x, 2);
  CHECK(call_log().calls.back() == "scale");
  CHECK(x.item<double>() == 4.0);
}

TEST_CASE("structured kernels generate typed functional, in-place and out= kernels", "[dispatcher]") {
  call_log().calls.clear();
  Library lib("structured");
  lib.def_structured<&twice_meta>("test::twice(Tensor self) -> Tensor")
      .impl<&twice_impl>(DispatchKey::CPU);
  Dispatcher& d = Dispatcher::singleton();
  const OperatorHandle twice = d.find_or_throw("test::twice");
  for (const char* name : {"test::twice", "test::twice_", "test::twice.out"}) {
    INFO(name);
    CHECK(d.find_or_throw(name).dump_dispatch_table().find("[unboxed]") != std::string::npos);
    CHECK(d.find_or_throw(name).has_meta());
  }
  auto f = twice.typed<Tensor(const Tensor&)>();
  CHECK(equal(f.call(tensor({1, 2})), tensor({2, 4})));

  Tensor x = tensor({1.0, 5.0});
  d.find_typed<Tensor(const Tensor&)>("test::twice_").call(x);
  CHECK(equal(x, tensor({2.0, 10.0})));

  // out= of a wider dtype: computed in the result dtype, then cast.
  Tensor out = empty({2}, kFloat64);
  d.find_typed<Tensor(const Tensor&, const Tensor&)>("test::twice.out").call(tensor({1.5f, 2.0f}), out);
  CHECK(out.dtype() == kFloat64);
  CHECK(equal(out, tensor({3.0, 4.0}, kFloat64)));

  // The meta function's checks run before any impl.
  const size_t calls = call_log().calls.size();
  REQUIRE_THROWS_WITH(f.call(zeros({1, 1, 1})), Catch::Contains("[test::twice] self: at most 2-D"));
  CHECK(call_log().calls.size() == calls);
}

TEST_CASE("meta functions are reachable from the operator handle", "[dispatcher]") {
  const OperatorHandle add = Dispatcher::singleton().find_or_throw("add.Tensor");
  Stack stack{IValue(zeros({3, 1}, kInt32)), IValue(zeros({4}, kFloat16)), IValue(Scalar(1))};
  const MetaList metas = add.meta(stack);
  REQUIRE(metas.size() == 1);
  CHECK(metas[0].sizes == SizeVec{3, 4});
  CHECK(metas[0].dtype == kFloat16);
  CHECK(stack.size() == 3);  // meta leaves the stack alone

  // The out= variant's meta ignores the out argument.
  const OperatorHandle add_out = Dispatcher::singleton().find_or_throw("add.out");
  stack.emplace_back(empty({0}));
  CHECK(add_out.meta(stack)[0].sizes == SizeVec{3, 4});

  Stack bad{IValue(zeros({3})), IValue(zeros({4})), IValue(Scalar(1))};
  REQUIRE_THROWS_AS(add.meta(bad), ShapeError);
  REQUIRE_THROWS_WITH(add.meta(bad), Catch::Contains("[add] self shape [3] and other shape [4] are not broadcastable"));

  const OperatorHandle equal_op = Dispatcher::singleton().find_or_throw("equal");
  CHECK_FALSE(equal_op.has_meta());
  CHECK(equal_op.has_tag(Tag::NonTensorResult));
}

TEST_CASE("a boxed fallback sees the parsed schema of every operator", "[dispatcher]") {
  struct Seen {
    std::string name, overload;
    std::vector<std::string> args;
    bool first_is_write = false;
    bool kwarg_alpha = false;
    size_t returns = 0;
    bool return_aliases_self = false;
  };
  static std::vector<Seen> seen;
  seen.clear();
  Library lib("schema_fallback");
  lib.fallback(DispatchKey::TestingOnlyMode,
               KernelFunction::from_boxed([](const OperatorHandle& op, DispatchKeySet ks, Stack* stack) {
                 const FunctionSchema& s = op.schema();
                 Seen x{s.name(), s.overload_name(), {}, false, false, s.returns().size(), false};
                 for (const Argument& a : s.arguments()) x.args.push_back(a.name);
                 x.first_is_write = s.arguments()[0].is_write();
                 if (auto i = s.argument_index("alpha")) x.kwarg_alpha = s.arguments()[*i].kwarg_only;
                 x.return_aliases_self = s.returns()[0].alias == s.arguments()[0].alias;
                 seen.push_back(x);
                 op.redispatch_boxed(ks & DispatchKeySet::below(DispatchKey::TestingOnlyMode), stack);
               }));
  Tensor x = tensor({1.0, 2.0});
  const Tensor ones_ = tensor({1.0, 1.0});
  {
    IncludeDispatchKeyGuard mode(DispatchKey::TestingOnlyMode);
    x.add_(ones_, 2);
  }
  CHECK(equal(x, tensor({3.0, 4.0})));
  REQUIRE_FALSE(seen.empty());
  const Seen& first = seen.front();
  CHECK(first.name == "add_");
  CHECK(first.overload == "Tensor");
  CHECK(first.args == std::vector<std::string>{"self", "other", "alpha"});
  CHECK(first.first_is_write);
  CHECK(first.kwarg_alpha);
  CHECK(first.returns == 1);
  CHECK(first.return_aliases_self);
}

TEST_CASE("composite kernels take precedence over backend fallbacks", "[dispatcher]") {
  call_log().calls.clear();
  Library lib("composite");
  lib.def("test::double_it(Tensor self) -> Tensor").composite(&composite_double);
  lib.fallback(DispatchKey::TestingOnlyMode, KernelFunction::from_boxed(&recording_fallback));
  const OperatorHandle op = Dispatcher::singleton().find_or_throw("test::double_it");
  CHECK(op.has_tag(Tag::Composite));
  Tensor r;
  const Tensor two = tensor({2.0});
  {
    IncludeDispatchKeyGuard mode(DispatchKey::TestingOnlyMode);
    r = op.typed<Tensor(const Tensor&)>().call(two);
  }
  CHECK(r.item<double>() == 4.0);
  // The mode saw the operator the composite is made of, not the composite.
  CHECK(call_log().calls == std::vector<std::string>{"fallback:add.Tensor"});
}

TEST_CASE("the in-place variant of a composite is the functional and copy_", "[dispatcher]") {
  call_log().calls.clear();
  Library lib("composite_inplace");
  lib.def("test::triple(Tensor self) -> Tensor", Variants::Inplace).composite(&composite_triple);
  lib.fallback(DispatchKey::TestingOnlyMode, KernelFunction::from_boxed(&recording_fallback));
  const OperatorHandle inplace = Dispatcher::singleton().find_or_throw("test::triple_");
  CHECK(inplace.has_tag(Tag::Composite));
  Tensor x = tensor({1.0, 2.0});
  {
    IncludeDispatchKeyGuard mode(DispatchKey::TestingOnlyMode);
    Stack stack{IValue(x)};
    inplace.call_boxed(&stack);
    REQUIRE(stack.size() == 1);
    CHECK(stack[0].to_tensor().is_same(x));
  }
  CHECK(equal(x, tensor({3.0, 6.0})));
  // The mode saw the composite's operators and the write into self.
  CHECK(call_log().calls ==
        std::vector<std::string>{"fallback:add.Tensor", "fallback:add.Tensor", "fallback:copy_"});
}

TEST_CASE("BackendSelect picks a factory's backend from its device argument", "[dispatcher]") {
  call_log().calls.clear();
  Library lib("backend_select");
  const OperatorHandle op = lib.def("test::make(int[] size, *, Device? device=None) -> Tensor")
                                .tags(Tag::Factory)
                                .kernel(DispatchKey::CPU, &cpu_factory)
                                .kernel(DispatchKey::CUDA, &fake_cuda_factory)
                                .handle();
  CHECK(op.dispatch_mask().has(DispatchKey::BackendSelect));
  auto make = op.typed<Tensor(IntArrayRef, std::optional<Device>)>();
  make.call({2}, std::nullopt);
  make.call({2}, Device("cpu"));
  make.call({2}, Device("cuda:1"));
  CHECK(call_log().calls ==
        std::vector<std::string>{"CPU factory", "CPU factory", "CUDA factory on cuda:1"});

  SECTION("a factory without a device argument cannot be tagged Factory") {
    Library bad("backend_select_bad");
    auto builder = bad.def("test::make_bad(int[] size) -> Tensor");
    REQUIRE_THROWS_WITH(builder.tags(Tag::Factory), Catch::Contains("needs a 'Device? device' argument"));
  }
  SECTION("real factories on CUDA are made on the CPU and moved, or say why CUDA is unavailable") {
    if (cuda::is_available()) {
      CHECK(zeros({2}, Device("cuda")).is_cuda());
    } else {
      REQUIRE_THROWS_AS(zeros({2}, Device("cuda")), DeviceError);
      REQUIRE_THROWS_WITH(zeros({2}, Device("cuda")), Catch::Contains("CUDA unavailable"));
    }
  }
}

TEST_CASE("registration errors are clear and registrations are undone", "[dispatcher]") {
  Dispatcher& d = Dispatcher::singleton();
  {
    Library lib("lifetime");
    lib.def("test::temp(Tensor self) -> Tensor").kernel(DispatchKey::CPU, &composite_double);
    CHECK(d.find("test::temp").has_value());
    REQUIRE_THROWS_WITH(lib.def("test::temp(Tensor self) -> Tensor"), Catch::Contains("already registered"));
    REQUIRE_THROWS_WITH(lib.impl("test::temp", DispatchKey::CPU, &composite_double),
                        Catch::Contains("a kernel for dispatch key CPU is already registered"));
    REQUIRE_THROWS_AS(lib.def("test::broken(Tensor self -> Tensor"), SchemaError);
  }
  CHECK_FALSE(d.find("test::temp").has_value());
  REQUIRE_THROWS_AS(d.find_or_throw("test::temp"), NotImplementedError);
  REQUIRE_THROWS_WITH(d.find_or_throw("no_such_op"), Catch::Contains("'no_such_op' is not registered"));
}
