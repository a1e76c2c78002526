#include "ir/code_generator.h"

#include <mutex>
#include <utility>

#include "absl/strings/str_join.h"
#include "core/error.h"

namespace lz::ir {

namespace {

struct Registered {
  DeviceType type;
  std::string name;
  std::unique_ptr<CodeGenerator> generator;
};

struct Registry {
  std::mutex mutex;
  std::vector<Registered> generators;  // in registration order
};

Registry& registry() {
  static Registry* r = new Registry();  // never destroyed: compiled code may outlive static destruction
  return *r;
}

}  // namespace

GeneratedSource CodeGenerator::source(const Kernel& k, const CodegenSettings& /*settings*/) const {
  LZ_FAIL(NotImplementedError, "kernel ", k.name, ": this code generator shows no source");
}

ColdCompile CodeGenerator::compile_cold(const Kernel& k, const CodegenSettings& /*settings*/) const {
  LZ_FAIL(NotImplementedError, "kernel ", k.name, ": this code generator does not compile ahead of a launch");
}

void register_code_generator(DeviceType type, std::string_view name, std::unique_ptr<CodeGenerator> generator) {
  LZ_CHECK(generator != nullptr, ValueError, "register_code_generator: no generator given for '", name, "'");
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (Registered& g : r.generators) {
    if (g.type == type && g.name == name) {
      g.generator = std::move(generator);
      return;
    }
  }
  r.generators.push_back({type, std::string(name), std::move(generator)});
}

const CodeGenerator& code_generator(DeviceType type, std::string_view name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  for (const Registered& g : r.generators) {
    if (g.type == type && (name.empty() || g.name == name)) return *g.generator;
  }
  std::vector<std::string> names;
  for (const Registered& g : r.generators) {
    if (g.type == type) names.push_back(g.name);
  }
  LZ_FAIL(NotImplementedError, "no code generator ", name.empty() ? "" : "'" + std::string(name) + "' ",
          "is registered for ", to_string(type), " devices (registered: ",
          names.empty() ? std::string("none") : absl::StrJoin(names, ", "), ")");
}

std::vector<std::string> code_generator_names(DeviceType type) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  std::vector<std::string> names;
  for (const Registered& g : r.generators) {
    if (g.type == type) names.push_back(g.name);
  }
  return names;
}

}  // namespace lz::ir
