// The code-generator registry (ir/code_generator.h): lookup by device type
// and name, the first registered as a type's default, replacement, and the
// error that lists what is registered. CUDA is used because nothing in this
// binary registers a CUDA generator (the lazy layer registers the built-in
// ones on its first compile).
#include <catch2/catch.hpp>

#include "core/error.h"
#include "ir/code_generator.h"

namespace {

using namespace lz;

class NamedGenerator final : public ir::CodeGenerator {
 public:
  explicit NamedGenerator(std::string name) : name_(std::move(name)) {}
  std::shared_ptr<const ir::CompiledCode> compile(const ir::Kernel&, int, const ir::CodegenSettings&) const override {
    throw NotImplementedError(name_ + " compiles nothing");
  }
  const std::string& name() const { return name_; }

 private:
  std::string name_;
};

const std::string& name_of(const ir::CodeGenerator& g) { return dynamic_cast<const NamedGenerator&>(g).name(); }

}  // namespace

TEST_CASE("code generators: registered per device type and name with the first as the default", "[ir]") {
  CHECK_THROWS_MATCHES(ir::code_generator(DeviceType::CUDA), NotImplementedError,
                       Catch::Matchers::Message("no code generator is registered for cuda devices (registered: none)"));
  ir::register_code_generator(DeviceType::CUDA, "first", std::make_unique<NamedGenerator>("first"));
  ir::register_code_generator(DeviceType::CUDA, "second", std::make_unique<NamedGenerator>("second"));
  CHECK(name_of(ir::code_generator(DeviceType::CUDA)) == "first");
  CHECK(name_of(ir::code_generator(DeviceType::CUDA, "second")) == "second");
  CHECK(ir::code_generator_names(DeviceType::CUDA) == std::vector<std::string>{"first", "second"});
  CHECK_THROWS_MATCHES(
      ir::code_generator(DeviceType::CUDA, "third"), NotImplementedError,
      Catch::Matchers::Message("no code generator 'third' is registered for cuda devices (registered: first, second)"));

  // Registering a name again replaces that generator and keeps its place.
  ir::register_code_generator(DeviceType::CUDA, "first", std::make_unique<NamedGenerator>("first, again"));
  CHECK(name_of(ir::code_generator(DeviceType::CUDA)) == "first, again");
  CHECK(ir::code_generator_names(DeviceType::CUDA) == std::vector<std::string>{"first", "second"});
  CHECK_THROWS_AS(ir::register_code_generator(DeviceType::CUDA, "none", nullptr), ValueError);
}

TEST_CASE("code generators: a generator that shows no source or compiles only at launch says so", "[ir]") {
  const NamedGenerator g("plain");
  ir::Kernel k;
  k.name = "fused_exp";
  CHECK_THROWS_MATCHES(g.source(k, ir::CodegenSettings{}), NotImplementedError,
                       Catch::Matchers::Message("kernel fused_exp: this code generator shows no source"));
  CHECK_THROWS_MATCHES(
      g.compile_cold(k, ir::CodegenSettings{}), NotImplementedError,
      Catch::Matchers::Message("kernel fused_exp: this code generator does not compile ahead of a launch"));
}
