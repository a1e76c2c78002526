#include "passes/pass_manager.h"

#include <string>

#include "core/error.h"
#include "ir/verifier.h"
#include "passes/canonicalize.h"

namespace lz::passes {
namespace {

struct PassFactory {
  std::string_view name;
  std::unique_ptr<Pass> (*make)();
};

// Every pass make_pass knows, in the order error messages list them.
constexpr PassFactory kPasses[] = {
    {"dce", &make_dce_pass},           {"cse", &make_cse_pass},   {"fold", &make_fold_pass},
    {"simplify", &make_simplify_pass}, {"views", &make_views_pass},
};

// Simplify and views expose chains the others clean up: fold then sees the
// simplified operands, CSE merges what they made equal, DCE drops the rest.
constexpr std::string_view kDefaultPipeline = "simplify,views,fold,cse,dce";

std::string_view strip(std::string_view s) {
  const size_t b = s.find_first_not_of(" \t\n");
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(" \t\n") - b + 1);
}

// The comma-separated pieces of `spec`, whitespace stripped.
std::vector<std::string_view> split_names(std::string_view spec) {
  std::vector<std::string_view> names;
  while (true) {
    const size_t comma = spec.find(',');
    names.push_back(strip(spec.substr(0, comma)));
    if (comma == std::string_view::npos) return names;
    spec.remove_prefix(comma + 1);
  }
}

}  // namespace

PassManager& PassManager::add(std::unique_ptr<Pass> pass) {
  LZ_INTERNAL_ASSERT(pass != nullptr, "PassManager::add: null pass");
  passes_.push_back(std::move(pass));
  return *this;
}

std::vector<std::string_view> PassManager::pass_names() const {
  std::vector<std::string_view> names;
  names.reserve(passes_.size());
  for (const auto& p : passes_) names.push_back(p->name());
  return names;
}

void PassManager::run(Program& p) {
  stats_.clear();
  stats_.reserve(passes_.size());
  for (const auto& pass : passes_) {
    PassStat& stat = stats_.emplace_back();
    stat.name = std::string(pass->name());
    stat.nodes_before = p.graph.num_nodes();
    const auto start = std::chrono::steady_clock::now();
    try {
      stat.changed = pass->run(p);
    } catch (const InternalError& e) {
      LZ_FAIL(InternalError, "pass '", pass->name(), "' failed: ", e.what());
    }
    stat.time = std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start);
    stat.nodes_after = p.graph.num_nodes();
    if (verify_) {
      // A broken rewrite is reported here, naming the pass, not as a wrong
      // answer (or a crash) several passes later.
      try {
        ir::verify_graph(p.graph, p.outputs);
      } catch (const InternalError& e) {
        LZ_FAIL(InternalError, "pass '", pass->name(), "' produced an invalid graph: ", e.what());
      }
      LZ_CHECK(p.origin.empty() || p.origin.size() == p.graph.num_values(), InternalError, "pass '",
               pass->name(), "' produced an origin of ", p.origin.size(), " entries for ",
               p.graph.num_values(), " values");
    }
    if (dump_) dump_(pass->name(), p);
  }
}

std::unique_ptr<Pass> make_pass(std::string_view name) {
  for (const PassFactory& f : kPasses) {
    if (f.name == name) return f.make();
  }
  std::string known;
  for (const PassFactory& f : kPasses) known += (known.empty() ? "" : ", ") + std::string(f.name);
  LZ_FAIL(ValueError, "unknown graph pass '", name, "'; known passes: ", known,
          " (or 'default' in a pipeline)");
}

PassManager make_pipeline(std::string_view spec) {
  PassManager pm;
  // No passes: canonicalisation disabled.
  if (strip(spec).empty() || strip(spec) == "none") return pm;
  for (const std::string_view name : split_names(spec)) {
    LZ_CHECK(!name.empty(), ValueError, "pass pipeline '", spec, "': empty pass name");
    if (name == "default") {
      for (const std::string_view d : split_names(kDefaultPipeline)) pm.add(make_pass(d));
    } else {
      pm.add(make_pass(name));
    }
  }
  return pm;
}

std::string_view default_pipeline_spec() { return kDefaultPipeline; }

}  // namespace lz::passes
